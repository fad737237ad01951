"""Tiling helpers: the fast implementation (same API as spec/tiling.py).

make_ordered_layout sorts the modes by order once and hands out strides as running products
over groups of equal order (where spec/tiling.py re-multiplies the smaller orders for every
mode, as stride.hpp's compact_order does); the partitions use impl's zipped_divide and
slice_and_offset.  The tiled copy (universal one-element atom) builds its TV layout as the
spec does (raked_product, right_inverse, with_shape) and slices the tile with one
composition: the tile mode of zipped_divide(L, tiler) composed with the coalesced thread and
value modes, the thread's slice taken there (no unfolded rank-3 layout in between).
"""

from layoutcheck.impl import layout as T
from layoutcheck.impl.algebra import coalesce, right_inverse
from layoutcheck.impl.compose import composition
from layoutcheck.impl.coords import crd2idx, idx2crd, slice_and_offset
from layoutcheck.impl.divide import blocked_product, raked_product, zipped_divide
from layoutcheck.impl.layout import Layout, as_layout, values
from layoutcheck.impl.recast import compact_col_major
from layoutcheck.impl.swizzle import ComposedLayout, as_composed

from layoutcheck.composed import ComposedLayoutBase
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import _

__all__ = ["product_each", "make_ordered_layout", "make_layout_like", "tile_to_shape",
           "inner_partition", "outer_partition", "local_tile", "local_partition", "zip_layout",
           "group_modes", "make_tiled_copy", "tiled_copy_tidfrg", "tiled_copy_partition_S",
           "tiled_copy_partition_D"]


def _check(t, what, lo=0):
    if isinstance(t, tuple):
        for x in t:
            _check(x, what, lo)
    elif isinstance(t, bool) or not isinstance(t, int) or t < lo:
        raise LayoutError(f"{what} entry {t!r} is not an integer >= {lo}", condition="in_domain")
    return t


def _size(t):
    return T.size(t) if isinstance(t, tuple) else t


def product_each(t):
    _check(t, "product_each")
    return tuple(_size(m) for m in (t if isinstance(t, tuple) else (t,)))


def _collapse(shape, order):
    if isinstance(order, tuple):
        if not isinstance(shape, tuple) or len(shape) != len(order):
            raise LayoutError(f"the order {order} does not fit the shape {shape}",
                              condition="congruent")
        return tuple(_collapse(s, o) for s, o in zip(shape, order))
    return _size(shape)


def _leaves(t):
    return [x for e in t for x in _leaves(e)] if isinstance(t, tuple) else [t]


def _ordered_strides(shape, order):
    sizes = _leaves(_collapse(shape, order))
    orders = _leaves(order)
    top = max([int(o) for o in orders if isinstance(o, C)] + [0])
    keys = [int(o) if isinstance(o, C) else top + 1 + k for k, o in enumerate(orders)]
    starts, run, k = [None] * len(keys), C(1), 0
    ranked = sorted(range(len(keys)), key=lambda i: keys[i])
    while k < len(ranked):           # one group of equal keys: they all start at `run`
        j = k
        while j < len(ranked) and keys[ranked[j]] == keys[ranked[k]]:
            starts[ranked[j]] = run
            j += 1
        for i in ranked[k:j]:
            run = run * sizes[i]
        k = j
    it = iter(starts)

    def go(s, o):
        if isinstance(o, tuple):
            return tuple(go(x, y) for x, y in zip(s, o))
        return compact_col_major(s, next(it))
    return go(shape, order)


def make_ordered_layout(shape, order):
    _check(shape, "shape", 1)
    _check(order, "order")
    return Layout(shape, _ordered_strides(shape, order))


def _ones_where_zero(stride, shape):
    if isinstance(stride, tuple):
        return tuple(_ones_where_zero(d, s) for d, s in zip(stride, shape))
    if isinstance(stride, C) and stride == 0:
        return tuple(_ones_where_zero(C(0), x) for x in shape) if isinstance(shape, tuple) else C(1)
    return shape


def make_layout_like(L):
    L = as_layout(L)
    return Layout(L.shape, _ordered_strides(_ones_where_zero(L.stride, L.shape), L.stride))


