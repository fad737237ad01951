"""Division and product (paper 2.3.8, 2.3.9; CuTe's logical/zipped/tiled/flat divide and product,
blocked and raked product), by their definitions on top of complement and composition.

The workers take the left operand as raw parts (shape, stride, flat modes) and return raw
(shape, stride) pairs; a tuple tiler is applied mode by mode on the parts; the public
functions build the one Layout returned.
"""

from __future__ import annotations

from layoutcheck.impl.algebra import (
    C0,
    C1,
    ONE,
    check_sense,
    coalesced_modes,
    coalesced_pairs,
    complement_parts,
    flat_pairs_of,
    is_underscore,
    not_complementable,
)
from layoutcheck.impl.compose import as_tiler, compose_raw, modes_of, rank_error
from layoutcheck.impl.layout import Layout, as_layout, flat_pairs, keep_flat_modes, new_layout

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutLike, TilerOrNone, _

__all__ = ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
           "zipped_product", "tiled_product", "flat_product", "blocked_product",
           "raked_product"]


def _divide(s, d, fa, A, bs, bd, fb, sense):
    """A ⊘ B = (A∘B, A∘comp(B, size(A))) for A = s:d (flat modes fa; the impl Layout A or
    None) and B = bs:bd (flat modes fb) (Def 2.3.8.1)."""
    n = 1  # size(A), a plain int (CuTe's size times a dynamic 1)
    for x, _d in fa:
        n *= +x
    cute = sense == "cute"
    found = complement_parts(fb, n, cute, cute)
    if found is None:
        raise not_complementable(new_layout(bs, bd), n)
    cs, cd = found
    if len(cs) == 1:  # the complement's shape and stride (_raw)
        cs, cd = cs[0], cd[0]
    elif cs:
        cs, cd = tuple(cs), tuple(cd)
    else:
        cs, cd = ONE
    a_s, a_d = coalesced_pairs(fa) if A is None else coalesced_modes(A)
    return compose_raw(a_s, a_d, (bs, cs), (bd, cd), sense, (s, d), None)


def _product(s, d, fa, A, bs, bd, fb, sense):
    """A ⊗ B = (A, comp(A, N)∘B) for A = s:d, B = bs:bd (Def 2.3.9.1).  Observation 2.3.9.2:
    any large enough complement serves, so N = size(A)·cosize(B) is rounded up to a multiple
    of s_m d_m (as CuTe does); A itself must be complementable."""
    n = cos = 1  # size(A) and cosize(B) as plain ints
    for x, _d in fa:
        n *= +x
    for x, y in fb:
        cos += (+x - 1) * +y
    found = complement_parts(fa, n * cos, sense == "cute", True)
    if found is None:
        raise LayoutError(f"{new_layout(s, d)} is not complementable (Def 2.1.6.11)",
                          condition="is_complementable")
    rs, rd = compose_raw(*found, bs, bd, sense, None, None)
    return (s, rs), (d, rd)


def _modewise(fn, s, d, fa, T, sense, A=None):
    """fn(s:d, T) for a layout tiler (an int n is n:_1), mode by mode for a tuple tiler (modes
    beyond the tuple kept), s:d itself for ``_``; T is checked (``as_tiler``).  ``A`` is the
    impl Layout s:d when there is one (its normal forms are kept on it)."""
    if type(T) is Layout:
        try:
            fb = T._fm
        except AttributeError:
            fb = keep_flat_modes(T)
        return fn(s, d, fa, A, T._shape, T._stride, fb, sense)
    if type(T) is tuple:
        ms, md = modes_of(s, d)
        if len(T) > len(ms):
            raise rank_error(T, s, d)
        rs, rd = [], []
        for x, y, t in zip(ms, md, T):
            if t is not _ and t is not None:  # `_` (pycute's None) leaves the mode as it is
                if type(t) is not Layout:
                    t = as_tiler(t)
                x, y = _modewise(fn, x, y, flat_pairs(x, y), t, sense)
            rs.append(x)
            rd.append(y)
        k = len(T)
        return tuple(rs) + ms[k:], tuple(rd) + md[k:]
    if is_underscore(T):
        return s, d
    return fn(s, d, fa, A, T, C1, ((T, C1),), sense)


def _apply(fn, A, T, sense):
    """Raw fn(A, T) of the public operation on its arguments, as (shape, stride)."""
    if sense != "paper":
        check_sense(sense)
    if type(A) is not Layout:
        A = as_layout(A)
    try:
        fa = A._fm
    except AttributeError:
        fa = keep_flat_modes(A)
    if type(T) is Layout:  # the hot path: _modewise's first case written out
        try:
            fb = T._fm
        except AttributeError:
            fb = keep_flat_modes(T)
        return fn(A._shape, A._stride, fa, A, T._shape, T._stride, fb, sense)
    return _modewise(fn, A._shape, A._stride, fa, as_tiler(T), sense, A)


def logical_divide(A: LayoutLike, T: TilerOrNone | str, sense: str = "paper") -> Layout:
    """A ⊘ B = (A∘B, A∘comp(B, size(A))) (Def 2.3.8.1); a tuple tiler divides mode by mode."""
    return new_layout(*_apply(_divide, A, T, sense))


def logical_product(A: LayoutLike, T: TilerOrNone | str, sense: str = "paper") -> Layout:
    """A ⊗ B = (A, comp(A, size(A)·cosize(B))∘B) (Def 2.3.9.1); tuple tilers mode by mode."""
    return new_layout(*_apply(_product, A, T, sense))


