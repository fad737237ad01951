"""Hypothesis strategies for the operations on swizzles, composed layouts, recast and tiling: swizzles, composed layouts, F2 layouts,
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
import layoutcheck.fuzz.strategies.kernels as K
from hypothesis import assume
from hypothesis import strategies as st

from layoutcheck.composed import ComposedLayoutBase, F2Layout, Swizzle
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["swizzles", "swizzle_args", "composed_layouts", "atom_layouts", "f2_layouts", "composed_tiler_args", "composed_slice_args", "composed_cast_args", "bank_args", "swizzle_layout_args", "layout_swizzle_args"]

MAX_SPAN = 11


def maybe_static(draw, v, static=None):
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
    """(Sw, offset): offsets below 2^12 mostly; a third of the draws a shared-memory offset
    up to 2^20 (a whole 2^16-byte tile and past it) or a swizzle with a wide base (bits at
    and above 2^12 swizzled)."""
    return st.one_of(st.tuples(swizzles(), st.integers(0, 1 << 12)),
                     st.tuples(swizzles(), st.integers(0, 1 << 12)),
                     st.tuples(st.one_of(swizzles(), K.wide_swizzles()), K.big_offsets()))


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
                     S.layouts(max_size=256, max_leaves=4, static=static),
                     K.smem_tiles(max_log2=12))


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
    if offset and draw(st.integers(0, 5)) == 0:  # small, or a stage's offset past 2^16
        off = maybe_static(draw, draw(st.integers(1, 64)) if draw(st.integers(0, 2)) else
                           draw(K.big_offsets(bits=18)))
    return ComposedLayoutBase(outer, off, L)


@st.composite
def f2_layouts(draw):
    """Layouts with F2 strides: power-of-two modes mostly (where F2 and Z coordinates
    agree), F2 strides up to 255, and one in four up to 2^17 (a shared-memory tile's bits)."""
    k = draw(st.integers(1, 4))
    shape = tuple(C(1 << draw(st.integers(0, 3))) if draw(st.integers(0, 5)) else
                  C(draw(st.integers(1, 5))) for _k in range(k))
    top = 255 if draw(st.integers(0, 3)) else 1 << 17
    stride = tuple(C(draw(st.integers(0, top))) for _k in range(k))
    return F2Layout(shape, stride)


@st.composite
def composed_tiler_args(draw):
    Cl = draw(composed_layouts())
    return Cl, draw(S.tilers(Cl.inner))


@st.composite
def composed_slice_args(draw):
    Cl = draw(st.one_of(composed_layouts(inner=st.one_of(atom_layouts(), atom_layouts(False),
                                                         S.layouts(max_size=128, max_leaves=3))),
                        K.smem_composed()))  # a whole shared-memory tile: one slice of it
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
def swizzle_layout_args(draw):
    return draw(swizzles()), draw(_inner())


@st.composite
def layout_swizzle_args(draw):
    """(L, Sw) for composition(Layout, Swizzle): power-of-two layouts (where CuTe's
    construction is meant to work) and general ones."""
    return draw(st.one_of(atom_layouts(), S.layouts(max_size=128, max_leaves=3))), draw(swizzles())
