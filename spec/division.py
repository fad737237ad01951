"""Logical division and product (paper 2.3.8, 2.3.9) and CuTe's derived forms (zipped, tiled,
flat, blocked, raked), with the paper's flat division and product (2.1.7.9, 2.1.7.13) that are
computed through the nested composition."""

from __future__ import annotations

from layoutcheck.spec import flat as F
from layoutcheck.spec import tuples as T
from layoutcheck.spec.algebra import (
    as_tiler,
    by_mode,
    composition,
    is_complementable,
    layout_size,
    make_modes,
    memo_complement,
    memo_composition,
    top_modes,
)
from layoutcheck.spec.basic import concat
from layoutcheck.spec.flat import flat_complement, flat_cosize, flat_layout, flat_modes
from layoutcheck.spec.layout import Layout, as_layout, cosize
from layoutcheck.spec.memo import memoised

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutLike, TilerOrNone, Underscore

__all__ = ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
           "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product",
           "flat_divide_paper", "flat_product_paper"]


def logical_divide(A: LayoutLike, T_: TilerOrNone | str, sense: str = "paper") -> Layout:
    """A ⊘ B = (A ∘ B, A ∘ B^c), B^c = comp(B, size A) (Def 2.3.8.1); CuTe's
    ``logical_divide`` with a tiler applied mode by mode."""
    A = as_layout(A)
    T_ = as_tiler(T_)
    if T_ is None or isinstance(T_, Underscore):
        return A
    if isinstance(T_, tuple):
        return by_mode(_logical_divide, A, T_, sense)
    Bc = memo_complement(T_, layout_size(A), sense)
    return memo_composition(A, make_modes(T_, Bc), sense)


