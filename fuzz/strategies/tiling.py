"""Hypothesis strategies of the arguments of CuTe's tiling helpers: make_ordered_layout,
tile_to_shape, local_tile and the partitions, TiledCopy, zip, group_modes."""

import layoutcheck.fuzz.strategies.algebra as S
from hypothesis import assume
from hypothesis import strategies as st
from layoutcheck.fuzz.strategies.recast import compact_layout
from layoutcheck.fuzz.strategies.swizzle import atom_layouts, maybe_static, swizzles

from layoutcheck.composed import ComposedLayoutBase
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["ordered_layout_args", "tile_to_shape_args", "partition_args", "outer_partition_args", "local_partition_args", "tiled_copy_args", "zip_args", "group_args"]



@st.composite
def ordered_layout_args(draw):
    """(shape, order): order congruent or coarser than the shape; static orders, dynamic
    ones ("considered large"), and ties."""
    shape = draw(S.shapes(max_size=256, max_leaves=4))
    if not isinstance(shape, tuple):
        return shape, maybe_static(draw, draw(st.integers(0, 3)))
    k = len(shape)
    values = draw(st.permutations(range(k))) if draw(st.integers(0, 3)) else \
        [draw(st.integers(0, 3)) for _k in range(k)]
    return shape, tuple(maybe_static(draw, v, None if draw(st.integers(0, 3)) == 0 else True)
                        for v in values)


@st.composite
def tile_to_shape_args(draw):
    """(block, target shape[, order]): per-mode multiples of the block (sometimes not)."""
    block = draw(st.one_of(atom_layouts(), S.layouts(max_size=16, max_leaves=3, static=True)))
    modes = block.shape if isinstance(block.shape, tuple) else (block.shape,)
    R = len(modes) + draw(st.integers(0, 1))
    target = []
    for i in range(R):
        b = 1
        for s in (leaves(modes[i]) if i < len(modes) else (1,)):
            b *= int(s)
        m = draw(st.integers(1, 3))
        t = b * m if draw(st.integers(0, 7)) else b * m + 1
        target.append(C(t))
    if draw(st.booleans()):
        return block, tuple(target)
    order = tuple(C(v) for v in draw(st.permutations(range(R))))
    return block, tuple(target), order


@st.composite
def partition_args(draw):
    """(L, tiler, coord) for local_tile / inner_partition / outer_partition: a rank-2 (or 3)
    layout, a tuple of per-mode tile sizes dividing it, a coordinate (tuple or int)."""
    k = draw(st.integers(1, 3))
    tile = [1 << draw(st.integers(0, 2)) for _k in range(k)]
    rest = [draw(st.integers(1, 3)) for _k in range(k)]
    shape = tuple(C(t * r) for t, r in zip(tile, rest))
    order = draw(st.permutations(range(k)))
    s, d = compact_layout([int(x) for x in shape], order, True)
    L = LayoutBase(s, d)
    tiler = tuple(C(t) for t in tile)
    if draw(st.booleans()):
        coord = tuple(draw(st.integers(0, r - 1)) for r in rest)
    else:
        n = 1
        for r in rest:
            n *= r
        coord = draw(st.integers(0, n - 1))
    return L, tiler, coord


@st.composite
def outer_partition_args(draw):
    """(L, tiler, coord) for outer_partition: the coordinate indexes the tile (a tuple of the
    tiler's rank, or one integer below the tile's size)."""
    L, tiler, _c = draw(partition_args())
    if draw(st.booleans()):
        return L, tiler, tuple(draw(st.integers(0, int(t) - 1)) for t in tiler)
    n = 1
    for t in tiler:
        n *= int(t)
    return L, tiler, draw(st.integers(0, n - 1))


@st.composite
def local_partition_args(draw):
    """(L, thread layout, thread index): the thread layout's shape divides L's per mode."""
    k = draw(st.integers(1, 2))
    thr = [1 << draw(st.integers(0, 2)) for _k in range(k)]
    per = [draw(st.integers(1, 3)) for _k in range(k)]
    shape = [t * p for t, p in zip(thr, per)]
    s, d = compact_layout(shape, draw(st.permutations(range(k))), True)
    ts, td = compact_layout(thr, draw(st.permutations(range(k))), True)
    n = 1
    for t in thr:
        n *= t
    return LayoutBase(s, d), LayoutBase(ts, td), draw(st.integers(0, n - 1))


@st.composite
def tiled_copy_args(draw):
    """(tensor layout, thr_layout, val_layout, thread index) for a TiledCopy of the universal
    atom: thread and value layouts (Tm, Tn), (Vm, Vn) of powers of two, row- or column-major
    (static: make_tiled_copy takes static layouts); a rank-2 tensor whose modes the tiler
    (Tm*Vm, Tn*Vn) divides, compact in either order, mostly swizzled (``Sw o 0 o L``, as a
    shared-memory tile is; #3160's case is Sw<4,0,4> over 64x16 with 8x8 threads)."""
    thr = [1 << draw(st.integers(0, 3)) for _k in range(2)]
    val = [1 << draw(st.integers(0, 2)) for _k in range(2)]
    rest = [draw(st.integers(1, 3)) for _k in range(2)]
    shape = [t * v * r for t, v, r in zip(thr, val, rest)]
    assume(shape[0] * shape[1] <= 1024)  # within the evaluation bound of any inputs (MIN_BOUND)
    ts, td = compact_layout(thr, draw(st.permutations(range(2))), True)
    vs, vd = compact_layout(val, draw(st.permutations(range(2))), True)
    s, d = compact_layout(shape, draw(st.permutations(range(2))), True)
    L = LayoutBase(s, d)
    if draw(st.integers(0, 3)):
        off = C(0) if draw(st.integers(0, 5)) else C(draw(st.integers(1, 64)))
        L = ComposedLayoutBase(draw(swizzles(max_span=9)), off, L)
    index = draw(st.integers(0, thr[0] * thr[1] - 1))
    return L, LayoutBase(ts, td), LayoutBase(vs, vd), index


@st.composite
def zip_args(draw):
    """A layout whose modes are tuples of one rank (zip transposes them), or not."""
    r0, r1 = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    shape = tuple(tuple(C(draw(st.integers(1, 3))) for _j in range(r1)) for _i in range(r0))
    stride = tuple(tuple(C(draw(st.integers(0, 16))) for _j in range(r1)) for _i in range(r0))
    L = LayoutBase(shape, stride)
    if draw(st.integers(0, 4)) == 0:
        L = draw(S.layouts(max_size=64, max_leaves=4))
    return (L,)


@st.composite
def group_args(draw):
    L = draw(S.layouts(max_size=128, max_leaves=4))
    r = len(L.shape) if isinstance(L.shape, tuple) else 1
    b = draw(st.integers(0, r))
    return L, b, draw(st.integers(b, r))
