"""Regions and the symptom of the CuTe C++ findings (F-030, F-040..F-069, F-120..F-122 of findings.toml).

A region predicate takes a counterexample's inputs (the op's neutral arguments;
``PREDICATES``, a table's ``when``); the symptom ``cpp_answer`` (``SYMPTOMS``, a table's
``answer``) is True only when the cute-cpp answer is exactly what CuTe C++ 4.2 computes there
(``oracles/cpp/model.py``, its model, typed like CuTe's integers), so a different wrong
answer in a known region is new.
"""

import layoutcheck.oracles.cpp.model as M
import layoutcheck.oracles.cpp.model as models_cpp
import layoutcheck.spec as spec
from layoutcheck.oracles.compare import compare
from layoutcheck.oracles.postconditions import is_quasi_inverse
from layoutcheck.oracles.predicates import partly_unchecked, region
from layoutcheck.oracles.reference import cute_reference
from layoutcheck.oracles.regions import (
    cute_composition_check,
    divide_divisor_not_complementable,
    divide_fails_cute_stride_divisibility,
    inner_composition,
    not_complementable_cute,
    not_injective,
    product_not_complementable,
    stride_divisibility_fails,
)

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

__all__ = []


def _ints(x, strides_only=False):
    """The integers of an argument (layouts, tilers, ints), optionally strides only."""
    if isinstance(x, LayoutBase):
        return list(leaves(x.stride)) + ([] if strides_only else list(leaves(x.shape)))
    if isinstance(x, tuple):
        return [v for e in x for v in _ints(e, strides_only)]
    if x is None or strides_only:
        return []
    return [x]


@region
def has_dynamic_integer(*inputs):
    """Some integer of the inputs is dynamic (written ``4``, not ``_4``)."""
    return any(not isinstance(v, C) for x in inputs for v in _ints(x))


@region
def has_dynamic_stride(*inputs):
    """Some stride of an input layout (tilers included) is dynamic."""
    return any(not isinstance(v, C) for x in inputs for v in _ints(x, strides_only=True))


# --- F-053..F-069 (triage of the cute-cpp fuzz gate) ------------------------------------

def same_up_to_dynamic_modes(R, E):
    """CuTe's answer R and the spec's E have the same flat modes once each top-level mode is
    coalesced and size-1 modes are dropped, except that R may split one of E's modes into
    neighbours that a runtime integer kept CuTe from merging (s d == d', one of s, d, d'
    dynamic): R differs only in unmerged modes, size-1 modes and how its flat modes are
    grouped into top-level modes (the tiled/flat forms unpack the tile's and the
    complement's modes, which keep runtime size-1 and unmerged modes)."""
    S = spec

    def flat(L):
        ms = [L] if not isinstance(L.shape, tuple) else [LayoutBase(s, d) for s, d in zip(L.shape, L.stride)]
        return [(s, d) for m in ms for c in [S.coalesce(m)]
                for s, d in zip(leaves(c.shape), leaves(c.stride)) if int(s) != 1]

    r, k = flat(R), 0
    for se, de in flat(E):
        if k >= len(r) or int(r[k][1]) != int(de):
            return False
        (s, d), n = r[k], int(r[k][0])
        k += 1
        while n < int(se) and k < len(r):
            s2, d2 = r[k]
            if int(s) * int(d) != int(d2) or all(isinstance(v, C) for v in (s, d, d2)):
                return False
            (s, d), n, k = (s2, d2), n * int(s2), k + 1
        if n != int(se):
            return False
    return k == len(r)


@region
def cpp_dynamic_modes_only(*inputs, op=None):
    """F-055: runtime integers, and CuTe C++'s answer (its model, oracles/cpp/model.py)
    differs from the spec's (CuTe's sense) only by unmerged or size-1 modes."""
    if not has_dynamic_integer(*inputs):
        return False
    got = _cpp_model(op, *inputs)
    if got is None:
        return False
    want = cute_reference(op, *inputs)
    return want.kind == "ok" and same_up_to_dynamic_modes(got, want.value)


