"""Checks of swizzles, F2 layouts, composed layouts and shared-memory bank conflicts: one
differential check per operation (the oracle against the spec at the op's level, refusals
included) and laws checked on the oracle alone, with this module's own arithmetic (a swizzle
by its masks, layouts by ``targets.table``), independent of spec and impl."""

from collections import Counter

import layoutcheck.fuzz.strategies.swizzle as SW
from hypothesis import strategies as st
from layoutcheck.fuzz.checks.base import Check, Skip, answer_of, differential, fail, static_law
from layoutcheck.fuzz.checks.targets import table
from layoutcheck.oracles.postconditions import evaluate as extended

from layoutcheck.composed import ComposedLayoutBase, F2Layout, SignedLayout, Swizzle
from layoutcheck.integers import C
from layoutcheck.layout import Underscore, leaves, size

__all__ = ["SWIZZLE_CHECKS", "SWIZZLE_STRATEGIES", "swizzle_function", "function_of"]


def swizzle_function(sw, x):
    B, M, S = sw.params
    y = ((1 << B) - 1) << (M + max(0, S))
    t = x & y
    return x ^ (t >> S if S >= 0 else t << -S)


def function_of(x):
    """The function of a layout, composed layout or signed layout on its domain (a list)."""
    if isinstance(x, ComposedLayoutBase):
        outer = (lambda v: swizzle_function(x.outer, v)) if isinstance(x.outer, Swizzle) else \
            (lambda v: extended(x.outer, v))
        return [outer(int(x.offset) + v) for v in function_of(x.inner)]
    if isinstance(x, SignedLayout):
        vals = [0]
        for s, d in zip(leaves(x.shape), leaves(x.stride)):
            vals = [v + k * int(d) for k in range(int(s)) for v in vals]
        return vals
    return table(x)


def law_swizzle_involution(ctx, args):
    """Sw is a bijection of [0, 2^(B+M+|S|)) and an involution (Sw(Sw(x)) == x)."""
    (sw,) = args
    v = list(answer_of(ctx, "swizzle_values", sw))
    n = 1 << sw.span
    if sorted(v) != list(range(n)):
        fail("the swizzle is not a bijection of its domain", swizzle=sw, values=tuple(v[:16]))
    bad = next((x for x in range(n) if v[v[x]] != x), None)
    if bad is not None:
        fail(f"Sw(Sw({bad})) = {v[v[bad]]}, not {bad}", swizzle=sw)
    want = [swizzle_function(sw, x) for x in range(n)]
    if v != want:
        k = next(i for i in range(n) if v[i] != want[i])
        fail(f"Sw({k}) = {v[k]}, but the bit fields give {want[k]}", swizzle=sw)


def law_swizzle_f2(ctx, args):
    """Sw<B,M,S> as an F2-strided layout (one mode per bit, stride Sw(2^j)) is the same
    function: the oracle's f2_values of that layout equal the swizzle's values."""
    (sw,) = args
    F = F2Layout(tuple(C(2) for _j in range(sw.span)) or C(1),
                 tuple(C(swizzle_function(sw, 1 << j)) for j in range(sw.span)) or C(0))
    fv = list(answer_of(ctx, "f2_values", F))
    want = [swizzle_function(sw, x) for x in range(1 << sw.span)]
    if fv != want:
        k = next(i for i in range(len(want)) if i >= len(fv) or fv[i] != want[i])
        fail(f"the F2 layout of {sw} differs from the swizzle at {k}", swizzle=sw, f2=F)


def law_composed_values(ctx, args):
    """C(i) = outer(offset + inner(i)) for every i, size(C) = size(inner), and cosize(C) covers
    every offset C reaches (max C(i) < cosize(C): a buffer of cosize elements holds C)."""
    (Cl,) = args
    v = list(answer_of(ctx, "composed_values", Cl))
    want = function_of(Cl)
    if v != want:
        k = next(i for i in range(min(len(v), len(want))) if v[i] != want[i]) \
            if len(v) == len(want) else len(v)
        fail(f"C({k}) is not outer(offset + inner({k}))", C=Cl)
    n = answer_of(ctx, "composed_size", Cl)
    if int(n) != len(want):
        fail(f"size(C) = {n}, not size(inner) = {len(want)}", C=Cl)
    c = answer_of(ctx, "composed_cosize", Cl)
    if int(c) < max(want) + 1:
        fail(f"cosize(C) = {c}, but C reaches offset {max(want)}: a buffer of cosize(C) "
              "elements is overrun", C=Cl, cosize=c, largest=max(want))


