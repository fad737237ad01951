"""Basic operations on layouts (paper 2.1.2-2.1.5, 2.3.2; seed 000).

Flat operations (restrict, squeeze, filter_zeros, permute, sort, concat) act on the flattening
of a nested layout and return a flat layout (Def 2.3.1.13).  Predicates decide from the modes;
``is_injective`` and ``is_surjective`` fall back to evaluating over the domain only when the
mode test (sorted strides that clear the span of the smaller modes) is inconclusive.
"""

import numpy as np
from layoutcheck.impl import tuples as T
from layoutcheck.impl.layout import Layout, as_layout, cosize, flat_modes, new_layout, size, values

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["layout_left", "layout_right", "is_column_major", "is_row_major",
           "is_non_degenerate", "restrict", "squeeze", "filter_zeros", "permute",
           "mode_precedes", "is_sorted", "sort", "concat", "make_layout", "is_injective",
           "is_surjective", "is_compact"]


def _flat_modes(L):
    return flat_modes(as_layout(L))


def _flat_layout(ms):
    return new_layout(tuple(s for s, _ in ms), tuple(d for _, d in ms))


def layout_left(shape):
    """Column-major (LayoutLeft): exclusive prefix products, first stride ``_1`` (seed 000)."""
    return Layout(shape)


def layout_right(shape):
    """Row-major (LayoutRight): exclusive suffix products of the leaves, last ``_1`` (seed 000)."""
    shape = Layout(shape).shape
    ls = leaves(shape)
    acc, ds = C(1), []
    for s in reversed(ls):
        ds.append(acc)
        acc = acc * s
    it = iter(reversed(ds))

    def build(s):
        return tuple(build(x) for x in s) if isinstance(s, tuple) else next(it)

    return Layout(shape, build(shape))


def is_column_major(L):
    """d_i = s_1 ... s_{i-1} for every mode of the flattening (Def 2.1.2.6)."""
    acc = 1
    for s, d in _flat_modes(L):
        if d != acc:
            return False
        acc *= s
    return True


def is_row_major(L):
    """d_i = s_{i+1} ... s_m for every mode of the flattening (Def 2.1.2.6)."""
    acc = 1
    for s, d in reversed(_flat_modes(L)):
        if d != acc:
            return False
        acc *= s
    return True


def is_non_degenerate(L):
    """s_i = 1 implies d_i = 0 (Def 2.1.2.27, 2.3.1.24)."""
    return all(d == 0 for s, d in _flat_modes(L) if s == 1)


def _top_modes(L):
    L = as_layout(L)
    if isinstance(L.shape, tuple):
        return list(zip(L.shape, L.stride))
    return [(L.shape, L.stride)]


def restrict(L, I):
    """L|_I (Def 2.1.3.1): the top-level modes at the 0-based indices I, in increasing order
    (a nested mode is kept whole); always a tuple, ``():()`` for I empty."""
    ms = _top_modes(L)
    I = list(I)
    for i in I:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(ms):
            raise LayoutError(f"restriction index {i!r} is outside [0, {len(ms)})")
    if len(set(I)) != len(I):
        raise LayoutError(f"restriction indices {tuple(I)} repeat an index")
    return _flat_layout([ms[i] for i in sorted(I)])


def squeeze(L):
    """Drop the modes of shape 1 (Def 2.1.3.6)."""
    return _flat_layout([m for m in _flat_modes(L) if m[0] != 1])


def filter_zeros(L):
    """Drop the modes of stride 0: the paper's filter (Def 2.1.3.12)."""
    return _flat_layout([m for m in _flat_modes(L) if m[1] != 0])


def permute(L, sigma):
    """L^σ = (s_σ(1), ...):(d_σ(1), ...) on the top-level modes, sigma 0-based (Def 2.1.3.18)."""
    return _flat_layout(T.permute_tuple(tuple(_top_modes(L)), sigma))


def _mode_pair(m):
    if isinstance(m, (LayoutBase, str)):
        m = as_layout(m)
        ms = _flat_modes(m)
        if len(ms) != 1:
            raise LayoutError(f"{m} is not a single mode")
        return ms[0]
    if isinstance(m, tuple) and len(m) == 2:
        return m
    raise LayoutError(f"expected a mode s:d, got {m!r}")


def _key(m):
    return (m[1], m[0])


def mode_precedes(a, b):
    """s:d <= s':d' iff d < d', or d = d' and s <= s' (Def 2.1.3.23)."""
    return _key(_mode_pair(a)) <= _key(_mode_pair(b))


def is_sorted(L):
    """The modes of the flattening are non-decreasing for the order of 2.1.3.23 (Def 2.1.3.25)."""
    ms = _flat_modes(L)
    return all(_key(a) <= _key(b) for a, b in zip(ms, ms[1:]))


def sort(L):
    """The stable sort of the flattening's modes (Def 2.1.3.31)."""
    return _flat_layout(sorted(_flat_modes(L), key=_key))


def concat(*Ls):
    """Flat concatenation L ⋆ L' ⋆ ... (Def 2.1.3.36)."""
    return _flat_layout([m for L in Ls for m in _flat_modes(L)])


def make_layout(*Ls):
    """CuTe's make_layout: the layouts side by side as modes, (L_1, ..., L_k) (Def 2.3.2.5)."""
    Ls = [as_layout(L) for L in Ls]
    return new_layout(tuple(L.shape for L in Ls), tuple(L.stride for L in Ls))


def _separated(ms):
    """Sorted by stride, each stride exceeds the largest offset of the smaller modes."""
    span = 0
    for s, d in sorted(ms, key=_key):
        if d <= span:
            return False
        span += (s - 1) * d
    return True


def is_injective(L):
    """Phi_L injective on [0, size(L))."""
    ms = [m for m in _flat_modes(L) if m[0] != 1]
    if any(d == 0 for _, d in ms):
        return False
    if _separated(ms):
        return True
    if size(as_layout(L)) > cosize(L):
        return False
    v = values(L)
    return np.unique(v).size == v.size


def is_compact(L):
    """Phi_L a bijection onto [0, cosize(L)) (2.1.5): sort(squeeze(L)) is column-major."""
    return is_column_major(sort(squeeze(L)))


def is_surjective(L):
    """Phi_L maps onto [0, cosize(L))."""
    if is_compact(L):
        return True
    if size(as_layout(L)) < cosize(L):
        return False
    return np.unique(values(L)).size == int(cosize(L))