@region
def product_fails_cute_stride_divisibility(A=None, B=None, *rest):
    """F-056: the spec multiplies (CuTe's sense), but the composition inside,
    comp(A, size(A) cosize(B)) ∘ B, fails CuTe C++'s stride-divisibility check (the spec's
    model ``cute_composition_check``)."""
    S = spec
    B = LayoutBase(B) if isinstance(B, int) else B
    if not (isinstance(A, LayoutBase) and isinstance(B, LayoutBase)):
        return False
    try:
        S.logical_product(A, B, sense="cute")
        comp = S.complement(A, S.size(A) * S.cosize(B), sense="cute")
    except LayoutError:
        return False
    return cute_composition_check(comp, B) == "Stride Divisibility Condition"


# --- the symptom, and regions that need CuTe's own answer (its model) ----------------------

def _cpp_model_outcome(op, *args):
    return models_cpp.answer(op, *args)


def _cpp_model(op, *args):
    out = _cpp_model_outcome(op, *args)
    return out.value if out is not None and out.kind == "ok" else None


@partly_unchecked("a compile-time rejection that g++ reports without the static_assert text the model "
                  "names (another error line first): which of CuTe's checks fired is not visible")
def cpp_answer(inputs, answer, reference=None, op=None):
    """cute-cpp's answer is exactly CuTe C++ 4.2's (oracles/cpp/model.py): the same layout,
    the same static_assert, or SIGFPE."""
    return models_cpp.matches(answer, _cpp_model_outcome(op, *inputs))


def _all_static(*inputs):
    return not has_dynamic_integer(*inputs)


@region
def cpp_static_weak_stride_branch(A, B=None, *rest):
    """F-030: every integer static, and CuTe's checks accept composition(A, B) only through
    the weak branch of its stride test (oracles/pycute_wheel/findings/algebra.py: cute_weak_stride_branch)."""
    return B is not None and _all_static(A, B) and bool(cute_weak_stride_branch(A, B))


@region
def cpp_static_non_additive(A, B=None, *rest):
    """F-088 in CuTe C++: every integer static, CuTe's checks pass without the weak branch,
    and B's modes do not add under A (oracles/pycute_wheel/findings/algebra.py: cute_accepts_non_additive)."""
    return B is not None and _all_static(A, B) and bool(cute_accepts_non_additive(A, B))


@region
def cpp_static_product_non_additive(A, B=None, *rest):
    """F-088 inside CuTe C++'s logical_product (all integers static)."""
    return B is not None and _all_static(A, B) and bool(product_cute_accepts_non_additive(A, B))


@region
def cpp_static_product_weak_branch(A, B=None, *rest):
    """F-059: all integers static; the composition inside logical_product passes CuTe's
    checks only through the weak stride branch."""
    return B is not None and _all_static(A, B) and bool(product_cute_accepts_not_composable(A, B))


def _aborts_in(where, op, inputs):
    out = _cpp_model_outcome(op, *inputs)
    return out is not None and out.kind == "raised" and out.message.endswith(f"in {where})")


@region
def cpp_complement_divides_by_runtime_zero(*inputs, op=None):
    """F-044: CuTe C++'s complement (alone or inside a divide / product) divides by a
    runtime zero: a stride-0 mode with a runtime stride is not filtered out (its model)."""
    return _aborts_in("complement", op, inputs)


@region
def cpp_composition_divides_by_runtime_zero(*inputs, op=None):
    """F-046: CuTe C++'s composition (alone or inside a divide / product) divides by a
    runtime zero (B's runtime stride 0 meets A of rank > 1; its model)."""
    return _aborts_in("composition", op, inputs)


@region
def cpp_rejects_dynamic_stride_complement(*inputs, op=None):
    """F-122 (and F-045, F-052 for products and divides): the complement CuTe C++ computes
    has several modes and a runtime stride, which its static_assert refuses."""
    out = _cpp_model_outcome(op, *inputs)
    return (out is not None and out.kind == "raised"
            and "Dynamic-stride complement only for rank-1 layouts" in out.message)


@region
def cpp_left_inverse_quasi(L=None, *rest):
    """F-053: L is not injective (static strides) and CuTe C++'s left_inverse is the
    quasi-inverse it documents (L(R(L(i))) == L(i))."""
    if not isinstance(L, LayoutBase) or not not_injective(L):
        return False
    R = _cpp_model("left_inverse", L)
    return R is not None and is_quasi_inverse(L, R)


