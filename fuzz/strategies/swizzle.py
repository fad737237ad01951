"""Hypothesis strategies for issue 16's operations: swizzles, composed layouts, F2 layouts,
bank-conflict access patterns, recast / vectorization pairs and tiling arguments.

Each strategy draws argument tuples in the neutral form (layoutcheck/composed.py values,
``LayoutBase``, tilers, coordinates with ``_``), shrinking toward small spans and sizes.  Two
families on purpose: the realistic ones (CuTe's swizzle atoms ``Sw<B,M,S> o (2^a, 2^b)`` in
row- or column-major, compact layouts of one shape in two mode orders for vectorized copies)
and the awkward ones (negative shifts, offsets, non-power-of-two inner layouts, zero strides,
dynamic integers, tied orders).
"""

import layoutcheck.fuzz.strategies.algebra as S
import layoutcheck.fuzz.strategies.coordinates as CS
from hypothesis import assume
from hypothesis import strategies as st

from layoutcheck.composed import ComposedLayoutBase, F2Layout, Swizzle
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["swizzles", "swizzle_args", "composed_layouts", "atom_layouts", "f2_layouts",
           "composed_tiler_args", "composed_slice_args", "composed_cast_args", "bank_args",
           "recast_args", "recast_layout_args", "vector_pairs", "nullspace_args",
           "ordered_layout_args", "tile_to_shape_args", "partition_args", "outer_partition_args",
           "local_partition_args", "tiled_copy_args",
           "zip_args", "group_args", "swizzle_layout_args", "layout_swizzle_args"]

MAX_SPAN = 11


def _maybe_static(draw, v, static=None):
    s = draw(st.booleans()) if static is None else static
    return C(v) if s else int(v)


@st.composite
def swizzles(draw, max_span=MAX_SPAN, min_bits=0):
    """``Swizzle<B,M,S>`` with B + M + |S| <= max_span and |S| >= B (CuTe's rule)."""
    B = draw(st.integers(min_bits, 3))
    M = draw(st.integers(0, max(0, min(4, max_span - 2 * B))))
    room = max_span - B - M
    assume(room >= B)
    mag = draw(st.integers(B, max(B, min(room, B + 4))))
    sign = draw(st.sampled_from([1, 1, 1, -1])) if mag else 1
    return Swizzle(B, M, sign * mag)


def swizzle_args():
    return st.tuples(swizzles(), st.integers(0, 1 << 12))


@st.composite
def atom_layouts(draw, static=True):
    """CuTe's shared-memory atoms: (rows, cols) powers of two, row- or column-major,
    sometimes tiled twice (``tile_to_shape``-like ((r, R), c))."""
    r = 1 << draw(st.integers(0, 4))
    c = 1 << draw(st.integers(1, 6))
    assume(r * c <= 1024)
    if draw(st.booleans()):
        shape, stride = (r, c), (c, 1)
    else:
        shape, stride = (r, c), (1, r)
    mk = (lambda t: tuple(C(x) for x in t)) if static else (lambda t: tuple(int(x) for x in t))
    return LayoutBase(mk(shape), mk(stride))


def _inner(static=None):
    return st.one_of(atom_layouts(static=True), atom_layouts(static=False),
                     S.layouts(max_size=256, max_leaves=4, static=static))


@st.composite
def composed_layouts(draw, offset=True, layout_outer=True, inner=None):
    """``Sw<B,M,S> o O o L`` (mostly O = _0 and L a swizzle atom), sometimes a layout as the
    outer function or a non-zero offset."""
    L = draw(inner if inner is not None else _inner())
    if layout_outer and draw(st.integers(0, 9)) == 0:
        outer = draw(S.layouts(max_size=64, max_leaves=3))
    else:
        outer = draw(swizzles())
    off = C(0)
    if offset and draw(st.integers(0, 5)) == 0:
        off = _maybe_static(draw, draw(st.integers(1, 64)))
    return ComposedLayoutBase(outer, off, L)


@st.composite
def f2_layouts(draw):
    """Layouts with F2 strides: power-of-two modes mostly (where F2 and Z coordinates
    agree), F2 strides up to 255."""
    k = draw(st.integers(1, 4))
    shape = tuple(C(1 << draw(st.integers(0, 3))) if draw(st.integers(0, 5)) else
                  C(draw(st.integers(1, 5))) for _k in range(k))
    stride = tuple(C(draw(st.integers(0, 255))) for _k in range(k))
    return F2Layout(shape, stride)


