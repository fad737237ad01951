"""Regions and symptoms of the pycute and CuTe DSL findings (F-070..F-089, F-123 in findings.toml).

A region predicate takes a counterexample's inputs (``PREDICATES``, a table's ``when``); the
symptom ``pycute_answer`` (``SYMPTOMS``, a table's ``answer``) is True only when pycute's
answer is exactly what pycute 4.2 computes there (``oracles/pycute/model.py``, its model), so a
different wrong answer in a known region is new.  Regions decide with the spec (CuTe's
sense where the spec has it) and, where a finding is about what the implementation returns
(the quasi-inverse, the weak complement), with the implementation's model.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.findings import is_left_inverse, is_quasi_inverse, predicate, symptom
from layoutcheck.layout import LayoutBase, leaves

__all__ = []


def _spec():
    import layoutcheck.spec as spec
    return spec


def _raises(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except LayoutError:
        return True
    return False


@predicate
def stride_divisibility_fails(A, B=None, *rest):
    """pycute's admissibility for composition(A, B): every non-zero stride d of a mode of B
    (even of size 1) must, walking coalesce(A)'s modes except the last, divide or be divided by
    each mode size it crosses (CuTe's 'stride divisibility condition')."""
    if B is None or not isinstance(A, LayoutBase):
        return False
    if isinstance(B, int):
        return False
    if isinstance(B, tuple):
        return any(stride_divisibility_fails(LayoutBase(a.shape, a.stride), b)
                   for a, b in zip(_top(A), B) if b is not None)
    cA = _spec().coalesce(A)
    shapes = [int(s) for s in leaves(cA.shape)][:-1]
    for s, d in zip(leaves(B.shape), leaves(B.stride)):
        s, d = int(s), int(d)
        if d == 0:  # pycute special-cases stride 0 only; a size-1 mode is walked too
            continue
        rest_shape, rest_stride = s, d
        for cs in shapes:
            if not (cs % rest_stride == 0 or rest_stride % cs == 0):
                return True
            new = min(max(1, cs // rest_stride), rest_shape)
            rest_shape //= new
            rest_stride = -(-rest_stride // cs)
    return False


def _top(L):
    if not isinstance(L.shape, tuple):
        return [L]
    return [LayoutBase(s, d) for s, d in zip(L.shape, L.stride)]


@predicate
def composition_not_composable(A, B=None, *rest):
    """The spec (CuTe's sense) has no composition(A, B): no layout has i -> A(B(i))."""
    return B is not None and _raises(_spec().composition, A, B, sense="cute")


def _condition(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except LayoutError as e:
        return e.condition or "raised"
    return None


@predicate
def product_not_composable(A, B=None, *rest):
    """The spec (CuTe's sense) rejects logical_product(A, B) because comp(A, size(A) cosize(B))
    and B are not composable (condition is_composable)."""
    return B is not None and _condition(_spec().logical_product, A, B, sense="cute") == "is_composable"


@predicate
def product_not_complementable(A, B=None, *rest):
    """F-075 in the products: the spec (CuTe's sense) rejects logical_product(A, B) because A
    has no complement in size(A) cosize(B) (condition is_complementable)."""
    return B is not None and _condition(_spec().logical_product, A, B, sense="cute") == "is_complementable"


@predicate
def not_complementable_cute(L, N=None, *rest):
    """complement(L, N) is undefined in CuTe's sense (the spec's is_complementable)."""
    return not _spec().is_complementable(L, N, sense="cute")


@predicate
def product_stride_divisibility_fails(A, B=None, *rest):
    """logical_product(A, B) composes comp(A, size(A) cosize(B)) with B: that inner
    composition fails pycute's stride-divisibility condition (F-070); a Tile tuple mode by
    mode."""
    return B is not None and _inner_composition(A, B, stride_divisibility_fails)


@predicate
def has_dynamic_zero_stride(L, *rest):
    """L has a stride that is a dynamic (runtime) 0 (not the static ``_0``)."""
    from layoutcheck.integers import C
    return any(int(d) == 0 and not isinstance(d, C) for d in leaves(L.stride))


@predicate
def has_dynamic_size1_mode(L, *rest):
    """L has a dynamic (runtime) size-1 mode: CuTe cannot drop it at compile time."""
    from layoutcheck.integers import C
    return any(int(s) == 1 and not isinstance(s, C) for s in leaves(L.shape))


# --- cute-dsl findings F-081..F-089 (CuTe DSL, nvidia-cutlass-dsl 4.8.x) -------------------

@predicate
def tiler_is_plain_int(A=None, T=None, *rest):
    """F-081: the tiler is a bare integer ``n`` (meaning ``n:1``), not a layout or Tile tuple.
    The DSL's zipped/tiled/flat_divide wrap only tuple tilers (``_pack_tile``) and its
    zipped/tiled_product take only a Layout, so a bare int reaches the MLIR op unconverted."""
    return isinstance(T, int)


@predicate
def not_injective(L=None, *rest):
    """F-083: L is not injective (Def 2.1.5), so no left inverse exists."""
    return isinstance(L, LayoutBase) and not _spec().is_injective(L)


def _inner_composition(A, B, test):
    """``test(comp, B)`` on the composition inside logical_product(A, B) (Def 2.3.9):
    comp = comp(A, size(A) cosize(B)) in CuTe's sense; a Tile tuple mode by mode."""
    spec = _spec()
    if isinstance(B, tuple):
        return any(_inner_composition(a, b, test) for a, b in zip(_top(A), B) if b is not None)
    B = LayoutBase(B) if isinstance(B, int) else B
    if not isinstance(A, LayoutBase) or not isinstance(B, LayoutBase):
        return False
    try:
        comp = spec.complement(A, spec.size(A) * spec.cosize(B), sense="cute")
    except LayoutError:
        return False
    return bool(test(comp, B))


@predicate
def cute_weak_stride_branch(A, B=None, *rest):
    """F-082: CuTe's checks accept composition(A, B) (spec.cute_composition_check is None)
    only through the weak branch of its stride test: some stride of B is smaller than a mode
    size of coalesce(A) that it neither divides nor is divided by (the strict walk of
    stride_divisibility_fails).  There CuTe's result need not be A∘B (F-030: even when no
    layout has that function; also when one does, e.g. composition((5,2):(1,10), 4:3))."""
    if B is None or isinstance(B, tuple):
        return False
    return _spec().cute_composition_check(A, B) is None and stride_divisibility_fails(A, B)


@predicate
def product_cute_accepts_not_composable(A, B=None, *rest):
    """F-082: logical_product(A, B) composes comp(A, size(A) cosize(B)) with B (Def 2.3.9);
    CuTe's stride check passes on that pair only through its weak branch
    (cute_weak_stride_branch), so CuTe may compute a layout that is not A∘B."""
    return B is not None and _inner_composition(A, B, cute_weak_stride_branch)


@predicate
def product_cute_rejects_composable(A, B=None, *rest):
    """F-085: the composition inside logical_product(A, B) exists (CuTe's sense) but fails
    CuTe's stride-divisibility check (F-025 inside the product), so CuTe refuses the product."""
    spec = _spec()

    def rejected(comp, b):
        return spec.is_composable(comp, b, sense="cute") and spec.cute_composition_check(comp, b) is not None
    return B is not None and _inner_composition(A, B, rejected)


def _rank(L):
    return len(L.shape) if isinstance(L.shape, tuple) else 1


def _zip_leaf_after_tuple(A, B, raked):
    """CuTe's blocked/raked_product zip the two modes of logical_product(append<R>(A),
    append<R>(B)), R = max(rank A, rank B): blocked zips (mode 0, mode 1), raked (mode 1,
    mode 0).  With R == 1 nothing is appended, and the zip fails when its first operand is a
    tuple and its second a leaf."""
    B = LayoutBase(B) if isinstance(B, int) else B
    if not isinstance(A, LayoutBase) or not isinstance(B, LayoutBase):
        return False
    if _rank(A) != 1 or _rank(B) != 1:
        return False
    try:
        P = _spec().logical_product(A, B, sense="cute")
    except LayoutError:
        return False
    m0, m1 = _top(P)
    first, second = (m1, m0) if raked else (m0, m1)
    if not isinstance(first.shape, tuple):
        return False  # zip(leaf, y) gives ((leaf, y)) in the DSL
    return not isinstance(second.shape, tuple) or len(second.shape) != len(first.shape)


@predicate
def blocked_zip_leaf_after_tuple(A, B=None, *rest):
    """F-084: the DSL's blocked_product zips a rank-1 tuple with a leaf (see _zip_leaf_after_tuple)."""
    return B is not None and _zip_leaf_after_tuple(A, B, raked=False)


@predicate
def raked_zip_leaf_after_tuple(A, B=None, *rest):
    """F-084: the DSL's raked_product zips a tuple with a leaf (see _zip_leaf_after_tuple)."""
    return B is not None and _zip_leaf_after_tuple(A, B, raked=True)


@predicate
def raked_coalesces_modes(A, B=None, *rest):
    """F-086: the DSL's raked_product returns each top mode of CuTe C++'s zip result
    coalesced (CuTe's ``coalesce(R, (_1,...,_1))``): true when that per-mode coalesce of the
    spec's raked_product changes it beyond the function level (a nested mode flattened,
    ((s,t),a) -> (s,t,a)), which is then exactly the DSL's difference."""
    from layoutcheck.oracles.compare import compare
    spec = _spec()
    if B is None:
        return False
    try:
        R = spec.raked_product(A, B, sense="cute")
    except LayoutError:
        return False
    if not isinstance(R.shape, tuple):
        return False
    Rc = spec.coalesce(R, tuple(1 for _ in R.shape), style="cute")
    return compare("raked_product", (A, B), R, Rc).ok is False


@predicate
def cute_accepts_non_additive(A, B=None, *rest):
    """F-088: CuTe's checks accept composition(A, B), no stride of B takes the weak branch
    (that is F-082), and still no layout has A∘B's function: CuTe composes B mode by mode,
    (A∘B_0, A∘B_1, ...), which is A∘B only when A(B_0(x) + B_1(y)) = A(B_0(x)) + A(B_1(y)),
    e.g. B's modes overlap, composition((2,2):(1,4), (2,2):(1,1))."""
    from layoutcheck.findings import PREDICATES
    if B is None or isinstance(B, tuple):
        return False
    return bool(PREDICATES["cute_accepts_not_composable"](A, B)) and not cute_weak_stride_branch(A, B)


@predicate
def product_cute_accepts_non_additive(A, B=None, *rest):
    """F-088 inside logical_product(A, B): the composition comp(A, size(A) cosize(B)) ∘ B
    satisfies cute_accepts_non_additive."""
    return B is not None and _inner_composition(A, B, cute_accepts_non_additive)


# --- pycute: the symptom and the regions that need pycute's own answer ----------------------

@symptom
def pycute_answer(inputs, answer, reference=None, op=None):
    """pycute's answer is exactly the one pycute 4.2 computes (oracles/pycute/model.py): the same
    layout, or an exception of the same type."""
    import layoutcheck.oracles.pycute.model as models
    return models.matches(answer, models.answer(op, *inputs))


def _pycute_model(op, *args):
    import layoutcheck.oracles.pycute.model as models
    out = models.answer(op, *args)
    return out.value if out is not None and out.kind == "ok" and isinstance(out.value, LayoutBase) else None


@predicate
def pycute_accepts_non_additive(A, B=None, *rest):
    """F-088 in pycute: no composition exists (CuTe's sense), pycute's strict stride walk and
    CuTe's shape check pass, and pycute returns a layout: it composes B leaf by leaf (each
    leaf alone composes), and the leaves do not add under A (a carry between modes)."""
    if B is None or isinstance(B, (int, tuple)) or not isinstance(B.shape, tuple):
        return False
    spec = _spec()
    if not composition_not_composable(A, B) or stride_divisibility_fails(A, B):
        return False
    if spec.cute_composition_check(A, B) is not None:
        return False
    return all(spec.is_composable(A, LayoutBase(s, d), sense="cute")
               for s, d in zip(leaves(B.shape), leaves(B.stride)))


@predicate
def pycute_composition_wrong_size(A, B=None, *rest):
    """F-071: no composition exists (CuTe's sense) and it is not the by-mode case of F-088:
    pycute skips CuTe's shape-divisibility check and returns a layout of the wrong size."""
    return composition_not_composable(A, B) and not pycute_accepts_non_additive(A, B)


@predicate
def pycute_left_inverse_quasi(L=None, *rest):
    """F-123: L is not injective and pycute's left_inverse is a quasi-inverse
    (L(R(L(i))) == L(i)), which is what CuTe documents for such input."""
    if not isinstance(L, LayoutBase) or not not_injective(L):
        return False
    R = _pycute_model("left_inverse", L)
    return R is not None and is_quasi_inverse(L, R)


@predicate
def pycute_left_inverse_wrong(L=None, *rest):
    """F-074: pycute's left_inverse breaks CuTe's documented contract: for injective L it is
    no left inverse (R(L(i)) != i, e.g. L not complementable), for non-injective L no
    quasi-inverse."""
    if not isinstance(L, LayoutBase):
        return False
    R = _pycute_model("left_inverse", L)
    if R is None:
        return False
    return not is_quasi_inverse(L, R) if not_injective(L) else not is_left_inverse(L, R)


@predicate
def pycute_product_non_additive(A, B=None, *rest):
    """F-088 inside pycute's logical_product: the inner composition
    comp(A, size(A) cosize(B)) ∘ B is the by-mode case of pycute_accepts_non_additive."""
    return B is not None and _inner_composition(A, B, pycute_accepts_non_additive)


@predicate
def pycute_product_not_composable(A, B=None, *rest):
    """F-072: the spec (CuTe's sense) has no product (the inner composition does not exist)
    and it is not the by-mode case of F-088."""
    return product_not_composable(A, B) and not pycute_product_non_additive(A, B)


@predicate
def pycute_not_complementable(*inputs, op=None):
    """F-075 in pycute: the complement (or the divisor's complement in size(A)) does not exist
    in CuTe's sense, and pycute (its model) computes one anyway: a layout, or a shape with a
    0 entry that the adapter reports as an invalid answer (oracles.protocol.INVALID_ANSWER)."""
    inside = (not_complementable_cute(*inputs) if op == "complement"
              else product_not_complementable(*inputs) if op.endswith("_product")
              else _divisor_not_complementable(*inputs))
    if not inside:
        return False
    import layoutcheck.oracles.pycute.model as models
    from layoutcheck.oracles.protocol import is_invalid_answer
    out = models.answer(op, *inputs)
    return _pycute_model(op, *inputs) is not None or (out is not None and is_invalid_answer(out))


def _divisor_not_complementable(*inputs):  # the predicate lives in layoutcheck.findings
    from layoutcheck.findings import PREDICATES
    return PREDICATES["divide_divisor_not_complementable"](*inputs)


@predicate
def tiler_is_not_layout(A=None, T=None, *rest):
    """F-051: the tiler is a bare int or a Tile tuple, not one layout (the DSL's
    zipped_product / tiled_product are typed ``tiler: Layout``)."""
    return isinstance(T, (int, tuple))
