"""Hypothesis strategies of the arguments kernels use: operands of rank 3 and 4 for every
divide and product, Tile tuples of 3 and more modes (and one mode too many, which CuTe
refuses), blocked and raked products of equal ranks, shared-memory tiles of every size a
kernel allocates (up to 2^16 bytes and past it) under a swizzle, and offsets into them.

The default strategies (``algebra``) draw mostly small layouts of one to three top-level modes
(they find most bugs, cheaply); these are what a kernel writes instead: a (M, N, K) or
(M, N, L) layout, a batched tile, a ``Tile<_64,_32,_8>``.  The checks draw them beside the
default cases (a share of the draws, ``st.one_of``), so the cheap cases keep coming.  Sizes
stay within what the spec evaluates quickly (at most 2^12 elements for the algebra; the
swizzle offsets and the shared-memory tiles go further, for operations that evaluate one
point or a slice).  Each is one ``@st.composite`` over ``draw_int`` choices, shrinking toward
rank 3, small extents and compact strides.
"""

from math import prod

from hypothesis import strategies as st
from layoutcheck.fuzz.strategies.algebra import as_int, atom_runs, draw_tiler, layout_of_modes, permutation, pick
from layoutcheck.fuzz.strategies.choices import draw_bool, draw_int

from layoutcheck.composed import ComposedLayoutBase, Swizzle
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, _, leaves

__all__ = ["kernel_layouts", "kernel_divide_args", "kernel_product_args", "kernel_composition_args",
           "too_many_modes_args", "strided_access_args", "smem_tiles", "wide_swizzles", "big_offsets", "smem_composed", "MAX_KERNEL_SIZE"]

MAX_KERNEL_SIZE = 1 << 12
_EXTENTS = (2, 4, 8, 16, 3, 6, 32, 5, 12, 64)  # small and power-of-two first (shrinks to 2)


def _extent(draw, room):
    fits = [e for e in _EXTENTS if e <= room] or [1]
    return pick(draw, fits)


