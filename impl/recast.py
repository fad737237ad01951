"""Recast and vectorization: the fast implementation (same API as spec/recast.py).

upcast / downcast / recast_layout rewrite the leaves (the rule of cute/layout.hpp; there is
no faster form of a per-leaf rewrite).  max_common_vector follows CuTe's algorithm instead of
the spec's enumeration: R = right_inverse(B), then the longest prefix n = 0, 1, ... of R's
domain on which A(R(n)) == n, evaluated with numpy (A at the indices R(n)).  nullspace picks
the static-0 modes directly.
"""

import numpy as np
from layoutcheck.impl import layout as T
from layoutcheck.impl.algebra import coalesce, right_inverse
from layoutcheck.impl.compose import composition
from layoutcheck.impl.layout import Layout, as_layout, values

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C

__all__ = ["upcast", "downcast", "recast_layout", "max_common_vector", "max_common_layout",
           "nullspace", "compact_col_major"]


def _n(N, what="N"):
    if isinstance(N, bool) or not isinstance(N, int) or N < 1:
        raise LayoutError(f"{what} must be an integer >= 1, got {N!r}", condition="positive")
    return C(int(N))


def _leafwise(L, fn):
    def go(s, d):
        if isinstance(s, tuple):
            parts = [go(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
        return fn(s, d)
    return Layout(*go(L.shape, L.stride))


def upcast(L, N):
    L, N = as_layout(L), _n(N)
    n = int(N)

    def leaf(s, d):
        if isinstance(d, C):
            if d == 0:
                return s, d
            if d % n and n % d:
                raise LayoutError(f"upcast<{n}>: stride {d}", condition="divisibility")
            k = -(-n // int(d))                # ceil_div(N, d)
            return (s + C(k - 1)) // C(k), C(-(-int(d) // n))
        if d % n:
            raise LayoutError(f"upcast<{n}>: dynamic stride {d}", condition="divisibility")
        return s, d // N
    return _leafwise(L, leaf)


def downcast(L, N):
    L, N = as_layout(L), _n(N)
    if not any(isinstance(d, C) and d == 1 for d in T.flatten(L.stride)):
        raise LayoutError(f"downcast<{int(N)}>({L}): no static stride-1 mode", condition="has_int1")
    return _leafwise(L, lambda s, d: (s * N, d) if isinstance(d, C) and d == 1 else (s, d * N))


def recast_layout(L, old_bits, new_bits):
    o, n = int(_n(old_bits, "old_bits")), int(_n(new_bits, "new_bits"))
    a, b = n, o
    while b:
        a, b = b, a % b
    num, den = n // a, o // a
    L = as_layout(L)
    if num == den == 1:
        return L
    if num == 1:
        return downcast(L, den)
    if den == 1:
        return upcast(L, num)
    return downcast(upcast(L, num), den)


def _common(A, B):
    A, B = as_layout(A), as_layout(B)
    R = right_inverse(B)
    m = T.size(R.shape)
    r = np.asarray(values(R), dtype=np.int64)
    inside = r < T.size(A.shape)
    stop = int(np.argmin(inside)) if not inside.all() else m
    a = np.asarray(values(A, r[:stop]), dtype=np.int64) if stop else np.zeros(0, dtype=np.int64)
    bad = np.nonzero(a != np.arange(stop))[0]
    N = int(bad[0]) if bad.size else stop
    return A, B, R, max(N, 1)


def _static_everywhere(*Ls):
    return all(isinstance(x, C) for L in Ls for x in T.flatten(L.shape) + T.flatten(L.stride))


def max_common_vector(A, B):
    A, B, _R, N = _common(A, B)
    return C(N) if _static_everywhere(A, B) else N


def max_common_layout(A, B):
    A, B, R, N = _common(A, B)
    return coalesce(composition(R, Layout(C(N), C(1)), sense="cute"))


def compact_col_major(shape, current=None):
    acc = [C(1) if current is None else current]

    def go(s):
        if isinstance(s, tuple):
            return tuple(go(x) for x in s)
        if isinstance(s, C) and s == 1:
            return C(0)
        d = acc[0]
        acc[0] = d * s
        return d
    return go(shape)


def nullspace(L):
    L = as_layout(L)
    shape, stride = T.flatten(L.shape), T.flatten(L.stride)
    cm = compact_col_major(shape)
    picked = [k for k, d in enumerate(stride) if isinstance(d, C) and d == 0]
    if not picked:
        return Layout(C(1), C(0))
    if len(picked) == 1:
        return Layout(shape[picked[0]], cm[picked[0]])
    return Layout(tuple(shape[k] for k in picked), tuple(cm[k] for k in picked))
