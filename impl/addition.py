"""Layout addition: the fast implementation of ``layout_add`` (same API as spec/addition.py).

NVlabs PyCuTe (``pycute/algebra.py``) describes its algorithm: coalesce A and B, find the
greatest common domain of their shapes (an ordered factorisation that both shapes share), give
each of its modes the stride A(d) + B(d) at the offset d where the mode starts, and coalesce.
Written here from that description, on the modes' boundaries, without enumerating the domain:

A flat shape ``(s_1..s_m)`` splits [0, n) at its prefix products 1 = p_0 < p_1 < ... < p_m = n.
Let q_0 < q_1 < ... < q_r be the prefix products of coalesce(A) and of coalesce(B) together.
When each q_j divides q_(j+1), the flat shape ``(q_1/q_0, ..., q_r/q_(r-1))`` refines both
coalesced shapes, so A and B are both linear on its modes, with the strides A(q_(j-1)) and
B(q_(j-1)), and A + B is the layout of that shape with the strides A(q) + B(q).  Otherwise the
shapes share no ordered factorisation of n and there is no such layout (the refusal NVlabs
documents).  The answer is coalesced, as NVlabs' examples show.
"""

from layoutcheck.impl.algebra import coalesce, coalesced_modes
from layoutcheck.impl.layout import Layout, as_layout, fast_leaves, size

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C

__all__ = ["layout_add"]


def _boundaries(shape):
    """The prefix products of a flat shape after its first: p_1, ..., p_m."""
    out, p = [], 1
    for s in shape:
        p *= int(s)
        out.append(p)
    return out


def _at(modes, x):
    """The layout with flat ``modes`` (shapes, strides) at index x (inside its domain)."""
    total = 0
    for s, d in zip(*modes):
        total += (x % int(s)) * int(d)
        x //= int(s)
    return total


def layout_add(A, B):
    """The layout R with size(R) == size(A) == size(B) and R(i) == A(i) + B(i), coalesced."""
    A, B = as_layout(A), as_layout(B)
    n = int(size(A))
    if n != int(size(B)):
        raise LayoutError(f"layout_add needs size(A) == size(B), got {n} and {int(size(B))}",
                          condition="equal_size")
    static = all(isinstance(v, C) for L in (A, B) for t in (L.shape, L.stride)
                 for v in fast_leaves(t))
    typed = (lambda v: C(v)) if static else int
    if n == 1:
        return Layout(typed(1), typed(0))
    ma, mb = coalesced_modes(A), coalesced_modes(B)
    cuts = sorted(set(_boundaries(ma[0])) | set(_boundaries(mb[0])))
    shape, stride, start = [], [], 1
    for q in cuts:
        if q % start:
            raise LayoutError(f"no layout of size {n} has the function A(i) + B(i) of {A} and {B}: "
                              f"their coalesced shapes share no ordered factorisation "
                              f"({start} does not divide {q})", condition="layout_sum")
        shape.append(typed(q // start))
        stride.append(typed(_at(ma, start) + _at(mb, start)))
        start = q
    return coalesce(Layout(tuple(shape), tuple(stride)))