def _kernel_layout(draw, rank, max_size, static, compact=False):
    """A layout of ``rank`` top-level modes (a mode sometimes a nested pair), strides
    column-major, row-major, a permuted compact order, or padded (a gap between modes)."""
    room, modes = max_size, []
    for _k in range(rank):
        e = _extent(draw, max(1, room // (2 ** (rank - 1 - _k))))
        room = max(1, room // e)
        if e >= 4 and draw_int(draw, 0, 4) == 0:  # a nested mode, (2, e/2)
            f = 2 if e % 2 == 0 else e
            modes.append((f, e // f) if f != e else e)
        else:
            modes.append(e)
    flat = [int(x) for m in modes for x in (m if isinstance(m, tuple) else (m,))]
    how = 0 if compact else draw_int(draw, 0, 3)
    order = list(range(len(flat)))
    if how == 1:
        order.reverse()
    elif how == 2:
        order = permutation(draw, len(flat))
    strides, cur = [0] * len(flat), 1
    for k in order:
        strides[k] = cur
        cur *= flat[k]
        if how == 3 and draw_int(draw, 0, 2) == 0:
            cur += draw_int(draw, 1, 3)  # padded: a gap (still injective)
    is_static = draw_bool(draw) if static is None else static
    it = iter(zip(flat, strides))

    def build(m):
        if isinstance(m, tuple):
            pairs = [next(it) for _x in m]
            return tuple(as_int(s, is_static) for s, _d in pairs), \
                tuple(as_int(d, is_static) for _s, d in pairs)
        s, d = next(it)
        return as_int(s, is_static), as_int(d, is_static)
    built = [build(m) for m in modes]
    return LayoutBase(tuple(s for s, _d in built), tuple(d for _s, d in built))


@st.composite
def kernel_layouts(draw, min_rank=3, max_rank=4, max_size=MAX_KERNEL_SIZE, static=None):
    """A layout of ``min_rank``..``max_rank`` top-level modes, size at most ``max_size``."""
    return _kernel_layout(draw, draw_int(draw, min_rank, max_rank), max_size, static)


def _tile_entry(draw, mode, static, underscore=True):
    """A Tile entry for one mode: ``_``, an int dividing it, or a layout of its atom runs."""
    how = draw_int(draw, 0, 9)
    if how == 9 and underscore:
        return _
    n = prod(int(x) for x in leaves(mode.shape))
    if how <= 3:
        divs = [d for d in range(1, n + 1) if n % d == 0]
        return divs[draw_int(draw, 0, len(divs) - 1)]
    return draw_tiler(draw, mode, static, by_mode=False)


def _modes(L):
    return [LayoutBase(s, d) for s, d in zip(L.shape, L.stride)]


@st.composite
def kernel_divide_args(draw, static=None, underscore=False):
    """``(A, T)``: A of rank 3-4 and T a Tile tuple of 3 modes or more (each entry for its
    mode: an int dividing it or a layout of its atoms; ``underscore=True``: sometimes ``_``,
    which ``coordinates.underscore_tiler_args`` draws for every divide already), or one mode
    more than A has (CuTe: "Too many modes in tiler", a refusal); sometimes a plain layout
    tiler made of runs of A's atoms."""
    A = _kernel_layout(draw, draw_int(draw, 3, 4), MAX_KERNEL_SIZE, static)
    how = draw_int(draw, 0, 9)
    if how == 0:
        return A, layout_of_modes(atom_runs(draw, A.shape), draw, static)
    modes = _modes(A)
    k = len(modes) if how > 2 else draw_int(draw, 3, len(modes))
    T = tuple(_tile_entry(draw, modes[i], static, underscore) for i in range(k))
    if how == 9:  # one entry too many: refused by CuTe
        T = T + (pick(draw, (1, 2, 4)),)
    return A, T


@st.composite
def too_many_modes_args(draw, static=None):
    """``(A, T)``: a Tile tuple with more entries than A has modes, as a kernel writes it by
    mistake (a ``Tile<_64,_32,_8>`` for a matrix, a batched tile for an unbatched layout).
    CuTe refuses ("Too many modes in tiler"), and so must every implementation of the by-mode
    composition, divides and products.  A has 1 to 4 modes (rank 1 sometimes an integral
    layout ``s:d``); T's first entries fit A's modes (an int dividing the mode, a layout of its
    atoms, or ``_``) and 1 or 2 more entries follow (an int or ``_``)."""
    rank = draw_int(draw, 1, 4)
    A = _kernel_layout(draw, rank, MAX_KERNEL_SIZE, static)
    modes = _modes(A)
    if rank == 1 and not isinstance(A.shape[0], tuple) and draw_bool(draw):
        A = modes[0]  # s:d, rank 1
    T = tuple(_tile_entry(draw, m, static) for m in modes)
    extra = tuple(pick(draw, (2, 4, 1, _, 8)) for _k in range(draw_int(draw, 1, 2)))
    return A, T + extra


_ROWS = (6, 8, 5, 10, 12, 7, 16, 9, 3)


@st.composite
def strided_access_args(draw, static=None):
    """``(A, B)``: B a strided access into the rows of A, as a thread or a vector load takes
    one: N elements at stride M (``N:M``), sometimes over K rows too (``(N,K):(M,W)``).  A is
    a padded matrix ``(W,H):(1,P)`` (a row of W elements, W a multiple of M or not, in rows
    P >= W apart) or a row-major one ``(H,W):(P,1)``.  N is ceil(W/M) (every M-th element of a
    row: the last one may lie in the row's last, partial stride), fewer, or more (past the end
    of the row: CuTe's stride divisibility condition decides whether that composes)."""
    W, H = pick(draw, _ROWS), pick(draw, (2, 3, 4))
    P = W + pick(draw, (0, 1, 2, 3))
    M = pick(draw, [m for m in (2, 3, 4, 8) if m < W])
    how = draw_int(draw, 0, 5)
    full = -(-W // M)
    N = full if how < 4 else draw_int(draw, 1, full) if how == 4 else full + draw_int(draw, 1, H)
    is_static = draw_bool(draw) if static is None else static
    mk = (lambda v: C(v)) if is_static else int
    row_major = draw_int(draw, 0, 3) == 0
    if row_major:  # a row is A's second mode: the access strides over W rows of the domain
        A = LayoutBase((mk(H), mk(W)), (mk(P), mk(1)))
        M = M * H
    else:
        A = LayoutBase((mk(W), mk(H)), (mk(1), mk(P)))
    if draw_int(draw, 0, 2) == 0:  # over K rows of A too
        K = draw_int(draw, 2, H)
        step = 1 if row_major else W
        return A, LayoutBase((mk(N), mk(K)), (mk(M), mk(step)))
    return A, LayoutBase(mk(N), mk(M))


@st.composite
def kernel_composition_args(draw, static=None):
    """``(A, B)``: A of rank 3-4 and B a layout of runs of A's atoms that spans several of
    A's modes (composition's walk across modes), a Tile tuple as for the divides, or a
    strided access into a padded matrix (``strided_access_args``)."""
    how = draw_int(draw, 0, 2)
    if how == 0:
        return draw(kernel_divide_args(static))
    if how == 2:
        return draw(strided_access_args(static))
    A = _kernel_layout(draw, draw_int(draw, 3, 4), MAX_KERNEL_SIZE, static)
    return A, layout_of_modes(atom_runs(draw, A.shape, max_modes=4), draw, static, max_rank=4)


@st.composite
def kernel_product_args(draw, same_rank=True, static=None):
    """``(A, B)``: A compact of rank 3 (a thread or value block, the product's tile) and B a
    compact layout of rank 3 (blocked / raked products pair the modes one to one; CuTe pads
    a smaller rank with 1s), sometimes of another rank or an int."""
    rank = draw_int(draw, 2, 3) if not same_rank or draw_int(draw, 0, 3) else 3
    A = _kernel_layout(draw, 3 if same_rank else rank, 64, static, compact=True)
    rb = 3 if same_rank else draw_int(draw, 1, 4)
    if not same_rank and draw_int(draw, 0, 5) == 0:
        return A, draw_int(draw, 1, 4)
    B = _kernel_layout(draw, rb, 64, static, compact=draw_bool(draw))
    return A, B


# --- shared memory: swizzled tiles and offsets -------------------------------------------

@st.composite
def wide_swizzles(draw):
    """``Swizzle<B,M,S>`` as shared-memory tiles of wide elements use them: the base M up to
    10 (bits above 2^12 swizzled), B + M + |S| up to 20."""
    B = draw_int(draw, 1, 3)
    M = draw_int(draw, 0, 10)
    S = draw_int(draw, B, B + 4)
    return Swizzle(B, M, -S if draw_int(draw, 0, 5) == 0 else S)


@st.composite
def big_offsets(draw, bits=20):
    """An offset into shared memory and past it: below 2^12, around 2^16 (a whole tile), or
    anywhere below 2^``bits``."""
    how = draw_int(draw, 0, 3)
    if how == 0:
        return draw_int(draw, 0, 1 << 12)
    if how == 1:
        return (1 << 16) + draw_int(draw, -(1 << 10), 1 << 10)
    return draw_int(draw, 0, 1 << bits)


@st.composite
def smem_tiles(draw, max_log2=15, static=True):
    """A shared-memory tile: (rows, cols) powers of two from 8x8 up to 2^``max_log2``
    elements (2^16 bytes of 16-bit elements), row- or column-major, sometimes as a swizzle
    atom tiled to the tile's shape ((r, R), (c, C))."""
    total = draw_int(draw, 6, max_log2)
    a = draw_int(draw, 3, total - 3)
    r, c = 1 << a, 1 << (total - a)
    mk = (lambda v: C(v)) if static else int
    if draw_int(draw, 0, 2) == 0:  # an 8 x 64 atom tiled over the tile
        ar, ac = min(8, r), min(64, c)
        shape = ((mk(ar), mk(r // ar)), (mk(ac), mk(c // ac)))
        stride = ((mk(ac), mk(ar * ac)), (mk(1), mk(r * ac)))
        return LayoutBase(shape, stride)
    if draw_bool(draw):
        return LayoutBase((mk(r), mk(c)), (mk(c), mk(1)))
    return LayoutBase((mk(r), mk(c)), (mk(1), mk(r)))


@st.composite
def smem_composed(draw, max_log2=15):
    """``Sw<B,M,S> o O o tile``: a swizzle over a shared-memory tile, the offset 0 or a
    stage's offset (a multiple of the tile's size, up to 2^17 and past it)."""
    tile = draw(smem_tiles(max_log2=max_log2))
    sw = Swizzle(draw_int(draw, 1, 3), draw_int(draw, 3, 4), 3) if draw_int(draw, 0, 3) else \
        draw(wide_swizzles())
    if draw_int(draw, 0, 2) == 0:
        n = prod(int(x) for x in leaves(tile.shape))
        off = C(n * draw_int(draw, 1, max(1, (1 << 17) // n)))
    else:
        off = C(0)
    return ComposedLayoutBase(sw, off, tile)
