"""Checks for issue 16's operations: swizzles, composed layouts, F2 strides, bank conflicts,
recast / vectorization, tiling helpers, TiledCopy partitions.

``COMPOSED_CHECKS`` (appended to ``properties.CHECKS``): one differential check per op (the
oracle against the spec at the op's level, refusals included) and laws checked on the
oracle alone.  The laws compute their expectations with this module's own arithmetic (the
swizzle by its masks, layouts by ``targets.table``), independent of spec and impl.

Oracles without runtime integers (pycute, ``module:``, NVlabs PyCuTe, the CuTe DSL) read every
integer as a known value, i.e. static; for them the differential checks give the spec the
same all-static inputs, since several of these ops depend on staticness in CuTe (upcast's
dynamic-stride rule, nullspace's static zeros, the order of dynamic entries).
"""

from collections import Counter

import layoutcheck.fuzz.strategies.swizzle as V
from hypothesis import strategies as st
from layoutcheck.fuzz.checks.base import Check, Skip, answer_of, differential, fail, no_crash
from layoutcheck.fuzz.checks.targets import table
from layoutcheck.oracles.postconditions import evaluate as extended
from layoutcheck.oracles.protocol import is_invalid_answer

from layoutcheck.composed import ComposedLayoutBase, F2Layout, SignedLayout, Swizzle
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore, leaves

__all__ = ["COMPOSED_CHECKS", "VOCAB_STRATEGIES", "static_args", "has_runtime_ints"]


# --- independent arithmetic ---------------------------------------------------------------

def _size(s):
    n = 1
    for x in leaves(s):
        n *= int(x)
    return n


def _sw(sw, x):
    B, M, S = sw.params
    y = ((1 << B) - 1) << (M + max(0, S))
    t = x & y
    return x ^ (t >> S if S >= 0 else t << -S)


def _fn(x):
    """The function of a layout, composed layout or signed layout on its domain (a list)."""
    if isinstance(x, ComposedLayoutBase):
        outer = (lambda v: _sw(x.outer, v)) if isinstance(x.outer, Swizzle) else \
            (lambda v: extended(x.outer, v))
        return [outer(int(x.offset) + v) for v in _fn(x.inner)]
    if isinstance(x, SignedLayout):
        vals = [0]
        for s, d in zip(leaves(x.shape), leaves(x.stride)):
            vals = [v + k * int(d) for k in range(int(s)) for v in vals]
        return vals
    return table(x)


def _static(x):
    if isinstance(x, tuple):
        return tuple(_static(e) for e in x)
    if isinstance(x, LayoutBase):
        return LayoutBase(_static(x.shape), _static(x.stride))
    if isinstance(x, ComposedLayoutBase):
        return ComposedLayoutBase(_static(x.outer), _static(x.offset), _static(x.inner))
    if isinstance(x, F2Layout):
        return F2Layout(_static(x.shape), _static(x.stride))
    if isinstance(x, int) and not isinstance(x, bool):
        return C(x)
    return x


def static_args(args):
    return tuple(_static(a) for a in args)


def has_runtime_ints(oracle):
    """spec, impl and CuTe C++ tell runtime from static integers; the Python oracles and the
    DSL (trace time) do not."""
    name = getattr(oracle, "name", "")
    return name.split("[")[0] in ("spec", "impl", "cute-cpp")


def _diff(op):
    base = differential(op)

    def run(ctx, args):
        return base(ctx, args if has_runtime_ints(ctx.oracle) else static_args(args))
    return run


# --- laws: swizzles and F2 -----------------------------------------------------------------

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
    want = [_sw(sw, x) for x in range(n)]
    if v != want:
        k = next(i for i in range(n) if v[i] != want[i])
        fail(f"Sw({k}) = {v[k]}, but the bit fields give {want[k]}", swizzle=sw)


