"""Tiling helpers: the executable specification.

Sources, CuTe's documentation and headers (CUTLASS 4.2; the same on 4.7):
- ``product_each(t)`` (int_tuple.hpp): "a rank(t) tuple with get<i>(result) = product(get<i>(t))";
  an integer is wrapped first.
- ``make_ordered_layout(shape, order)`` (layout.hpp, stride.hpp ``compact_order``): "a compact
  layout with strides following the order induced by order"; each mode starts at the product
  of the (order-collapsed) modes of strictly smaller order and is column-major inside;
  "dynamic values in order are ignored, considered large, and considered ordered from left to
  right".  The doc examples: ``(_2,_2,_2,_2)`` by ``(_0,_2,_3,_1)`` is ``(_1,_4,_8,_2)``.
- ``make_layout_like(L)``: the same shape, compact strides in the order of L's strides, static
  zero strides kept ("Static-0 strides in the input layout are preserved").
- ``tile_to_shape(block, trg_shape, order)`` (layout.hpp): pad block to the target's rank, the
  target's per-mode sizes must be divisible by the block's (static case: "block shape does
  not divide the target shape"), then blocked_product(block, make_ordered_layout(quotient,
  order)) with LayoutLeft (column-major) as the default order.
- ``local_tile`` / ``inner_partition``, ``outer_partition``, ``local_partition`` (tensor_impl.hpp,
  and 03_tensor.md "Partitioning a Tensor"): zipped_divide(tensor, tiler) = ((tile),(rest));
  inner_partition keeps the tile and slices the rest with the coordinate (a tuple coordinate is
  padded with ``_``), outer_partition slices the tile and keeps the rest, local_partition is
  outer_partition by product_each(shape(thr_layout)) at thr_layout's flat coordinate of the
  thread index.  On a layout the result is what a tensor slice is: (the sub-layout, the offset
  its first element has), i.e. slice_and_offset.
- ``zip_layout`` (layout.hpp ``zip(layout)``, tuple_algorithms.hpp ``zip``): the transpose of a
  rank-R0 tuple of rank-R1 tuples (a tuple of non-tuples is wrapped), applied to shape and
  stride; ``group_modes(L, b, e)`` (``group<b,e>``): modes b..e-1 gathered into one mode.
- ``make_tiled_copy(atom, thr_layout, val_layout)`` and ``ThrCopy::partition_S / partition_D``
  (atom/copy_atom.hpp; the CuTe docs "0t_mma_atom" (TiledCopy) and "0x_gemm_tutorial"
  (``get_slice(threadIdx.x).partition_D(sA)`` as the (CPY, CPY_M, CPY_K) view)), for the
  universal copy atom of one element (``Copy_Atom<UniversalCopy<T>, T>``, the DSL's
  ``make_copy_atom(CopyUniversalOp(), T)``: one thread, one value, source = destination =
  reference, so its ref-to-target layout is the identity):
  layout_mn = raked_product(thr, val) maps an (m, n) coordinate of the tile to (thr_idx,
  val_idx); the TV layout is right_inverse(layout_mn).with_shape((size(thr), size(val))),
  i.e. composition(right_inverse(layout_mn), (T, V):(1, T)), mapping (thread, value) to the
  tile's (colexicographic) index; the tiler is product_each(shape(layout_mn)).
  tidfrg_S / tidfrg_D(L) = tile2thrfrg(zipped_divide(L, tiler)): the atom's (thr, val) block
  is split off the TV layout (zipped_divide(TV, (1, 1))), the two levels are transposed
  (zip) and coalesced by the profile (1, (1, 1)) into thrval2mn = (Thr, (FrgV, FrgX)); the
  tile mode of zipped_divide(L, tiler) is composed with it, the rest mode kept, and the
  result unfolded to (Thr, (FrgV, FrgX), (RestM, RestN, ...)).
  partition_S / partition_D(L) at thread t = that layout sliced at (t, _, (_, ..., _)) (one
  ``_`` per mode of L): the thread's (CPY, CPY_M, CPY_K, ...) view, as a tensor slice is
  (slice_and_offset); a swizzled ComposedLayout ``Sw o O o B`` is partitioned through B and
  keeps Sw, the slice's offset joining O (layout_composed.hpp's slice_and_offset).
"""

from layoutcheck.spec import tuples as T
from layoutcheck.spec.algebra import coalesce, composition, right_inverse
from layoutcheck.spec.coords import crd2idx, idx2crd, slice_and_offset
from layoutcheck.spec.division import append_to, blocked_product, raked_product, zipped_divide
from layoutcheck.spec.layout import Layout, as_layout
from layoutcheck.spec.limits import check_enumeration
from layoutcheck.spec.recast import compact_col_major
from layoutcheck.spec.swizzle import ComposedLayout, as_composed

