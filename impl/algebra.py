"""The layout algebra, by algorithms on the modes (paper 2.1.4-2.1.8, 2.3.3-2.3.10; CuTe).

Nothing here evaluates a layout over its domain: coalesce is one pass over the flattened modes,
complement works from the sorted modes, composition splits the right operand's leaves against
the coalesced left operand (mutual refinement by divisibility), and the derived operations are
CuTe's definitions on top.  Results follow CuTe's structure (rank-1 results print ``8:1``).

Preconditions are the paper's by default; ``sense="cute"`` applies CuTe's own (weaker) checks
instead and returns what CuTe returns.  A failed precondition raises
``LayoutError(condition=NAME)`` with ``NAME`` the predicate that failed.
"""

from operator import itemgetter

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

from . import tuples as tt
from .basic import is_compact, is_injective, concat
from .layout import (Layout, _alloc, _leaves, _new, _set_fm, _set_shape, _set_stride,
                     as_layout, flat_modes, parse_tiler)

__all__ = ["coalesce", "is_coalesced", "filter", "complement", "is_complementable",
           "is_disjoint", "composition", "is_composable", "logical_divide", "zipped_divide",
           "tiled_divide", "flat_divide", "logical_product", "zipped_product",
           "tiled_product", "flat_product", "blocked_product", "raked_product",
           "right_inverse", "left_inverse", "slice_", "Underscore", "_", "is_tractable"]

_SENSES = ("paper", "cute")


from layoutcheck.layout import Underscore, _  # noqa: E402  one sentinel for the package


def _is_underscore(x):
    # pycute's None means the same.
    return x is None or isinstance(x, Underscore)


def _check_sense(sense):
    if sense not in _SENSES:
        raise LayoutError(f"sense must be one of {_SENSES}, not {sense!r}")


def _modes(L):
    return flat_modes(as_layout(L))


def _fm(L):
    """The flattened modes of a layout argument (cached on impl Layouts, see ``flat_modes``)."""
    if type(L) is not Layout:
        L = as_layout(L)
    try:
        return L._fm
    except AttributeError:
        return flat_modes(L)


# Speed notes.  Inputs are checked once (``as_layout``) and their flattening is kept on them;
# every result is built unchecked (``_new``, ``_build``) from parts computed here, as raw
# (shape, stride) pairs until the one Layout returned.  Values use the ordinary operators, so
# static/dynamic propagation (seed 003) is exactly CuTe's; static ``C`` arithmetic runs in
# Python (~10x slower than int), so ``_C1 * x`` and ``x // _C1``, which are ``x`` for an int
# or a ``C``, are skipped rather than computed.
_C1, _C0 = C(1), C(0)
_ONE = (_C1, _C0)
_stride_of = itemgetter(1)


def _from_modes(ms):
    """CuTe's result convention: ``_1:_0`` when empty, ``s:d`` for one mode, else a tuple."""
    if not ms:
        return _new(*_ONE)
    if len(ms) == 1:
        return _new(*ms[0])
    return _new(tuple([s for s, _ in ms]), tuple([d for _, d in ms]))


def _raw(ss, ds):
    """(shape, stride) of the layout with modes ss:ds, by the convention of ``_from_modes``."""
    if len(ss) == 1:
        return ss[0], ds[0]
    if ss:
        return tuple(ss), tuple(ds)
    return _ONE


def _build(ss, ds):
    """The impl Layout with modes ss:ds, by the convention of ``_from_modes``."""
    L = _alloc(Layout)
    if len(ss) == 1:
        _set_shape(L, ss[0])
        _set_stride(L, ds[0])
    elif ss:
        _set_shape(L, tuple(ss))
        _set_stride(L, tuple(ds))
    else:
        _set_shape(L, _C1)
        _set_stride(L, _C0)
    return L


def _mode_list(L):
    """Top-level modes of L (a leaf layout is its own single mode)."""
    L = as_layout(L)
    if isinstance(L.shape, tuple):
        return [_new(s, d) for s, d in zip(L.shape, L.stride)]
    return [L]


def _join(layouts):
    return _new(tuple([x._shape for x in layouts]), tuple([x._stride for x in layouts]))


# --- coalesce and filter (2.1.4, 2.3.3) ------------------------------------------------------