@region
def cpp_compiles(*inputs, op=None):
    """CuTe C++ compiles and runs this case (its model returns a layout)."""
    return _cpp_model(op, *inputs) is not None


@region
def cpp_zip_of_unequal_ranks(A=None, B=None, *rest, op=None):
    """F-057: blocked/raked_product of rank-1 operands whose zip pairs a tuple with a leaf or
    with a tuple of another rank: CuTe C++ does not compile it (its model)."""
    out = _cpp_model_outcome(op, A, B)
    return out is not None and out.kind == "raised" and "zip of tuples" in out.message


@region
def cpp_rank_one_leaf_and_tuple_compiles(A=None, B=None, *rest, op=None):
    """F-121: a rank-1 leaf layout and a rank-1 tuple layout, in the order CuTe C++ compiles
    (its zip of a leaf with a tuple nests the tuple)."""
    return bool(rank_one_leaf_and_tuple(A, B)) and cpp_compiles(A, B, op=op)


@region
def cpp_dynamic_wrong_function(*inputs, op=None):
    """F-047 / F-054 (#1353): runtime integers, and CuTe C++ (its model) returns a layout whose
    function is not the op's: the spec (CuTe's sense) has no result, or another function.
    With runtime integers CuTe skips its divisibility checks and cannot see that a ceil_div
    is 1, so it composes as if every stride divided every mode size."""
    if not has_dynamic_integer(*inputs):
        return False
    got = _cpp_model(op, *inputs)
    if got is None:
        return False
    want = cute_reference(op, *inputs)
    if want.kind == "raised":
        return True
    if want.kind != "ok" or not isinstance(want.value, LayoutBase):
        return False
    S = spec
    return S.size(got) != S.size(want.value) or S.values(got) != S.values(want.value)


def _model_rejects(op, inputs, text=""):
    out = _cpp_model_outcome(op, *inputs)
    return out is not None and out.kind == "raised" and "compile-time" in out.message and text in out.message


def _model_ok(op, inputs):
    return _cpp_model(op, *inputs) is not None


def cute_sense_rejected(A, B, model_rejects):
    """A∘B exists in CuTe's sense (the spec), the spec's model of CuTe's checks
    (spec.cute_composition_check) fails, and the implementation (model_rejects) refuses."""
    S = spec
    if B is None or not isinstance(A, LayoutBase) or cute_composition_check(A, B) is None:
        return False
    return S.is_composable(A, B, sense="cute") and model_rejects()


@region
def cpp_rejects_composable(A, B=None, *rest):
    """F-025 in CuTe C++: A∘B exists (CuTe's sense; the paper's too when B stays inside A),
    and CuTe's static divisibility checks (the spec's model and CuTe's, all static) reject."""
    return cute_sense_rejected(A, B, lambda: _model_rejects("composition", (A, B), "Divisibility Condition"))


def rejected_as_written(model_outcome, op, inputs):
    """The spec gives the op a result (CuTe's sense), the implementation (model_outcome:
    op, *args -> Outcome) refuses it with a divisibility failure, and accepts the same op
    with A written coalesced (spec.coalesce): CuTe's checks walk A as written, and
    coalesce_x keeps what it cannot merge or drop at compile time (a trailing size-1 mode,
    static with a non-zero stride seeded as _2:d, or any runtime 1)."""
    if len(inputs) < 2 or not isinstance(inputs[0], LayoutBase) or isinstance(inputs[1], tuple):
        return False
    A, rest = inputs[0], inputs[1:]
    out = model_outcome(op, *inputs)
    if out is None or out.kind != "raised" or cute_reference(op, *inputs).kind != "ok":
        return False
    cA = spec.coalesce(A)
    if cA == A:
        return False
    again = model_outcome(op, cA, *rest)
    return again is not None and again.kind == "ok"


@region
def cpp_rejects_as_written(*inputs, op=None):
    """F-058 in CuTe C++ (rejected_as_written with its model; a divisibility static_assert)."""
    return (rejected_as_written(_cpp_model_outcome, op, inputs)
            and "Divisibility Condition" in _cpp_model_outcome(op, *inputs).message)