from layoutcheck.composed import ComposedLayoutBase
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import _

__all__ = ["product_each", "make_ordered_layout", "make_layout_like", "tile_to_shape",
           "inner_partition", "outer_partition", "local_tile", "local_partition", "zip_layout",
           "group_modes", "make_tiled_copy", "tiled_copy_tidfrg", "tiled_copy_partition_S",
           "tiled_copy_partition_D"]


def _static(x):
    return isinstance(x, C)


def _int_tuple(t, what):
    if isinstance(t, tuple):
        return tuple(_int_tuple(x, what) for x in t)
    if isinstance(t, bool) or not isinstance(t, int) or t < 0:
        raise LayoutError(f"{what} entry {t!r} is not an integer >= 0", condition="in_domain")
    return t


def product_each(t):
    """(product(t_0), product(t_1), ...); an integer t is (t)."""
    t = _int_tuple(t, "product_each")
    modes = t if isinstance(t, tuple) else (t,)
    return tuple(T.size(m) for m in modes)


def _product_like(shape, order):
    """The product of shape's sub-tuples at the leaves of order (order's profile is coarser)."""
    if isinstance(order, tuple):
        if not isinstance(shape, tuple) or len(shape) != len(order):
            raise LayoutError(f"the order {order} does not fit the shape {shape}",
                              condition="congruent")
        return tuple(_product_like(s, o) for s, o in zip(shape, order))
    return T.size(shape)


def _compact_order(shape, order):
    """stride.hpp compact_order(shape, order), literally."""
    ref_shape = T.flatten(_product_like(shape, order))
    flat_order = T.flatten(order) if isinstance(order, tuple) else (order,)
    max_order = C(0)
    for o in flat_order:  # the largest static element (dynamic ones are "large")
        if _static(o) and o > max_order:
            max_order = o
    ref_order = tuple(o if _static(o) else C(int(max_order) + 1 + k)
                      for k, o in enumerate(flat_order))
    it = iter(ref_order)

    def unflatten(o):
        return tuple(unflatten(x) for x in o) if isinstance(o, tuple) else next(it)
    new_order = unflatten(order)

    def go(s, o):
        if isinstance(o, tuple):
            return tuple(go(x, y) for x, y in zip(s, o))
        start = C(1)
        for rs, ro in zip(ref_shape, ref_order):
            if ro < o:
                start = start * rs
        return compact_col_major(s, start)
    return go(shape, new_order)


def make_ordered_layout(shape, order):
    """``make_ordered_layout(shape, order)`` = make_layout(shape, compact_order(shape, order))."""
    shape = _int_tuple(shape, "shape")
    if any(int(x) < 1 for x in T.flatten(shape) if not isinstance(shape, int)) or \
            (not isinstance(shape, tuple) and int(shape) < 1):
        raise LayoutError(f"shape {shape} has an entry < 1", condition="in_domain")
    order = _int_tuple(order, "order")
    return Layout(shape, _compact_order(shape, order))


def _filter_zeros(stride, shape):
    """int_tuple.hpp filter_zeros(a, b): b with every entry paired with a static 0 of a made
    all-_1."""
    if isinstance(stride, tuple):
        return tuple(_filter_zeros(d, s) for d, s in zip(stride, shape))
    if _static(stride) and stride == 0:
        def ones(s):
            return tuple(ones(x) for x in s) if isinstance(s, tuple) else C(1)
        return ones(shape)
    return shape


def make_layout_like(L):
    """``make_layout_like(L)`` = make_layout(shape(L), compact_order(filter_zeros(stride(L),
    shape(L)), stride(L)))."""
    L = as_layout(L)
    return Layout(L.shape, _compact_order(_filter_zeros(L.stride, L.shape), L.stride))