def _coal(ms):
    """One coalescing pass over flat modes (Construction 2.1.4.9): drop size-1 modes, merge
    s:d into the previous kept mode s':d' when s' d' = d.  Returns the lists (shapes,
    strides).  The mode being grown is kept in locals (ps:pd) until the next one starts."""
    ss, ds = [], []
    ps = pd = 0
    nxt = -1  # ps * pd; never equal to a stride (>= 0) before the first mode
    for s, d in ms:
        if s == 1:
            continue
        if d == nxt:
            ps = ps * s
            nxt = ps * pd
        else:
            if ps:
                ss.append(ps)
                ds.append(pd)
            ps, pd = s, d
            nxt = s * d
    if ps:
        ss.append(ps)
        ds.append(pd)
    return ss, ds


def _refines(Xp, X):
    """X' refines X (Def 2.2.4.1): X = size(X'), or equal ranks and mode-wise refinement."""
    if not isinstance(X, tuple):
        return tt.size(Xp) == X
    return (isinstance(Xp, tuple) and len(Xp) == len(X)
            and all(_refines(p, q) for p, q in zip(Xp, X)))


def coalesce(L, profile=None, style="paper"):
    """coal(L) (Construction 2.3.3.7, CuTe's coalesce): one pass over the flattened modes,
    dropping size-1 modes and merging s_i d_i = d_{i+1}; ``8:1`` for one mode, ``_1:_0`` for
    none.  ``style="flat"``: the paper's flat coal^b (always a tuple, ``():()`` for size 1).

    With a ``profile``: ``style="paper"`` is the relative coalesce of Def 2.3.4.7 (shape(L)
    must refine the profile, condition ``refines``); ``style="cute"`` is CuTe's walk (mode i
    by ``profile[i]``, later modes kept).  They coincide when shape(L) refines the profile.
    """
    if profile is None and style == "paper":  # the hot path: _coal and _build written out
        if type(L) is Layout:
            try:
                fm = L._fm
            except AttributeError:
                fm = flat_modes(L)
        else:
            fm = _fm(L)
        ss = None  # the finished modes, when there are any
        ps = pd = 0
        nxt = -1
        for s, d in fm:
            if s == 1:
                continue
            if d == nxt:
                ps = ps * s
                nxt = ps * pd
            else:
                if ps:
                    if ss is None:
                        ss, ds = [ps], [pd]
                    else:
                        ss.append(ps)
                        ds.append(pd)
                ps, pd = s, d
                nxt = s * d
        R = _alloc(Layout)
        if ss is not None:
            ss.append(ps)
            ds.append(pd)
            _set_shape(R, tuple(ss))
            _set_stride(R, tuple(ds))
        elif ps:
            _set_shape(R, ps)
            _set_stride(R, pd)
        else:
            _set_shape(R, _C1)
            _set_stride(R, _C0)
        return R
    if style not in ("paper", "cute", "flat"):
        raise LayoutError(f"style must be 'paper', 'cute' or 'flat', got {style!r}")
    L = as_layout(L)
    if style == "flat":
        if profile is not None:
            raise LayoutError("the flat coalesce (Construction 2.1.4.9) takes no profile")
        ss, ds = _coal(_fm(L))
        return _new(tuple(ss), tuple(ds))
    if profile is None:
        return coalesce(L)
    if isinstance(profile, LayoutBase):
        profile = profile.shape
    if style == "paper" and not _refines(L.shape, profile):
        raise LayoutError(f"shape {L.shape} does not refine {profile} (Def 2.3.4.7)",
                          condition="refines")
    return _walk_coalesce(L, profile)


def _walk_coalesce(L, profile):
    if not isinstance(profile, tuple):
        return coalesce(L)
    ms = _mode_list(L)
    if len(profile) > len(ms):
        raise LayoutError(f"profile {profile} has {len(profile)} modes, layout {L} has "
                          f"rank {len(ms)}", condition="rank")
    return _join([_walk_coalesce(m, p) for m, p in zip(ms, profile)] + ms[len(profile):])


def is_coalesced(L):
    """Def 2.3.3.1: L = 1:0, or s:d with s > 1, or flat of rank > 1 and flat-coalesced."""
    L = as_layout(L)
    return coalesce(L) == L


def filter(L):
    """CuTe's filter: drop stride-0 and size-1 modes, then coalesce (``_1:_0`` if empty)."""
    return _build(*_coal([m for m in _fm(L) if m[1] != 0]))


