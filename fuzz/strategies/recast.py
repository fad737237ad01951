"""Hypothesis strategies of the arguments of recast and vectorization: upcast, downcast,
recast_layout, max_common_vector / max_common_layout, nullspace."""

import layoutcheck.fuzz.strategies.algebra as S
from hypothesis import strategies as st
from layoutcheck.fuzz.strategies.swizzle import atom_layouts

from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

__all__ = ["recast_args", "recast_layout_args", "vector_pairs", "nullspace_args", "sliced_tiles"]



@st.composite
def sliced_tiles(draw, static=True):
    """A tile sliced out of a padded matrix, whose size-1 modes keep the matrix's strides: a
    row ``(1,W):(P,1)`` or a column ``(W,1):(1,P)`` of a matrix with rows P >= W apart (P = W + 1
    or + 2 is the usual padding against bank conflicts), or one row of a batch of them
    ``(1,W,1):(P,1,Q)`` (Q >= H P)."""
    W = draw(st.sampled_from([8, 4, 16, 32, 6]))
    P = W + draw(st.sampled_from([1, 0, 2, 4, 3]))
    mk = C if static else int
    how = draw(st.integers(0, 2))
    if how == 0:
        shape, stride = (1, W), (P, 1)
    elif how == 1:
        shape, stride = (W, 1), (1, P)
    else:
        shape, stride = (1, W, 1), (P, 1, P * draw(st.sampled_from([2, 4, 3])) + draw(st.integers(0, 1)))
    return LayoutBase(tuple(mk(x) for x in shape), tuple(mk(x) for x in stride))


@st.composite
def recast_args(draw):
    """(L, N): static strides that are multiples or divisors of N (and some that are not),
    dynamic ones, zero strides, and (two shares: what a kernel vectorises most) slices of a
    padded matrix, whose size-1 modes keep its pitch."""
    N = 1 << draw(st.integers(0, 3))
    L = draw(st.one_of(atom_layouts(), atom_layouts(False), S.layouts(max_size=256, max_leaves=4),
                       sliced_tiles(), sliced_tiles()))
    return L, N


@st.composite
def recast_layout_args(draw):
    bits = [1, 2, 4, 8, 16, 32, 64, 128]
    L = draw(st.one_of(atom_layouts(), S.layouts(max_size=256, max_leaves=4, static=True),
                       sliced_tiles()))
    return L, draw(st.sampled_from(bits)), draw(st.sampled_from(bits))


def compact_layout(shape, order, static):
    """A compact layout of the flat ``shape`` whose modes are laid out in ``order``."""
    strides, run = [0] * len(shape), 1
    for i in order:
        strides[i] = run
        run *= shape[i]
    mk = C if static else int
    return tuple(mk(s) for s in shape), tuple(mk(d) for d in strides)


@st.composite
def vector_pairs(draw):
    """(A, B) for max_common_vector / max_common_layout: one shape, two mode orders of compact
    layouts (a vectorized copy between two tensors), sometimes regrouped, broadcast (zero
    strides), padded (non-compact) or an unrelated pair."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        small = S.layouts(max_size=64, max_leaves=3)
        return draw(small), draw(small)
    k = draw(st.integers(1, 4))
    shape = [draw(st.sampled_from([1, 2, 2, 3, 4, 4, 8])) for _k in range(k)]
    static = draw(st.booleans()) if kind != 1 else False
    orders = [draw(st.permutations(range(k))) for _k in range(2)]
    (sa, da), (sb, db) = compact_layout(shape, orders[0], static), compact_layout(shape, orders[1], static)
    if kind == 2:  # broadcast a mode of B
        i = draw(st.integers(0, k - 1))
        db = db[:i] + (C(0),) + db[i + 1:]
    if kind == 3:  # pad A (a row pitch larger than the row)
        i = draw(st.integers(0, k - 1))
        da = tuple(d * 2 if j != i and int(d) > 1 else d for j, d in enumerate(da))
    A, B = LayoutBase(sa, da), LayoutBase(sb, db)
    if kind == 4 and k >= 2:  # B grouped differently (same function, other nesting)
        B = LayoutBase((sb[:2],) + sb[2:], (db[:2],) + db[2:])
    return A, B


def nullspace_args():
    return st.tuples(st.one_of(S.layouts(max_size=256, static=True),
                               S.layouts(max_size=256, max_leaves=4)))