def tile_to_shape(block, trg_shape, order=None):
    """``tile_to_shape(block, trg_shape[, order])`` (see the module docstring)."""
    block = as_layout(block)
    trg_shape = _int_tuple(trg_shape, "target shape")
    R = T.rank(trg_shape)
    if T.rank(block.shape) > R:
        raise LayoutError(f"tile_to_shape: rank({block}) > rank({trg_shape}) ('Rank of layout "
                          "must be <= rank of target shape')", condition="rank")
    padded = append_to(block, R)
    block_shape = product_each(padded.shape if isinstance(padded.shape, tuple) else (padded.shape,))
    target_shape = product_each(trg_shape)
    if all(_static(x) for x in T.flatten(target_shape)):
        for t, b in zip(target_shape, block_shape):
            if int(t) % int(b):
                raise LayoutError(f"tile_to_shape: the block {block} does not divide {trg_shape} "
                                  "('block shape does not divide the target shape')",
                                  condition="divisibility")
    quotient = tuple((t + b - C(1)) // b for t, b in zip(target_shape, block_shape))
    if order is None:
        tiler = Layout(quotient, compact_col_major(quotient))
    else:
        tiler = make_ordered_layout(quotient, order)
    return blocked_product(padded, tiler, sense="cute")


def repeat_underscore(n):
    return _ if n == 1 else tuple(_ for _k in range(n))


def pad_coordinate(coord, n):
    if len(coord) > n:
        raise LayoutError(f"the coordinate {coord} has more entries than the {n} modes it "
                          "slices", condition="congruent")
    return tuple(coord) + tuple(_ for _k in range(n - len(coord)))


def inner_partition(L, tiler, coord):
    """Keep the tile, slice the rest: zipped_divide(L, tiler)(repeat<R0>(_), coord) as
    (layout, offset)."""
    Z = zipped_divide(as_layout(L), tiler, sense="cute")
    r0, r1 = T.rank(Z.shape[0]), T.rank(Z.shape[1])
    c = pad_coordinate(coord, r1) if isinstance(coord, tuple) else coord
    return slice_and_offset(Z, (repeat_underscore(r0), c))


def outer_partition(L, tiler, coord):
    """Slice the tile, keep the rest: zipped_divide(L, tiler)(coord, repeat<R1>(_))."""
    Z = zipped_divide(as_layout(L), tiler, sense="cute")
    r0, r1 = T.rank(Z.shape[0]), T.rank(Z.shape[1])
    c = pad_coordinate(coord, r0) if isinstance(coord, tuple) else coord
    return slice_and_offset(Z, (c, repeat_underscore(r1)))


def local_tile(L, tiler, coord):
    """``local_tile(L, tiler, coord)`` = inner_partition."""
    return inner_partition(L, tiler, coord)


def local_partition(L, thr_layout, index):
    """``local_partition(L, thr, i)`` = outer_partition(L, product_each(shape(thr)),
    thr.get_flat_coord(i)), get_flat_coord(i) being idx2crd(i, shape, stride) turned into one
    index per top-level mode (crd2crd to (1,...,1))."""
    thr = as_layout(thr_layout)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < T.size(thr.shape):
        raise LayoutError(f"thread index {index!r} is outside [0, {T.size(thr.shape)})",
                          condition="in_domain")
    hier = idx2crd(index, thr.shape, thr.stride)
    shapes = thr.shape if isinstance(thr.shape, tuple) else (thr.shape,)
    hier = hier if isinstance(thr.shape, tuple) else (hier,)
    flat = tuple(crd2idx(c, s) for c, s in zip(hier, shapes))
    tiler = product_each(thr.shape)
    return outer_partition(L, tiler, flat if isinstance(thr.shape, tuple) else flat[0])


def _zip(t):
    if not isinstance(t, tuple):
        return t
    if not t:
        raise LayoutError("zip of the empty tuple", condition="congruent")
    if not isinstance(t[0], tuple):
        return (t,)
    if any(not isinstance(x, tuple) or len(x) != len(t[0]) for x in t):
        raise LayoutError(f"zip of {t}: its entries are not tuples of one rank ('Mismatched "
                          "Ranks')", condition="congruent")
    return tuple(tuple(x[j] for x in t) for j in range(len(t[0])))


def zip_layout(L):
    """``zip(L)`` = make_layout(zip(shape(L)), zip(stride(L)))."""
    L = as_layout(L)
    return Layout(_zip(L.shape), _zip(L.stride))


def group_modes(L, b, e):
    """``group<b,e>(L)``: the top-level modes b..e-1 of L gathered into one mode (0 <= b <= e
    <= rank); for b == e no mode is added (an integer-shaped L becomes its 1-tuple)."""
    L = as_layout(L)
    shape = L.shape if isinstance(L.shape, tuple) else (L.shape,)
    stride = L.stride if isinstance(L.stride, tuple) else (L.stride,)
    if not (isinstance(b, int) and isinstance(e, int) and 0 <= b <= e <= len(shape)):
        raise LayoutError(f"group<{b},{e}> of a rank-{len(shape)} layout", condition="in_domain")
    if b == e:  # CuTe adds the group only when b < e (tuple_algorithms.hpp: make_seq<(B < E)>)
        return Layout(shape, stride)
    return Layout(shape[:b] + (shape[b:e],) + shape[e:], stride[:b] + (stride[b:e],) + stride[e:])


# --- TiledCopy with the universal one-element atom (atom/copy_atom.hpp) --------------------

def _compact_bijection(L, what):
    """make_tiled_copy's thread / value layout: static (right_inverse's ``@pre is_static``;
    CuTe C++ static_asserts on a dynamic-stride composition) and a bijection onto [0, size)."""
    L = as_layout(L)
    if not all(_static(x) for x in T.flatten(L.shape) + T.flatten(L.stride)):
        raise LayoutError(f"make_tiled_copy: the {what} layout {L} is not static (right_inverse "
                          "requires a static layout)", condition="static")
    n = T.size(L.shape)
    check_enumeration(n, lambda: f"the {what} layout {L} of make_tiled_copy")
    if sorted(crd2idx(i, L.shape, L.stride) for i in range(n)) != list(range(n)):
        raise LayoutError(f"make_tiled_copy: the {what} layout {L} is not a bijection onto "
                          f"[0, {n}) (a thread or value index would be missed or doubled)",
                          condition="tiled_copy")
    return L


def make_tiled_copy(thr_layout, val_layout):
    """(TV layout, tiler) of ``make_tiled_copy(Copy_Atom<UniversalCopy<T>,T>{}, thr, val)``:
    layout_mn = raked_product(thr, val); TV = right_inverse(layout_mn) with the shape
    (size(thr), size(val)); tiler = product_each(shape(layout_mn))."""
    thr = _compact_bijection(thr_layout, "thread")
    val = _compact_bijection(val_layout, "value")
    layout_mn = raked_product(thr, val, sense="cute")          # (m, n) -> (thr_idx, val_idx)
    nt, nv = T.size(thr.shape), T.size(val.shape)
    R = right_inverse(layout_mn)
    if T.size(R.shape) != nt * nv:
        raise LayoutError(f"make_tiled_copy: raked_product({thr}, {val}) = {layout_mn} is not "
                          f"onto [0, {nt * nv})", condition="tiled_copy")
    tv = composition(R, Layout((C(nt), C(nv)), (C(1), C(nt))), sense="cute")  # with_shape
    shape = layout_mn.shape if isinstance(layout_mn.shape, tuple) else (layout_mn.shape,)
    return tv, product_each(shape)


def _unit(n):
    return tuple(C(1) for _k in range(n))


def tiled_copy_tidfrg(L, thr_layout, val_layout):
    """``TiledCopy::tidfrg_D(L)`` (= tidfrg_S for this atom) of a layout: (Thr, (FrgV, FrgX),
    (RestM, RestN, ...))."""
    L = as_layout(L)
    tv, tiler = make_tiled_copy(thr_layout, val_layout)
    if T.rank(L.shape) < len(tiler):
        raise LayoutError(f"tiled copy: rank({L}) < rank of the tiler {tiler} ('Rank of tensor to "
                          "be partitioned too small.')", condition="rank")
    atom_tv = zipped_divide(tv, _unit(2), sense="cute")     # ((atom_t, atom_v), (rest_t, rest_v))
    # the atom's ref-to-target layout is the identity: composing mode 0 with it changes nothing
    thrval2mn = coalesce(zip_layout(atom_tv), (C(1), (C(1), C(1))), sense="cute")
    Z = zipped_divide(L, tiler, sense="cute")               # ((TileM, TileN), (RestM, RestN, ...))
    tv_tensor = composition(Z, (thrval2mn, _), sense="cute")
    unfolded, _off = slice_and_offset(tv_tensor, ((_, _), _))
    return unfolded


def _partition(L, thr_layout, val_layout, index):
    frg = tiled_copy_tidfrg(L, thr_layout, val_layout)
    n = T.size(as_layout(thr_layout).shape)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < n:
        raise LayoutError(f"thread index {index!r} is outside [0, {n})", condition="in_domain")
    return slice_and_offset(frg, (index, _, repeat_underscore(T.rank(as_layout(L).shape))))


def tiled_copy_partition_D(L, thr_layout, val_layout, index):
    """``make_tiled_copy(Copy_Atom<UniversalCopy<T>,T>{}, thr, val).get_slice(index)
    .partition_D(tensor)`` on a tensor of layout L (a layout or a ComposedLayout): (the
    thread's (CPY, CPY_M, CPY_K, ...) layout, its offset), as slice_and_offset answers."""
    if isinstance(L, ComposedLayoutBase):
        Cl = as_composed(L)
        sliced, off = _partition(Cl.inner, thr_layout, val_layout, index)
        return ComposedLayout(Cl.outer, Cl.offset + off, sliced), C(0)
    return _partition(L, thr_layout, val_layout, index)


def tiled_copy_partition_S(L, thr_layout, val_layout, index):
    """``partition_S``: for the universal atom (source = destination layout) the same view."""
    return tiled_copy_partition_D(L, thr_layout, val_layout, index)