def law_swizzle_f2(ctx, args):
    """Sw<B,M,S> as an F2-strided layout (one mode per bit, stride Sw(2^j)) is the same
    function: the oracle's f2_values of that layout equal the swizzle's values."""
    (sw,) = args
    F = F2Layout(tuple(C(2) for _j in range(sw.span)) or C(1),
                 tuple(C(_sw(sw, 1 << j)) for j in range(sw.span)) or C(0))
    fv = list(answer_of(ctx, "f2_values", F))
    want = [_sw(sw, x) for x in range(1 << sw.span)]
    if fv != want:
        k = next(i for i in range(len(want)) if i >= len(fv) or fv[i] != want[i])
        fail(f"the F2 layout of {sw} differs from the swizzle at {k}", swizzle=sw, f2=F)


# --- laws: composed layouts ------------------------------------------------------------------

def law_composed_values(ctx, args):
    """C(i) = outer(offset + inner(i)) for every i, size(C) = size(inner), and cosize(C) covers
    every offset C reaches (max C(i) < cosize(C): a buffer of cosize elements holds C)."""
    (Cl,) = args
    v = list(answer_of(ctx, "composed_values", Cl))
    want = _fn(Cl)
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
        n = _size(s)
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
    for size, step in free:
        points = [p + k * step for k in range(size) for p in points]
    return points


def law_composed_slice(ctx, args):
    """slice_and_offset(c, C) = (S, off): S(i) + off == C(the point of c's slice at i) for
    every i of S's domain (what a tensor slice relies on)."""
    Cl, coord = args
    S, off = answer_of(ctx, "composed_slice_and_offset", Cl, coord)
    points = _slice_points(Cl.inner.shape, coord)
    full = _fn(Cl)
    got = _fn(S)
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
    want = _fn(ComposedLayoutBase(Cl.outer, Cl.offset, inner))
    if _fn(D) != want:
        fail("logical_divide(C, T) is not C's outer function on logical_divide(inner, T)",
              C=Cl, tiler=T, result=D, inner_divide=inner)


def law_composed_right_inverse(ctx, args):
    """C(R(i)) == i for every i < size(R), R = right_inverse(C)."""
    (Cl,) = args
    R = answer_of(ctx, "composed_right_inverse", Cl)
    c, r = _fn(Cl), _fn(R)
    for i, x in enumerate(r):
        if not 0 <= x < len(c) or c[x] != i:
            fail(f"C(R({i})) != {i}", C=Cl, right_inverse=R)


def law_layout_swizzle(ctx, args):
    """composition(L, Sw)(x) == L(Sw(x)) on L's domain (composition's defining property)."""
    L, sw = args
    R = answer_of(ctx, "layout_swizzle_composition", L, sw)
    got = _fn(R)
    want = [extended(L, _sw(sw, x)) for x in range(_size(L.shape))]
    if got != want:
        k = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]), len(got))
        fail(f"composition(L, Sw)({k}) is not L(Sw({k}))", L=L, swizzle=sw, result=R)


# --- laws: bank conflicts ------------------------------------------------------------------------

