"""Basic definitions and operations on flat layouts: paper 2.1.2-2.1.3 (seed 004), seed 000.

Conventions:

* Indices are 0-based: the paper's mode ``i`` in ``<m> = {1..m}`` is index ``i - 1`` here;
  a permutation sigma is a sequence with ``sigma[i] = σ(i+1) - 1``.
* Nested layouts.  The paper defines these operations on flat layouts; a nested layout has
  the layout function of its flattening (2.3).  Each function says which way it goes:
  *through the flattening* (the result is a flat layout built from the leaves), or
  *mode-wise* (top-level modes are kept whole, nested modes move as units).
* Results are ``layoutcheck.spec.Layout`` values; inputs may be any layout or CuTe text.
"""

from layoutcheck.spec import tuples as T
from layoutcheck.spec.layout import (
    Layout,
    as_layout,
    assembled,
    cosize,
    flat_modes_of,
    image,
    modes,
    size,
    values,
)
from layoutcheck.spec.limits import check_enumeration

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C

__all__ = ["layout_left", "layout_right", "is_column_major", "is_row_major",
           "is_non_degenerate", "restrict", "squeeze", "filter_zeros", "permute",
           "mode_precedes", "is_sorted", "sort", "concat", "make_layout", "is_injective",
           "is_surjective", "is_compact"]


def _flat_pairs(L):
    s, d = flat_modes_of(as_layout(L))
    return list(zip(s, d))


def _from_pairs(pairs):
    """The flat layout of modes taken from checked layouts (``assembled``: not re-checked)."""
    return assembled(tuple([s for s, _ in pairs]), tuple([d for _, d in pairs]))


def _check_shape(shape):
    return Layout(shape).shape  # validates entries >= 1 (LayoutError otherwise)


# --- 2.1.2: column-major / row-major (seed 000: LayoutLeft / LayoutRight) -----------------

def layout_left(shape):
    """CuTe's LayoutLeft (column-major, Def 2.1.2.6): stride = exclusive prefix products
    from the left, starting at ``_1`` (seed 000: shape (2,3,4) -> stride (1,2,6)).

    A nested shape keeps its profile; the products run over its flattening.
    """
    shape = _check_shape(shape)
    acc = [C(1)]

    def go(s):
        if T.is_tuple(s):
            return tuple(go(x) for x in s)
        d, acc[0] = acc[0], acc[0] * s
        return d

    return Layout(shape, go(shape))


def layout_right(shape):
    """CuTe's LayoutRight (row-major, Def 2.1.2.6): exclusive prefix products from the
    right, the last stride ``_1`` (seed 000: shape (2,3,4) -> stride (12,4,1)).

    A nested shape keeps its profile; the products run over its flattening.
    """
    shape = _check_shape(shape)
    flat = T.flatten(shape)
    strides, acc = [None] * len(flat), C(1)
    for i in reversed(range(len(flat))):
        strides[i], acc = acc, acc * flat[i]
    it = iter(strides)

    def go(s):
        return tuple(go(x) for x in s) if T.is_tuple(s) else next(it)

    return Layout(shape, go(shape))


def is_column_major(L):
    """d_i = s_1 ... s_{i-1} for every i (Def 2.1.2.6), through the flattening.

    Literal: a degenerate stride counts, so (4,1):(1,0) is not column-major.
    """
    pairs, p = _flat_pairs(L), 1
    for s, d in pairs:
        if d != p:
            return False
        p *= s
    return True


def is_row_major(L):
    """d_i = s_{i+1} ... s_m for every i (Def 2.1.2.6), through the flattening."""
    pairs, p = _flat_pairs(L), 1
    for s, d in reversed(pairs):
        if d != p:
            return False
        p *= s
    return True


def is_non_degenerate(L):
    """s_i = 1 implies d_i = 0, for every i (Def 2.1.2.27), through the flattening."""
    return all(d == 0 for s, d in _flat_pairs(L) if s == 1)


# --- 2.1.3: operations ---------------------------------------------------------------------

def restrict(L, I):
    """L|_I = (s_i1..s_ik):(d_i1..d_ik) for I = {i1 < ... < ik} (Def 2.1.3.1).

    ``I`` is a set (or any iterable) of **0-based** indices of the top-level modes
    (mode-wise: a nested mode is kept whole); for a flat layout these are the paper's
    indices minus one.  The result always has a tuple shape, ordered by index; I = ∅ gives
    the empty layout ``():()`` (Example 2.1.3.5).  An index outside [0, rank) or a repeated
    index raises ``LayoutError``.
    """
    ms = modes(L)
    idx = list(I)
    for i in idx:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(ms):
            raise LayoutError(f"restriction index {i!r} is not a mode of a rank-{len(ms)} "
                              "layout (indices are 0-based)")
    if len(set(idx)) != len(idx):
        raise LayoutError(f"restriction indices {tuple(idx)} repeat an index (I is a set)")
    keep = sorted(idx)
    return assembled(tuple(ms[i].shape for i in keep), tuple(ms[i].stride for i in keep))


