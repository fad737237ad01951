"""Flat and nested layouts: paper 2.1.2, seed 000.

A nested layout evaluates through its flattening (2.3): its coordinate function is phi of
the flattening and its layout function is Phi of the flattening.  Coordinates may be given
as an index, a flat tuple (one entry per leaf), or hierarchically like CuTe: a tuple
congruent to the top-level modes where a mode with a tuple shape may take either a nested
coordinate or one integer, its own colexicographic index.

The CuTe observers take a layout *or* an IntTuple and an optional path, CuTe's template
indices: ``rank(L, 1)`` is ``rank<1>(L)``, ``size(L, 1, 0)`` is ``size<1,0>(L)``.
"""

from __future__ import annotations

import operator
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Sequence, cast

from layoutcheck.spec import memo
from layoutcheck.spec import tuples as T
from layoutcheck.spec.limits import check_enumeration

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import IntTuple, LayoutBase, LayoutLike, Tiler, parse_tile

if TYPE_CHECKING:  # for the annotations only (typing has TypeIs from Python 3.13)
    from typing_extensions import TypeIs

__all__ = ["Layout", "parse", "as_layout", "is_layout", "shape", "stride", "size", "cosize",
           "rank", "depth", "get", "flatten", "modes", "colex", "colex_inv", "phi", "Phi",
           "FactoredMap", "phi_N", "Phi_N", "values", "image"]


class Layout(LayoutBase):
    """``shape:stride``; ``L(i)`` is Phi_L(i), ``L(coord)`` is phi_L(coord)."""

    # bookkeeping only, computed once per object (L is immutable): ``_flattening(L)`` and
    # the modes of sort(squeeze(L)) (``flat._sorted_squeezed``)
    __slots__ = ("_flattening", "_sorted_squeezed")

    def __call__(self, x: int | tuple[Any, ...] | list[Any]) -> int:
        if isinstance(x, (tuple, list)):
            return phi(self, flat_coord(self, tuple(x)))
        return Phi(self, x)


def assembled(shape: IntTuple, stride: IntTuple) -> Layout:
    """The Layout ``shape:stride`` where both are put together from the shapes and strides
    of layouts that were already checked (a layout's modes, layouts side by side, its flat
    modes reordered or dropped): every entry and the congruence of each piece were checked
    when those layouts were built, so LayoutBase's checks are not run again (they
    were a fifth of the spec's time).  Package-internal; computed entries go through
    ``Layout(shape, stride)``, which checks them."""
    L = object.__new__(Layout)
    object.__setattr__(L, "_shape", shape)
    object.__setattr__(L, "_stride", stride)
    return L


def parse(text: str) -> Layout:
    """Parse CuTe notation into a spec ``Layout``."""
    return Layout.parse(text)


def parse_tiler(text: str) -> Tiler:
    """Parse a layout or a CuTe Tile (tuple of layouts/ints) into spec values."""
    return parse_tile(text, Layout)


def is_layout(x: object) -> TypeIs[LayoutBase | str]:
    """A layout value or CuTe layout text (as opposed to an IntTuple)."""
    return isinstance(x, (LayoutBase, str))


def as_layout(x: LayoutLike) -> Layout:
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


def _shape_of(x):
    return as_layout(x).shape if is_layout(x) else x


def get(x: LayoutLike | IntTuple, *path: int) -> Layout | IntTuple:
    """``get<path>(x)``: the sub-tuple, or for a layout the sub-layout (seed 000).

    ``get(L, 1)`` of ``(2,(2,2)):(4,(2,1))`` is ``(2,2):(2,1)``; ``get(L, 1, 0)`` is ``2:2``.
    """
    if is_layout(x):
        L = as_layout(x)
        return assembled(T.get(L.shape, *path), T.get(L.stride, *path))
    return T.get(x, *path)


def shape(L: LayoutLike, *path: int) -> IntTuple:
    """``shape<path>(L)`` (seed 000)."""
    return T.get(as_layout(L).shape, *path)


def stride(L: LayoutLike, *path: int) -> IntTuple:
    """``stride<path>(L)`` (seed 000)."""
    return T.get(as_layout(L).stride, *path)


def rank(x: LayoutLike | IntTuple, *path: int) -> int:
    """``rank<path>(x)`` = rank of the shape (Def 2.1.2.9; seed 000); static."""
    return T.rank(_shape_of(x), *path)


def depth(x: LayoutLike | IntTuple, *path: int) -> int:
    """``depth<path>(x)`` = depth of the shape (seed 000); static."""
    return T.depth(_shape_of(x), *path)