def _unzip(s, d, T):
    """Gather ((tiles...), (rests..., untouched modes...)) from a mode-wise result s:d (CuTe's
    tile_unzip / pycute's hier_unzip), as two raw (shape, stride) pairs."""
    if type(T) is not tuple:
        if type(s) is not tuple or len(s) != 2:
            # CuTe's zip2_by static_asserts here too; `_` leaves a mode that is no pair.
            raise LayoutError(f"{new_layout(s, d)} is not a (tile, rest) pair: a tiler entry {T!r} "
                              "that leaves a mode alone cannot be unzipped",
                              condition="is_unzippable")
        return (s[0], d[0]), (s[1], d[1])
    if type(s) is not tuple:
        s, d = (s,), (d,)
    ts, td, rs, rd = [], [], [], []
    for x, y, t in zip(s, d, T):
        if type(t) is tuple:
            (a, b), (c, e) = _unzip(x, y, t)
        elif type(x) is tuple and len(x) == 2:  # the pair (tile, rest), written out
            (a, c), (b, e) = x, y
        else:
            _unzip(x, y, t)  # raises
        ts.append(a)
        td.append(b)
        rs.append(c)
        rd.append(e)
    k = len(T)
    return (tuple(ts), tuple(td)), (tuple(rs) + s[k:], tuple(rd) + d[k:])


def _zipped(fn, A, T, sense):
    """Raw ((tile), (rest)) of the mode-wise ``fn``.  For a layout tiler the result of fn is
    already the pair (A∘B, rest), so unzipping leaves it as it is."""
    if type(T) is Layout:
        return _apply(fn, A, T, sense)
    T = as_tiler(T)
    s, d = _apply(fn, A, T, sense)
    if type(T) is tuple or is_underscore(T):
        (ts, td), (rs, rd) = _unzip(s, d, T)
        return (ts, rs), (td, rd)
    return s, d


def _tiled(fn, A, T, sense):
    """((tile), rest_0, rest_1, ...) from the zipped pair."""
    (s0, s1), (d0, d1) = _zipped(fn, A, T, sense)
    if type(s1) is tuple:
        return new_layout((s0,) + s1, (d0,) + d1)
    return new_layout((s0, s1), (d0, d1))


def _flat(fn, A, T, sense):
    """(tile_0, ..., rest_0, ...) from the zipped pair."""
    (s0, s1), (d0, d1) = _zipped(fn, A, T, sense)
    if type(s0) is not tuple:
        s0, d0 = (s0,), (d0,)
    if type(s1) is not tuple:
        s1, d1 = (s1,), (d1,)
    return new_layout(s0 + s1, d0 + d1)


def zipped_divide(A: LayoutLike, T: TilerOrNone | str, sense: str = "paper") -> Layout:
    """((tile), (rest)) (CuTe's zipped_divide)."""
    return new_layout(*_zipped(_divide, A, T, sense))


def tiled_divide(A: LayoutLike, T: TilerOrNone | str, sense: str = "paper") -> Layout:
    """((tile), rest_0, rest_1, ...) (CuTe's tiled_divide)."""
    return _tiled(_divide, A, T, sense)


def flat_divide(A: LayoutLike, T: TilerOrNone | str, sense: str = "paper") -> Layout:
    """(tile_0, ..., rest_0, ...) (CuTe's flat_divide)."""
    return _flat(_divide, A, T, sense)


def zipped_product(A: LayoutLike, T: TilerOrNone | str, sense: str = "paper") -> Layout:
    """((block), (rest)) (CuTe's zipped_product)."""
    return new_layout(*_zipped(_product, A, T, sense))


def tiled_product(A: LayoutLike, T: TilerOrNone | str, sense: str = "paper") -> Layout:
    """((block), rest_0, rest_1, ...) (CuTe's tiled_product)."""
    return _tiled(_product, A, T, sense)


def flat_product(A: LayoutLike, T: TilerOrNone | str, sense: str = "paper") -> Layout:
    """(block_0, ..., rest_0, ...) (CuTe's flat_product)."""
    return _flat(_product, A, T, sense)


def _padded(L, R):
    """CuTe's append<R>(L) as raw parts (shape, stride, flat modes): the top-level modes of L
    padded with ``_1:_0`` to rank R, always a tuple (CuTe keeps a leaf a leaf at R = 1, a
    corner where the spec's reading is followed); its flattening is L's plus the padding."""
    s, d = modes_of(L._shape, L._stride)
    k = R - len(s)
    return s + (C1,) * k, d + (C0,) * k, flat_pairs_of(L) + (ONE,) * k


def _rank_product(A, B, sense, raked):
    if sense != "paper":
        check_sense(sense)
    A, B = as_layout(A), as_layout(B)
    R = max(len(A._shape) if type(A._shape) is tuple else 1,
            len(B._shape) if type(B._shape) is tuple else 1)
    sa, da, fa = _padded(A, R)
    (a_s, c_s), (a_d, c_d) = _product(sa, da, fa, None, *_padded(B, R), sense)
    if raked:
        return new_layout(tuple(zip(c_s, a_s)), tuple(zip(c_d, a_d)))
    return new_layout(tuple(zip(a_s, c_s)), tuple(zip(a_d, c_d)))


def blocked_product(A: LayoutLike, B: LayoutLike, sense: str = "paper") -> Layout:
    """CuTe's blocked_product: logical_product of A and B padded to a common rank R, zipped
    mode by mode as ((A_0, C_0), (A_1, C_1), ...)."""
    return _rank_product(A, B, sense, raked=False)


def raked_product(A: LayoutLike, B: LayoutLike, sense: str = "paper") -> Layout:
    """CuTe's raked_product: as blocked_product with each mode's parts swapped, ((C_0, A_0), ...)."""
    return _rank_product(A, B, sense, raked=True)