@region
def cpp_coalesce_keeps_runtime_modes(*inputs, op=None):
    """F-040: runtime integers; CuTe C++'s coalesce / filter (its model) has the spec's layout
    function but keeps modes it cannot merge or drop at compile time."""
    if not has_dynamic_integer(*inputs):
        return False
    got = _cpp_model(op, *inputs)
    if got is None:
        return False
    S, want = spec, cute_reference(op, *inputs)
    return (want.kind == "ok" and S.size(got) == S.size(want.value)
            and S.values(got) == S.values(want.value))


@region
def cpp_filter_keeps_runtime_zero_stride(L=None, *rest):
    """F-041: a runtime stride 0: CuTe C++'s filter keeps that mode (only a static _0 is
    replaced by a size-1 mode), so the result has the wrong size."""
    return (isinstance(L, LayoutBase) and bool(has_dynamic_zero_stride(L))
            and _model_ok("filter", (L,)))


@region
def cpp_right_inverse_runtime_stride(L=None, *rest):
    """F-042: a runtime stride; CuTe C++'s right_inverse (documented @pre is_static) matches
    only static strides."""
    return isinstance(L, LayoutBase) and has_dynamic_stride(L) and _model_ok("right_inverse", (L,))


@region
def cpp_left_inverse_needs_static_strides(L=None, *rest):
    """F-043: CuTe C++'s left_inverse static_asserts static strides (documented @pre is_static)."""
    return isinstance(L, LayoutBase) and _model_rejects("left_inverse", (L,), "Left inverse requires static strides")


@region
def cpp_complement_keeps_runtime_size1(L=None, N=None, *rest):
    """F-122: a runtime size-1 mode: CuTe C++'s complement (its filter) cannot drop it at
    compile time and complements it as a mode."""
    args = (L,) if N is None else (L, N)
    return (isinstance(L, LayoutBase) and bool(has_dynamic_size1_mode(L))
            and _model_ok("complement", args))


@region
def cpp_empty_layout_rejected(*inputs, op=None):
    """F-049: an argument is the empty layout ():() and CuTe C++ does not compile the op
    (bw_coalesce takes get<-1> of an empty tuple; make_layout() has no zero-mode overload)."""
    return (any(isinstance(x, LayoutBase) and x.shape == () for x in inputs)
            and _model_rejects(op, inputs))


@region
def cpp_product_rejects_stride_divisibility(A=None, B=None, *rest, op=None):
    """F-056: the spec multiplies, the inner composition fails CuTe's stride-divisibility
    check, and CuTe C++ (its model) rejects the product at compile time."""
    if B is None or not _model_rejects(op, (A, B), "Divisibility Condition"):
        return False
    if product_fails_cute_stride_divisibility(A, B):
        return True
    # CuTe's own inner composition (its complement, typed like CuTe's integers) is refused
    # although the spec multiplies, and not only because of how A is written (F-058)
    return (cute_reference(op, A, B).kind == "ok"
            and not rejected_as_written(_cpp_model_outcome, op, (A, B)))


@region
def cpp_divide_rejects_stride_divisibility(A=None, T=None, *rest, op=None):
    """F-038 in CuTe C++: the spec divides, CuTe C++ (its model) rejects at compile time with
    its stride-divisibility static_assert."""
    return (T is not None and bool(divide_fails_cute_stride_divisibility(A, T))
            and _model_rejects(op, (A, T), "Stride Divisibility Condition"))


@region
def cpp_not_complementable(*inputs, op=None):
    """F-075 in CuTe C++: the complement (or the divisor's complement in size(A)) does not
    exist in CuTe's sense, and CuTe C++ (its model) computes one anyway."""
    if op == "complement":
        inside = not_complementable_cute(*inputs)
    elif op.endswith("_product"):
        inside = product_not_complementable(*inputs)
    else:
        inside = divide_divisor_not_complementable(*inputs)
    return bool(inside) and _model_ok(op, inputs)


@region
def cpp_tuple_tiler_drops_modes(A=None, T=None, *rest):
    """F-120: a Tile tuple shorter than A's rank, and CuTe C++ composes (dropping the rest)."""
    return bool(tuple_tiler_shorter_than_layout(A, T)) and _model_ok("composition", (A, T))


