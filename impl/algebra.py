"""The layout algebra, by algorithms on the modes (paper 2.1.4-2.1.8, 2.3.3-2.3.10; CuTe).

Nothing here evaluates a layout over its domain: coalesce is one pass over the flattened modes,
complement works from the sorted modes, composition splits the right operand's leaves against
the coalesced left operand (mutual refinement by divisibility), and the derived operations are
CuTe's definitions on top.  Results follow CuTe's structure (rank-1 results print ``8:1``).

Preconditions are the paper's by default; ``sense="cute"`` applies CuTe's own (weaker) checks
instead and returns what CuTe returns.  A failed precondition raises
``LayoutError(condition=NAME)`` with ``NAME`` the predicate that failed.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

from . import tuples as tt
from .basic import is_compact, is_injective, concat
from .layout import Layout, _new, as_layout, cosize, flat_modes, parse_tiler

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


_ONE = (C(1), C(0))


def _from_modes(ms):
    """CuTe's result convention: ``_1:_0`` when empty, ``s:d`` for one mode, else a tuple."""
    if not ms:
        return _new(*_ONE)
    if len(ms) == 1:
        return _new(*ms[0])
    return _new(tuple(s for s, _ in ms), tuple(d for _, d in ms))


def _mode_list(L):
    """Top-level modes of L (a leaf layout is its own single mode)."""
    L = as_layout(L)
    if isinstance(L.shape, tuple):
        return [_new(s, d) for s, d in zip(L.shape, L.stride)]
    return [L]


def _join(layouts):
    return _new(tuple([x._shape for x in layouts]), tuple([x._stride for x in layouts]))


# --- coalesce and filter (2.1.4, 2.3.3) ------------------------------------------------------

def _coalesce_modes(ms):
    out = []
    for s, d in ms:
        if s == 1:
            continue
        if out and out[-1][0] * out[-1][1] == d:
            out[-1] = (out[-1][0] * s, out[-1][1])
        else:
            out.append((s, d))
    return out


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
    if style not in ("paper", "cute", "flat"):
        raise LayoutError(f"style must be 'paper', 'cute' or 'flat', got {style!r}")
    L = as_layout(L)
    if style == "flat":
        if profile is not None:
            raise LayoutError("the flat coalesce (Construction 2.1.4.9) takes no profile")
        ms = _coalesce_modes(_modes(L))
        return _new(tuple(s for s, _ in ms), tuple(d for _, d in ms))
    if profile is None:
        return _from_modes(_coalesce_modes(_modes(L)))
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
    return _from_modes(_coalesce_modes([(s, d) for s, d in _modes(L) if d != 0]))


def is_tractable(L):
    """Def 2.1.8.1 / 2.3.10.1: in sort(L^b), d_i = 0 or s_i d_i divides d_{i+1}."""
    ms = sorted(_modes(L), key=lambda m: (m[1], m[0]))
    return all(d == 0 or dn % (s * d) == 0 for (s, d), (_, dn) in zip(ms, ms[1:]))


# --- complement (2.1.6, 2.3.6) ---------------------------------------------------------------

def _check_N(N):
    if isinstance(N, bool) or not isinstance(N, int) or N < 1:
        raise LayoutError(f"the complement target N must be a positive integer, got {N!r}")


