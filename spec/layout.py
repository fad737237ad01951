"""Flat and nested layouts: 2.1.2 of the paper, seed 000.

A nested layout evaluates through its flattening (2.3); coordinates may be given as an
index, a flat tuple, or a nested tuple congruent to the shape.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase, parse_tile

from . import tuples as T

__all__ = ["Layout", "parse", "as_layout", "shape", "stride", "size", "cosize", "rank",
           "depth", "modes", "colex", "colex_inv", "phi", "Phi", "values", "image"]


class Layout(LayoutBase):
    """``shape:stride``; ``L(i)`` is Phi_L(i), ``L(coord)`` is phi_L(coord)."""

    __slots__ = ()

    def __call__(self, x):
        if isinstance(x, tuple):
            return phi(self, _flat_coord(self, x))
        return Phi(self, x)


def parse(text):
    """Parse CuTe notation into a spec ``Layout``."""
    return Layout.parse(text)


def parse_tiler(text):
    """Parse a layout or a CuTe Tile (tuple of layouts/ints) into spec values."""
    return parse_tile(text, Layout)


def as_layout(x):
    """Accept a spec/impl layout, CuTe text, or ``(shape, stride)``; return a spec Layout."""
    if isinstance(x, Layout):
        return x
    if isinstance(x, LayoutBase):
        return Layout(x.shape, x.stride)
    if isinstance(x, str):
        return parse(x)
    if isinstance(x, tuple) and len(x) == 2:
        return Layout(*x)
    raise LayoutError(f"expected a layout, got {x!r}")


def shape(L):
    return as_layout(L).shape


def stride(L):
    return as_layout(L).stride


def _flat(L):
    L = as_layout(L)
    return T.flatten(L.shape), T.flatten(L.stride)


def size(L):
    """size(L) = s_1 ... s_m (Def 2.1.2.9)."""
    return T.size(as_layout(L).shape)


def cosize(L):
    """cosize(L) = 1 + sum (s_i - 1) d_i (Def 2.1.2.9); seed 000: 'L(size-1) + 1'."""
    s, d = _flat(L)
    total = 1
    for si, di in zip(s, d):
        total = total + (si - 1) * di
    return total


def rank(L):
    """rank(L) = rank(shape(L)) (Def 2.1.2.9; seed 000)."""
    return T.rank(as_layout(L).shape)


def depth(L):
    return T.depth(as_layout(L).shape)


def modes(L):
    """The modes (s_i:d_i) of L, one layout per top-level mode (Def 2.1.2.9)."""
    L = as_layout(L)
    if not T.is_tuple(L.shape):
        return (L,)
    return tuple(Layout(s, d) for s, d in zip(L.shape, L.stride))


def colex(S, x):
    """colex_S(x_1..x_m) = x_1 + x_2 s_1 + ... + x_m s_1...s_{m-1} (Def 2.1.2.18)."""
    S = T.flatten(S)
    if len(x) != len(S):
        raise LayoutError(f"coordinate {x} has {len(x)} entries, shape has {len(S)}")
    total, scale = 0, 1
    for xi, si in zip(x, S):
        if not 0 <= xi < si:
            raise LayoutError(f"coordinate {tuple(x)} is outside [0, {S})")
        total += xi * scale
        scale *= si
    return total


def colex_inv(S, n):
    """colex_S^{-1}(n) = (x_1..x_m), x_i = floor(n / (s_1...s_{i-1})) mod s_i (Def 2.1.2.18)."""
    S = T.flatten(S)
    N = T.size(S)
    if not 0 <= n < N:
        raise LayoutError(f"index {n} is outside the domain [0, {N})")
    out, scale = [], 1
    for si in S:
        out.append((n // scale) % si)
        scale *= si
    return tuple(out)


def phi(L, x):
    """Coordinate function phi_L(x) = sum x_i d_i on [0, S) (Construction 2.1.2.13)."""
    s, d = _flat(L)
    x = tuple(x)
    if len(x) != len(s) or not all(0 <= xi < si for xi, si in zip(x, s)):
        raise LayoutError(f"coordinate {x} is outside the domain [0, {s})")
    total = 0
    for xi, di in zip(x, d):
        total += xi * di
    return total


def Phi(L, n):
    """Layout function Phi_L = phi_L ∘ colex^{-1} on [0, size(L)) (Construction 2.1.2.19)."""
    L = as_layout(L)
    return phi(L, colex_inv(L.shape, n))


def values(L):
    """Phi_L over the whole domain [0, size(L)), as a list."""
    L = as_layout(L)
    return [Phi(L, n) for n in range(size(L))]


def image(L):
    """Image(Phi_L) as a frozenset."""
    return frozenset(values(L))


def _flat_coord(L, x):
    """A coordinate given flat (length len(shape)) or nested (congruent to the shape)."""
    s = T.flatten(L.shape)
    if all(isinstance(v, int) for v in x) and len(x) == len(s):
        return x
    flat = T.flatten(x)
    if len(flat) != len(s):
        raise LayoutError(f"coordinate {x} does not match shape {L.shape}")
    return flat
