"""Composition (paper 2.3.7 and section 4; CuTe's composition), by mutual refinement.

``composition(A, B)`` splits each leaf of B against ``coalesce(A)`` by divisibility and checks
that the leaves' images do not carry between A's modes; an exact fallback decides, from the
values, the rare compositions of at most 2^16 elements that the divisibility test cannot
(``_compose_exact``, the only place where the algebra evaluates, on its failure path).
Tilers (an int ``n``, ``_``, a tuple of tilers) are taken apart here (``as_tiler``).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from layoutcheck.impl.algebra import (
    C0,
    C1,
    build_layout,
    check_sense,
    coalesced_modes,
    coalesced_pairs_of,
    is_underscore,
    keep_coalesced_modes,
    raw_layout,
)
from layoutcheck.impl.layout import (
    Layout,
    alloc_layout,
    as_layout,
    new_layout,
    parse_tiler,
    set_shape,
    set_stride,
    size,
    values,
)

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import IntTuple, LayoutBase, LayoutLike, TilerOrNone, _

__all__ = ["composition", "is_composable"]


def as_tiler(T: TilerOrNone | str) -> TilerOrNone:
    """A tiler argument, checked: an impl Layout, an int ``n`` (the layout ``n:_1``), ``_``
    (or None), or a tuple of tilers (its entries are checked where they are used)."""
    if type(T) is Layout or type(T) is tuple or (type(T) is int and T >= 1):
        return T
    if isinstance(T, str):
        T = parse_tiler(T)
    if isinstance(T, bool):
        raise LayoutError(f"a tiler is a layout, an integer or a tuple of tilers, not {T!r}")
    if isinstance(T, int):
        if T < 1:
            raise LayoutError(f"a tiler size must be positive, got {T}")
        return T
    if isinstance(T, LayoutBase):
        return as_layout(T)
    if isinstance(T, tuple):
        return tuple(T)
    if is_underscore(T):
        return T
    raise LayoutError(f"a tiler is a layout, an integer or a tuple of tilers, not {T!r}")


def modes_of(s: IntTuple, d: IntTuple) -> tuple[tuple[IntTuple, ...], tuple[IntTuple, ...]]:
    """The top-level modes of the layout s:d as (shapes, strides) tuples (a leaf is one mode)."""
    return (s, d) if type(s) is tuple else ((s,), (d,))  # type: ignore[return-value]  # congruent


def rank_error(T: tuple[Any, ...], s: IntTuple, d: IntTuple) -> LayoutError:
    return LayoutError(f"tiler has {len(T)} modes, layout {new_layout(s, d)} has rank "
                       f"{len(s) if type(s) is tuple else 1}", condition="rank")


def _compose_leaf(a_s, a_d, t, e, used):
    """Compose the coalesced flat layout a_s:a_d with one leaf ``t:e``: split the leaf against
    a's modes by divisibility (the mutual refinement of section 4); returns the result's
    (shape, stride) for this leaf.

    Adds to ``used[i]`` the largest digit the leaf's image uses in mode i of ``a`` (for the
    no-carry check across leaves).  Raises when the divisibility conditions fail.  The leaf's
    stride first steps over whole modes; the leaf starts in the mode it does not divide, and
    what does not fit there continues with stride ``_1`` from the start of the next modes.
    Comparisons and ``used`` are on plain ints (``+x``); ``C1 * x`` is skipped (it is x).
    """
    if +e == 0:
        return t, e
    if +t == 1:
        return t, C0
    last = len(a_s) - 1
    if not last:  # one mode: the leaf is scaled
        used[0] += +e * (+t - 1)
        d = a_d[0]
        return t, (d if e is C1 else e if d is C1 else e * d)
    rest_d = e
    i = 0
    while i < last and +rest_d % +a_s[i] == 0:  # the leaf steps over mode i entirely
        rest_d = rest_d // a_s[i]
        i += 1
    if i == last:  # the leaf lies in the last mode
        used[-1] += +rest_d * (+t - 1)
        return t, (a_d[-1] if rest_d is C1 else rest_d if a_d[-1] is C1 else rest_d * a_d[-1])
    s, d = a_s[i], a_d[i]
    if +s % +rest_d == 0:
        new = s if rest_d is C1 else s // rest_d
        if +t < +new:
            new = t
        if +t % +new:
            raise _not_composable("shape divisibility", t, new)
    elif +rest_d * (+t - 1) < +s:  # the leaf fits inside this mode
        new = t
    else:
        raise _not_composable("stride divisibility", s, rest_d)
    used[i] += +rest_d * (+new - 1)
    d = d if rest_d is C1 else rest_d if d is C1 else rest_d * d
    if +new == +t:  # all of the leaf is in mode i
        return new, d
    # The rest of the leaf runs on from the start of the next modes (stride _1).
    out_s, out_d = [new], [d]
    rest_s = t // new
    for i in range(i + 1, last):
        if +rest_s == 1:
            break
        s = a_s[i]
        new = rest_s if +rest_s < +s else s  # min(s // _1, rest_s)
        if +rest_s % +new:
            raise _not_composable("shape divisibility", rest_s, new)
        used[i] += +new - 1
        out_s.append(new)
        out_d.append(a_d[i])
        rest_s = rest_s // new
    if +rest_s != 1:
        used[-1] += +rest_s - 1
        out_s.append(rest_s)
        out_d.append(a_d[-1])
    if len(out_s) == 1:
        return out_s[0], out_d[0]
    return tuple(out_s), tuple(out_d)


def _not_composable(what, x, y):
    return LayoutError(f"composition fails the {what} condition ({x} and {y})",
                       condition="is_composable")


def _leaf_layout(ms):
    if len(ms) == 1:
        return ms[0]
    return tuple(m[0] for m in ms), tuple(m[1] for m in ms)


def _compose_tree(a_s, a_d, s, d, used):
    if type(s) is not tuple:
        return _compose_leaf(a_s, a_d, s, d, used)
    rs, rd = [], []
    for x, y in zip(s, d):
        p, q = _compose_tree(a_s, a_d, x, y, used) if type(x) is tuple else \
            _compose_leaf(a_s, a_d, x, y, used)
        rs.append(p)
        rd.append(q)
    return tuple(rs), tuple(rd)


def _scale_tree(s, d, d0, used):
    """The strides of ``_compose_tree`` when coalesce(A) is one mode _:d0 (the shapes are B's):
    each leaf t:e becomes t:(e d0) (t:e for e = 0, 1:_0 for t = 1), adding e (t - 1) to
    used[0] (the loop of ``_compose_leaf`` is empty for one mode)."""
    out = []
    for t, e in zip(s, d):
        if type(t) is tuple:
            out.append(_scale_tree(t, e, d0, used))
        elif +e == 0:
            out.append(e)
        elif +t == 1:
            out.append(C0)
        else:
            used[0] += +e * (+t - 1)
            out.append(d0 if e is C1 else e if d0 is C1 else e * d0)
    return tuple(out)


def _operands(A, B, a_s, a_d, shape, stride):
    A = build_layout(a_s, a_d) if A is None else new_layout(*A) if type(A) is tuple else A
    return A, (new_layout(shape, stride) if B is None else B)


def _carries(A, B):
    return LayoutError(f"composition({A}, {B}): the image of {B} does not fit the modes of "
                       f"coalesce({A}) without carries (Def 2.3.7.1, Remark 2.3.7.2)",
                       condition="is_composable")


def compose_raw(a_s: Sequence[int], a_d: Sequence[int], shape: IntTuple, stride: IntTuple, sense: str,
                A: Layout | tuple[IntTuple, IntTuple] | None,
                B: Layout | tuple[IntTuple, IntTuple] | None) -> tuple[IntTuple, IntTuple]:
    """composition(A, B) as raw (shape, stride), given a_s:a_d = coalesce(A) and B's parts
    (Def 2.3.7.1): right-distributive over B's leaves, each leaf split against coalesce(A);
    the leaves' images must not carry between A's modes (so that the result's function, a sum
    over its modes, is A∘B), and for the paper the image must stay inside A's last mode
    (Remark 2.3.7.2).  CuTe's sense lets the last mode of coalesce(A) run on.

    ``A`` and ``B`` are needed only on the failure path, where they are built: None stands for
    the layout a_s:a_d, respectively shape:stride, and a pair for the layout with those
    parts."""
    if not a_s:
        a_s, a_d = [C1], [C0]
    elif len(a_s) == 1 and type(shape) is not tuple:  # one mode s:d with one leaf t:e, the
        s, d, t, e = a_s[0], a_d[0], shape, stride      # hot path: t:(e d), written out
        if +e == 0:  # type: ignore[operator]  # (t:e a leaf)
            return t, e
        if +t == 1:  # type: ignore[operator]
            return t, C0
        if sense != "paper" or +e * (+t - 1) < +s:  # type: ignore[operator]
            return t, (d if e is C1 else e if d is C1 else e * d)
    used = [0] * len(a_s)
    try:
        if type(shape) is not tuple:  # one leaf never carries between the modes it splits
            res = _compose_leaf(a_s, a_d, shape, stride, used)  # over: check its end only
            if sense == "paper" and used[-1] >= +a_s[-1]:
                raise _carries(*_operands(A, B, a_s, a_d, shape, stride))
            return res
        if len(a_s) == 1:
            res = shape, _scale_tree(shape, stride, a_d[0], used)
        else:
            res = _compose_tree(a_s, a_d, shape, stride, used)
        for i in range(len(a_s) if sense == "paper" else len(a_s) - 1):
            if used[i] >= +a_s[i]:
                raise _carries(*_operands(A, B, a_s, a_d, shape, stride))
    except LayoutError as err:
        # The divisibility test is sufficient, not necessary: a few compositions exist by
        # accident of values (composition((4,3):(1,5), 2:6) = 2:7).  Only on this failure
        # path, decide exactly from the values (bounded size).
        A, B = _operands(A, B, a_s, a_d, shape, stride)
        R = _compose_exact(A, list(zip(a_s, a_d)), B, sense)
        if R is None:
            raise err from None
        return R._shape, R._stride
    return res


_EXACT_LIMIT = 1 << 16


def _fit(g):
    """The coalesced flat modes whose layout function is the array g, or None."""
    out = []
    while g.size > 1:
        d = int(g[1])
        bad = np.nonzero(g != np.arange(g.size) * d)[0]
        t = int(bad[0]) if bad.size else g.size
        if g.size % t:
            return None
        g2 = g.reshape(-1, t)
        if not np.array_equal(g2, g2[:, :1] + np.arange(t) * d):
            return None
        out.append((t, d))
        g = g2[:, 0]
    return out if g[0] == 0 else None


def _compose_exact(A, a, B, sense):
    if int(size(B)) > _EXACT_LIMIT:
        return None
    vb = values(B, dtype=np.int64)
    top = int(vb.max())
    nA = int(size(A))
    if top >= nA:
        if sense == "paper":
            return None
        prefix = int(size(tuple(s for s, _ in a[:-1])))
        a = a[:-1] + [(max(int(a[-1][0]), -(-(top + 1) // prefix)), a[-1][1])]
    Aext = new_layout(*raw_layout([s for s, _ in a], [d for _, d in a])) if len(a) > 1 else \
        Layout((a[0][0],), (a[0][1],))
    va = values(Aext, vb, dtype=np.int64)

    def go(s, d):
        if isinstance(s, tuple):
            parts = [go(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
        fit = _fit(values(Aext, np.arange(s, dtype=np.int64) * int(d), dtype=np.int64))
        if fit is None:
            raise LayoutError("no fit")
        return _leaf_layout(fit or [(C(1), C(0))])

    try:
        shape, stride = go(B.shape, B.stride)
    except LayoutError:
        return None
    R = Layout(shape, stride)
    return R if np.array_equal(values(R, dtype=np.int64), va) else None


def composition(A: LayoutLike, B: TilerOrNone | str, sense: str = "paper") -> Layout:
    """composition(A, B)(i) == A(B(i)) (Def 2.3.7.1, the paper's B∘A in CuTe's order).

    B is a layout, an int ``n`` (``n:1``), ``_``, or a tuple of tilers composed with A's
    modes one by one; modes of A beyond the tuple are kept (pycute and the spec; CuTe C++
    drops them, finding F-120).
    """
    if sense != "paper":
        check_sense(sense)
    if type(A) is not Layout:
        A = as_layout(A)
    if type(B) is Layout:
        try:
            a_s, a_d = A._cm
        except AttributeError:
            a_s, a_d = keep_coalesced_modes(A)
        t, e = B._shape, B._stride
        if len(a_s) == 1 and type(t) is not tuple:  # s:d with t:e is t:(e d), written out
            s, d = a_s[0], a_d[0]
            # (t:e a leaf)
            if +e != 0 and +t != 1 and (sense != "paper" or +e * (+t - 1) < +s):  # type: ignore[operator]
                R = alloc_layout(Layout)
                set_shape(R, t)
                set_stride(R, d if e is C1 else e if d is C1 else e * d)
                return R
        return new_layout(*compose_raw(a_s, a_d, t, e, sense, A, B))
    if type(B) is not tuple:
        B = as_tiler(B)
        if is_underscore(B):
            return A
    return new_layout(*_compose_with(A._shape, A._stride, B, sense, A))


def _compose_with(s, d, T, sense, A=None):
    """composition(s:d, T) as raw (shape, stride) for a checked tiler T; ``A`` is the layout
    s:d when there is one (for the failure path)."""
    if type(T) is tuple:
        ms, md = modes_of(s, d)
        if len(T) > len(ms):
            raise rank_error(T, s, d)
        rs, rd = [], []
        for x, y, t in zip(ms, md, T):
            x, y = _compose_mode(x, y, t, sense)
            rs.append(x)
            rd.append(y)
        k = len(T)
        return tuple(rs) + ms[k:], tuple(rd) + md[k:]
    if type(T) is not Layout and is_underscore(T):
        return s, d
    if A is None:
        a_s, a_d = coalesced_pairs_of(s, d)
        A = (s, d)
    else:
        a_s, a_d = coalesced_modes(A)
    if type(T) is Layout:
        return compose_raw(a_s, a_d, T._shape, T._stride, sense, A, T)
    return compose_raw(a_s, a_d, T, C1, sense, A, None)  # an int n is n:_1


def _compose_mode(s, d, T, sense):
    """composition(s:d, T) for a mode s:d of A and an entry T of a tuple tiler; ``_`` and a
    leaf with a leaf layout or int are written out (as in ``composition``)."""
    if type(T) is Layout:
        t, e, B = T._shape, T._stride, T
    elif type(T) is int and T >= 1:
        t, e, B = T, C1, None
    elif T is _ or T is None:
        return s, d
    else:
        return _compose_with(s, d, as_tiler(T), sense)
    if type(s) is not tuple:
        if (type(t) is not tuple and +s != 1 and +e != 0 and +t != 1
                and (sense != "paper" or +e * (+t - 1) < +s)):
            return t, (d if e is C1 else e if d is C1 else e * d)
        a_s, a_d = ([s], [d]) if +s != 1 else ((), ())
    else:
        a_s, a_d = coalesced_pairs_of(s, d)
    return compose_raw(a_s, a_d, t, e, sense, (s, d), B)


def is_composable(A: LayoutLike, B: TilerOrNone | str, sense: str = "paper") -> bool:
    """The precondition of ``composition`` in the paper's sense (a layout as in Def 2.3.7.1
    exists) or in CuTe's (its divisibility conditions hold)."""
    try:
        composition(A, B, sense=sense)
    except LayoutError as e:
        if e.condition is None:
            raise
        return False
    return True