def _complement_modes(L, N, sense):
    """The sorted modes and target of comp(L, N), or None when L is not (N-)complementable
    (Def 2.1.6.11 / 2.1.6.25 / 2.3.6.8: in sort(squeeze(L^b)) every stride is non-zero
    (Example 2.1.6.15), every s_i d_i divides d_{i+1}, and s_m d_m divides N).  CuTe's sense
    first drops the stride-0 modes and rounds N up to a multiple of s_m d_m (its ceil_div)."""
    _check_sense(sense)
    if N is not None:
        _check_N(N)
    ms = sorted([(d, s) for s, d in _modes(L) if s != 1])
    if sense == "cute":
        ms = [m for m in ms if m[0] != 0]
    if ms:
        if ms[0][0] == 0:
            return None
        prev = ms[0][0] * ms[0][1]
        for d, s in ms[1:]:
            if d % prev:
                return None
            prev = s * d
        if N is not None:
            if sense == "cute":
                N = -(-N // prev) * prev
            elif N % prev:
                return None
    return ms, N


def is_complementable(L, N=None, sense="paper"):
    """Whether comp(L, N) exists (Def 2.1.6.11 / 2.1.6.25 / 2.3.6.8; see ``complement``)."""
    return _complement_modes(L, N, sense) is not None


def complement(L, N=None, sense="paper"):
    """comp(L, N) (Construction 2.1.6.29, Def 2.3.6.5), CuTe's complement(L, N).

    From the sorted modes s_i:d_i: shapes (d_1, d_2/(s_1 d_1), ..., N/(s_m d_m)) with strides
    (1, s_1 d_1, ..., s_m d_m), coalesced.  ``N=None`` is CuTe's default cotarget,
    cosize(filter(L)), which gives the paper's comp(L).  ``sense="cute"`` ignores stride-0
    modes and rounds N up to a multiple of s_m d_m, as CuTe does.
    """
    found = _complement_modes(L, N, sense)
    if found is None:
        what = "complementable" if N is None else f"{N}-complementable"
        raise LayoutError(f"{as_layout(L)} is not {what} (Def 2.1.6.11/2.1.6.25)",
                          condition="is_complementable")
    return _from_modes(_complement_of(*found))


def _complement_of(ms, N):
    """Construction 2.1.6.29 on sorted (d, s) modes already checked complementable; returns
    the coalesced modes of the complement."""
    if N is None:
        N = 1 + sum((s - 1) * d for d, s in ms)
    out, cur = [], C(1)
    for d, s in ms:
        out.append((d // cur, cur))
        cur = s * d
    out.append((-(-N // cur), cur))
    return _coalesce_modes(out)


def is_disjoint(A, B):
    """A ⊥ B: the flat concatenation A ⋆ B is compact (Def 2.1.6.1)."""
    return is_compact(concat(A, B))


# --- composition (2.3.7, section 4) ----------------------------------------------------------

def _compose_leaf(a, t, e, used):
    """Compose the coalesced flat layout ``a`` (list of modes) with one leaf ``t:e``: split the
    leaf against a's modes by divisibility (the mutual refinement of section 4).

    Returns the result's modes and adds to ``used[i]`` the largest digit the leaf's image
    uses in mode i of ``a`` (for the no-carry check across leaves).  Raises when the
    divisibility conditions fail.
    """
    if e == 0:
        return [(t, e)]
    if t == 1:
        return [(t, C(0))]
    out, rest_s, rest_d = [], t, e
    for i, (s, d) in enumerate(a[:-1]):
        if rest_s == 1:
            break
        if rest_d % s == 0:  # the leaf steps over this mode entirely
            rest_d = rest_d // s
            continue
        if s % rest_d == 0:
            new = min(s // rest_d, rest_s)
            if rest_s % new != 0:
                raise _not_composable("shape divisibility", rest_s, new)
        elif rest_d * (rest_s - 1) < s:  # the rest of the leaf fits inside this mode
            new = rest_s
        else:
            raise _not_composable("stride divisibility", s, rest_d)
        used[i] += rest_d * (new - 1)
        out.append((new, rest_d * d))
        rest_s, rest_d = rest_s // new, C(1)
    if rest_s != 1:
        used[-1] += rest_d * (rest_s - 1)
        out.append((rest_s, rest_d * a[-1][1]))
    return out


def _not_composable(what, x, y):
    return LayoutError(f"composition fails the {what} condition ({x} and {y})",
                       condition="is_composable")


def _leaf_layout(ms):
    if len(ms) == 1:
        return ms[0]
    return tuple(m[0] for m in ms), tuple(m[1] for m in ms)


def _compose(A, B, sense):
    """composition(A, B) for a layout B (Def 2.3.7.1): right-distributive over B's leaves,
    each leaf split against coalesce(A); the leaves' images must not carry between A's modes
    (so that the result's function, a sum over its modes, is A∘B), and for the paper the
    image must stay inside A's last mode (Remark 2.3.7.2).  CuTe's sense lets the last mode
    of coalesce(A) run on."""
    return _compose_modes(_coalesce_modes(_modes(A)), A, B, sense)


def _compose_modes(a, A, B, sense):
    """composition(A, B) given a = the coalesced modes of A (A itself may be None)."""
    a = a or [_ONE]
    if A is None:
        A = _from_modes(a)
    used = [0] * len(a)

    def go(s, d):
        if type(s) is tuple:
            shapes, strides = [], []
            for x, y in zip(s, d):
                p, q = go(x, y)
                shapes.append(p)
                strides.append(q)
            return tuple(shapes), tuple(strides)
        return _leaf_layout(_compose_leaf(a, s, d, used))

    checked = a if sense == "paper" else a[:-1]
    try:
        shape, stride = go(B.shape, B.stride)
        for (s, _), u in zip(checked, used):
            if u > s - 1:
                raise LayoutError(
                    f"composition({A}, {B}): the image of {B} does not fit the modes of "
                    f"coalesce({A}) without carries (Def 2.3.7.1, Remark 2.3.7.2)",
                    condition="is_composable")
    except LayoutError as err:
        # The divisibility test is sufficient, not necessary: a few compositions exist by
        # accident of values (composition((4,3):(1,5), 2:6) = 2:7).  Only on this failure
        # path, decide exactly from the values (bounded size).
        R = _compose_exact(A, a, B, sense)
        if R is None:
            raise err from None
        return R
    return _new(shape, stride)


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
    _check_sense(sense)
    A = as_layout(A)
    B = _as_tiler(B)
    if _is_underscore(B):
        return A
    if isinstance(B, tuple):
        ms = _mode_list(A)
        if len(B) > len(ms):
            raise LayoutError(f"tiler has {len(B)} modes, layout {A} has rank {len(ms)}",
                              condition="rank")
        return _join([composition(m, b, sense) for m, b in zip(ms, B)] + ms[len(B):])
    return _compose(A, B, sense)


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

def _modewise(fn, A, T, sense):
    A = as_layout(A)
    T = _as_tiler(T)
    if _is_underscore(T):
        return A
    if isinstance(T, tuple):
        ms = _mode_list(A)
        if len(T) > len(ms):
            raise LayoutError(f"tiler has {len(T)} modes, layout {A} has rank {len(ms)}",
                              condition="rank")
        return _join([_modewise(fn, m, t, sense) for m, t in zip(ms, T)] + ms[len(T):])
    return fn(A, T, sense)


def _size(L):
    n = 1
    for s, _ in _modes(L):
        n *= s
    return int(n)


def _divide(A, B, sense):
    Bc = complement(B, _size(A), sense)
    return composition(A, _join([B, Bc]), sense=sense)


def _product(A, B, sense):
    # Observation 2.3.9.2: any large enough complement serves, so N = size(A)·cosize(B) is
    # rounded up to a multiple of s_m d_m (as CuTe does); A itself must be complementable.
    N = _size(A) * int(cosize(B))
    found = _complement_modes(A, None, sense)
    if found is None:
        raise LayoutError(f"{A} is not complementable (Def 2.1.6.11)",
                          condition="is_complementable")
    ms = found[0]
    if ms:  # round N up to a multiple of s_m d_m (Observation 2.3.9.2)
        d, s = ms[-1]
        N = -(-N // (s * d)) * s * d
    a = _complement_of(ms, N)
    return _join([A, _compose_modes(a, None, B, sense)])


def logical_divide(A, T, sense="paper"):
    """A ⊘ B = (A∘B, A∘comp(B, size(A))) (Def 2.3.8.1); a tuple tiler divides mode by mode."""
    return _modewise(_divide, A, T, sense)


def logical_product(A, T, sense="paper"):
    """A ⊗ B = (A, comp(A, size(A)·cosize(B))∘B) (Def 2.3.9.1); tuple tilers mode by mode."""
    return _modewise(_product, A, T, sense)


def _unzip(R, T):
    """Gather ((tiles...), (rests..., untouched modes...)) from a mode-wise result (CuTe's
    tile_unzip / pycute's hier_unzip)."""
    if not isinstance(T, tuple):
        ms = _mode_list(R)
        if not isinstance(R.shape, tuple) or len(ms) != 2:
            # CuTe's zip2_by static_asserts here too; `_` leaves a mode that is no pair.
            raise LayoutError(f"{R} is not a (tile, rest) pair: a tiler entry {T!r} that leaves "
                              "a mode alone cannot be unzipped", condition="is_unzippable")
        return ms[0], ms[1]
    ms = _mode_list(R)
    parts = [_unzip(m, t) for m, t in zip(ms, T)]
    return _join([p[0] for p in parts]), _join([p[1] for p in parts] + ms[len(T):])


def _zipped(op, A, T, sense):
    T = _as_tiler(T)
    return _join(list(_unzip(op(A, T, sense=sense), T)))


def zipped_divide(A, T, sense="paper"):
    """((tile), (rest)) (CuTe's zipped_divide)."""
    return _zipped(logical_divide, A, T, sense)


def tiled_divide(A, T, sense="paper"):
    """((tile), rest_0, rest_1, ...) (CuTe's tiled_divide)."""
    first, second = _mode_list(zipped_divide(A, T, sense=sense))
    return _join([first] + _mode_list(second))


def flat_divide(A, T, sense="paper"):
    """(tile_0, ..., rest_0, ...) (CuTe's flat_divide)."""
    first, second = _mode_list(zipped_divide(A, T, sense=sense))
    return _join(_mode_list(first) + _mode_list(second))


def zipped_product(A, T, sense="paper"):
    """((block), (rest)) (CuTe's zipped_product)."""
    return _zipped(logical_product, A, T, sense)


def tiled_product(A, T, sense="paper"):
    """((block), rest_0, rest_1, ...) (CuTe's tiled_product)."""
    first, second = _mode_list(zipped_product(A, T, sense=sense))
    return _join([first] + _mode_list(second))


def flat_product(A, T, sense="paper"):
    """(block_0, ..., rest_0, ...) (CuTe's flat_product)."""
    first, second = _mode_list(zipped_product(A, T, sense=sense))
    return _join(_mode_list(first) + _mode_list(second))


def _append_to(L, R):
    """CuTe's append<R>(L): the modes of L padded with ``_1:_0`` to rank R (always a tuple;
    CuTe keeps a leaf a leaf at R = 1, a corner where the spec's reading is followed)."""
    ms = _mode_list(L)
    return _join(ms + [_new(*_ONE)] * (R - len(ms)))


def _rank_product(A, B, sense, raked):
    A, B = as_layout(A), as_layout(B)
    R = max(tt.rank(A), tt.rank(B))
    P = logical_product(_append_to(A, R), _append_to(B, R), sense)
    a, c = (_mode_list(x) for x in _mode_list(P))
    return _join([_join([y, x] if raked else [x, y]) for x, y in zip(a, c)])


def blocked_product(A, B, sense="paper"):
    """CuTe's blocked_product: logical_product of A and B padded to a common rank R, zipped
    mode by mode as ((A_0, C_0), (A_1, C_1), ...)."""
    return _rank_product(A, B, sense, raked=False)


def raked_product(A, B, sense="paper"):
    """CuTe's raked_product: as blocked_product with each mode's parts swapped, ((C_0, A_0), ...)."""
    return _rank_product(A, B, sense, raked=True)


# --- inverses and slicing (CuTe) -------------------------------------------------------------

def _prefix_products(shapes):
    out, acc = [], C(1)
    for s in shapes:
        out.append(acc)
        acc = acc * s
    return out


def right_inverse(L):
    """CuTe's right_inverse R: L(R(i)) == i for i < size(R).  Over coalesce(L) sorted by
    stride (stable), take each mode whose stride equals the running product, with the prefix
    product of L's shape as its stride."""
    ms = _coalesce_modes(_modes(L)) or [(C(1), C(0))]
    pre = _prefix_products([s for s, _ in ms])
    out, cur = [], C(1)
    for i in sorted(range(len(ms)), key=lambda i: ms[i][1]):
        s, d = ms[i]
        if d == cur:
            out.append((s, pre[i]))
            cur = s * d
    return _from_modes(_coalesce_modes(out))


def left_inverse(L):
    """CuTe's left_inverse R: R(L(i)) == i for an injective L.  Over coalesce(L) sorted by
    stride, the non-zero strides must form a divisor chain (CuTe's divisibility condition)."""
    if not is_injective(L):
        raise LayoutError(f"{as_layout(L)} is not injective, so it has no left inverse",
                          condition="is_injective")
    ms = _coalesce_modes(_modes(L)) or [(C(1), C(0))]
    pre = _prefix_products([s for s, _ in ms])
    order = sorted(range(len(ms)), key=lambda i: ms[i][1])
    shapes, strides, size = [], [C(0)], C(1)
    for i in order:
        d = ms[i][1]
        if d == 0:
            continue
        if d % size != 0:
            raise LayoutError(f"{as_layout(L)} has no left inverse as a layout: stride {d} is "
                              f"not a multiple of {size}", condition="left_inverse_divisibility")
        shapes.append(d // size)
        strides.append(pre[i])
        size = size * (d // size)
    shapes.append(ms[order[-1]][0])
    return _from_modes(_coalesce_modes(list(zip(shapes, strides))))


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