@st.composite
def composed_tiler_args(draw):
    Cl = draw(composed_layouts())
    return Cl, draw(S.tilers(Cl.inner))


@st.composite
def composed_slice_args(draw):
    Cl = draw(composed_layouts(inner=st.one_of(atom_layouts(), atom_layouts(False),
                                               S.layouts(max_size=128, max_leaves=3))))
    return Cl, draw(CS.coordinate_for(Cl.inner.shape, underscore=True,
                                      need_underscore=draw(st.booleans())))


@st.composite
def composed_cast_args(draw):
    Cl = draw(composed_layouts(layout_outer=False))
    return Cl, 1 << draw(st.integers(0, 3))


@st.composite
def _warp(draw, n):
    """A thread layout of size 32 (one warp) into a domain of n indices."""
    a = 1 << draw(st.integers(0, 5))
    b = 32 // a
    sa = draw(st.sampled_from([1, 2, 4, 8, 16, 32, 64, 3]))
    sb = draw(st.sampled_from([1, 2, 4, 8, 16, 32, 64, 128, 5]))
    L = LayoutBase((C(a), C(b)), (C(sa), C(sb))) if b > 1 else LayoutBase(C(a), C(sa))
    assume((a - 1) * sa + (b - 1) * (sb if b > 1 else 0) < n)
    return L


@st.composite
def bank_args(draw):
    """(shared-memory layout, warp thread layout, element bytes): swizzle atoms (plain or
    swizzled) and the warp's rows, columns, and 16-byte (ldmatrix-like) patterns."""
    inner = draw(st.one_of(atom_layouts(), S.layouts(max_size=512, max_leaves=3)))
    n = 1
    for s in leaves(inner.shape):
        n *= int(s)
    assume(n >= 32)
    smem = inner if draw(st.integers(0, 3)) == 0 else \
        ComposedLayoutBase(draw(swizzles()), C(0), inner)
    return smem, draw(_warp(n)), draw(st.sampled_from([1, 2, 4, 8, 16]))


@st.composite
def recast_args(draw):
    """(L, N): static strides that are multiples or divisors of N (and some that are not),
    dynamic ones, zero strides."""
    N = 1 << draw(st.integers(0, 3))
    L = draw(st.one_of(atom_layouts(), atom_layouts(False), S.layouts(max_size=256, max_leaves=4)))
    return L, N


@st.composite
def recast_layout_args(draw):
    bits = [1, 2, 4, 8, 16, 32, 64, 128]
    L = draw(st.one_of(atom_layouts(), S.layouts(max_size=256, max_leaves=4, static=True)))
    return L, draw(st.sampled_from(bits)), draw(st.sampled_from(bits))


def _compact(shape, order, static):
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
    (sa, da), (sb, db) = _compact(shape, orders[0], static), _compact(shape, orders[1], static)
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


@st.composite
def ordered_layout_args(draw):
    """(shape, order): order congruent or coarser than the shape; static orders, dynamic
    ones ("considered large"), and ties."""
    shape = draw(S.shapes(max_size=256, max_leaves=4))
    if not isinstance(shape, tuple):
        return shape, _maybe_static(draw, draw(st.integers(0, 3)))
    k = len(shape)
    values = draw(st.permutations(range(k))) if draw(st.integers(0, 3)) else \
        [draw(st.integers(0, 3)) for _k in range(k)]
    return shape, tuple(_maybe_static(draw, v, None if draw(st.integers(0, 3)) == 0 else True)
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
    s, d = _compact([int(x) for x in shape], order, True)
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
    s, d = _compact(shape, draw(st.permutations(range(k))), True)
    ts, td = _compact(thr, draw(st.permutations(range(k))), True)
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
    ts, td = _compact(thr, draw(st.permutations(range(2))), True)
    vs, vd = _compact(val, draw(st.permutations(range(2))), True)
    s, d = _compact(shape, draw(st.permutations(range(2))), True)
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


@st.composite
def swizzle_layout_args(draw):
    return draw(swizzles()), draw(_inner())


@st.composite
def layout_swizzle_args(draw):
    """(L, Sw) for composition(Layout, Swizzle): power-of-two layouts (where CuTe's
    construction is meant to work) and general ones."""
    return draw(st.one_of(atom_layouts(), S.layouts(max_size=128, max_leaves=3))), draw(swizzles())