@region
def cpp_left_inverse_not_quasi(L=None, *rest):
    """F-124: L is not injective and CuTe C++'s left_inverse (its model) is no quasi-inverse:
    L(R(L(i))) != L(i) for some i, which breaks what layout.hpp documents."""
    if not isinstance(L, LayoutBase) or not not_injective(L):
        return False
    R = _cpp_model("left_inverse", L)
    return R is not None and not is_quasi_inverse(L, R)


def _reaches_past_end(op, A, T):
    """The composition inside the op reads A (or the complement it composes with) past its
    size: composition B beyond size(A); a divide's (T, complement(T, shape(coalesce(A)))) beyond
    size(A); a product's B beyond the size of complement(A, size(A) cosize(B)) (CuTe's model)."""
    S = spec
    if isinstance(T, tuple) or not isinstance(A, LayoutBase):
        return False
    Tl = T if isinstance(T, LayoutBase) else LayoutBase(T, C(1))
    if op == "composition":
        return max(S.values(Tl)) >= S.size(A)
    if op.endswith("_divide"):
        comp = M.checked(M.complement, M.to_model(Tl), M.coalesce(M.to_model(A)).shape)
        inner = LayoutBase((Tl.shape, comp.shape), (Tl.stride, comp.stride))
        return max(S.values(inner)) >= S.size(A)
    if op.endswith("_product"):
        a = M.to_model(A)
        comp = M.checked(M.complement, a, M.cute_product(a.shape) * M.cute_cosize(M.to_model(Tl)))
        return max(S.values(Tl)) >= S.size(LayoutBase(comp.shape, comp.stride))
    return False


def past_end_as_written(model_outcome, op, inputs):
    """F-048: the op's inner composition reaches past the end, the implementation's answer
    differs from the spec's (CuTe's sense: coalesce(A)'s last mode extended), and with A
    written coalesced the implementation gives the spec's answer: it extends A's last mode as
    written."""
    if len(inputs) != 2 or not isinstance(inputs[0], LayoutBase):
        return False
    A, T = inputs
    try:
        if not _reaches_past_end(op, A, T):
            return False
    except Exception:  # noqa: BLE001 - CuTe's own complement refuses: not this finding
        return False
    want, got = cute_reference(op, A, T), model_outcome(op, A, T)
    if want.kind != "ok" or got is None or got.kind != "ok" or compare(op, inputs, want, got).ok:
        return False
    cA = spec.coalesce(A)
    again = model_outcome(op, cA, T)
    return again is not None and again.kind == "ok" and compare(op, (cA, T), cute_reference(op, cA, T), again).ok is True


@region
def cpp_past_end_as_written(*inputs, op=None):
    """F-048 in CuTe C++ (past_end_as_written with its model)."""
    return past_end_as_written(_cpp_model_outcome, op, inputs)


def cpp_inner_composition(op, A, T):
    """The composition CuTe C++ computes inside a divide, (A, (T, complement(T,
    shape(coalesce(A))))), or a product, (complement(A, size(A) cosize(T)), T), as neutral
    layouts (the C++ model's complement); None for a Tile tuple or where it is refused."""
    if isinstance(T, tuple) or not isinstance(A, LayoutBase) or T is None:
        return None
    Tl = T if isinstance(T, LayoutBase) else LayoutBase(T, M.compact_left(T, C(1)))
    try:
        if op.endswith("_divide"):
            comp = M.checked(M.complement, M.to_model(Tl), M.coalesce(M.to_model(A)).shape)
            return A, LayoutBase((Tl.shape, comp.shape), (Tl.stride, comp.stride))
        if op.endswith("_product"):
            a = M.to_model(A)
            comp = M.checked(M.complement, a, M.cute_product(a.shape) * M.cute_cosize(M.to_model(Tl)))
            return LayoutBase(comp.shape, comp.stride), Tl
    except (M.Reject, M.Abort, LayoutError):
        return None
    return None


def inner_pair_in(inner_region, op, inputs, static_only=True):
    if len(inputs) != 2 or (static_only and not _all_static(*inputs)):
        return False
    pair = cpp_inner_composition(op, *inputs)
    return pair is not None and bool(inner_region(*pair))


@region
def cpp_inner_weak_stride_branch(*inputs, op=None):
    """F-030 / F-059 inside a divide or product: all integers static, and CuTe's checks accept
    the inner composition only through the weak stride branch."""
    return inner_pair_in(cute_weak_stride_branch, op, inputs) and _model_ok(op, inputs)


