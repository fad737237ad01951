"""The layout algebra, by algorithms on the modes (paper 2.1.4-2.1.8, 2.3.3-2.3.10; CuTe).

Nothing here evaluates a layout over its domain: coalesce is one pass over the flattened modes,
complement works from the sorted modes, composition (``compose.py``) splits the right
operand's leaves against the coalesced left operand (mutual refinement by divisibility), and
the derived operations (``divide.py``) are CuTe's definitions on top.  Results follow CuTe's
structure (rank-1 results print ``8:1``).  This module holds the unary operations, slicing and
the kernels the others share.

Preconditions are the paper's by default; ``sense="cute"`` applies CuTe's own (weaker) checks
instead and returns what CuTe returns.  A failed precondition raises
``LayoutError(condition=NAME)`` with ``NAME`` the predicate that failed.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Iterable, Sequence

from layoutcheck.impl.basic import concat, is_compact, is_injective
from layoutcheck.impl.layout import (
    FlatModes,
    C0,
    C1,
    Layout,
    alloc_layout,
    as_layout,
    fast_leaves,
    keep_flat_modes,
    new_layout,
    set_coalesced_modes,
    set_shape,
    set_stride,
    size,
)

from layoutcheck.errors import LayoutError
from layoutcheck.layout import (  # noqa: F401  one sentinel for the package
    Coord,
    IntTuple,
    LayoutBase,
    LayoutLike,
    Underscore,
    _,
)

__all__ = ["coalesce", "is_coalesced", "filter", "complement", "is_complementable",
           "is_disjoint", "right_inverse", "left_inverse", "slice_", "Underscore", "_",
           "is_tractable"]

_SENSES = ("paper", "cute")


def is_underscore(x: object) -> bool:
    # pycute's None means the same.
    return x is None or isinstance(x, Underscore)


def check_sense(sense: str) -> None:
    if sense not in _SENSES:
        raise LayoutError(f"sense must be one of {_SENSES}, not {sense!r}")


def flat_pairs_of(L: LayoutLike) -> FlatModes:
    """The flattened modes of a layout argument (cached on impl Layouts, see ``flat_modes``)."""
    if type(L) is not Layout:
        L = as_layout(L)
    try:
        return L._fm
    except AttributeError:
        return keep_flat_modes(L)


# Speed notes (the benchmarks time one pass over a corpus, per-call overhead
# decides the small layouts).  Inputs are checked once (``as_layout``); an impl Layout keeps
# two normal forms of itself once computed: its flat modes (``flat_modes``, static ones and
# zeros as the shared ``C1``/``C0``) and the modes of its coalesce (``coalesced_modes``).
# Inside an operation layouts are raw (shape, stride) parts and only the Layout returned is
# built, unchecked (``new_layout``, ``build_layout``); a result equal to an input (coalesce of a coalesced
# flat layout) is that input, and ``_1:_0`` is one shared value.  Values use the ordinary
# operators, so static/dynamic propagation (seed 003) is exactly CuTe's; static ``C``
# arithmetic runs in Python (~10x slower than int), so ``_1 * x`` and ``x // _1``, which are
# ``x`` for an int or a ``C``, are skipped by identity (``is C1``), and a value that is only
# compared or summed (never part of a result) is taken as a plain int, ``+x`` (int's own
# ``__pos__``, which ``C`` keeps).  Binary operations write out their hot cases (a leaf
# composed with a single mode, a leaf tiler entry) before the general path.
ONE = (C1, C0)
_UNIT = new_layout(C1, C0)
_stride_of = itemgetter(1)


def raw_layout(ss: Sequence[int], ds: Sequence[int]) -> tuple[IntTuple, IntTuple]:
    """(shape, stride) of the layout with modes ss:ds: ``_1:_0`` when empty, ``s:d`` for one
    mode, else a tuple (CuTe's result convention)."""
    if len(ss) == 1:
        return ss[0], ds[0]
    if ss:
        return tuple(ss), tuple(ds)
    return ONE


def build_layout(ss: Sequence[int], ds: Sequence[int]) -> Layout:
    """The impl Layout with modes ss:ds, by the convention of ``raw_layout``."""
    if len(ss) == 1:
        L = alloc_layout(Layout)
        set_shape(L, ss[0])
        set_stride(L, ds[0])
        return L
    if ss:
        L = alloc_layout(Layout)
        set_shape(L, tuple(ss))
        set_stride(L, tuple(ds))
        return L
    return _UNIT


# --- coalesce and filter (2.1.4, 2.3.3) ------------------------------------------------------

def coalesced_pairs(ms: Iterable[tuple[int, int]], drop_zero: bool = False) -> tuple[list[int], list[int]]:
    """One coalescing pass over flat modes (Construction 2.1.4.9): drop size-1 modes (and the
    stride-0 ones with ``drop_zero``), merge s:d into the previous kept mode s':d' when
    s' d' = d.  Returns the lists (shapes, strides).  The mode being grown is kept in locals
    (ps:pd) until the next one starts; ``nxt`` = ps * pd is only compared, so it is a plain
    int (``+x``, see the speed notes)."""
    ss, ds = [], []
    ps = pd = 0
    nxt = -1  # never equal to a stride (>= 0) before the first mode
    for s, d in ms:
        if +s == 1 or (drop_zero and +d == 0):
            continue
        if +d == nxt:
            ps = ps * s
            nxt = +ps * +pd
        else:
            if ps:
                ss.append(ps)
                ds.append(pd)
            ps, pd = s, d
            nxt = +s * +d
    if ps:
        ss.append(ps)
        ds.append(pd)
    return ss, ds


def _kept(L, fm, ss, ds):
    """The layout with modes ss:ds (``build_layout``) computed from L's flat modes fm by dropping and
    merging: L itself when nothing was dropped or merged and L is flat or a single mode."""
    n = len(ss)
    if n == len(fm):
        sh = L._shape
        if type(sh) is not tuple or (n > 1 and _is_flat(sh)):
            return L
    return build_layout(ss, ds)


def _is_flat(t):
    """A tuple of leaves (no nested tuple)."""
    for x in t:
        if type(x) is tuple:
            return False
    return True


def coalesced_pairs_of(s: IntTuple, d: IntTuple) -> tuple[list[int], list[int]]:
    """``coalesced_pairs`` of the flat modes of the layout s:d given by its parts."""
    if type(s) is not tuple:
        return ([s], [d]) if +s != 1 else ([], [])  # type: ignore[list-item, operator]  # leaves
    return coalesced_pairs(zip(fast_leaves(s), fast_leaves(d)))


def coalesced_modes(L: Layout) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The modes of coalesce(L) as two tuples (shapes, strides), for an impl Layout L; kept on
    L (composition, divide and the inverses start from them)."""
    try:
        return L._cm
    except AttributeError:
        return keep_coalesced_modes(L)


def keep_coalesced_modes(L: Layout) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Compute and keep coalesce(L)'s modes (for a caller that found none kept)."""
    try:
        fm = L._fm
    except AttributeError:
        fm = keep_flat_modes(L)
    ss, ds = coalesced_pairs(fm)
    cm = tuple(ss), tuple(ds)
    set_coalesced_modes(L, cm)
    return cm


def _refines(Xp, X):
    """X' refines X (Def 2.2.4.1): X = size(X'), or equal ranks and mode-wise refinement."""
    if not isinstance(X, tuple):
        return size(Xp) == X
    return (isinstance(Xp, tuple) and len(Xp) == len(X)
            and all(_refines(p, q) for p, q in zip(Xp, X)))


def coalesce(L: LayoutLike, profile: IntTuple | LayoutBase | None = None, sense: str = "paper") -> Layout:
    """coal(L) (Construction 2.3.3.7, CuTe's coalesce): one pass over the flattened modes,
    dropping size-1 modes and merging s_i d_i = d_{i+1}; ``8:1`` for one mode, ``_1:_0`` for
    none.  ``sense="flat"``: the paper's flat coal^b (always a tuple, ``():()`` for size 1).

    With a ``profile``: ``sense="paper"`` is the relative coalesce of Def 2.3.4.7 (shape(L)
    must refine the profile, condition ``refines``); ``sense="cute"`` is CuTe's walk (mode i
    by ``profile[i]``, later modes kept).  They coincide when shape(L) refines the profile.
    """
    if type(L) is not Layout:
        L = as_layout(L)
    if profile is not None or sense != "paper":
        return _coalesce_by(L, profile, sense)
    try:
        ss, ds = L._cm
    except AttributeError:
        ss, ds = keep_coalesced_modes(L)
    n = len(ss)
    if n == 1:
        if type(L._shape) is not tuple:  # s:d with s > 1 is coalesced
            return L
        R = alloc_layout(Layout)
        set_shape(R, ss[0])
        set_stride(R, ds[0])
        return R
    if not n:
        return _UNIT
    if n == len(L._fm) and _is_flat(L._shape):  # nothing dropped or merged
        return L
    R = alloc_layout(Layout)
    set_shape(R, ss)
    set_stride(R, ds)
    return R


def _coalesce_by(L, profile, sense):
    if sense not in ("paper", "cute", "flat"):
        raise LayoutError(f"sense must be 'paper', 'cute' or 'flat', got {sense!r}")
    if sense == "flat":
        if profile is not None:
            raise LayoutError("the flat coalesce (Construction 2.1.4.9) takes no profile")
        ss, ds = coalesced_pairs(flat_pairs_of(L))
        return new_layout(tuple(ss), tuple(ds))
    if profile is None:
        return coalesce(L)
    if isinstance(profile, LayoutBase):
        profile = profile.shape
    if sense == "paper" and not _refines(L.shape, profile):
        raise LayoutError(f"shape {L.shape} does not refine {profile} (Def 2.3.4.7)",
                          condition="refines")
    return _walk_coalesce(L, profile)


def _walk_coalesce(L, profile):
    if not isinstance(profile, tuple):
        return coalesce(L)
    ms = [new_layout(s, d) for s, d in zip(L.shape, L.stride)] if isinstance(L.shape, tuple) else [L]
    if len(profile) > len(ms):
        raise LayoutError(f"profile {profile} has {len(profile)} modes, layout {L} has "
                          f"rank {len(ms)}", condition="rank")
    parts = [_walk_coalesce(m, p) for m, p in zip(ms, profile)] + ms[len(profile):]
    return new_layout(tuple([x._shape for x in parts]), tuple([x._stride for x in parts]))


def is_coalesced(L: LayoutLike) -> bool:
    """Def 2.3.3.1: L = 1:0, or s:d with s > 1, or flat of rank > 1 and flat-coalesced."""
    L = as_layout(L)
    return coalesce(L) == L


def filter(L: LayoutLike) -> Layout:
    """CuTe's filter: drop stride-0 and size-1 modes, then coalesce (``_1:_0`` if empty)."""
    if type(L) is not Layout:
        L = as_layout(L)
    try:
        fm = L._fm
    except AttributeError:
        fm = keep_flat_modes(L)
    ss, ds = coalesced_pairs(fm, True)
    return _kept(L, fm, ss, ds)


def is_tractable(L: LayoutLike) -> bool:
    """Def 2.1.8.1 / 2.3.10.1: in sort(L^b), d_i = 0 or s_i d_i divides d_{i+1}."""
    ms = sorted(flat_pairs_of(L), key=lambda m: (m[1], m[0]))
    return all(d == 0 or dn % (s * d) == 0 for (s, d), (_, dn) in zip(ms, ms[1:]))


# --- complement (2.1.6, 2.3.6) ---------------------------------------------------------------

def _check_N(N):
    if isinstance(N, bool) or not isinstance(N, int) or N < 1:
        raise LayoutError(f"the complement target N must be a positive integer, got {N!r}")


def complement_parts(fm: Sequence[tuple[int, int]], N: int | None, drop_zero: bool,
                     round_up: bool) -> tuple[list[int], list[int]] | None:
    """comp(L, N) (Construction 2.1.6.29) from L's flat modes ``fm`` as lists (shapes,
    strides), or None when L is not (N-)complementable.

    sort(squeeze(L^b)) = s_1:d_1, ..., s_m:d_m must have non-zero strides (Example 2.1.6.15),
    s_i d_i | d_{i+1}, and s_m d_m | N (Def 2.1.6.11 / 2.1.6.25 / 2.3.6.8); ``drop_zero``
    first drops the stride-0 modes and ``round_up`` rounds N up to a multiple of s_m d_m
    (CuTe's sense; Observation 2.3.9.2 for products).  The complement has shapes (d_1,
    d_2/(s_1 d_1), ..., N/(s_m d_m)) and strides (1, s_1 d_1, ..., s_m d_m); its size-1 modes
    are dropped, and no two modes merge (the product of one mode is d_i < s_i d_i, the next
    stride), so it is coalesced.  N=None is cosize(L) <= s_m d_m: the last mode is then 1.
    ``N`` is already checked."""
    ss: list[int] = []
    ds: list[int] = []
    cur: int = C1  # s_{i-1} d_{i-1}, the stride of the next complement mode
    # Sorted by stride alone: two modes of equal non-zero stride d fail d % (s d) whichever
    # comes first, so the order of (d, s) is not needed.
    if len(fm) == 2:  # a stable sort by stride, written out
        if +fm[1][1] < +fm[0][1]:
            fm = fm[1], fm[0]
    elif len(fm) > 2:
        fm = sorted(fm, key=_stride_of)
    for s, d in fm:
        if s == 1 or (drop_zero and +d == 0):
            continue
        if cur is C1:
            if +d == 0:
                return None
            q = d  # d // _1
        else:
            if d % cur:
                return None
            q = d // cur
        if +q != 1:
            ss.append(q)
            ds.append(cur)
        cur = s if d is C1 else s * d
    if N is not None:
        if cur is C1:
            q = N  # -(-N // _1)
        elif round_up:
            q = -(-N // cur)
        elif N % +cur:
            return None
        else:
            q = N // cur
        if +q != 1:
            ss.append(q)
            ds.append(cur)
    return ss, ds


def not_complementable(L: LayoutLike, N: int | None) -> LayoutError:
    what = "complementable" if N is None else f"{N}-complementable"
    return LayoutError(f"{as_layout(L)} is not {what} (Def 2.1.6.11/2.1.6.25)",
                       condition="is_complementable")


def is_complementable(L: LayoutLike, N: int | None = None, sense: str = "paper") -> bool:
    """Whether comp(L, N) exists (Def 2.1.6.11 / 2.1.6.25 / 2.3.6.8; see ``complement``)."""
    check_sense(sense)
    if N is not None:
        _check_N(N)
    cute = sense == "cute"
    return complement_parts(flat_pairs_of(L), N, cute, cute) is not None


def complement(L: LayoutLike, N: int | None = None, sense: str = "paper") -> Layout:
    """comp(L, N) (Construction 2.1.6.29, Def 2.3.6.5), CuTe's complement(L, N).

    From the sorted modes s_i:d_i: shapes (d_1, d_2/(s_1 d_1), ..., N/(s_m d_m)) with strides
    (1, s_1 d_1, ..., s_m d_m), coalesced.  ``N=None`` is CuTe's default cotarget,
    cosize(filter(L)), which gives the paper's comp(L).  ``sense="cute"`` ignores stride-0
    modes and rounds N up to a multiple of s_m d_m, as CuTe does.
    """
    if sense != "paper":
        check_sense(sense)
    if N is not None:
        _check_N(N)
    cute = sense == "cute"
    found = complement_parts(flat_pairs_of(L), N, cute, cute)
    if found is None:
        raise not_complementable(L, N)
    return build_layout(*found)


def is_disjoint(A: LayoutLike, B: LayoutLike) -> bool:
    """A ⊥ B: the flat concatenation A ⋆ B is compact (Def 2.1.6.1)."""
    return is_compact(concat(A, B))


# --- inverses and slicing (CuTe) -------------------------------------------------------------

def _prefix_products(shapes):
    """(_1, s_1, s_1 s_2, ...): the exclusive prefix products (``_1 * s_1`` is ``s_1``)."""
    out = [C1]
    if len(shapes) > 1:
        acc = shapes[0]
        out.append(acc)
        for i in range(1, len(shapes) - 1):
            acc = acc * shapes[i]
            out.append(acc)
    return out


def right_inverse(L: LayoutLike) -> Layout:
    """CuTe's right_inverse R: L(R(i)) == i for i < size(R).  Over coalesce(L) sorted by
    stride (stable), take each mode whose stride equals the running product, with the prefix
    product of L's shape as its stride: the chain of modes from stride 1, each next stride the
    product so far (the first mode of a stride, as the stable sort takes it)."""
    ss, ds = coalesced_modes(L if type(L) is Layout else as_layout(L))
    if len(ss) == 1:  # s:1 is its own right inverse, as s:_1
        return new_layout(ss[0], C1) if +ds[0] == 1 else _UNIT
    strides = [+d for d in ds]
    if 1 not in strides:  # nothing to start from: _1:_0
        return _UNIT
    pre = _prefix_products(ss)
    rs, rd, cur = [], [], 1
    while cur in strides:
        i = strides.index(cur)
        rs.append(ss[i])
        rd.append(pre[i])
        cur *= +ss[i]
    # Already coalesced: the chosen modes have shapes > 1, and two consecutive ones i, j
    # would merge only if j = i + 1 and d_j = s_i d_i, which coalesce(L) has merged already.
    return build_layout(rs, rd)


def left_inverse(L: LayoutLike) -> Layout:
    """CuTe's left_inverse R: R(L(i)) == i for an injective L.  Over coalesce(L) sorted by
    stride, the non-zero strides must form a divisor chain (CuTe's divisibility condition)."""
    ss: Sequence[int]
    ds: Sequence[int]
    ss, ds = coalesced_modes(L if type(L) is Layout else as_layout(L))
    if len(ss) == 1 and ds[0] != 0:  # s:d gives (d,s):(_0,_1), i.e. s:_1 when d = 1
        s, d = ss[0], ds[0]
        return new_layout(s, C1) if d == 1 else new_layout((d, s), (C0, C1))
    if not ss:
        ss, ds = [C1], [C0]
    order = sorted(range(len(ss)), key=ds.__getitem__)
    span = 0  # injective for sure when each stride clears the span of the smaller modes
    for i in order:
        if ds[i] <= span:
            if not is_injective(L):
                raise LayoutError(f"{as_layout(L)} is not injective, so it has no left "
                                  "inverse", condition="is_injective")
            break
        span += (ss[i] - 1) * ds[i]
    pre = _prefix_products(ss)
    size: int
    shapes, strides, size = [], [C0], C1
    for i in order:
        d = ds[i]
        if d == 0:
            continue
        if size is C1:  # d // _1 and _1 * d are d
            q = size = d
        else:
            if d % size != 0:
                raise LayoutError(f"{as_layout(L)} has no left inverse as a layout: stride {d} "
                                  f"is not a multiple of {size}",
                                  condition="left_inverse_divisibility")
            q = d // size
            size = size * q
        shapes.append(q)
        strides.append(pre[i])
    shapes.append(ss[order[-1]])
    return build_layout(*coalesced_pairs(zip(shapes, strides)))


def _has_underscore(c):
    if isinstance(c, tuple):
        return any(_has_underscore(x) for x in c)
    return is_underscore(c)


def _check_coord(c, s):
    if is_underscore(c):
        return
    if isinstance(c, tuple):
        if not isinstance(s, tuple) or len(c) != len(s):
            raise LayoutError(f"coordinate {c!r} does not match shape {s}", condition="congruent")
        for ci, si in zip(c, s):
            _check_coord(ci, si)
        return
    if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < size(s):
        raise LayoutError(f"coordinate entry {c!r} is outside [0, {size(s)})",
                          condition="in_domain")


def _slice(c, t):
    if is_underscore(c):
        return (t,)
    if isinstance(c, tuple):
        return tuple(x for ci, ti in zip(c, t) for x in _slice(ci, ti))
    return ()


def slice_(L: LayoutLike, coord: Coord) -> Layout | int:
    """CuTe's ``L(coord)`` with ``_``: keep the modes where ``coord`` has ``_``, drop those with
    an integer; a tuple coordinate concatenates its entries' slices (CuTe's filter_tuple).
    Without any ``_`` it is the coordinate function, an integer."""
    L = as_layout(L)
    _check_coord(coord, L.shape)
    if not _has_underscore(coord):
        return L(coord)  # type: ignore[arg-type]  # no `_` in it
    if is_underscore(coord):
        return L
    return new_layout(_slice(coord, L.shape), _slice(coord, L.stride))