def law_bank_bounds(ctx, args):
    """Wavefronts per phase lie between ceil(distinct words / 32) and the number of distinct
    words; the phases are 1, 2 or 4 for 1-4, 8 and 16-byte elements."""
    smem, thr, w = args
    out = tuple(answer_of(ctx, "bank_conflicts", smem, thr, w))
    phases = {1: 1, 2: 1, 4: 1, 8: 2, 16: 4}[int(w)]
    if len(out) != phases:
        fail(f"{len(out)} phases for {w}-byte elements, not {phases}", smem=smem, threads=thr)
    offs, idx = _fn(smem), table(thr)
    per = 32 // phases
    for p, got in enumerate(out):
        words = {(offs[idx[t]] * int(w)) // 4 + k for t in range(p * per, (p + 1) * per)
                 for k in range(max(1, int(w) // 4))}
        lo, hi = -(-len(words) // 32), len(words)
        if not lo <= int(got) <= hi:
            fail(f"phase {p}: {got} wavefronts outside [{lo}, {hi}]", smem=smem, threads=thr)


# --- laws: recast and vectorization ---------------------------------------------------------------

def law_recast_roundtrip(ctx, args):
    """downcast<N>(upcast<N>(L)) == L when L's static stride-1 modes have sizes divisible by N
    and every other stride is a static multiple of N other than N itself (or 0: a stride N
    would become a second unit stride)."""
    L, N = args
    s, d = leaves(L.shape), leaves(L.stride)
    ok = any(isinstance(x, C) and x == 1 for x in d) and all(
        isinstance(y, C) and (y == 0 or (y == 1 and int(x) % N == 0) or
                              (y != 1 and y % N == 0 and y != N))
        for x, y in zip(s, d))
    if not ok or N == 1:
        raise Skip("outside the round-trip's conditions")
    U = answer_of(ctx, "upcast", L, N)
    D = answer_of(ctx, "downcast", U, N)
    if D != L:
        fail("downcast<N>(upcast<N>(L)) != L", L=L, N=N, upcast=U, downcast=D)


def law_mcv_contiguous(ctx, args):
    """N = max_common_vector(A, B), R = max_common_layout(A, B): size(R) == N, A(R(i)) == i ==
    B(R(i)) for i < N (the common vector is contiguous in both), and, for injective B, N is
    maximal: N is no value of B, or A takes another value than N where B takes N."""
    A, B = args
    N = int(answer_of(ctx, "max_common_vector", A, B))
    R = answer_of(ctx, "max_common_layout", A, B)
    ta, tb, tr = table(A), table(B), table(R)
    if len(tr) != N:
        fail(f"size(max_common_layout) = {len(tr)}, but max_common_vector = {N}", A=A, B=B,
              common_layout=R)
    for i, x in enumerate(tr):
        if not (x < len(ta) and x < len(tb) and ta[x] == i and tb[x] == i):
            fail(f"at {i}: A(R(i)) or B(R(i)) is not {i}", A=A, B=B, common_layout=R)
    if len(set(tb)) == len(tb) and N in tb:
        j = tb.index(N)
        if j < len(ta) and ta[j] == N:
            fail(f"a common vector of {N + 1} elements exists, max_common_vector says {N}",
                  A=A, B=B, max_common_vector=N)


def law_mcv_symmetric(ctx, args):
    """For injective A and B, max_common_vector(A, B) == max_common_vector(B, A)."""
    A, B = args
    if len(set(table(A))) != _size(A.shape) or len(set(table(B))) != _size(B.shape):
        raise Skip("symmetry holds for injective layouts")
    x, y = answer_of(ctx, "max_common_vector", A, B), answer_of(ctx, "max_common_vector", B, A)
    if int(x) != int(y):
        fail(f"max_common_vector(A, B) = {x} but (B, A) gives {y}", A=A, B=B)


def law_nullspace(ctx, args):
    """L(K(i)) == 0 for i < size(K), K injective, size(K) = product of the static-zero modes."""
    (L,) = args
    K = answer_of(ctx, "nullspace", L)
    tl, tk = table(L), table(K)
    if any(not 0 <= k < len(tl) or tl[k] != 0 for k in tk):
        fail("L(nullspace(L)(i)) != 0", L=L, nullspace=K)
    if len(set(tk)) != len(tk):
        fail("nullspace(L) is not injective", L=L, nullspace=K)
    want = 1
    for s, d in zip(leaves(L.shape), leaves(L.stride)):
        if isinstance(d, C) and d == 0:
            want *= int(s)
    if len(tk) != want:
        fail(f"size(nullspace) = {len(tk)}, the static-zero modes have {want} points", L=L,
              nullspace=K)


# --- laws: tiling ----------------------------------------------------------------------------------

def law_ordered_compact(ctx, args):
    """For distinct static orders: make_ordered_layout(shape, order) is compact (a bijection onto
    [0, size)) and a mode of smaller order never has a larger stride."""
    shape, order = args
    flat = leaves(order) if isinstance(order, tuple) else (order,)
    if not all(isinstance(o, C) for o in flat) or len(set(map(int, flat))) != len(flat):
        raise Skip("distinct static orders only (ties and dynamic orders: the diff check)")
    L = answer_of(ctx, "make_ordered_layout", shape, order)
    t = table(L)
    if sorted(t) != list(range(len(t))):
        fail("make_ordered_layout is not compact", shape=shape, order=order, result=L)


def law_tile_to_shape(ctx, args):
    """tile_to_shape(block, shape) has the target's per-mode sizes, and is compact when the
    block is."""
    block, trg = args[0], args[1]
    R = answer_of(ctx, "tile_to_shape", *args)
    modes = R.shape if isinstance(R.shape, tuple) else (R.shape,)
    if tuple(_size(m) for m in modes) != tuple(int(x) for x in trg):
        fail("tile_to_shape's modes do not have the target's sizes", block=block, target=trg,
              result=R)
    tb, tr = table(block), table(R)
    if sorted(tb) == list(range(len(tb))) and sorted(tr) != list(range(len(tr))):
        fail("tile_to_shape of a compact block is not compact", block=block, target=trg, result=R)


def _vals_many(ctx, op, arglist):
    """The oracle's answers to ``op`` on each argument tuple, in one batch (one C++ program
    for cute-cpp), judged as ``answer_of`` judges one."""
    run_many = getattr(ctx.oracle, "run_many", None)
    outs = run_many([(op, a) for a in arglist]) if run_many else [ctx.oracle.run(op, *a) for a in arglist]
    vals = []
    for out in outs:
        no_crash(ctx.oracle, op, out)
        if out.kind == "unsupported":
            raise Skip(out.message)
        if is_invalid_answer(out):
            fail(f"{ctx.oracle.name} answers no valid value for {op}", answer=out.message)
        if out.kind == "raised":
            raise Skip(out.message)
        vals.append(out.value)
    return vals


def _rest_coords(L, tiler):
    n, m = 1, 1
    for s, t in zip(L.shape, tiler):
        n *= int(s) // int(t)
    return range(n)


def law_local_tile_covers(ctx, args):
    """The tiles local_tile(L, tiler, c) over every rest coordinate c cover L's values exactly
    once (each tile has size(tiler) points)."""
    L, tiler, _c = args
    seen = Counter()
    for S, off in _vals_many(ctx, "local_tile", [(L, tiler, c) for c in _rest_coords(L, tiler)]):
        seen.update(int(off) + v for v in table(S))
    if seen != Counter(table(L)):
        fail("the tiles of local_tile do not cover L exactly once", L=L, tiler=tiler)


def law_local_partition_covers(ctx, args):
    """local_partition of L over a thread layout covers L exactly once across the threads."""
    L, thr, _i = args
    seen = Counter()
    for S, off in _vals_many(ctx, "local_partition", [(L, thr, i) for i in range(_size(thr.shape))]):
        seen.update(int(off) + v for v in table(S))
    if seen != Counter(table(L)):
        fail("the threads' partitions do not cover L exactly once", L=L, threads=thr)


def _partition_values(S, off):
    return [int(off) + v for v in _fn(S)]


def _tiled_copy_covers(op):
    def law(ctx, args):
        L, thr, val, _i = args
        n_thr = _size(thr.shape)
        full = _fn(L)
        seen = Counter()
        for t, (S, off) in enumerate(_vals_many(ctx, op, [(L, thr, val, t) for t in range(n_thr)])):
            got = _partition_values(S, off)
            if len(got) * n_thr != len(full):
                fail(f"thread {t} holds {len(got)} elements, not size(tensor) / {n_thr} = "
                      f"{len(full) // n_thr}", L=L, threads=thr, values=val, partition=S, offset=off)
            seen.update(got)
        if seen != Counter(full):
            extra = sorted((seen - Counter(full)).elements())[:4]
            missed = sorted((Counter(full) - seen).elements())[:4]
            fail("the threads' partitions do not cover the tensor's offsets exactly once",
                  L=L, threads=thr, values=val, doubled_or_foreign=tuple(extra),
                  missed=tuple(missed))
    law.__doc__ = (f"{op} over every thread covers the tensor exactly once: the offsets the "
                   "threads' views reach are a permutation of the tensor's offsets (each "
                   "thread size(tensor) / size(thr) of them)")
    return law


def _f2_fn(F):
    """An F2-strided layout's function: the colex coordinates' carry-less products with the
    strides, xored (this module's own arithmetic)."""
    shape, stride = [int(x) for x in leaves(F.shape)], [int(x) for x in leaves(F.stride)]
    out = []
    for i in range(_size(F.shape)):
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
    got, want = _f2_fn(F), [_sw(sw, x) for x in range(1 << sw.span)]
    if got != want:
        k = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]), len(got))
        fail(f"the F2 form of {sw} differs from the swizzle at {k}", swizzle=sw, f2=F)


def law_group_function(ctx, args):
    """group<b,e>(L) has L's function."""
    L, b, e = args
    G = answer_of(ctx, "group_modes", L, b, e)
    if table(G) != table(L):
        fail("group_modes changed the layout function", L=L, b=b, e=e, result=G)


def law_zip_involution(ctx, args):
    """zip(zip(L)) == L for a layout whose modes are tuples of one rank >= 2."""
    (L,) = args
    s = L.shape
    if not (isinstance(s, tuple) and s and all(isinstance(x, tuple) and len(x) == len(s[0]) >= 2
                                               for x in s) and len(s) >= 2):
        raise Skip("zip is an involution on rectangular tuples of tuples")
    Z = answer_of(ctx, "zip_layout", L)
    Z2 = answer_of(ctx, "zip_layout", Z)
    if Z2 != L:
        fail("zip(zip(L)) != L", L=L, zip=Z, zip_twice=Z2)


def law_product_each(ctx, args):
    """len(product_each(t)) == rank(t), product(product_each(t)) == product(t)."""
    (t,) = args
    r = answer_of(ctx, "product_each", t)
    modes = t if isinstance(t, tuple) else (t,)
    if not isinstance(r, tuple):
        fail("product_each is not a tuple (CuTe wraps an integer first)", t=t, result=r)
    if len(r) != len(modes) or any(int(x) != _size(m) for x, m in zip(r, modes)):
        fail("product_each is not the product of each mode", t=t, result=r)


# --- the catalogue ------------------------------------------------------------------------------

def _one(strategy):
    return lambda: st.tuples(strategy)


def _cs():
    return V.composed_layouts()


VOCAB_STRATEGIES = {
    "swizzle_apply": V.swizzle_args,
    "swizzle_values": _one(V.swizzles()),
    "f2_values": _one(V.f2_layouts()),
    "composed_values": _one(_cs()),
    "composed_size": _one(_cs()),
    "composed_cosize": _one(_cs()),
    "swizzle_composition": V.swizzle_layout_args,
    "layout_swizzle_composition": V.layout_swizzle_args,
    "composed_composition": V.composed_tiler_args,
    "composed_logical_divide": V.composed_tiler_args,
    "composed_zipped_divide": V.composed_tiler_args,
    "composed_tiled_divide": V.composed_tiler_args,
    "composed_slice_and_offset": V.composed_slice_args,
    "composed_right_inverse": _one(V.composed_layouts(offset=False, layout_outer=False)),
    "composed_upcast": V.composed_cast_args,
    "composed_downcast": V.composed_cast_args,
    "bank_conflicts": V.bank_args,
    "upcast": V.recast_args,
    "downcast": V.recast_args,
    "recast_layout": V.recast_layout_args,
    "max_common_vector": V.vector_pairs,
    "max_common_layout": V.vector_pairs,
    "nullspace": V.nullspace_args,
    "product_each": lambda: st.tuples(st.one_of(V.S.shapes(max_size=256), st.integers(1, 64))),
    "make_ordered_layout": V.ordered_layout_args,
    "make_layout_like": lambda: st.tuples(V.S.layouts(max_size=256, max_leaves=4)),
    "tile_to_shape": V.tile_to_shape_args,
    "local_tile": V.partition_args,
    "inner_partition": V.partition_args,
    "outer_partition": V.outer_partition_args,
    "local_partition": V.local_partition_args,
    "zip_layout": V.zip_args,
    "group_modes": V.group_args,
    "tiled_copy_partition_S": V.tiled_copy_args,
    "tiled_copy_partition_D": V.tiled_copy_args,
    "swizzle_as_f2": _one(V.swizzles(max_span=9)),
}


def _static_for(fn):
    """A law on the oracle's own integers: all-static for oracles without runtime ones."""
    def run(ctx, args):
        return fn(ctx, args if has_runtime_ints(ctx.oracle) else static_args(args))
    run.__doc__ = fn.__doc__
    return run


def _law(name, op, fn, strategy):
    return Check(name, op, "law", strategy, _static_for(fn),
                 (fn.__doc__ or "").strip().split("\n")[0])


COMPOSED_CHECKS = [Check(f"diff.{op}", op, "differential", strat, _diff(op),
                      f"{op}: oracle vs spec at the level {op} requires")
                for op, strat in VOCAB_STRATEGIES.items()] + [
    _law("law.swizzle.involution", "swizzle_values", law_swizzle_involution, _one(V.swizzles())),
    _law("law.swizzle.f2", "f2_values", law_swizzle_f2, _one(V.swizzles(max_span=9))),
    _law("law.composed.values", "composed_values", law_composed_values, _one(_cs())),
    _law("law.composed.tile_bijection", "composed_values", law_composed_tile_bijection,
         _one(V.composed_layouts(offset=False, layout_outer=False, inner=V.atom_layouts()))),
    _law("law.composed_slice_and_offset.function", "composed_slice_and_offset",
         law_composed_slice, V.composed_slice_args),
    _law("law.composed_logical_divide.function", "composed_logical_divide", law_composed_divide,
         V.composed_tiler_args),
    _law("law.composed_right_inverse.equation", "composed_right_inverse",
         law_composed_right_inverse, _one(V.composed_layouts(offset=False, layout_outer=False))),
    _law("law.layout_swizzle_composition.pointwise", "layout_swizzle_composition",
         law_layout_swizzle, V.layout_swizzle_args),
    _law("law.bank_conflicts.bounds", "bank_conflicts", law_bank_bounds, V.bank_args),
    _law("law.upcast.roundtrip", "upcast", law_recast_roundtrip, V.recast_args),
    _law("law.max_common_vector.contiguous", "max_common_vector", law_mcv_contiguous,
         V.vector_pairs),
    _law("law.max_common_vector.symmetric", "max_common_vector", law_mcv_symmetric,
         V.vector_pairs),
    _law("law.nullspace.kernel", "nullspace", law_nullspace, V.nullspace_args),
    _law("law.make_ordered_layout.compact", "make_ordered_layout", law_ordered_compact,
         V.ordered_layout_args),
    _law("law.tile_to_shape.sizes", "tile_to_shape", law_tile_to_shape, V.tile_to_shape_args),
    _law("law.local_tile.covers", "local_tile", law_local_tile_covers, V.partition_args),
    _law("law.local_partition.covers", "local_partition", law_local_partition_covers,
         V.local_partition_args),
    _law("law.group_modes.function", "group_modes", law_group_function, V.group_args),
    _law("law.zip_layout.involution", "zip_layout", law_zip_involution, V.zip_args),
    _law("law.product_each.products", "product_each", law_product_each,
         VOCAB_STRATEGIES["product_each"]),
    _law("law.tiled_copy_partition_S.covers", "tiled_copy_partition_S",
         _tiled_copy_covers("tiled_copy_partition_S"), V.tiled_copy_args),
    _law("law.tiled_copy_partition_D.covers", "tiled_copy_partition_D",
         _tiled_copy_covers("tiled_copy_partition_D"), V.tiled_copy_args),
    _law("law.swizzle_as_f2.function", "swizzle_as_f2", law_swizzle_as_f2,
         _one(V.swizzles(max_span=9))),
]
