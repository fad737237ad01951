"""Recast and vectorization: the executable specification.

Sources: ``cute/layout.hpp`` of the CUTLASS 4.2 headers (the same text on 4.7):
- ``upcast<N>``: "For stride-1 mode, divide size by N.  Divide all other strides by N", leaf by
  leaf -- a static-0 stride is kept; a static stride d needs d % N == 0 or N % d == 0 (its
  "Divisibility condition") and gives ceil_div(s, ceil_div(N, d)) : ceil_div(d, N); a dynamic
  stride is divided exactly ("Assume dynamic strides are larger than N and divisible").
- ``downcast<N>``: "For stride-1 mode, multiply size by N.  Multiply all other strides by N"; it
  needs a static stride-1 leaf ("Downcast requires adjacent elements", ``has_int1``).
- ``recast_layout<Old,New>``: the reduced ratio num/den = bits(New) / bits(Old); 1/1 is the
  layout, num == 1 downcasts by den, den == 1 upcasts by num, else downcast<den>(upcast<num>).
- ``max_common_vector(a, b)``: "the maximum number of contiguous elements that logically
  correspond in the layouts of a and b", with the post-condition a(b.get_1d_coord(n)) == n for
  n < N; b's offsets are located with right_inverse(b) (CuTe's, transcribed in spec/algebra.py:
  for a non-injective b it covers the run of strides it can walk, not every offset b hits).
  The spec enumerates the prefix n = 0, 1, ... with a(right_inverse(b)(n)) == n.
- ``max_common_layout(a, b)``: a layout R of size N with a(R(i)) == i and b(R(i)) == i for
  i < size(R) (its @post); the spec gives right_inverse(b) o N:1 and checks the post-condition.
- ``nullspace``: the flat modes with a *static* 0 stride, with the strides of the
  column-major layout of the flattened shape (so L(result(i)) == 0); none gives ``_1:_0``.
"""

from layoutcheck.spec import tuples as T
from layoutcheck.spec.algebra import coalesce, composition, right_inverse
from layoutcheck.spec.layout import Layout, as_layout
from layoutcheck.spec.limits import check_enumeration

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C

__all__ = ["upcast", "downcast", "recast_layout", "max_common_vector", "max_common_layout",
           "nullspace", "compact_col_major"]


def _n(N, what="N"):
    if isinstance(N, bool) or not isinstance(N, int) or N < 1:
        raise LayoutError(f"{what} must be an integer >= 1, got {N!r}", condition="positive")
    return C(int(N))  # CuTe's Int<N>: a template argument, static


def _ceil_div(a, b):
    return (a + b - C(1)) // b


def _static(x):
    return isinstance(x, C)


