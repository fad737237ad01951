"""Predicates that recognise the oracle findings F-040..F-069 of findings.toml.

Each takes a counterexample's inputs (the op's neutral arguments) and is registered in
``layoutcheck.findings.PREDICATES`` under its name, the finding's ``match.when``.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.findings import predicate
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
def dynamic_zero_stride_in_tiler(A=None, B=None, *rest):
    """The second argument has a dynamic stride 0 (CuTe C++ divides by it at run time)."""
    return any(not isinstance(v, C) and v == 0 for v in _ints(B, strides_only=True))


@predicate
def dynamic_and_not_composable(A=None, B=None, *rest):
    """Dynamic integers, and the paper's composition of A and B does not exist."""
    if B is None or not has_dynamic_integer(A, B):
        return False
    from layoutcheck import spec
    try:
        spec.composition(A, B)
    except LayoutError:
        return True
    return False


@predicate
def empty_layout(L=None, *rest):
    """L is ``():()``."""
    return isinstance(L, LayoutBase) and L.shape == ()


@predicate
def beyond_size_not_coalesced(A=None, B=None, *rest):
    """B reaches past size(A) and A is not written coalesced (CuTe extends A's last
    written mode, pycute and the spec's CuTe reading extend coalesce(A)'s)."""
    if not isinstance(A, LayoutBase) or not isinstance(B, LayoutBase):
        return False
    from layoutcheck import spec
    return max(spec.values(B)) >= spec.size(A) and spec.coalesce(A) != A


@predicate
def tiler_is_tuple(A=None, T=None, *rest):
    """The second argument is a CuTe Tile (a tuple of layouts / ints), not one layout."""
    return isinstance(T, tuple)


@predicate
def tile_has_dynamic_multimode_layout(A=None, T=None, *rest):
    """A layout of the tiler has more than one flat mode and a dynamic stride (CuTe C++'s
    complement, used by the divides, static_asserts on those)."""
    def layouts(t):
        if isinstance(t, LayoutBase):
            return [t]
        return [x for e in t for x in layouts(e)] if isinstance(t, tuple) else []
    return any(len(leaves(L.shape)) > 1 and has_dynamic_stride(L) for L in layouts(T))


@predicate
def tuple_tiler_shorter_than_layout(A, B=None, *rest):
    """F-120: composition(A, T) with a tuple tiler of fewer modes than A."""
    return isinstance(B, tuple) and isinstance(getattr(A, "shape", None), tuple) and len(B) < len(A.shape)


@predicate
def rank_one_leaf_and_tuple(A, B=None, *rest):
    """F-121: blocked/raked_product of a rank-1 leaf layout and a rank-1 tuple layout."""
    if not (isinstance(A, LayoutBase) and isinstance(B, LayoutBase)):
        return False

    def r(L):
        return len(L.shape) if isinstance(L.shape, tuple) else 0

    return {r(A), r(B)} == {0, 1}
