"""Checks of CuTe's tiling helpers: make_ordered_layout, make_layout_like, tile_to_shape,
local_tile, inner/outer/local_partition, zip, group_modes, product_each and TiledCopy
partitions (a differential check per operation and laws on the oracle alone)."""

from collections import Counter

import layoutcheck.fuzz.strategies.algebra as S
import layoutcheck.fuzz.strategies.tiling as TL
from hypothesis import strategies as st
from layoutcheck.fuzz.checks.base import (
    Check,
    Skip,
    answer_of,
    differential,
    fail,
    no_crash,
    static_law,
)
from layoutcheck.fuzz.checks.swizzle import function_of
from layoutcheck.fuzz.checks.targets import table
from layoutcheck.oracles.protocol import is_invalid_answer

from layoutcheck.integers import C
from layoutcheck.layout import leaves, size

__all__ = ["TILING_CHECKS", "TILING_STRATEGIES"]


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
    if tuple(size(m) for m in modes) != tuple(int(x) for x in trg):
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
    for a, out in zip(arglist, outs):
        no_crash(ctx.oracle, op, out, a)
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
    for S, off in _vals_many(ctx, "local_partition", [(L, thr, i) for i in range(size(thr.shape))]):
        seen.update(int(off) + v for v in table(S))
    if seen != Counter(table(L)):
        fail("the threads' partitions do not cover L exactly once", L=L, threads=thr)


def _partition_values(S, off):
    return [int(off) + v for v in function_of(S)]


def tiled_copy_covers(op):
    def law(ctx, args):
        L, thr, val, _i = args
        n_thr = size(thr.shape)
        full = function_of(L)
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
    if len(r) != len(modes) or any(int(x) != size(m) for x, m in zip(r, modes)):
        fail("product_each is not the product of each mode", t=t, result=r)


# --- the catalogue ------------------------------------------------------------------------------

def _one(strategy):
    return lambda: st.tuples(strategy)


def _law(name, op, fn, strategy):
    return Check(name, op, "law", strategy, static_law(fn, op), (fn.__doc__ or "").strip().split("\n")[0])


TILING_STRATEGIES = {
    "product_each": lambda: st.tuples(st.one_of(S.shapes(max_size=256), st.integers(1, 64))),
    "make_ordered_layout": TL.ordered_layout_args,
    "make_layout_like": lambda: st.tuples(S.layouts(max_size=256, max_leaves=4)),
    "tile_to_shape": TL.tile_to_shape_args,
    "local_tile": TL.partition_args,
    "inner_partition": TL.partition_args,
    "outer_partition": TL.outer_partition_args,
    "local_partition": TL.local_partition_args,
    "zip_layout": TL.zip_args,
    "group_modes": TL.group_args,
    "tiled_copy_partition_S": TL.tiled_copy_args,
    "tiled_copy_partition_D": TL.tiled_copy_args,
}

TILING_CHECKS = [Check(f"diff.{op}", op, "differential", strat, differential(op),
                   f"{op}: oracle vs spec at the level {op} requires")
              for op, strat in TILING_STRATEGIES.items()] + [
    _law("law.make_ordered_layout.compact", "make_ordered_layout", law_ordered_compact,
         TL.ordered_layout_args),
    _law("law.tile_to_shape.sizes", "tile_to_shape", law_tile_to_shape, TL.tile_to_shape_args),
    _law("law.local_tile.covers", "local_tile", law_local_tile_covers, TL.partition_args),
    _law("law.local_partition.covers", "local_partition", law_local_partition_covers,
         TL.local_partition_args),
    _law("law.group_modes.function", "group_modes", law_group_function, TL.group_args),
    _law("law.zip_layout.involution", "zip_layout", law_zip_involution, TL.zip_args),
    _law("law.product_each.products", "product_each", law_product_each,
         TILING_STRATEGIES["product_each"]),
    _law("law.tiled_copy_partition_S.covers", "tiled_copy_partition_S",
         tiled_copy_covers("tiled_copy_partition_S"), TL.tiled_copy_args),
    _law("law.tiled_copy_partition_D.covers", "tiled_copy_partition_D",
         tiled_copy_covers("tiled_copy_partition_D"), TL.tiled_copy_args),
]