def squeeze(L):
    """Remove every mode with s_i = 1 (Construction 2.1.3.6), through the flattening.

    Keeps size, cosize and Phi_L (Lemma 2.1.3.11).
    """
    return _from_pairs([(s, d) for s, d in _flat_pairs(L) if s != 1])


def filter_zeros(L):
    """The paper's filter: remove every mode with d_i = 0 (Def 2.1.3.12), through the
    flattening.  (CuTe's ``filter`` also removes size-1 modes; it lives elsewhere.)
    """
    return _from_pairs([(s, d) for s, d in _flat_pairs(L) if d != 0])


def permute(L, sigma):
    """L^σ = shape(L)^σ : stride(L)^σ (Def 2.1.3.18), mode-wise on the top-level modes.

    ``sigma`` is 0-based (``sigma[i] = σ(i+1) - 1``): the paper's σ = (1 2) is ``(1, 0)``.
    A layout with an integral shape counts as rank 1.  A sequence that is not a permutation
    of ``0..rank-1`` raises ``LayoutError(condition="is_permutation")``.
    """
    ms = modes(L)
    sigma = T.check_permutation(sigma, len(ms))
    return assembled(tuple(ms[j].shape for j in sigma), tuple(ms[j].stride for j in sigma))


def _pair(m):
    if isinstance(m, tuple) and len(m) == 2 and all(isinstance(v, int) for v in m):
        return m
    L = as_layout(m)
    if len(T.flatten(L.shape)) != 1:
        raise LayoutError(f"{L} is not a single mode s:d")
    return T.flatten(L.shape)[0], T.flatten(L.stride)[0]


def mode_precedes(a, b):
    """s:d ⪯ s':d' iff d < d', or d = d' and s <= s' (Def 2.1.3.23).

    ``a`` and ``b`` are pairs ``(s, d)`` or single-mode layouts (``"5:8"``, ``(5):(8)``).
    """
    (s, d), (s2, d2) = _pair(a), _pair(b)
    return d < d2 or (d == d2 and s <= s2)


def is_sorted(L):
    """mode_i(L) ⪯ mode_{i+1}(L) for every i (Def 2.1.3.25), through the flattening."""
    p = _flat_pairs(L)
    return all(mode_precedes(p[i], p[i + 1]) for i in range(len(p) - 1))


def sort(L):
    """sort(L) = L^σ for σ the order i ⪯ j of Construction 2.1.3.31, through the flattening.

    Stable: equal modes keep their original order (condition 2 of 2.1.3.31).
    """
    p = _flat_pairs(L)
    order = sorted(range(len(p)), key=lambda i: (p[i][1], p[i][0], i))
    return _from_pairs([p[i] for i in order])


def concat(*Ls):
    """L_1 ⋆ ... ⋆ L_k = S_1 ⋆ ... ⋆ S_k : D_1 ⋆ ... ⋆ D_k (Def 2.1.3.36).

    Through the flattening: the result is flat (nested modes are spliced in leaf by leaf).
    ``concat()`` is the empty layout ``():()``.
    """
    pairs = []
    for L in Ls:
        pairs += _flat_pairs(L)
    return _from_pairs(pairs)


def make_layout(*Ls):
    """CuTe's ``make_layout(L_1, ..., L_k)``: the layouts side by side as the k modes of one
    layout, each kept whole (mode-wise): ``make_layout(2:1, (2,2):(2,4))`` is
    ``(2,(2,2)):(1,(2,4))``.  Its flattening is ``concat(L_1, ..., L_k)``.
    """
    Ls = [as_layout(L) for L in Ls]
    return assembled(tuple([L.shape for L in Ls]), tuple([L.stride for L in Ls]))


def is_injective(L):
    """Phi_L is injective on [0, size(L)) (Construction 2.1.2.19)."""
    v = values(L)
    return len(set(v)) == len(v)


def is_surjective(L):
    """Image(Phi_L) = [0, cosize(L)): Phi_L^cosize is onto (Construction 2.1.2.19)."""
    check_enumeration(cosize(L), lambda: f"the codomain [0, cosize) of {as_layout(L)}")
    return image(L) == frozenset(range(cosize(L)))


def is_compact(L):
    """Phi_L^cosize(L): [0, size) -> [0, cosize) is an isomorphism (Def 2.1.5.1)."""
    return size(L) == cosize(L) and is_injective(L) and is_surjective(L)