def is_tractable(L):
    """Def 2.1.8.1 / 2.3.10.1: in sort(L^b), d_i = 0 or s_i d_i divides d_{i+1}."""
    ms = sorted(_modes(L), key=lambda m: (m[1], m[0]))
    return all(d == 0 or dn % (s * d) == 0 for (s, d), (_, dn) in zip(ms, ms[1:]))


# --- complement (2.1.6, 2.3.6) ---------------------------------------------------------------

def _check_N(N):
    if isinstance(N, bool) or not isinstance(N, int) or N < 1:
        raise LayoutError(f"the complement target N must be a positive integer, got {N!r}")


def _complement_parts(fm, N, drop_zero, round_up):
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
    ss, ds = [], []
    cur = _C1  # s_{i-1} d_{i-1}, the stride of the next complement mode
    # Sorted by stride alone: two modes of equal non-zero stride d fail d % (s d) whichever
    # comes first, so the order of (d, s) is not needed.
    for s, d in sorted(fm, key=_stride_of):
        if s == 1 or (drop_zero and d == 0):
            continue
        if cur is _C1:
            if d == 0:
                return None
            q = d  # d // _1
        else:
            if d % cur:
                return None
            q = d // cur
        if q != 1:
            ss.append(q)
            ds.append(cur)
        cur = s * d
    if N is not None:
        if cur is _C1:
            q = N  # -(-N // _1)
        elif round_up:
            q = -(-N // cur)
        elif N % cur:
            return None
        else:
            q = N // cur
        if q != 1:
            ss.append(q)
            ds.append(cur)
    return ss, ds


def _not_complementable(L, N):
    what = "complementable" if N is None else f"{N}-complementable"
    return LayoutError(f"{as_layout(L)} is not {what} (Def 2.1.6.11/2.1.6.25)",
                       condition="is_complementable")


def is_complementable(L, N=None, sense="paper"):
    """Whether comp(L, N) exists (Def 2.1.6.11 / 2.1.6.25 / 2.3.6.8; see ``complement``)."""
    _check_sense(sense)
    if N is not None:
        _check_N(N)
    cute = sense == "cute"
    return _complement_parts(_fm(L), N, cute, cute) is not None


def complement(L, N=None, sense="paper"):
    """comp(L, N) (Construction 2.1.6.29, Def 2.3.6.5), CuTe's complement(L, N).

    From the sorted modes s_i:d_i: shapes (d_1, d_2/(s_1 d_1), ..., N/(s_m d_m)) with strides
    (1, s_1 d_1, ..., s_m d_m), coalesced.  ``N=None`` is CuTe's default cotarget,
    cosize(filter(L)), which gives the paper's comp(L).  ``sense="cute"`` ignores stride-0
    modes and rounds N up to a multiple of s_m d_m, as CuTe does.
    """
    if sense != "paper":
        _check_sense(sense)
    if N is not None:
        _check_N(N)
    cute = sense == "cute"
    found = _complement_parts(_fm(L), N, cute, cute)
    if found is None:
        raise _not_complementable(L, N)
    return _build(*found)


def is_disjoint(A, B):
    """A ⊥ B: the flat concatenation A ⋆ B is compact (Def 2.1.6.1)."""
    return is_compact(concat(A, B))


# --- composition (2.3.7, section 4) ----------------------------------------------------------

def _compose_leaf(a_s, a_d, t, e, used):
    """Compose the coalesced flat layout a_s:a_d with one leaf ``t:e``: split the leaf against
    a's modes by divisibility (the mutual refinement of section 4); returns the result's
    (shape, stride) for this leaf.

    Adds to ``used[i]`` the largest digit the leaf's image uses in mode i of ``a`` (for the
    no-carry check across leaves).  Raises when the divisibility conditions fail.  After the
    first split the leaf continues with stride ``_1`` (``rest_d``), written out below.
    """
    if e == 0:
        return t, e
    if t == 1:
        return t, _C0
    if len(a_s) == 1:  # one mode: the leaf is scaled (the loop below would not run)
        used[0] += e * (t - 1)
        return t, e * a_d[0]
    out_s, out_d = [], []
    rest_s, rest_d = t, e
    for i in range(len(a_s) - 1):
        if rest_s == 1:
            break
        s = a_s[i]
        if out_s:  # rest_d == _1: the leaf runs on from the start of mode i
            new = rest_s if rest_s < s else s  # min(s // _1, rest_s)
            if rest_s % new:
                raise _not_composable("shape divisibility", rest_s, new)
            used[i] += new - 1
            out_d.append(a_d[i])
        else:
            if rest_d % s == 0:  # the leaf steps over this mode entirely
                rest_d = rest_d // s
                continue
            if s % rest_d == 0:
                new = s // rest_d
                if rest_s < new:
                    new = rest_s
                if rest_s % new:
                    raise _not_composable("shape divisibility", rest_s, new)
            elif rest_d * (rest_s - 1) < s:  # the rest of the leaf fits inside this mode
                new = rest_s
            else:
                raise _not_composable("stride divisibility", s, rest_d)
            used[i] += rest_d * (new - 1)
            out_d.append(rest_d * a_d[i])
        out_s.append(new)
        rest_s = rest_s // new
    if rest_s != 1:
        if out_s:
            used[-1] += rest_s - 1
            out_d.append(a_d[-1])
        else:
            used[-1] += rest_d * (rest_s - 1)
            out_d.append(rest_d * a_d[-1])
        out_s.append(rest_s)
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
        elif e == 0:
            out.append(e)
        elif t == 1:
            out.append(_C0)
        else:
            used[0] += e * (t - 1)
            out.append(e * d0)
    return tuple(out)


def _operands(A, B, a_s, a_d, shape, stride):
    return (_build(a_s, a_d) if A is None else A), (_new(shape, stride) if B is None else B)


def _compose_raw(a_s, a_d, shape, stride, sense, A, B):
    """composition(A, B) as raw (shape, stride), given a_s:a_d = coalesce(A) and B's parts
    (Def 2.3.7.1): right-distributive over B's leaves, each leaf split against coalesce(A);
    the leaves' images must not carry between A's modes (so that the result's function, a sum
    over its modes, is A∘B), and for the paper the image must stay inside A's last mode
    (Remark 2.3.7.2).  CuTe's sense lets the last mode of coalesce(A) run on.

    ``A`` and ``B`` are needed only on the failure path; None stands for the layout a_s:a_d,
    respectively shape:stride, built then."""
    if not a_s:
        a_s, a_d = [_C1], [_C0]
    used = [0] * len(a_s)
    try:
        if type(shape) is not tuple:
            res = _compose_leaf(a_s, a_d, shape, stride, used)
        elif len(a_s) == 1:
            res = shape, _scale_tree(shape, stride, a_d[0], used)
        else:
            res = _compose_tree(a_s, a_d, shape, stride, used)
        for i in range(len(a_s) if sense == "paper" else len(a_s) - 1):
            if used[i] >= a_s[i]:
                A, B = _operands(A, B, a_s, a_d, shape, stride)
                raise LayoutError(
                    f"composition({A}, {B}): the image of {B} does not fit the modes of "
                    f"coalesce({A}) without carries (Def 2.3.7.1, Remark 2.3.7.2)",
                    condition="is_composable")
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
    import numpy as np
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
    import numpy as np
    from .layout import values
    if int(tt.size(B)) > _EXACT_LIMIT:
        return None
    vb = values(B, dtype=np.int64)
    top = int(vb.max())
    nA = int(tt.size(A))
    if top >= nA:
        if sense == "paper":
            return None
        prefix = int(tt.size(tuple(s for s, _ in a[:-1])))
        a = a[:-1] + [(max(int(a[-1][0]), -(-(top + 1) // prefix)), a[-1][1])]
    Aext = _from_modes(a) if len(a) > 1 else Layout((a[0][0],), (a[0][1],))
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


def _as_tiler(T):
    if isinstance(T, str):
        T = parse_tiler(T)
    if isinstance(T, bool):
        raise LayoutError(f"a tiler is a layout, an integer or a tuple of tilers, not {T!r}")
    if isinstance(T, int):
        if T < 1:
            raise LayoutError(f"a tiler size must be positive, got {T}")
        return _new(T, C(1))
    if isinstance(T, LayoutBase):
        return as_layout(T)
    if isinstance(T, tuple) or _is_underscore(T):
        return T
    raise LayoutError(f"a tiler is a layout, an integer or a tuple of tilers, not {T!r}")


def composition(A, B, sense="paper"):
    """composition(A, B)(i) == A(B(i)) (Def 2.3.7.1, the paper's B∘A in CuTe's order).

    B is a layout, an int ``n`` (``n:1``), ``_``, or a tuple of tilers composed with A's
    modes one by one; modes of A beyond the tuple are kept (pycute and the spec; CuTe C++
    drops them, finding F-120).
    """
    if sense != "paper":
        _check_sense(sense)
    if type(A) is not Layout:
        A = as_layout(A)
    if type(B) is not Layout:
        B = _as_tiler(B)
        if _is_underscore(B):
            return A
        if isinstance(B, tuple):
            ms = _mode_list(A)
            if len(B) > len(ms):
                raise LayoutError(f"tiler has {len(B)} modes, layout {A} has rank {len(ms)}",
                                  condition="rank")
            return _join([composition(m, b, sense) for m, b in zip(ms, B)] + ms[len(B):])
    return _new(*_compose_raw(*_coal(_fm(A)), B._shape, B._stride, sense, A, B))


def is_composable(A, B, sense="paper"):
    """The precondition of ``composition`` in the paper's sense (a layout as in Def 2.3.7.1
    exists) or in CuTe's (its divisibility conditions hold)."""
    try:
        composition(A, B, sense=sense)
    except LayoutError as e:
        if e.condition is None:
            raise
        return False
    return True


# --- division and product (2.3.8, 2.3.9; CuTe's derived operations) --------------------------
# The workers return raw (shape, stride) pairs; the public functions build one Layout.

def _modewise(fn, A, T, sense):
    """fn(A, T) for a layout tiler, mode by mode for a tuple tiler (modes of A beyond the
    tuple kept), A itself for ``_``."""
    if type(A) is not Layout:
        A = as_layout(A)
    if type(T) is not Layout:
        T = _as_tiler(T)
        if _is_underscore(T):
            return A._shape, A._stride
        if isinstance(T, tuple):
            s, d = (A._shape, A._stride) if type(A._shape) is tuple else ((A._shape,),
                                                                          (A._stride,))
            if len(T) > len(s):
                raise LayoutError(f"tiler has {len(T)} modes, layout {A} has rank {len(s)}",
                                  condition="rank")
            parts = [_modewise(fn, _sub(x, y), t, sense) for x, y, t in zip(s, d, T)]
            k = len(T)
            return (tuple([p[0] for p in parts]) + s[k:]), (tuple([p[1] for p in parts]) + d[k:])
    return fn(A, T, sense)


def _sub(s, d):
    """The mode s:d of a layout as an impl Layout, with its flattening (it is used)."""
    L = _new(s, d)
    _set_fm(L, tuple(zip(_leaves(s), _leaves(d))))
    return L


def _size(fm):
    n = 1
    for s, _ in fm:
        n *= s  # an int: 1 * _k is dynamic
    return n


def _divide(A, B, sense):
    """A ⊘ B = (A∘B, A∘comp(B, size(A))) for layouts A, B (Def 2.3.8.1)."""
    if sense != "paper":
        _check_sense(sense)
    n = _size(_fm(A))
    cute = sense == "cute"
    found = _complement_parts(_fm(B), n, cute, cute)
    if found is None:
        raise _not_complementable(B, n)
    cs, cd = _raw(*found)
    shape, stride = (B._shape, cs), (B._stride, cd)
    return _compose_raw(*_coal(_fm(A)), shape, stride, sense, A, None)


def _product(A, B, sense):
    """A ⊗ B = (A, comp(A, N)∘B) for layouts A, B (Def 2.3.9.1).  Observation 2.3.9.2: any
    large enough complement serves, so N = size(A)·cosize(B) is rounded up to a multiple of
    s_m d_m (as CuTe does); A itself must be complementable."""
    if sense != "paper":
        _check_sense(sense)
    fa = _fm(A)
    cos = 1
    for s, d in _fm(B):
        cos += (s - 1) * d
    found = _complement_parts(fa, _size(fa) * cos, sense == "cute", True)
    if found is None:
        raise LayoutError(f"{A} is not complementable (Def 2.1.6.11)",
                          condition="is_complementable")
    a_s, a_d = found
    rs, rd = _compose_raw(a_s, a_d, B._shape, B._stride, sense, None, B)
    return (A._shape, rs), (A._stride, rd)


def logical_divide(A, T, sense="paper"):
    """A ⊘ B = (A∘B, A∘comp(B, size(A))) (Def 2.3.8.1); a tuple tiler divides mode by mode."""
    return _new(*_modewise(_divide, A, T, sense))


def logical_product(A, T, sense="paper"):
    """A ⊗ B = (A, comp(A, size(A)·cosize(B))∘B) (Def 2.3.9.1); tuple tilers mode by mode."""
    return _new(*_modewise(_product, A, T, sense))


def _unzip(s, d, T):
    """Gather ((tiles...), (rests..., untouched modes...)) from a mode-wise result s:d (CuTe's
    tile_unzip / pycute's hier_unzip), as two raw (shape, stride) pairs."""
    if not isinstance(T, tuple):
        if type(s) is not tuple or len(s) != 2:
            # CuTe's zip2_by static_asserts here too; `_` leaves a mode that is no pair.
            raise LayoutError(f"{_new(s, d)} is not a (tile, rest) pair: a tiler entry {T!r} "
                              "that leaves a mode alone cannot be unzipped",
                              condition="is_unzippable")
        return (s[0], d[0]), (s[1], d[1])
    if type(s) is not tuple:
        s, d = (s,), (d,)
    parts = [_unzip(x, y, t) for x, y, t in zip(s, d, T)]
    k = len(T)
    return ((tuple([p[0][0] for p in parts]), tuple([p[0][1] for p in parts])),
            (tuple([p[1][0] for p in parts]) + s[k:], tuple([p[1][1] for p in parts]) + d[k:]))


def _zipped(fn, A, T, sense):
    """Raw ((tile), (rest)) of the mode-wise ``fn``.  For a layout tiler the result of fn is
    already the pair (A∘B, rest), so unzipping leaves it as it is."""
    if type(T) is not Layout:
        T = _as_tiler(T)
        if type(T) is not Layout:
            (ts, td), (rs, rd) = _unzip(*_modewise(fn, A, T, sense), T)
            return (ts, rs), (td, rd)
    return _modewise(fn, A, T, sense)


def _tiled(fn, A, T, sense):
    """((tile), rest_0, rest_1, ...) from the zipped pair."""
    (s0, s1), (d0, d1) = _zipped(fn, A, T, sense)
    if type(s1) is tuple:
        return _new((s0,) + s1, (d0,) + d1)
    return _new((s0, s1), (d0, d1))


def _flat(fn, A, T, sense):
    """(tile_0, ..., rest_0, ...) from the zipped pair."""
    (s0, s1), (d0, d1) = _zipped(fn, A, T, sense)
    if type(s0) is not tuple:
        s0, d0 = (s0,), (d0,)
    if type(s1) is not tuple:
        s1, d1 = (s1,), (d1,)
    return _new(s0 + s1, d0 + d1)


def zipped_divide(A, T, sense="paper"):
    """((tile), (rest)) (CuTe's zipped_divide)."""
    return _new(*_zipped(_divide, A, T, sense))


def tiled_divide(A, T, sense="paper"):
    """((tile), rest_0, rest_1, ...) (CuTe's tiled_divide)."""
    return _tiled(_divide, A, T, sense)


def flat_divide(A, T, sense="paper"):
    """(tile_0, ..., rest_0, ...) (CuTe's flat_divide)."""
    return _flat(_divide, A, T, sense)


def zipped_product(A, T, sense="paper"):
    """((block), (rest)) (CuTe's zipped_product)."""
    return _new(*_zipped(_product, A, T, sense))


def tiled_product(A, T, sense="paper"):
    """((block), rest_0, rest_1, ...) (CuTe's tiled_product)."""
    return _tiled(_product, A, T, sense)


def flat_product(A, T, sense="paper"):
    """(block_0, ..., rest_0, ...) (CuTe's flat_product)."""
    return _flat(_product, A, T, sense)


def _padded(L, R):
    """CuTe's append<R>(L): the top-level modes of L padded with ``_1:_0`` to rank R, always a
    tuple (CuTe keeps a leaf a leaf at R = 1, a corner where the spec's reading is followed);
    its flattening is L's plus the padding."""
    s, d = (L._shape, L._stride) if type(L._shape) is tuple else ((L._shape,), (L._stride,))
    k = R - len(s)
    P = _new(s + (_C1,) * k, d + (_C0,) * k)
    _set_fm(P, _fm(L) + (_ONE,) * k)
    return P


def _rank_product(A, B, sense, raked):
    A, B = as_layout(A), as_layout(B)
    R = max(len(A._shape) if type(A._shape) is tuple else 1,
            len(B._shape) if type(B._shape) is tuple else 1)
    (a_s, c_s), (a_d, c_d) = _product(_padded(A, R), _padded(B, R), sense)
    if raked:
        return _new(tuple(zip(c_s, a_s)), tuple(zip(c_d, a_d)))
    return _new(tuple(zip(a_s, c_s)), tuple(zip(a_d, c_d)))


def blocked_product(A, B, sense="paper"):
    """CuTe's blocked_product: logical_product of A and B padded to a common rank R, zipped
    mode by mode as ((A_0, C_0), (A_1, C_1), ...)."""
    return _rank_product(A, B, sense, raked=False)


def raked_product(A, B, sense="paper"):
    """CuTe's raked_product: as blocked_product with each mode's parts swapped, ((C_0, A_0), ...)."""
    return _rank_product(A, B, sense, raked=True)


# --- inverses and slicing (CuTe) -------------------------------------------------------------

def _prefix_products(shapes):
    """(_1, s_1, s_1 s_2, ...): the exclusive prefix products (``_1 * s_1`` is ``s_1``)."""
    out = [_C1]
    if len(shapes) > 1:
        acc = shapes[0]
        out.append(acc)
        for i in range(1, len(shapes) - 1):
            acc = acc * shapes[i]
            out.append(acc)
    return out


def right_inverse(L):
    """CuTe's right_inverse R: L(R(i)) == i for i < size(R).  Over coalesce(L) sorted by
    stride (stable), take each mode whose stride equals the running product, with the prefix
    product of L's shape as its stride."""
    ss, ds = _coal(_fm(L))
    if 1 not in ds:  # nothing to start from: _1:_0
        return _new(_C1, _C0)
    if len(ss) == 1:  # s:1 is its own right inverse, as s:_1
        return _new(ss[0], _C1)
    pre = _prefix_products(ss)
    rs, rd, cur = [], [], 1
    for i in sorted(range(len(ss)), key=ds.__getitem__):
        if ds[i] == cur:
            rs.append(ss[i])
            rd.append(pre[i])
            cur = ss[i] * cur
    # Already coalesced: the chosen modes have shapes > 1, and two consecutive ones i, j
    # would merge only if j = i + 1 and d_j = s_i d_i, which coalesce(L) has merged already.
    return _build(rs, rd)


def left_inverse(L):
    """CuTe's left_inverse R: R(L(i)) == i for an injective L.  Over coalesce(L) sorted by
    stride, the non-zero strides must form a divisor chain (CuTe's divisibility condition)."""
    ss, ds = _coal(_fm(L))
    if len(ss) == 1 and ds[0] != 0:  # s:d gives (d,s):(_0,_1), i.e. s:_1 when d = 1
        s, d = ss[0], ds[0]
        return _new(s, _C1) if d == 1 else _new((d, s), (_C0, _C1))
    if not ss:
        ss, ds = [_C1], [_C0]
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
    shapes, strides, size = [], [_C0], _C1
    for i in order:
        d = ds[i]
        if d == 0:
            continue
        if size is _C1:  # d // _1 and _1 * d are d
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
    return _build(*_coal(zip(shapes, strides)))


def _has_underscore(c):
    if isinstance(c, tuple):
        return any(_has_underscore(x) for x in c)
    return _is_underscore(c)


def _check_coord(c, s):
    if _is_underscore(c):
        return
    if isinstance(c, tuple):
        if not isinstance(s, tuple) or len(c) != len(s):
            raise LayoutError(f"coordinate {c!r} does not match shape {s}", condition="congruent")
        for ci, si in zip(c, s):
            _check_coord(ci, si)
        return
    if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < tt.size(s):
        raise LayoutError(f"coordinate entry {c!r} is outside [0, {tt.size(s)})",
                          condition="in_domain")


def _slice(c, t):
    if _is_underscore(c):
        return (t,)
    if isinstance(c, tuple):
        return tuple(x for ci, ti in zip(c, t) for x in _slice(ci, ti))
    return ()


def slice_(L, coord):
    """CuTe's ``L(coord)`` with ``_``: keep the modes where ``coord`` has ``_``, drop those with
    an integer; a tuple coordinate concatenates its entries' slices (CuTe's filter_tuple).
    Without any ``_`` it is the coordinate function, an integer."""
    L = as_layout(L)
    _check_coord(coord, L.shape)
    if not _has_underscore(coord):
        return L(coord)
    if _is_underscore(coord):
        return L
    return _new(_slice(coord, L.shape), _slice(coord, L.stride))
