"""Regions and the symptom of the CuTe C++ findings (F-030, F-040..F-069, F-120..F-122 of findings.toml).

A region predicate takes a counterexample's inputs (the op's neutral arguments;
``PREDICATES``, a table's ``when``); the symptom ``cpp_answer`` (``SYMPTOMS``, a table's
``answer``) is True only when the cute-cpp answer is exactly what CuTe C++ 4.2 computes there
(``oracles/cpp/model.py``, its model, typed like CuTe's integers), so a different wrong
answer in a known region is new.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.findings import is_quasi_inverse, predicate, symptom
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


@predicate
def has_dynamic_integer(*inputs):
    """Some integer of the inputs is dynamic (written ``4``, not ``_4``)."""
    return any(not isinstance(v, C) for x in inputs for v in _ints(x))


@predicate
def has_dynamic_stride(*inputs):
    """Some stride of an input layout (tilers included) is dynamic."""
    return any(not isinstance(v, C) for x in inputs for v in _ints(x, strides_only=True))


@predicate
def empty_layout(L=None, *rest):
    """L is ``():()``."""
    return isinstance(L, LayoutBase) and L.shape == ()



# --- F-053..F-069 (triage of the cute-cpp fuzz gate) ------------------------------------

def _spec():
    from layoutcheck import spec
    return spec


def _same_up_to_dynamic_modes(R, E):
    """CuTe's answer R and the spec's E have the same flat modes once each top-level mode is
    coalesced and size-1 modes are dropped, except that R may split one of E's modes into
    neighbours that a runtime integer kept CuTe from merging (s d == d', one of s, d, d'
    dynamic): R differs only in unmerged modes, size-1 modes and how its flat modes are
    grouped into top-level modes (the tiled/flat forms unpack the tile's and the
    complement's modes, which keep runtime size-1 and unmerged modes)."""
    S = _spec()

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


@predicate
def cpp_dynamic_modes_only(*inputs, op=None):
    """F-055: runtime integers, and CuTe C++'s answer (its model, oracles/cpp/model.py)
    differs from the spec's (CuTe's sense) only by unmerged or size-1 modes."""
    if not has_dynamic_integer(*inputs):
        return False
    got = _cpp_model(op, *inputs)
    if got is None:
        return False
    from layoutcheck.findings import cute_reference
    want = cute_reference(op, *inputs)
    return want.kind == "ok" and _same_up_to_dynamic_modes(got, want.value)


@predicate
def product_fails_cute_stride_divisibility(A=None, B=None, *rest):
    """F-056: the spec multiplies (CuTe's sense), but the composition inside,
    comp(A, size(A) cosize(B)) ∘ B, fails CuTe C++'s stride-divisibility check (the spec's
    model ``cute_composition_check``)."""
    S = _spec()
    B = LayoutBase(B) if isinstance(B, int) else B
    if not (isinstance(A, LayoutBase) and isinstance(B, LayoutBase)):
        return False
    try:
        S.logical_product(A, B, sense="cute")
        comp = S.complement(A, S.size(A) * S.cosize(B), sense="cute")
    except LayoutError:
        return False
    return S.cute_composition_check(comp, B) == "Stride Divisibility Condition"



# --- the symptom, and regions that need CuTe's own answer (its model) ----------------------

def _cpp_model_outcome(op, *args):
    import layoutcheck.oracles.cpp.model as models_cpp
    return models_cpp.answer(op, *args)


def _cpp_model(op, *args):
    out = _cpp_model_outcome(op, *args)
    return out.value if out is not None and out.kind == "ok" else None


@symptom
def cpp_answer(inputs, answer, reference=None, op=None):
    """cute-cpp's answer is exactly CuTe C++ 4.2's (oracles/cpp/model.py): the same layout,
    the same static_assert, or SIGFPE."""
    import layoutcheck.oracles.cpp.model as models_cpp
    return models_cpp.matches(answer, _cpp_model_outcome(op, *inputs))


def _all_static(*inputs):
    return not has_dynamic_integer(*inputs)


@predicate
def cpp_static_weak_stride_branch(A, B=None, *rest):
    """F-030: every integer static, and CuTe's checks accept composition(A, B) only through
    the weak branch of its stride test (oracles/pycute/findings/algebra.py: cute_weak_stride_branch)."""
    from layoutcheck.findings import PREDICATES
    return B is not None and _all_static(A, B) and bool(PREDICATES["cute_weak_stride_branch"](A, B))


@predicate
def cpp_static_non_additive(A, B=None, *rest):
    """F-088 in CuTe C++: every integer static, CuTe's checks pass without the weak branch,
    and B's modes do not add under A (oracles/pycute/findings/algebra.py: cute_accepts_non_additive)."""
    from layoutcheck.findings import PREDICATES
    return B is not None and _all_static(A, B) and bool(PREDICATES["cute_accepts_non_additive"](A, B))


@predicate
def cpp_static_product_non_additive(A, B=None, *rest):
    """F-088 inside CuTe C++'s logical_product (all integers static)."""
    from layoutcheck.findings import PREDICATES
    return B is not None and _all_static(A, B) and bool(PREDICATES["product_cute_accepts_non_additive"](A, B))


@predicate
def cpp_static_product_weak_branch(A, B=None, *rest):
    """F-059: all integers static; the composition inside logical_product passes CuTe's
    checks only through the weak stride branch."""
    from layoutcheck.findings import PREDICATES
    return B is not None and _all_static(A, B) and bool(PREDICATES["product_cute_accepts_not_composable"](A, B))


def _aborts_in(where, op, inputs):
    out = _cpp_model_outcome(op, *inputs)
    return out is not None and out.kind == "raised" and out.message.endswith(f"in {where})")


@predicate
def cpp_complement_divides_by_runtime_zero(*inputs, op=None):
    """F-044: CuTe C++'s complement (alone or inside a divide / product) divides by a
    runtime zero: a stride-0 mode with a runtime stride is not filtered out (its model)."""
    return _aborts_in("complement", op, inputs)


@predicate
def cpp_composition_divides_by_runtime_zero(*inputs, op=None):
    """F-046: CuTe C++'s composition (alone or inside a divide / product) divides by a
    runtime zero (B's runtime stride 0 meets A of rank > 1; its model)."""
    return _aborts_in("composition", op, inputs)


@predicate
def cpp_rejects_dynamic_stride_complement(*inputs, op=None):
    """F-122 (and F-045, F-052 for products and divides): the complement CuTe C++ computes
    has several modes and a runtime stride, which its static_assert refuses."""
    out = _cpp_model_outcome(op, *inputs)
    return (out is not None and out.kind == "raised"
            and "Dynamic-stride complement only for rank-1 layouts" in out.message)


@predicate
def cpp_left_inverse_quasi(L=None, *rest):
    """F-053: L is not injective (static strides) and CuTe C++'s left_inverse is the
    quasi-inverse it documents (L(R(L(i))) == L(i))."""
    from layoutcheck.findings import PREDICATES
    if not isinstance(L, LayoutBase) or not PREDICATES["not_injective"](L):
        return False
    R = _cpp_model("left_inverse", L)
    return R is not None and is_quasi_inverse(L, R)


@predicate
def cpp_compiles(*inputs, op=None):
    """CuTe C++ compiles and runs this case (its model returns a layout)."""
    return _cpp_model(op, *inputs) is not None


@predicate
def cpp_zip_of_unequal_ranks(A=None, B=None, *rest, op=None):
    """F-057: blocked/raked_product of rank-1 operands whose zip pairs a tuple with a leaf or
    with a tuple of another rank: CuTe C++ does not compile it (its model)."""
    out = _cpp_model_outcome(op, A, B)
    return out is not None and out.kind == "raised" and "zip of tuples" in out.message


@predicate
def cpp_rank_one_leaf_and_tuple_compiles(A=None, B=None, *rest, op=None):
    """F-121: a rank-1 leaf layout and a rank-1 tuple layout, in the order CuTe C++ compiles
    (its zip of a leaf with a tuple nests the tuple)."""
    from layoutcheck.findings import PREDICATES
    return bool(PREDICATES["rank_one_leaf_and_tuple"](A, B)) and cpp_compiles(A, B, op=op)


@predicate
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
    from layoutcheck.findings import cute_reference
    want = cute_reference(op, *inputs)
    if want.kind == "raised":
        return True
    if want.kind != "ok" or not isinstance(want.value, LayoutBase):
        return False
    S = _spec()
    return S.size(got) != S.size(want.value) or S.values(got) != S.values(want.value)


def _model_rejects(op, inputs, text=""):
    out = _cpp_model_outcome(op, *inputs)
    return out is not None and out.kind == "raised" and "compile-time" in out.message and text in out.message


def _model_ok(op, inputs):
    return _cpp_model(op, *inputs) is not None


def cute_sense_rejected(A, B, model_rejects):
    """A∘B exists in CuTe's sense (the spec), the spec's model of CuTe's checks
    (spec.cute_composition_check) fails, and the implementation (model_rejects) refuses."""
    S = _spec()
    if B is None or not isinstance(A, LayoutBase) or S.cute_composition_check(A, B) is None:
        return False
    return S.is_composable(A, B, sense="cute") and model_rejects()


@predicate
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
    from layoutcheck.findings import cute_reference
    A, rest = inputs[0], inputs[1:]
    out = model_outcome(op, *inputs)
    if out is None or out.kind != "raised" or cute_reference(op, *inputs).kind != "ok":
        return False
    cA = _spec().coalesce(A)
    if cA == A:
        return False
    again = model_outcome(op, cA, *rest)
    return again is not None and again.kind == "ok"


@predicate
def cpp_rejects_as_written(*inputs, op=None):
    """F-058 in CuTe C++ (rejected_as_written with its model; a divisibility static_assert)."""
    return (rejected_as_written(_cpp_model_outcome, op, inputs)
            and "Divisibility Condition" in _cpp_model_outcome(op, *inputs).message)


@predicate
def cpp_coalesce_keeps_runtime_modes(*inputs, op=None):
    """F-040: runtime integers; CuTe C++'s coalesce / filter (its model) has the spec's layout
    function but keeps modes it cannot merge or drop at compile time."""
    if not has_dynamic_integer(*inputs):
        return False
    got = _cpp_model(op, *inputs)
    if got is None:
        return False
    from layoutcheck.findings import cute_reference
    S, want = _spec(), cute_reference(op, *inputs)
    return (want.kind == "ok" and S.size(got) == S.size(want.value)
            and S.values(got) == S.values(want.value))


@predicate
def cpp_filter_keeps_runtime_zero_stride(L=None, *rest):
    """F-041: a runtime stride 0: CuTe C++'s filter keeps that mode (only a static _0 is
    replaced by a size-1 mode), so the result has the wrong size."""
    from layoutcheck.findings import PREDICATES
    return (isinstance(L, LayoutBase) and bool(PREDICATES["has_dynamic_zero_stride"](L))
            and _model_ok("filter", (L,)))


@predicate
def cpp_right_inverse_runtime_stride(L=None, *rest):
    """F-042: a runtime stride; CuTe C++'s right_inverse (documented @pre is_static) matches
    only static strides."""
    return isinstance(L, LayoutBase) and has_dynamic_stride(L) and _model_ok("right_inverse", (L,))


@predicate
def cpp_left_inverse_needs_static_strides(L=None, *rest):
    """F-043: CuTe C++'s left_inverse static_asserts static strides (documented @pre is_static)."""
    return isinstance(L, LayoutBase) and _model_rejects("left_inverse", (L,), "Left inverse requires static strides")


@predicate
def cpp_complement_keeps_runtime_size1(L=None, N=None, *rest):
    """F-122: a runtime size-1 mode: CuTe C++'s complement (its filter) cannot drop it at
    compile time and complements it as a mode."""
    from layoutcheck.findings import PREDICATES
    args = (L,) if N is None else (L, N)
    return (isinstance(L, LayoutBase) and bool(PREDICATES["has_dynamic_size1_mode"](L))
            and _model_ok("complement", args))



@predicate
def cpp_empty_layout_rejected(*inputs, op=None):
    """F-049: an argument is the empty layout ():() and CuTe C++ does not compile the op
    (bw_coalesce takes get<-1> of an empty tuple; make_layout() has no zero-mode overload)."""
    return (any(isinstance(x, LayoutBase) and x.shape == () for x in inputs)
            and _model_rejects(op, inputs))


@predicate
def cpp_product_rejects_stride_divisibility(A=None, B=None, *rest, op=None):
    """F-056: the spec multiplies, the inner composition fails CuTe's stride-divisibility
    check, and CuTe C++ (its model) rejects the product at compile time."""
    from layoutcheck.findings import cute_reference
    if B is None or not _model_rejects(op, (A, B), "Divisibility Condition"):
        return False
    if product_fails_cute_stride_divisibility(A, B):
        return True
    # CuTe's own inner composition (its complement, typed like CuTe's integers) is refused
    # although the spec multiplies, and not only because of how A is written (F-058)
    return (cute_reference(op, A, B).kind == "ok"
            and not rejected_as_written(_cpp_model_outcome, op, (A, B)))


@predicate
def cpp_divide_rejects_stride_divisibility(A=None, T=None, *rest, op=None):
    """F-038 in CuTe C++: the spec divides, CuTe C++ (its model) rejects at compile time with
    its stride-divisibility static_assert."""
    from layoutcheck.findings import PREDICATES
    return (T is not None and bool(PREDICATES["divide_fails_cute_stride_divisibility"](A, T))
            and _model_rejects(op, (A, T), "Stride Divisibility Condition"))



@predicate
def cpp_not_complementable(*inputs, op=None):
    """F-075 in CuTe C++: the complement (or the divisor's complement in size(A)) does not
    exist in CuTe's sense, and CuTe C++ (its model) computes one anyway."""
    from layoutcheck.findings import PREDICATES
    if op == "complement":
        inside = PREDICATES["not_complementable_cute"](*inputs)
    elif op.endswith("_product"):
        inside = PREDICATES["product_not_complementable"](*inputs)
    else:
        inside = PREDICATES["divide_divisor_not_complementable"](*inputs)
    return bool(inside) and _model_ok(op, inputs)


@predicate
def cpp_tuple_tiler_drops_modes(A=None, T=None, *rest):
    """F-120: a Tile tuple shorter than A's rank, and CuTe C++ composes (dropping the rest)."""
    from layoutcheck.findings import PREDICATES
    return bool(PREDICATES["tuple_tiler_shorter_than_layout"](A, T)) and _model_ok("composition", (A, T))


@predicate
def cpp_left_inverse_not_quasi(L=None, *rest):
    """F-124: L is not injective and CuTe C++'s left_inverse (its model) is no quasi-inverse:
    L(R(L(i))) != L(i) for some i, which breaks what layout.hpp documents."""
    from layoutcheck.findings import PREDICATES
    if not isinstance(L, LayoutBase) or not PREDICATES["not_injective"](L):
        return False
    R = _cpp_model("left_inverse", L)
    return R is not None and not is_quasi_inverse(L, R)


def _reaches_past_end(op, A, T):
    """The composition inside the op reads A (or the complement it composes with) past its
    size: composition B beyond size(A); a divide's (T, complement(T, shape(coalesce(A)))) beyond
    size(A); a product's B beyond the size of complement(A, size(A) cosize(B)) (CuTe's model)."""
    import layoutcheck.oracles.cpp.model as M
    S = _spec()
    if isinstance(T, tuple) or not isinstance(A, LayoutBase):
        return False
    Tl = T if isinstance(T, LayoutBase) else LayoutBase(T, C(1))
    if op == "composition":
        return max(S.values(Tl)) >= S.size(A)
    if op.endswith("_divide"):
        comp = M.checked(M.complement, M._to(Tl), M.coalesce(M._to(A)).shape)
        inner = LayoutBase((Tl.shape, comp.shape), (Tl.stride, comp.stride))
        return max(S.values(inner)) >= S.size(A)
    if op.endswith("_product"):
        a = M._to(A)
        comp = M.checked(M.complement, a, M._product(a.shape) * M._cosize(M._to(Tl)))
        return max(S.values(Tl)) >= S.size(LayoutBase(comp.shape, comp.stride))
    return False


def past_end_as_written(model_outcome, op, inputs):
    """F-048: the op's inner composition reaches past the end, the implementation's answer
    differs from the spec's (CuTe's sense: coalesce(A)'s last mode extended), and with A
    written coalesced the implementation gives the spec's answer: it extends A's last mode as
    written."""
    from layoutcheck.findings import cute_reference
    from layoutcheck.oracles.compare import compare
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
    cA = _spec().coalesce(A)
    again = model_outcome(op, cA, T)
    return again is not None and again.kind == "ok" and compare(op, (cA, T), cute_reference(op, cA, T), again).ok is True


@predicate
def cpp_past_end_as_written(*inputs, op=None):
    """F-048 in CuTe C++ (past_end_as_written with its model)."""
    return past_end_as_written(_cpp_model_outcome, op, inputs)


def cpp_inner_composition(op, A, T):
    """The composition CuTe C++ computes inside a divide, (A, (T, complement(T,
    shape(coalesce(A))))), or a product, (complement(A, size(A) cosize(T)), T), as neutral
    layouts (the C++ model's complement); None for a Tile tuple or where it is refused."""
    import layoutcheck.oracles.cpp.model as M
    if isinstance(T, tuple) or not isinstance(A, LayoutBase) or T is None:
        return None
    Tl = T if isinstance(T, LayoutBase) else LayoutBase(T, M._compact_left(T, C(1)))
    try:
        if op.endswith("_divide"):
            comp = M.checked(M.complement, M._to(Tl), M.coalesce(M._to(A)).shape)
            return A, LayoutBase((Tl.shape, comp.shape), (Tl.stride, comp.stride))
        if op.endswith("_product"):
            a = M._to(A)
            comp = M.checked(M.complement, a, M._product(a.shape) * M._cosize(M._to(Tl)))
            return LayoutBase(comp.shape, comp.stride), Tl
    except (M.Reject, M.Abort, LayoutError):
        return None
    return None


def _inner_in(region, op, inputs, static_only=True):
    from layoutcheck.findings import PREDICATES
    if len(inputs) != 2 or (static_only and not _all_static(*inputs)):
        return False
    pair = cpp_inner_composition(op, *inputs)
    return pair is not None and bool(PREDICATES[region](*pair))


@predicate
def cpp_inner_weak_stride_branch(*inputs, op=None):
    """F-030 / F-059 inside a divide or product: all integers static, and CuTe's checks accept
    the inner composition only through the weak stride branch."""
    return _inner_in("cute_weak_stride_branch", op, inputs) and _model_ok(op, inputs)


@predicate
def cpp_inner_non_additive(*inputs, op=None):
    """F-088 inside a divide or product (all integers static)."""
    return _inner_in("cute_accepts_non_additive", op, inputs) and _model_ok(op, inputs)