def _map_leaves(L, fn):
    """Apply fn(s, d) -> (s', d') to every leaf of L (CuTe's transform_layout)."""
    def go(s, d):
        if isinstance(s, tuple):
            pairs = [go(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
        return fn(s, d)
    shape, stride = go(L.shape, L.stride)
    return Layout(shape, stride)


def upcast(L, N):
    """``upcast<N>(L)`` leaf by leaf (see the module docstring)."""
    L, N = as_layout(L), _n(N)

    def leaf(s, d):
        if _static(d) and d == 0:
            return s, d
        if _static(d):
            if d % N != 0 and N % d != 0:
                raise LayoutError(f"upcast<{int(N)}>: stride {d} and {int(N)} do not divide each "
                                  "other (layout.hpp 'Divisibility condition')",
                                  condition="divisibility")
            return _ceil_div(s, _ceil_div(N, d)), _ceil_div(d, N)
        if d % N != 0:
            raise LayoutError(f"upcast<{int(N)}>: the dynamic stride {d} is not a multiple of "
                              f"{int(N)} (layout.hpp assumes it is)", condition="divisibility")
        return s, d // N
    return _map_leaves(L, leaf)


def _has_static_one(t):
    return any(_static(x) and x == 1 for x in T.flatten(t))


def downcast(L, N):
    """``downcast<N>(L)``: a static stride-1 leaf scales its size by N, every other leaf its
    stride (see the module docstring)."""
    L, N = as_layout(L), _n(N)
    if not _has_static_one(L.stride):
        raise LayoutError(f"downcast<{int(N)}>({L}): no static stride-1 mode (layout.hpp "
                          "'Downcast requires adjacent elements')", condition="has_int1")

    def leaf(s, d):
        if _static(d) and d == 1:
            return s * N, d
        return s, d * N
    return _map_leaves(L, leaf)


def _gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def recast_layout(L, old_bits, new_bits):
    """``recast_layout<Old,New>(L)`` for element types of ``old_bits`` and ``new_bits`` bits."""
    L = as_layout(L)
    o, n = int(_n(old_bits, "old_bits")), int(_n(new_bits, "new_bits"))
    g = _gcd(n, o)
    num, den = n // g, o // g
    if num == 1 and den == 1:
        return L
    if num == 1:
        return downcast(L, den)
    if den == 1:
        return upcast(L, num)
    return downcast(upcast(L, num), den)


def _common_length(A, B):
    """(A, B, R, N): R = right_inverse(B) (CuTe's, spec/algebra.py), N the longest prefix
    n = 0, 1, ... of R's domain with A(R(n)) == n (R(n) inside A's domain), at least 1."""
    A, B = as_layout(A), as_layout(B)
    R = right_inverse(B)
    m, nA = T.size(R.shape), T.size(A.shape)
    check_enumeration(m, lambda: f"the domain of right_inverse({B})")
    N = 0
    while N < m and R(N) < nA and A(R(N)) == N:
        N += 1
    return A, B, R, max(N, 1)


def _all_static(*Ls):
    return all(_static(x) for L in Ls for x in T.flatten(L.shape) + T.flatten(L.stride))


def max_common_vector(A, B):
    """The largest N such that A(R(n)) == n for every n < N, R = right_inverse(B) -- B's offsets
    0..N-1 sit at logical indices A maps to 0..N-1 (layout.hpp's @post: a(b.get_1d_coord(n))
    == n), enumerated.  Always >= 1 (A(0) == B(0) == 0).  Static (``_N``) when both layouts
    are, as CuTe's ``Int<N>``."""
    A, B, _R, N = _common_length(A, B)
    return C(N) if _all_static(A, B) else N


def max_common_layout(A, B):
    """right_inverse(B) o N:1 with N = max_common_vector(A, B); checked: A(R(i)) == i and
    B(R(i)) == i for i < N (its @post)."""
    A, B, inv, N = _common_length(A, B)
    R = coalesce(composition(inv, Layout(C(N), C(1)), sense="cute"))
    for i in range(N):
        if A(R(i)) != i or B(R(i)) != i:  # pragma: no cover (a spec bug)
            raise AssertionError(f"max_common_layout({A}, {B}) = {R} fails at {i}")
    return R


def nullspace(L):
    """``nullspace(L)``: the flat modes of L whose stride is a static 0, each with the stride of
    the column-major layout of L's flattened shape (CuTe's compact_major<LayoutLeft>, where a
    static _1 mode gets _0); one mode is unwrapped; none gives ``_1:_0``."""
    L = as_layout(L)
    shape, stride = T.flatten(L.shape), T.flatten(L.stride)
    picked = [i for i, d in enumerate(stride) if _static(d) and d == 0]
    if not picked:
        return Layout(C(1), C(0))
    cm = compact_col_major(shape)
    if len(picked) == 1:
        return Layout(shape[picked[0]], cm[picked[0]])
    return Layout(tuple(shape[i] for i in picked), tuple(cm[i] for i in picked))


def compact_col_major(shape, current=None):
    """CuTe's ``compact_col_major(shape, current)`` (stride.hpp ``detail::compact``): leaves
    left to right, each gets the running product, which it multiplies; a static ``_1`` leaf
    gets ``_0`` and leaves the product alone."""
    acc = [C(1) if current is None else current]

    def go(s):
        if isinstance(s, tuple):
            return tuple(go(x) for x in s)
        if _static(s) and s == 1:
            return C(0)
        d = acc[0]
        acc[0] = d * s
        return d
    return go(shape)