def size(x: LayoutLike | IntTuple, *path: int) -> int:
    """``size<path>(x)`` = product of the shape's leaves (Def 2.1.2.9; seed 000)."""
    return T.size(_shape_of(x), *path)


def flatten(x: LayoutLike | IntTuple) -> Layout | tuple[int, ...]:
    """The flattening of an IntTuple (always a tuple) or of a layout: shape^b : stride^b.

    A layout is flattened to the paper's flat layout (2.3): ``8:1`` becomes ``(8):(1)``, the
    flat layout of rank 1 (CuTe's ``flatten`` would leave ``8:1`` alone; both have the same
    layout function).
    """
    if is_layout(x):
        L = as_layout(x)
        return Layout(T.flatten(L.shape), T.flatten(L.stride))
    return T.flatten(x)


def _flattening(L):
    """(shape^b, stride^b, size, shape^b and stride^b as plain ints) of a spec Layout,
    computed once per layout object and kept on it.  Bookkeeping only: a layout is
    immutable, so its flattening never changes, and the layout function below still goes
    through colex_inv and phi for every point (Phi was re-flattening L at each)."""
    try:
        return L._flattening
    except AttributeError:
        s, d = T.flatten(L.shape), T.flatten(L.stride)
        si = tuple(map(int, s))
        n = 1
        for x in si:
            n *= x
        # T.size(s): the product, static exactly when every leaf is (shapes are >= 1, so
        # seed 003's _0 case never arises); computed here from the plain ints once
        N = C(n) if all(isinstance(x, C) for x in s) else n
        f = (s, d, N, si, tuple(map(int, d)))
        object.__setattr__(L, "_flattening", f)
        return f