def logical_product(A: LayoutLike, T_: TilerOrNone | str, sense: str = "paper") -> Layout:
    """A ⊗ B = (A, A^c ∘ B), A^c = comp(A, size(A) cosize(B)) (Def 2.3.9.1); CuTe's
    ``logical_product`` with a tiler applied mode by mode (an int n means n:1).

    When A is complementable but not size(A) cosize(B)-complementable, the paper's own
    Observation 2.3.9.2 (and Example 2.3.9.5) take the least valid N above it; so does the
    spec.  Precondition: A complementable and A^c composable with B."""
    A = as_layout(A)
    T_ = as_tiler(T_)
    if T_ is None or isinstance(T_, Underscore):
        return A
    if isinstance(T_, tuple):
        return by_mode(_logical_product, A, T_, sense)
    N = layout_size(A) * cosize(T_)
    if sense == "paper" and not is_complementable(A, N) and is_complementable(A):
        # Observation 2.3.9.2: any valid N' >= size(A) cosize(B) gives the same A^c ∘ B;
        # the paper relies on it (Example 2.3.9.5), so take the least valid one.
        m = F.sorted_squeezed(A)  # the modes of sort(squeeze(A)), kept on A
        last = m[-1][0] * m[-1][1]
        N = -(-N // last) * last
    Ac = memo_complement(A, N, sense)
    return make_modes(A, memo_composition(Ac, T_, sense))


def _unzip(R, T_):
    """CuTe's tile_unzip (zip2_by): for a tuple tiler, gather ((tile_0, tile_1, ...),
    (rest_0, rest_1, ..., other modes)), recursively for nested tilers; otherwise R as it is."""
    if not isinstance(T_, tuple):
        return R
    tile, rest = _split(R, T_)
    return make_modes(tile, rest)


def _split(R, T_):
    """(tile, rest) of a divided/multiplied mode R under the tiler entry T_."""
    ms = top_modes(R)
    if isinstance(T_, tuple):
        parts = [_split(m, t) for m, t in zip(ms, T_)]
        return make_modes(*[p[0] for p in parts]), make_modes(*[p[1] for p in parts], *ms[len(T_):])
    if not (isinstance(as_layout(R).shape, tuple) and len(ms) == 2):
        # CuTe's zip2_by static_asserts here too ("Index out of range").
        raise LayoutError(f"{R} is not a (tile, rest) pair: a tiler entry {T_!r} that leaves "
                          "a mode alone cannot be unzipped", condition="is_unzippable")
    return ms[0], ms[1]


def _unpack(L):
    return top_modes(L) if isinstance(as_layout(L).shape, tuple) else [as_layout(L)]


def zipped_divide(A: LayoutLike, T_: TilerOrNone | str, sense: str = "paper") -> Layout:
    """CuTe: tile_unzip(logical_divide(A, T), T) = ((tiles), (rests))."""
    T_ = as_tiler(T_)
    return _unzip(logical_divide(A, T_, sense), T_)


def tiled_divide(A: LayoutLike, T_: TilerOrNone | str, sense: str = "paper") -> Layout:
    """CuTe: zipped_divide with its second mode unpacked: ((tiles), rest_0, rest_1, ...)."""
    Z = zipped_divide(A, T_, sense)
    z0, z1 = top_modes(Z)
    return make_modes(z0, *_unpack(z1))


def flat_divide(A: LayoutLike, T_: TilerOrNone | str, sense: str = "paper") -> Layout:
    """CuTe: zipped_divide with both modes unpacked: (tile_0, ..., rest_0, ...)."""
    Z = zipped_divide(A, T_, sense)
    z0, z1 = top_modes(Z)
    return make_modes(*_unpack(z0), *_unpack(z1))


def zipped_product(A: LayoutLike, T_: TilerOrNone | str, sense: str = "paper") -> Layout:
    """CuTe: tile_unzip(logical_product(A, T), T)."""
    T_ = as_tiler(T_)
    return _unzip(logical_product(A, T_, sense), T_)


def tiled_product(A: LayoutLike, T_: TilerOrNone | str, sense: str = "paper") -> Layout:
    """CuTe: zipped_product with its second mode unpacked."""
    z0, z1 = top_modes(zipped_product(A, T_, sense))
    return make_modes(z0, *_unpack(z1))


def flat_product(A: LayoutLike, T_: TilerOrNone | str, sense: str = "paper") -> Layout:
    """CuTe: zipped_product with both modes unpacked."""
    z0, z1 = top_modes(zipped_product(A, T_, sense))
    return make_modes(*_unpack(z0), *_unpack(z1))


def append_to(L: LayoutLike, R: int) -> Layout:
    """CuTe's append<R>(L): the modes of L padded with 1:0 up to rank R."""
    ms = _unpack(L)
    return make_modes(*(ms + [Layout(C(1), C(0))] * (R - len(ms))))


def _rank_sensitive(A, B, sense, block_first):
    A, B = as_layout(A), as_layout(B)
    R = max(T.rank(A.shape), T.rank(B.shape))
    P = logical_product(append_to(A, R), append_to(B, R), sense)
    p0, p1 = top_modes(P)
    pairs = zip(top_modes(p0), top_modes(p1))
    return make_modes(*(make_modes(a, b) if block_first else make_modes(b, a) for a, b in pairs))


def blocked_product(A: LayoutLike, B: LayoutLike, sense: str = "paper") -> Layout:
    """CuTe: with R = max(rank A, rank B), P = logical_product(append<R>(A), append<R>(B)),
    the result zips the modes of P: ((a_0, t_0), (a_1, t_1), ...)."""
    return _rank_sensitive(A, B, sense, True)


def raked_product(A: LayoutLike, B: LayoutLike, sense: str = "paper") -> Layout:
    """CuTe: like blocked_product with the pairs reversed: ((t_0, a_0), (t_1, a_1), ...)."""
    return _rank_sensitive(A, B, sense, False)


def flat_divide_paper(A: LayoutLike, B: LayoutLike) -> Layout:
    """A ⊘^b B (Def 2.1.7.9) = A ∘ (B ⋆ B^c), B^c = comp^b(B, size A).

    Def 2.1.7.1 asks for a flat result with shape(B ⋆ B^c), which often does not exist
    (Example 2.1.7.11); as the paper does there (Remark 2.1.7.8), the value computed is the
    flattening of the nested composition (Def 2.3.7.1) of A with the flat layout B ⋆ B^c.
    """
    Bc = flat_complement(B, T.size(as_layout(A).shape))
    return flat_layout(flat_modes(composition(A, concat(B, Bc))))


def flat_product_paper(A: LayoutLike, B: LayoutLike) -> Layout:
    """A ⊗^b B (Def 2.1.7.13) = A ⋆ (A^c ∘ B), A^c = comp^b(A, size(A) cosize(B)); as in
    ``flat_divide_paper``, A^c ∘ B is the flattening of the nested composition."""
    A, B = as_layout(A), as_layout(B)
    Ac = flat_complement(A, T.size(A.shape) * flat_cosize(B))
    return concat(A, composition(Ac, flat_layout(flat_modes(B))))


# Memoised for the sub-layouts they meet inside other operations (spec/memo.py).
_logical_divide = memoised(logical_divide)
_logical_product = memoised(logical_product)