def law_composed_tile_bijection(ctx, args):
    """A swizzled shared-memory tile is a bijection of its tile: when inner is injective onto
    [0, N) and N is a multiple of 2^(B+M+|S|) (offset 0), C permutes [0, N)."""
    (Cl,) = args
    inner = table(Cl.inner)
    n = len(inner)
    if not isinstance(Cl.outer, Swizzle) or int(Cl.offset) or sorted(inner) != list(range(n)) \
            or n % (1 << Cl.outer.span):
        raise Skip("not a swizzled tile: the law needs an injective inner layout onto [0, N), "
                   "N a multiple of the swizzle's span")
    v = list(answer_of(ctx, "composed_values", Cl))
    if sorted(v) != list(range(n)):
        dup = [x for x, k in Counter(v).items() if k > 1][:4]
        fail("the swizzled tile is not a bijection of [0, N)", C=Cl, repeated=tuple(dup))


def _slice_points(shape, coord):
    """The full-domain (colex) index of each point of slice(coord, shape), in the slice's own
    colex order: the ``_`` sub-trees, left to right, free; the integers fixed (an integer for
    a tuple mode is split colexicographically, Def 2.1.2.18)."""
    free, base = [], [0]

    def go(c, s, step):
        """step: the colex stride of s's first leaf; returns the stride after s."""
        n = size(s)
        if isinstance(c, Underscore):
            for leaf in leaves(s):
                free.append((int(leaf), step))
                step *= int(leaf)
            return step
        if isinstance(c, tuple):
            for ci, si in zip(c, s):
                step = go(ci, si, step)
            return step
        base[0] += int(c) * step
        return step * n
    go(coord, shape, 1)
    points = [base[0]]
    for extent, step in free:
        points = [p + k * step for k in range(extent) for p in points]
    return points


def law_composed_slice(ctx, args):
    """slice_and_offset(c, C) = (S, off): S(i) + off == C(the point of c's slice at i) for
    every i of S's domain (what a tensor slice relies on)."""
    Cl, coord = args
    S, off = answer_of(ctx, "composed_slice_and_offset", Cl, coord)
    points = _slice_points(Cl.inner.shape, coord)
    full = function_of(Cl)
    got = function_of(S)
    if len(got) != len(points):
        fail(f"the slice has {len(got)} points, the coordinate selects {len(points)}",
              C=Cl, coord=coord, slice=S, offset=off)
    for i, p in enumerate(points):
        if got[i] + int(off) != full[p]:
            fail(f"S({i}) + {off} = {got[i] + int(off)}, but C at that point is {full[p]}",
                  C=Cl, coord=coord, slice=S, offset=off)


def law_composed_divide(ctx, args):
    """logical_divide(C, T) is outer o offset o logical_divide(inner, T): the same function."""
    Cl, T = args
    D = answer_of(ctx, "composed_logical_divide", Cl, T)
    inner = answer_of(ctx, "logical_divide", Cl.inner, T)
    want = function_of(ComposedLayoutBase(Cl.outer, Cl.offset, inner))
    if function_of(D) != want:
        fail("logical_divide(C, T) is not C's outer function on logical_divide(inner, T)",
              C=Cl, tiler=T, result=D, inner_divide=inner)


def law_composed_right_inverse(ctx, args):
    """C(R(i)) == i for every i < size(R), R = right_inverse(C)."""
    (Cl,) = args
    R = answer_of(ctx, "composed_right_inverse", Cl)
    c, r = function_of(Cl), function_of(R)
    for i, x in enumerate(r):
        if not 0 <= x < len(c) or c[x] != i:
            fail(f"C(R({i})) != {i}", C=Cl, right_inverse=R)


def law_layout_swizzle(ctx, args):
    """composition(L, Sw)(x) == L(Sw(x)) on L's domain (composition's defining property)."""
    L, sw = args
    R = answer_of(ctx, "layout_swizzle_composition", L, sw)
    got = function_of(R)
    want = [extended(L, swizzle_function(sw, x)) for x in range(size(L.shape))]
    if got != want:
        k = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]), len(got))
        fail(f"composition(L, Sw)({k}) is not L(Sw({k}))", L=L, swizzle=sw, result=R)


