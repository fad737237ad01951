"""Predicates that recognise the fuzzer's known findings (F-070..F-089 in findings.toml).

Each predicate takes a counterexample's inputs and says whether a finding explains it; it is
registered in ``layoutcheck.findings.PREDICATES`` under its name (the finding's
``match.when``).  They decide with the spec (CuTe's sense where the spec has it).
"""

from layoutcheck.errors import LayoutError
from layoutcheck.findings import predicate
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


@predicate
def product_not_composable(A, B=None, *rest):
    """The spec (CuTe's sense) rejects logical_product(A, B): comp(A, size(A) cosize(B))
    and B are not composable, or A is not complementable there."""
    return B is not None and _raises(_spec().logical_product, A, B, sense="cute")


@predicate
def not_complementable(L, *rest):
    """L is not complementable (Def 2.1.6.11), so CuTe's left_inverse construction (through
    complement) does not apply."""
    return not _spec().is_complementable(L)


@predicate
def not_complementable_cute(L, N=None, *rest):
    """complement(L, N) is undefined in CuTe's sense (the spec's is_complementable)."""
    return not _spec().is_complementable(L, N, sense="cute")


@predicate
def product_stride_divisibility_fails(A, B=None, *rest):
    """logical_product(A, B) composes comp(A, size(A) cosize(B)) with B: that inner
    composition fails pycute's stride-divisibility condition (F-070)."""
    if B is None:
        return False
    spec = _spec()
    B = LayoutBase(B) if isinstance(B, int) else B
    if not isinstance(A, LayoutBase) or not isinstance(B, LayoutBase):
        return False
    try:
        comp = spec.complement(A, spec.size(A) * spec.cosize(B), sense="cute")
    except LayoutError:
        return False
    return stride_divisibility_fails(comp, B)


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