def tile_to_shape(block, trg_shape, order=None):
    block = as_layout(block)
    _check(trg_shape, "target shape", 1)
    modes = block.shape if isinstance(block.shape, tuple) else (block.shape,)
    R = len(trg_shape) if isinstance(trg_shape, tuple) else 1
    if len(modes) > R:
        raise LayoutError(f"tile_to_shape: rank({block}) > rank({trg_shape})", condition="rank")
    strides = block.stride if isinstance(block.stride, tuple) else (block.stride,)
    shapes = tuple(modes) + (C(1),) * (R - len(modes))
    padded = Layout(shapes, tuple(strides) + (C(0),) * (R - len(modes)))
    bsz, tsz = product_each(shapes), product_each(trg_shape)
    if all(isinstance(x, C) for x in tsz) and any(int(t) % int(b) for t, b in zip(tsz, bsz)):
        raise LayoutError(f"tile_to_shape: {block} does not divide {trg_shape}",
                          condition="divisibility")
    q = tuple((t + b - C(1)) // b for t, b in zip(tsz, bsz))
    tiler = Layout(q, compact_col_major(q)) if order is None else make_ordered_layout(q, order)
    return blocked_product(padded, tiler, sense="cute")


def _under(n):
    return _ if n == 1 else (_,) * n


def _rank(s):
    return len(s) if isinstance(s, tuple) else 1


def _padded(c, n):
    if len(c) > n:
        raise LayoutError(f"the coordinate {c} has more than {n} entries", condition="congruent")
    return tuple(c) + (_,) * (n - len(c))


def inner_partition(L, tiler, coord):
    Z = zipped_divide(as_layout(L), tiler, sense="cute")
    r0, r1 = _rank(Z.shape[0]), _rank(Z.shape[1])
    return slice_and_offset(Z, (_under(r0), _padded(coord, r1) if isinstance(coord, tuple) else coord))


def outer_partition(L, tiler, coord):
    Z = zipped_divide(as_layout(L), tiler, sense="cute")
    r0, r1 = _rank(Z.shape[0]), _rank(Z.shape[1])
    return slice_and_offset(Z, (_padded(coord, r0) if isinstance(coord, tuple) else coord, _under(r1)))


def local_tile(L, tiler, coord):
    return inner_partition(L, tiler, coord)


def local_partition(L, thr_layout, index):
    thr = as_layout(thr_layout)
    n = _size(thr.shape)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
        raise LayoutError(f"thread index {index!r} is outside [0, {n})", condition="in_domain")
    hier = idx2crd(index, thr.shape, thr.stride)
    if not isinstance(thr.shape, tuple):
        return outer_partition(L, product_each(thr.shape), crd2idx(hier, thr.shape))
    flat = tuple(crd2idx(c, s) for c, s in zip(hier, thr.shape))
    return outer_partition(L, product_each(thr.shape), flat)


def _transpose(t):
    if not isinstance(t, tuple):
        return t
    if not t:
        raise LayoutError("zip of the empty tuple", condition="congruent")
    if not isinstance(t[0], tuple):
        return (t,)
    if any(not isinstance(x, tuple) or len(x) != len(t[0]) for x in t):
        raise LayoutError(f"zip of {t}: mismatched ranks", condition="congruent")
    return tuple(zip(*t))


def zip_layout(L):
    L = as_layout(L)
    return Layout(_transpose(L.shape), _transpose(L.stride))


def group_modes(L, b, e):
    L = as_layout(L)
    s = L.shape if isinstance(L.shape, tuple) else (L.shape,)
    d = L.stride if isinstance(L.stride, tuple) else (L.stride,)
    if not (isinstance(b, int) and isinstance(e, int) and 0 <= b <= e <= len(s)):
        raise LayoutError(f"group<{b},{e}> of a rank-{len(s)} layout", condition="in_domain")
    mid_s, mid_d = ((s[b:e],), (d[b:e],)) if b < e else ((), ())
    return Layout(s[:b] + mid_s + s[e:], d[:b] + mid_d + d[e:])


# --- TiledCopy, universal one-element atom (atom/copy_atom.hpp; see spec/tiling.py) ----------

def _bijective(L, what):
    L = as_layout(L)
    if not all(isinstance(x, C) for x in _leaves(L.shape) + _leaves(L.stride)):
        raise LayoutError(f"make_tiled_copy: the {what} layout {L} is not static", condition="static")
    n = _size(L.shape)
    if sorted(values(L)) != list(range(n)):
        raise LayoutError(f"make_tiled_copy: the {what} layout {L} is not a bijection onto "
                          f"[0, {n})", condition="tiled_copy")
    return L


def make_tiled_copy(thr_layout, val_layout):
    thr, val = _bijective(thr_layout, "thread"), _bijective(val_layout, "value")
    mn = raked_product(thr, val, sense="cute")
    nt, nv = _size(thr.shape), _size(val.shape)
    R = right_inverse(mn)
    if _size(R.shape) != nt * nv:
        raise LayoutError(f"make_tiled_copy: raked_product({thr}, {val}) = {mn} is not onto "
                          f"[0, {nt * nv})", condition="tiled_copy")
    tv = composition(R, Layout((C(nt), C(nv)), (C(1), C(nt))), sense="cute")
    return tv, product_each(mn.shape if isinstance(mn.shape, tuple) else (mn.shape,))


def _thrval2mn(tv):
    """coalesce(zip(zipped_divide(TV, (1, 1))), (1, (1, 1))): the atom's block is one thread and
    one value, so this is (coalesce(thread mode), (_1:_0, coalesce(value mode)))."""
    t = coalesce(Layout(tv.shape[0], tv.stride[0]))
    v = coalesce(Layout(tv.shape[1], tv.stride[1]))
    return Layout((t.shape, (C(1), v.shape)), (t.stride, (C(0), v.stride)))


def tiled_copy_tidfrg(L, thr_layout, val_layout):
    L = as_layout(L)
    tv, tiler = make_tiled_copy(thr_layout, val_layout)
    if _rank(L.shape) < len(tiler):
        raise LayoutError(f"tiled copy: rank({L}) < rank of the tiler {tiler}", condition="rank")
    Z = zipped_divide(L, tiler, sense="cute")
    tile = composition(Layout(Z.shape[0], Z.stride[0]), _thrval2mn(tv), sense="cute")
    return Layout((tile.shape[0], tile.shape[1], Z.shape[1]),
                  (tile.stride[0], tile.stride[1], Z.stride[1]))


def _partition(L, thr_layout, val_layout, index):
    frg = tiled_copy_tidfrg(L, thr_layout, val_layout)
    n = _size(as_layout(thr_layout).shape)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
        raise LayoutError(f"thread index {index!r} is outside [0, {n})", condition="in_domain")
    return slice_and_offset(frg, (index, _, _under(_rank(as_layout(L).shape))))


def tiled_copy_partition_D(L, thr_layout, val_layout, index):
    if isinstance(L, ComposedLayoutBase):
        Cl = as_composed(L)
        sliced, off = _partition(Cl.inner, thr_layout, val_layout, index)
        return ComposedLayout(Cl.outer, Cl.offset + off, sliced), C(0)
    return _partition(L, thr_layout, val_layout, index)


def tiled_copy_partition_S(L, thr_layout, val_layout, index):
    return tiled_copy_partition_D(L, thr_layout, val_layout, index)
