"""Checks for the ops beyond the algebra: coordinates, slicing, IntTuples,
profiles and tilers holding ``_``.

``COORDINATE_CHECKS`` (appended to ``properties.CHECKS``) holds one differential check per op
(oracle vs spec at structure level, refusals included) and the laws below, each checked on
the oracle alone.  The laws compute their expectations with this module's own small
arithmetic (``_colex`` and ``_natural``: Def 2.1.2.18; ``targets.table``: Construction
2.1.2.19), independent of spec and impl, so a bug that the oracle and the spec shared would
still show.
"""

from math import prod

import layoutcheck.fuzz.strategies.coordinates as CS
from hypothesis import strategies as st
from layoutcheck.fuzz.checks.base import Check, Skip, answer_of, differential, fail, no_crash, static_law
from layoutcheck.fuzz.checks.targets import table
from layoutcheck.oracles.protocol import is_invalid_answer

from layoutcheck.layout import LayoutBase, Underscore, _, leaves, size

__all__ = ["COORDINATE_CHECKS", "API_STRATEGIES"]


# --- independent arithmetic ---------------------------------------------------------------

def _profile(t):
    return tuple(_profile(x) for x in t) if isinstance(t, tuple) else None


def _natural(i, shape):
    """colex^{-1} with the nesting of shape (Def 2.1.2.18)."""
    out, p = [], 1
    for s in leaves(shape):
        out.append((i // p) % int(s))
        p *= int(s)
    it = iter(out)

    def nest(t):
        return tuple(nest(x) for x in t) if isinstance(t, tuple) else next(it)
    return nest(shape)


def _colex(c, shape):
    """The colexicographic index of an in-domain coordinate of any form (an integer at a
    tuple node is that node's own colex index): sum of entries times prefix sizes."""
    if not isinstance(c, tuple):
        return int(c)
    total, p = 0, 1
    for ci, si in zip(c, shape):
        total += _colex(ci, si) * p
        p *= size(si)
    return total


def _in_domain(c, shape):
    if isinstance(c, tuple):
        return isinstance(shape, tuple) and len(c) == len(shape) and all(map(_in_domain, c, shape))
    return isinstance(c, Underscore) or 0 <= c < size(shape)


def _modes(L):
    if not isinstance(L.shape, tuple):
        return [L]
    return [LayoutBase(s, d) for s, d in zip(L.shape, L.stride)]


def _leaf_pairs(L):
    return list(zip(map(int, leaves(L.shape)), map(int, leaves(L.stride))))


# --- laws -----------------------------------------------------------------------------------

def law_coordinate_round_trip(ctx, args):
    """idx2crd(i, S) is congruent to S (CuTe ``@post congruent(result, shape)``), is the
    natural coordinate of i (Def 2.1.2.18) and crd2idx(idx2crd(i, S), S) == i."""
    i, shape = args[0], args[1]
    if len(args) > 2:
        raise Skip("the round trip is the stride-free one")
    c = answer_of(ctx, "idx2crd", i, shape)
    if _profile(c) != _profile(shape) or c != _natural(i, shape):
        fail("idx2crd(i, S) is not the natural coordinate of i", i=i, shape=shape, idx2crd=c,
              natural=_natural(i, shape))
    back = answer_of(ctx, "crd2idx", c, shape)
    if int(back) != i:
        fail("crd2idx(idx2crd(i, S), S) != i", i=i, shape=shape, idx2crd=c, crd2idx=back)


def law_eval_coord(ctx, args):
    """L(c) == L(crd2idx(c, shape(L))) == Phi_L(colex index of c) for natural, hierarchical
    and integer coordinates of L's domain (seed 000; Construction 2.1.2.19)."""
    L, c = args
    if not _in_domain(c, L.shape):
        raise Skip("outside the domain: CuTe's extension is graded by diff.eval_coord")
    want = table(L)[_colex(c, L.shape)]
    got = answer_of(ctx, "eval_coord", L, c)
    if int(got) != want:
        fail(f"L(c) = {got}, but Phi_L at c's index is {want}", L=L, c=c)
    idx = answer_of(ctx, "crd2idx", c, L.shape)
    at = answer_of(ctx, "eval_coord", L, idx)
    if int(idx) != _colex(c, L.shape) or int(at) != want:
        fail("L(crd2idx(c, shape)) != L(c)", L=L, c=c, crd2idx=idx, L_at_index=at, L_c=got)


def law_slice_and_offset(ctx, args):
    """(S, k) = slice_and_offset(c, L): L(full coordinate) == k + S(j) for every j, where the
    full coordinate puts S's natural coordinate of j at c's ``_`` entries (CuTe: slice keeps
    the modes under ``_``, the offset is crd2idx with ``_`` = 0); slice_(L, c) == S."""
    L, c = args
    S, k = answer_of(ctx, "slice_and_offset", L, c)
    n_under = _count_underscores(c)
    if not isinstance(c, Underscore) and (not isinstance(S.shape, tuple) or len(S.shape) != n_under):
        fail(f"the slice has not one mode per _ of c ({n_under})", L=L, c=c, slice=S)
    fl = table(L)
    sv = table(S)
    parts = S.shape if not isinstance(c, Underscore) else (L.shape,)
    for j in range(len(sv)):
        nat = _natural(j, parts) if isinstance(parts, tuple) else (_natural(j, parts),)
        full = _fill(c, iter(nat))
        want = fl[_colex(full, L.shape)]
        if int(k) + sv[j] != want:
            fail(f"offset + slice({j}) = {int(k) + sv[j]} but L(full coordinate {full}) = {want}",
                  L=L, c=c, slice=S, offset=k)
    if not n_under:
        return  # slice_ without a _ is the coordinate function (CuTe's L(c))
    sl = answer_of(ctx, "slice_", L, c)
    if sl != S:
        fail("slice_(L, c) differs from slice_and_offset's layout", L=L, c=c, slice_=sl, slice=S)


def _count_underscores(c):
    if isinstance(c, tuple):
        return sum(map(_count_underscores, c))
    return int(isinstance(c, Underscore))


def _fill(c, entries):
    if isinstance(c, Underscore):
        return next(entries)
    if isinstance(c, tuple):
        return tuple(_fill(x, entries) for x in c)
    return c


def law_dice_slice_partition(ctx, args):
    """dice(c, L) and slice(c, L) split L's leaves: every leaf s:d of L lies under exactly
    one entry of c, a ``_`` (slice) or an integer (dice)."""
    L, c = args
    if isinstance(c, Underscore) or not _holds_int(c):
        raise Skip("a coordinate with integers and _ is needed")
    D = answer_of(ctx, "dice", L, c)
    S = answer_of(ctx, "slice_", L, c)
    if sorted(_leaf_pairs(D) + _leaf_pairs(S)) != sorted(_leaf_pairs(L)):
        fail("dice and slice do not partition L's modes", L=L, c=c, dice=D, slice=S)


def _holds_int(c):
    return isinstance(c, tuple) and any(_holds_int(x) or not isinstance(x, (tuple, Underscore))
                                        for x in c)


def law_layout_left(ctx, args):
    """make_layout(S) is LayoutLeft: stride == prefix_product(S) == the exclusive prefix
    product of S's leaves (seed 000), so Phi is the identity on [0, size S)."""
    (shape,) = args
    L = answer_of(ctx, "layout_left", shape)
    pp = answer_of(ctx, "prefix_product", shape)
    flat, p = [], 1
    for s in leaves(shape):
        flat.append(p)
        p *= int(s)
    if L.shape != shape or tuple(map(int, leaves(L.stride))) != tuple(flat) \
            or _profile(L.stride) != _profile(shape):
        fail("the default stride is not the exclusive prefix product", shape=shape, layout=L,
              expected=tuple(flat))
    if _profile(pp) != _profile(shape) or tuple(map(int, leaves(pp))) != tuple(flat):
        fail("prefix_product(S) is not the exclusive prefix product", shape=shape,
              prefix_product=pp, expected=tuple(flat))


def law_inttuple_helpers(ctx, args):
    """product(a) is the product of a's leaves (Def 2.1.1.1), flatten(a) its leaves in order
    (seed 001: X^b), product(flatten(a)) == product(a)."""
    (a,) = args
    n = answer_of(ctx, "product", a)
    f = answer_of(ctx, "flatten", a)
    want = prod(int(x) for x in leaves(a)) if isinstance(a, tuple) else int(a)
    if int(n) != want:
        fail("product(a) != product of the leaves", a=a, product=n, expected=want)
    if tuple(map(int, leaves(f))) != tuple(map(int, leaves(a))) or _nested(f):
        fail("flatten(a) is not the leaves of a", a=a, flatten=f)
    if int(answer_of(ctx, "product", f)) != want:
        fail("product(flatten(a)) != product(a)", a=a, flatten=f)


def _nested(t):
    return isinstance(t, tuple) and any(isinstance(x, tuple) for x in t)


def law_shape_structure(ctx, args):
    """congruent(a, b) iff a and b have the same profile (seed 001); compatible(a, b) iff
    every leaf of a matches a sub-tree of b of its size (CuTe's partial order); compatible(a,
    a) and congruent(a, a) always."""
    a, b = args
    for x, y in ((a, b), (a, a)):
        cg = answer_of(ctx, "congruent", x, y)
        cp = answer_of(ctx, "compatible", x, y)
        if bool(cg) != (_profile(x) == _profile(y)):
            fail("congruent disagrees with the profiles", a=x, b=y, congruent=cg)
        if bool(cp) != _compatible(x, y):
            fail("compatible disagrees with the shapes' structure", a=x, b=y, compatible=cp)


def _compatible(a, b):
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(_compatible, a, b))
    return int(a) == size(b)


def law_crd2crd(ctx, args):
    """crd2crd keeps the colexicographic index and lands in dst's domain: where c, dst and
    src are tuples mode by mode, elsewhere idx2crd(crd2idx(c, src), dst) (CuTe
    ``stride.hpp``), so colex(result, dst) == colex(c, src) at each such level."""
    c, dst = args[0], args[1]
    src = args[2] if len(args) > 2 else None
    r = answer_of(ctx, "crd2crd", *args)
    if not _index_kept(c, dst, src, r):
        fail("crd2crd changed the index or left dst's domain", c=c, dst=dst,
              src=src if src is not None else "-", crd2crd=r)


def _index_kept(c, dst, src, r):
    if isinstance(c, tuple) and isinstance(dst, tuple) and (src is None or isinstance(src, tuple)):
        srcs = src if src is not None else (None,) * len(c)
        return isinstance(r, tuple) and len(r) == len(c) and all(map(_index_kept, c, dst, srcs, r))
    index = _colex(c, src) if isinstance(c, tuple) else int(c)
    return _in_domain(r, dst) and _colex(r, dst) == index


def law_profile_walk(ctx, args):
    """coalesce(L, p) / filter(L, p) by mode (CuTe's target-profile walk): mode i of the
    result is coalesce(mode_i(L), p_i) (filter likewise), modes past the profile are L's;
    coalesce keeps the layout function."""
    L, p = args
    R = answer_of(ctx, "coalesce", L, p)
    if table(R) != table(L):
        fail("coalesce(L, profile) changed the layout function", L=L, profile=p, coalesce=R)
    F = answer_of(ctx, "filter", L, p)
    if not isinstance(p, tuple):
        return
    for op, res in (("coalesce", R), ("filter", F)):
        got = _modes(res)
        for i, m in enumerate(_modes(L)):
            want = m if i >= len(p) else answer_of(ctx, op, m, p[i])
            if i >= len(got) or got[i] != want:
                fail(f"mode {i} of {op}(L, profile) is not {op}(mode {i}, profile[{i}])",
                      L=L, profile=p, result=res, expected_mode=want)


_BY_MODE = ("composition", "logical_divide", "logical_product")


def law_underscore_tiler(ctx, args):
    """A Tile tuple goes mode by mode and ``_`` leaves a mode alone (CuTe docs, "by-mode
    composition"; pycute ``None``): for composition, logical_divide and logical_product,
    mode i of op(A, T) is A_i where T_i is ``_``, op(A_i, T_i) elsewhere, A_i past T; a Tile
    with more modes than A is refused (CuTe's static_assert "Too many modes in tiler")."""
    A, T = args
    am = _modes(A)
    if len(T) > len(am):
        return _too_many_modes(ctx, A, T, len(am))
    judged, why = False, None
    for op in _BY_MODE:
        try:
            R = answer_of(ctx, op, A, T)
        except Skip as e:
            why = e
            continue
        rm = _modes(R)
        if len(rm) != len(am):
            fail(f"{op} with a Tile tuple changed the rank", A=A, tiler=T, result=R)
        for i, a in enumerate(am):
            t = T[i] if i < len(T) else _
            want = a if isinstance(t, Underscore) else answer_of(ctx, op, a, t)
            if rm[i] != want:
                fail(f"mode {i} of {op}(A, T) is not {'A_i' if t is _ else f'{op}(A_i, T_i)'}",
                      A=A, tiler=T, result=R, expected_mode=want)
        judged = True
    if not judged and why is not None:  # no operation answered: nothing judged (never a pass)
        raise why


def _too_many_modes(ctx, A, T, rank):
    """Every by-mode operation refuses a Tile of more modes than A has (none answers)."""
    answered = False
    for op in _BY_MODE:
        out = ctx.oracle.run(op, A, T)
        no_crash(ctx.oracle, op, out, (A, T))
        if out.kind == "unsupported":
            continue
        answered = True
        if out.kind == "ok" or is_invalid_answer(out):
            fail(f"{op} accepts a Tile of {len(T)} modes for a layout of rank {rank} (CuTe: "
                 f"\"Too many modes in tiler\")", A=A, tiler=T,
                 result=out.value if out.kind == "ok" else out.message)
    if not answered:
        raise Skip("no by-mode operation supported")


# --- the catalogue ----------------------------------------------------------------------------

API_STRATEGIES = {
    "eval_coord": CS.eval_coord_args,
    "get_mode": CS.get_mode_args,
    "rank": lambda: st.tuples(CS.small_layouts()),
    "crd2idx": CS.crd2idx_args,
    "idx2crd": CS.idx2crd_args,
    "crd2crd": CS.crd2crd_args,
    "slice_": CS.slice_args,
    "dice": lambda: CS.slice_args(need_underscore=False),
    "slice_and_offset": lambda: CS.slice_args(need_underscore=False),
    "layout_left": CS.layout_left_args,
    "shape_div": CS.shape_div_args,
    "prefix_product": CS.prefix_product_args,
    "product": CS.inttuple_args,
    "inner_product": CS.inner_product_args,
    "elem_scale": CS.elem_scale_args,
    "congruent": CS.shape_pair_args,
    "compatible": CS.shape_pair_args,
    "flatten": CS.inttuple_args,
}


def _diff(op, strategy):
    return Check(f"diff.{op}", op, "differential", strategy, differential(op),
                 f"{op}: oracle vs spec at the level {op} requires")


def _law(name, op, fn, strategy, doc):
    return Check(name, op, "law", strategy, static_law(fn, op), doc)


COORDINATE_CHECKS = [_diff(op, s) for op, s in API_STRATEGIES.items()] + [
    _law("law.idx2crd.round_trip", "idx2crd", law_coordinate_round_trip, CS.idx2crd_args,
         "idx2crd gives the natural coordinate; crd2idx takes it back"),
    _law("law.eval_coord.natural", "eval_coord", law_eval_coord, CS.eval_coord_args,
         "L(c) == L(crd2idx(c, shape)) == Phi_L at c's index, any coordinate form"),
    _law("law.slice_and_offset.offset", "slice_and_offset", law_slice_and_offset,
         lambda: CS.slice_args(need_underscore=False),
         "offset + slice(j) == L(full coordinate); slice_ is the same slice"),
    _law("law.dice.partition", "dice", law_dice_slice_partition, CS.slice_args,
         "dice and slice split L's modes between them"),
    _law("law.layout_left.prefix_product", "layout_left", law_layout_left, CS.layout_left_args,
         "default strides == prefix_product == the exclusive prefix product"),
    _law("law.product.leaves", "product", law_inttuple_helpers, CS.inttuple_args,
         "product and flatten agree with the leaves"),
    _law("law.compatible.structure", "compatible", law_shape_structure, CS.shape_pair_args,
         "congruent and compatible agree with the shapes' structure"),
    _law("law.crd2crd.index", "crd2crd", law_crd2crd, CS.crd2crd_args,
         "crd2crd keeps the index and lands in dst's domain"),
    _law("law.coalesce.profile", "coalesce", law_profile_walk, CS.profile_args,
         "coalesce / filter with a profile go mode by mode; coalesce keeps the function"),
    _law("law.composition.underscore", "composition", law_underscore_tiler,
         lambda: st.one_of(CS.underscore_tiler_args(), CS.underscore_tiler_args(product=True)),
         "a Tile tuple goes mode by mode; _ leaves a mode alone; more modes than A: refused"),
]