def law_bank_bounds(ctx, args):
    """Wavefronts per phase lie between ceil(distinct words / 32) and the number of distinct
    words; the phases are 1, 2 or 4 for 1-4, 8 and 16-byte elements."""
    smem, thr, w = args
    out = tuple(answer_of(ctx, "bank_conflicts", smem, thr, w))
    phases = {1: 1, 2: 1, 4: 1, 8: 2, 16: 4}[int(w)]
    if len(out) != phases:
        fail(f"{len(out)} phases for {w}-byte elements, not {phases}", smem=smem, threads=thr)
    offs, idx = function_of(smem), table(thr)
    per = 32 // phases
    for p, got in enumerate(out):
        words = {(offs[idx[t]] * int(w)) // 4 + k for t in range(p * per, (p + 1) * per)
                 for k in range(max(1, int(w) // 4))}
        lo, hi = -(-len(words) // 32), len(words)
        if not lo <= int(got) <= hi:
            fail(f"phase {p}: {got} wavefronts outside [{lo}, {hi}]", smem=smem, threads=thr)


def _f2_fn(F):
    """An F2-strided layout's function: the colex coordinates' carry-less products with the
    strides, xored (this module's own arithmetic)."""
    shape, stride = [int(x) for x in leaves(F.shape)], [int(x) for x in leaves(F.stride)]
    out = []
    for i in range(size(F.shape)):
        v, r = 0, i
        for s, d in zip(shape, stride):
            c, r = r % s, r // s
            for b in range(c.bit_length()):
                if c >> b & 1:
                    v ^= d << b
        out.append(v)
    return out


def law_swizzle_as_f2(ctx, args):
    """swizzle_as_f2(Sw) is Sw's function on [0, 2^(B+M+|S|)): the oracle's F2 layout, read
    with this module's F2 arithmetic, equals the swizzle by its masks."""
    (sw,) = args
    F = answer_of(ctx, "swizzle_as_f2", sw)
    if not isinstance(F, F2Layout):
        fail(f"swizzle_as_f2 answers {F!r}, not an F2 layout", swizzle=sw)
    got, want = _f2_fn(F), [swizzle_function(sw, x) for x in range(1 << sw.span)]
    if got != want:
        k = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]), len(got))
        fail(f"the F2 form of {sw} differs from the swizzle at {k}", swizzle=sw, f2=F)


# --- the catalogue ------------------------------------------------------------------------------

def _one(strategy):
    return lambda: st.tuples(strategy)


def _law(name, op, fn, strategy):
    return Check(name, op, "law", strategy, static_law(fn, op), (fn.__doc__ or "").strip().split("\n")[0])


SWIZZLE_STRATEGIES = {
    "swizzle_apply": SW.swizzle_args,
    "swizzle_values": _one(SW.swizzles()),
    "f2_values": _one(SW.f2_layouts()),
    "composed_values": _one(SW.composed_layouts()),
    "composed_size": _one(SW.composed_layouts()),
    "composed_cosize": _one(SW.composed_layouts()),
    "swizzle_composition": SW.swizzle_layout_args,
    "layout_swizzle_composition": SW.layout_swizzle_args,
    "composed_composition": SW.composed_tiler_args,
    "composed_logical_divide": SW.composed_tiler_args,
    "composed_zipped_divide": SW.composed_tiler_args,
    "composed_tiled_divide": SW.composed_tiler_args,
    "composed_slice_and_offset": SW.composed_slice_args,
    "composed_right_inverse": _one(SW.composed_layouts(offset=False, layout_outer=False)),
    "composed_upcast": SW.composed_cast_args,
    "composed_downcast": SW.composed_cast_args,
    "bank_conflicts": SW.bank_args,
    "swizzle_as_f2": _one(SW.swizzles(max_span=9)),
}

SWIZZLE_CHECKS = [Check(f"diff.{op}", op, "differential", strat, differential(op),
                   f"{op}: oracle vs spec at the level {op} requires")
              for op, strat in SWIZZLE_STRATEGIES.items()] + [
    _law("law.swizzle.involution", "swizzle_values", law_swizzle_involution, _one(SW.swizzles())),
    _law("law.swizzle.f2", "f2_values", law_swizzle_f2, _one(SW.swizzles(max_span=9))),
    _law("law.composed.values", "composed_values", law_composed_values, _one(SW.composed_layouts())),
    _law("law.composed.tile_bijection", "composed_values", law_composed_tile_bijection,
         _one(SW.composed_layouts(offset=False, layout_outer=False, inner=SW.atom_layouts()))),
    _law("law.composed_slice_and_offset.function", "composed_slice_and_offset",
         law_composed_slice, SW.composed_slice_args),
    _law("law.composed_logical_divide.function", "composed_logical_divide", law_composed_divide,
         SW.composed_tiler_args),
    _law("law.composed_right_inverse.equation", "composed_right_inverse",
         law_composed_right_inverse, _one(SW.composed_layouts(offset=False, layout_outer=False))),
    _law("law.layout_swizzle_composition.pointwise", "layout_swizzle_composition",
         law_layout_swizzle, SW.layout_swizzle_args),
    _law("law.bank_conflicts.bounds", "bank_conflicts", law_bank_bounds, SW.bank_args),
    _law("law.swizzle_as_f2.function", "swizzle_as_f2", law_swizzle_as_f2,
         _one(SW.swizzles(max_span=9))),
]