def flat_modes_of(L: Layout) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(shape^b, stride^b) of a spec Layout: its kept flattening when it has one, else the
    two flattenings alone (a layout met once need not pay for the rest of _flattening)."""
    f = getattr(L, "_flattening", None)
    if f is None:
        return T.flatten(L.shape), T.flatten(L.stride)
    return f[:2]


def _flat(L):
    return _flattening(as_layout(L))[:2]


def cosize(L: LayoutLike, *path: int) -> int:
    """cosize(L) = 1 + sum (s_i - 1) d_i over the flattening (Def 2.1.2.9).

    Seed 000 reads it as ``L(size-1) + 1``; both agree.  Static when every entry is.
    """
    s, d = _flat(get(as_layout(L), *path))
    total = C(1)
    for si, di in zip(s, d):
        total = total + (si - C(1)) * di
    return total


def modes(L: LayoutLike) -> tuple[Layout, ...]:
    """The top-level modes of L as layouts (Def 2.1.2.9: mode_i(L) = s_i:d_i, 0-based here).

    A layout with an integral shape has one mode, itself.
    """
    L = as_layout(L)
    if not T.is_tuple(L.shape):
        return (L,)
    return tuple(assembled(s, d) for s, d in zip(L.shape, cast(tuple, L.stride)))  # congruent


def colex(S: IntTuple, x: Iterable[int]) -> int:
    """colex_S(x_1..x_m) = sum_i s_1...s_{i-1} x_i (Def 2.1.2.18); nested S is flattened."""
    S = T.flatten(S)
    x = tuple(x)
    if len(x) != len(S):
        raise LayoutError(f"coordinate {x} has {len(x)} entries, shape {S} has {len(S)}")
    total, scale = 0, 1
    for xi, si in zip(x, S):
        if not 0 <= xi < si:
            raise LayoutError(f"coordinate {x} is outside [0, {S})")
        total += xi * scale
        scale *= si
    return total


def colex_inv(S: IntTuple, n: int) -> tuple[int, ...]:
    """colex_S^{-1}(n) = (x_1..x_m), x_i = floor(n / (s_1...s_{i-1})) mod s_i (Def 2.1.2.18)."""
    S = T.flatten(S)
    return _colex_inv(S, T.size(S), n)


def _colex_inv(S, N, n):
    """colex_inv of the flat shape S of size N (the definition above)."""
    if isinstance(n, bool):
        raise LayoutError(f"index {n!r} is not an integer")
    try:
        n = n if isinstance(n, int) else operator.index(n)  # numpy integers are fine
    except TypeError:
        raise LayoutError(f"index {n!r} is not an integer") from None
    if not 0 <= n < N:
        raise LayoutError(f"index {n} is outside the domain [0, {N})")
    out, scale = [], 1
    for si in S:
        out.append((n // scale) % si)
        scale *= si
    return tuple(out)


def phi(L: LayoutLike, x: Iterable[int]) -> int:
    """Coordinate function phi_L(x) = x . stride on [0, shape) (Construction 2.1.2.13)."""
    s, d = _flat(L)
    x = tuple(x)
    if len(x) != len(s) or not all(0 <= xi < si for xi, si in zip(x, s)):
        raise LayoutError(f"coordinate {x} is outside the domain [0, {s})")
    return _dot(x, d)


def _dot(x, d):
    """x . d (phi_L on a coordinate of its domain)."""
    total = 0
    for xi, di in zip(x, d):
        total += xi * di
    return total


def Phi(L: LayoutLike, n: int) -> int:
    """Layout function Phi_L = phi_L ∘ colex^{-1} on [0, size(L)) (Construction 2.1.2.19)."""
    return _Phi(_flattening(as_layout(L)), n)


def _Phi(flattening, n):
    """Phi_L(n) = phi_L(colex_inv(shape(L), n)) from L's flattening.  Its colex_inv
    coordinate is in phi_L's domain by construction, so phi's domain check is not repeated;
    the entries are L's as plain ints (Phi_L(n) is a dynamic int either way: phi's sum
    starts from the plain 0)."""
    _s, _d, N, s, d = flattening
    return _dot(_colex_inv(s, N, n), d)


def values(L: LayoutLike) -> list[int]:
    """Phi_L over the whole domain [0, size(L)), as a list (a new one on each call)."""
    L = as_layout(L)
    f = _flattening(L)
    check_enumeration(f[2], lambda: f"the domain of {L}")
    if f[2] <= MEMO_POINTS:
        return list(_table(f[3], f[4]))
    return [_Phi(f, n) for n in range(f[2])]


# --- memoised tables: pure functions of plain-int flat shapes and strides --------
#
# Phi_L depends only on the flattening's entries as integers (its values are dynamic ints
# whatever the staticness of L), so the table of Phi_L and the colex order of a shape are
# memoised by those plain-int tuples: the fuzzer meets the same small sub-layouts again and
# again.  The tables are built by the definitions above, point by point (colex_inv, then
# phi's x . d); domains larger than MEMO_POINTS are never kept.

MEMO_POINTS = 1024  # a table longer than this is computed each time, never kept


@lru_cache(maxsize=256)
def _colex_domain(s):
    """(colex_S^{-1}(0), ..., colex_S^{-1}(N-1)) for a flat plain-int shape S of size N
    (Def 2.1.2.18): the domain [0, S) listed in colexicographic order, each point by the
    definition x_i = floor(n / (s_1...s_{i-1})) mod s_i (``_colex_inv`` without its checks:
    every n here is in [0, N))."""
    scales, N = [], 1  # s_1 ... s_{i-1}
    for si in s:
        scales.append(N)
        N *= si
    pairs = tuple(zip(scales, s))
    return tuple([tuple([(n // p) % si for p, si in pairs]) for n in range(N)])


@lru_cache(maxsize=4096)
def _table(s, d):
    """(Phi_L(0), ..., Phi_L(N-1)) for the flat plain-int layout s:d: phi_L (x . d,
    Construction 2.1.2.13) at each colex_inv(n) (Construction 2.1.2.19)."""
    return tuple([sum(map(operator.mul, x, d)) for x in _colex_domain(s)])  # x . d


def clear_memos() -> None:
    """Empty the memoised tables and operations (for measurements that start cold)."""
    memo.clear()
    _colex_domain.cache_clear()
    _table.cache_clear()


def evaluator(L: LayoutLike) -> Callable[[Any], int]:
    """x -> Phi_L(x) (``L(x)``), read from L's memoised table where it has one; any other x
    (outside [0, size L), or a table too long to keep) goes through ``L(x)`` itself, which
    raises there as it always does.  Package-internal."""
    L = as_layout(L)
    t = table_of(L)
    if t is None:
        return L
    n = len(t)

    def phi_of(x):
        if type(x) is int and 0 <= x < n:
            return t[x]
        return L(x)
    return phi_of


def images(L: LayoutLike, xs: Sequence[int]) -> list[int]:
    """[Phi_L(x) for x in xs] (``L(x)`` each): read from L's memoised table at C speed when
    every x is in [0, size L) (xs a list or range of ints), else point by point through
    ``L(x)``, which raises where it always does.  Package-internal (the spec's checks on a
    whole domain: composition, the inverses)."""
    t = table_of(L)
    if t is not None and len(xs) and min(xs) >= 0 and max(xs) < len(t):
        return list(map(t.__getitem__, xs))
    phi_of = evaluator(L)
    return [phi_of(x) for x in xs]


def table_of(L: LayoutLike) -> tuple[int, ...] | None:
    """Phi_L on [0, size(L)) as a tuple, memoised by the plain-int flattening when it has at
    most MEMO_POINTS points (None when it is longer: callers evaluate point by point).
    Package-internal (``composition`` reads A's function from it)."""
    f = _flattening(as_layout(L))
    return _table(f[3], f[4]) if f[2] <= MEMO_POINTS else None


def image(L: LayoutLike) -> frozenset[int]:
    """Image(Phi_L) (= Image(phi_L)) as a frozenset."""
    return frozenset(values(L))


class FactoredMap:
    """A map of finite sets ``domain -> [0, N)`` given by its table (2.1.2.13, 2.1.2.19).

    ``domain`` lists the points in order; ``table[i]`` is the image of ``domain[i]``.
    """

    __slots__ = ("domain", "codomain", "table", "_index")

    def __init__(self, domain: Iterable[Hashable], codomain: int, table: Iterable[int]) -> None:
        self.domain = tuple(domain)
        self.codomain = codomain
        self.table = tuple(table)
        self._index = {p: i for i, p in enumerate(self.domain)}

    def __call__(self, p: Hashable) -> int:
        if p not in self._index:
            raise LayoutError(f"{p!r} is outside the domain of the map")
        return self.table[self._index[p]]

    def is_injective(self) -> bool:
        return len(set(self.table)) == len(self.table)

    def is_surjective(self) -> bool:
        check_enumeration(self.codomain, lambda: f"the codomain [0, {self.codomain})")
        return set(self.table) == set(range(self.codomain))

    def is_isomorphism(self) -> bool:
        return self.is_injective() and self.is_surjective()

    def __repr__(self):
        return f"FactoredMap({len(self.domain)} points -> [0, {self.codomain}))"


def _codomain(L, N):
    c = cosize(L)
    N = c if N is None else N
    if isinstance(N, bool) or not isinstance(N, int) or N < c:
        raise LayoutError(f"N = {N!r} is below cosize = {c}: Phi_L does not factor through "
                          f"[0, N)", condition="N_at_least_cosize")
    return int(N)


def phi_N(L: LayoutLike, N: int | None = None) -> FactoredMap:
    """phi_L^N: [0, shape(L)) -> [0, N), N >= cosize(L) (Construction 2.1.2.13).

    ``N`` defaults to cosize(L); below cosize raises ``LayoutError(condition=
    "N_at_least_cosize")``.  The domain is listed in colexicographic order.
    """
    L = as_layout(L)
    N = _codomain(L, N)
    dom = T.domain(L.shape)
    return FactoredMap(dom, N, [phi(L, x) for x in dom])


def Phi_N(L: LayoutLike, N: int | None = None) -> FactoredMap:
    """Phi_L^N: [0, size(L)) -> [0, N), N >= cosize(L) (Construction 2.1.2.19)."""
    L = as_layout(L)
    N = _codomain(L, N)
    return FactoredMap(range(size(L)), N, values(L))


def flat_coord(L: LayoutLike, x: tuple[Any, ...]) -> tuple[int, ...]:
    """A coordinate of L as a flat tuple (one entry per leaf of the shape).

    Accepted forms: flat (one integer per leaf); or hierarchical like CuTe, congruent to
    the shape except that a tuple-shaped mode may take a single integer, which is that
    mode's colexicographic index (Def 2.1.2.18 within the mode).
    """
    L = as_layout(L)
    s = T.flatten(L.shape)
    if all(isinstance(v, int) for v in x) and len(x) == len(s) and (
            not T.is_tuple(L.shape) or len(x) != len(L.shape)):
        return tuple(x)

    def go(shp, c, where):
        if isinstance(c, int) and not isinstance(c, bool):
            if T.is_tuple(shp):
                return colex_inv(shp, c)
            if not 0 <= c < shp:
                raise LayoutError(f"coordinate entry {c} at {where} is outside [0, {shp})")
            return (c,)
        if isinstance(c, tuple) and T.is_tuple(shp) and len(c) == len(shp):
            out = ()
            for i, (si, ci) in enumerate(zip(shp, c)):
                out += go(si, ci, where + (i,))
            return out
        raise LayoutError(f"coordinate {x} does not match shape {L.shape} at mode {where}")

    shp = L.shape if T.is_tuple(L.shape) else (L.shape,)
    c = x if T.is_tuple(L.shape) else (x[0],) if len(x) == 1 else x
    return go(shp, c, ())