@region
def cpp_inner_non_additive(*inputs, op=None):
    """F-088 inside a divide or product (all integers static)."""
    return inner_pair_in(cute_accepts_non_additive, op, inputs) and _model_ok(op, inputs)


@region
def has_dynamic_zero_stride(L, *rest):
    """L has a stride that is a dynamic (runtime) 0 (not the static ``_0``)."""
    return any(int(d) == 0 and not isinstance(d, C) for d in leaves(L.stride))


@region
def has_dynamic_size1_mode(L, *rest):
    """L has a dynamic (runtime) size-1 mode: CuTe cannot drop it at compile time."""
    return any(int(s) == 1 and not isinstance(s, C) for s in leaves(L.shape))


@region
def cute_weak_stride_branch(A, B=None, *rest):
    """F-082: CuTe's checks accept composition(A, B) (spec.cute_composition_check is None)
    only through the weak branch of its stride test: some stride of B is smaller than a mode
    size of coalesce(A) that it neither divides nor is divided by (the strict walk of
    stride_divisibility_fails).  There CuTe's result need not be A∘B (F-030: even when no
    layout has that function; also when one does, e.g. composition((5,2):(1,10), 4:3))."""
    if B is None or isinstance(B, tuple):
        return False
    return cute_composition_check(A, B) is None and stride_divisibility_fails(A, B)


@region
def product_cute_accepts_not_composable(A, B=None, *rest):
    """F-082: logical_product(A, B) composes comp(A, size(A) cosize(B)) with B (Def 2.3.9);
    CuTe's stride check passes on that pair only through its weak branch
    (cute_weak_stride_branch), so CuTe may compute a layout that is not A∘B."""
    return B is not None and inner_composition(A, B, cute_weak_stride_branch)


@region
def cute_accepts_non_additive(A, B=None, *rest):
    """F-088: CuTe's checks accept composition(A, B), no stride of B takes the weak branch
    (that is F-082), and still no layout has A∘B's function: CuTe composes B mode by mode,
    (A∘B_0, A∘B_1, ...), which is A∘B only when A(B_0(x) + B_1(y)) = A(B_0(x)) + A(B_1(y)),
    e.g. B's modes overlap, composition((2,2):(1,4), (2,2):(1,1))."""
    if B is None or isinstance(B, tuple):
        return False
    return bool(cute_accepts_not_composable(A, B)) and not cute_weak_stride_branch(A, B)


@region
def product_cute_accepts_non_additive(A, B=None, *rest):
    """F-088 inside logical_product(A, B): the composition comp(A, size(A) cosize(B)) ∘ B
    satisfies cute_accepts_non_additive."""
    return B is not None and inner_composition(A, B, cute_accepts_non_additive)


@region
def cute_accepts_not_composable(A, B=None, *rest):
    """F-030: CuTe's checks pass, but no layout has A∘B's function."""
    S = spec
    return cute_composition_check(A, B) is None and not S.is_composable(A, B, sense="cute")


@region
def tuple_tiler_shorter_than_layout(A=None, T=None, *rest):
    """F-120: the tiler is a Tile tuple with fewer entries than A has top-level modes
    (CuTe C++'s composition drops A's remaining modes)."""
    return (isinstance(A, LayoutBase) and isinstance(A.shape, tuple)
            and isinstance(T, tuple) and len(T) < len(A.shape))


@region
def rank_one_leaf_and_tuple(A=None, B=None, *rest):
    """F-121: one operand is a leaf layout (``4:1``), the other a rank-1 tuple layout
    (``(3):(1)``)."""

    def kind(x):
        if not isinstance(x, LayoutBase):
            return None
        if not isinstance(x.shape, tuple):
            return "leaf"
        return "one-tuple" if len(x.shape) == 1 else None
    return {kind(A), kind(B)} == {"leaf", "one-tuple"}


# --- planted cases (tests/test_planted.py): a finding whose case is prose, as CuTe prints it ----

PLANTED = [
    ("F-055", "cute-cpp", "tiled_divide", ["3:1", "3:1"], "(3,1,1):(1,1,3)"),
    ("F-055", "cute-cpp", "flat_divide", ["(6,6):(2,7)", "2"], "(2,1,3,6):(2,7,4,7)"),
]
