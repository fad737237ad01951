"""Mutation table of CuTe C++: does the gate catch bugs planted in CuTe's headers?

Each mutant is a one-place text replacement in a copy of a CuTe header tree: the tree given
by ``--cute-include DIR`` or the installed ``nvidia-cutlass`` wheel's.  ``cute/`` is copied into
a temporary directory and patched there, every other entry of the tree is linked, and
``layoutcheck fuzz --against cute-cpp --cute-include COPY --budget 240 --seed 7 --no-db
--fail-fast`` runs in a subprocess with an empty ``LAYOUTCHECK_CACHE`` (a cold start, as on a
fresh CI machine: a patched tree shares no compiled kernel with any other).  CPP00 is the
unpatched copy: it must come out clean, with every check reached.  A mutant is *caught* when
the run exits 1 on a new failure whose case the unpatched tree does not fail (``layoutcheck
fuzz --case`` on it, with a kernel cache of its own kept across the table); the time to catch is
the campaign's time to its first new failure.  The table also shows the cases each run judged
and the pairs its budget did not reach.

    python -m layoutcheck.fuzz.mutation.cpp [--budget 240] [--seed 7] [--only CPP01,CPP07]
        [--cute-include DIR] [--json FILE]
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from layoutcheck.fuzz.mutation.tables import patch, row, run_gate, table
from layoutcheck.oracles.cpp.toolchain import resolve_include

from layoutcheck.errors import LayoutError

# (id, file under the include tree, old text, new text, operation, the bug in words)
MUTANTS = [
    ('CPP01', 'cute/layout.hpp',
     ' CUTE_STATIC_ASSERT_V(((rest_stride % curr_shape) == Int<0>{}) or (rest_stride < curr_shape), "Stride Divisibility Condition");',
     ' CUTE_STATIC_ASSERT_V(((rest_stride % curr_shape) == Int<0>{}) or (rest_stride < curr_shape - Int<1>{}), "Stride Divisibility Condition");',
     'composition (static)', 'static_assert'),
    ('CPP02', 'cute/layout.hpp',
     'signum(stride) * ceil_div(abs(stride), Int<N>{}));',
     'signum(stride) * (abs(stride) / Int<N>{}));',
     'upcast / recast_layout', 'upcast divides a static stride with floor instead of ceil_div'),
    ('CPP03', 'cute/layout.hpp',
     'using scale = decltype(trait_ratio(sizeof_bits<NewType>{}, sizeof_bits<OldType>{}));',
     'using scale = decltype(trait_ratio(sizeof_bits<OldType>{}, sizeof_bits<NewType>{}));',
     'recast_layout', "recast_layout's ratio has its arguments swapped: recasting to a narrower type upcasts and vice versa"),
    ('CPP04', 'cute/layout.hpp',
     '    return shape<0>(common);',
     '    return size(common);',
     'max_common_vector', 'max_common_vector returns the size of the whole common layout instead of its leading stride-1 mode'),
    ('CPP05', 'cute/layout.hpp',
     'append(result_stride, rest_stride * get<R-1>(lhs_stride))};',
     'append(result_stride, rest_stride * get<1>(lhs_stride))};',
     'composition / divides (rank>=3)', 'the rest mode of a composition takes the stride of lhs mode 1 instead of the last mode R-1'),
    ('CPP06', 'cute/layout.hpp',
     'auto new_shape  = min_stride / get<i>(result_stride);',
     'auto new_shape  = min_stride / get<0>(result_stride);',
     'complement / divides / products (rank>=3)', 'complement divides each stride by the FIRST result stride instead of the previous one'),
    ('CPP07', 'cute/stride.hpp',
     'auto [div, mod] = divmod(coord, product(get<I0>(shape)));',
     'auto [div, mod] = divmod(coord, get<0>(flatten(get<I0>(shape))));',
     'crd2idx / layout evaluation (coordinates)', "an integral coordinate is split by the first sub-extent of a nested mode instead of the mode's size"),
    ('CPP08', 'cute/swizzle.hpp',
     'return offset ^ shiftr(offset & yyy_msk{}, msk_sft{});',
     'return offset ^ shiftr(offset & zzz_msk{}, msk_sft{});',
     'swizzle apply', 'Swizzle::apply reads the ZZZ field instead of YYY: Swizzle<3,4,3>(0x80) = 0x80 instead of 0x90'),
    ('CPP09', 'cute/layout.hpp',
     'is_constant<true, decltype(get<I>(old_shape) * get<I>(old_stride) == get<0>(new_stride))>::value) {',
     'is_constant<true, decltype(get<I>(old_shape) * get<0>(new_shape) == get<0>(new_stride))>::value) {',
     'coalesce (static)', "bw_coalesce merge test multiplies by the front mode's shape instead of the current stride"),
    ('CPP10', 'cute/swizzle.hpp',
     'static_assert(abs(num_shft) >= num_bits, "abs(SShift) must be more than BBits.");',
     'static_assert(abs(num_shft) > num_bits, "abs(SShift) must be more than BBits.");',
     'Swizzle (static)', 'static_assert'),
    ('CPP11', 'cute/layout.hpp',
     'append(get<1>(init), get<i>(preprod_shape)),  // result_stride',
     'append(get<1>(init), get<i>(lstride)),  // result_stride',
     'right_inverse / max_common_*', 'right_inverse records the codomain stride instead of the domain prefix product'),
    ('CPP12', 'cute/layout.hpp',
     'return make_layout(block, composition(complement(block, size(block)*cosize(tiler)), tiler));',
     'return make_layout(block, composition(complement(block, cosize(tiler)), tiler));',
     'logical_product / blocked / raked', 'logical_product complements the block only up to cosize(tiler) instead of size(block)*cosize(tiler)'),
    ('CPP13', 'cute/stride.hpp',
     'return (idx / stride) % shape;',
     'return (idx % shape) / stride;',
     'idx2crd (coordinates)', 'idx2crd of an integral mode takes the index modulo the extent before dividing by the stride'),
    ('CPP14', 'cute/layout.hpp',
     '    return make_layout(shape * Int<N>{}, stride);',
     '    return make_layout(shape * Int<N>{}, stride * Int<N>{});',
     'downcast / recast_layout', 'downcast of a unit-stride mode scales its stride as well as its extent'),
    ('CPP15', 'cute/layout.hpp',
     'replace_front(new_shape,  get<I>(old_shape) * get<0>(new_shape)),',
     'replace_front(new_shape,  get<I>(old_shape) + get<0>(new_shape)),',
     'coalesce (static)', 'bw_coalesce merges two modes into one of the sum of their extents instead of the product'),]

APART = {}  # every C++ mutant is observable


def header_tree(include_dir=None) -> Path:
    """The unpatched header tree (``include_dir``, else $LAYOUTCHECK_CUTE_INCLUDE, else the wheel's)."""
    tree = resolve_include(include_dir)
    if not (tree / "cute" / "layout.hpp").is_file():
        raise LayoutError(f"no CuTe header tree at {str(tree)!r} (expected DIR/cute/layout.hpp)")
    return tree.resolve()


def make_mutant(root, mutant, tree) -> Path:
    """root/<id>/include: ``cute/`` copied (and patched), every other entry of ``tree`` linked."""
    mid, fname, old, new = mutant[:4]
    dst = Path(root) / mid.lower() / "include"
    dst.mkdir(parents=True)
    for entry in tree.iterdir():
        if entry.name == "cute":
            shutil.copytree(entry, dst / "cute")
        else:
            (dst / entry.name).symlink_to(entry)
    if fname:
        patch(dst / fname, old, new, mid)
    return dst


def run_one(root, mutant, budget, seed, tree, extra=()) -> dict:
    copy = make_mutant(root, mutant, tree)
    env = dict(os.environ, LAYOUTCHECK_CACHE=str(copy.parent / "cache"))
    env.pop("LAYOUTCHECK_CUTE_INCLUDE", None)
    run = run_gate(["--against", "cute-cpp", "--cute-include", str(copy), "--budget", str(budget),
                    "--seed", str(seed), "--no-db", "--fail-fast", *extra],
                   copy.parent / "report.json", env, copy.parent)
    first = next((r for r in (run.report or {}).get("results", [])
                  if r["status"] in ("fail", "error") and not r["known_finding"]), None)
    ok = True
    if first and first.get("counterexample"):
        ok = attributable(first, tree, Path(root) / "unpatched-cache", copy.parent)
    out = row(mutant, run, ok)
    shutil.rmtree(copy.parent / "cache", ignore_errors=True)
    return out


def attributable(first, tree, cache, cwd) -> bool:
    """The mutant's failure is its own: the unpatched tree passes the same case, or fails it
    only as a known finding with other answers."""
    env = dict(os.environ, LAYOUTCHECK_CACHE=str(cache))
    env.pop("LAYOUTCHECK_CUTE_INCLUDE", None)
    run = run_gate(["--against", "cute-cpp", "--cute-include", str(tree), "--no-db", "--case",
                    first["check"], *first["counterexample"]], Path(cwd) / "replay.json", env, cwd)
    rows = (run.report or {}).get("results", [])
    if run.exit not in (0, 1) or not rows:
        return False
    r = rows[0]
    if r["status"] in ("pass", "skipped"):
        return True
    if not r.get("known_finding"):
        return False
    return (first.get("answers") or {}) != (r.get("answers") or {})


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budget", type=float, default=240.0, help="seconds per mutant (default 240)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--only", default=None, help="comma-separated mutant ids")
    p.add_argument("--cute-include", default=None, metavar="DIR",
                   help="the unpatched CuTe header tree (default: the nvidia-cutlass wheel's)")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument("--no-baseline", action="store_true", help="skip the unpatched copy CPP00")
    a = p.parse_args(argv)
    try:
        tree = header_tree(a.cute_include)
    except LayoutError as e:
        print(f"mutation table: {e}", file=sys.stderr)
        return 2
    only = set(a.only.split(",")) if a.only else None
    chosen = [m for m in MUTANTS if not only or m[0] in only]
    if not a.no_baseline:
        chosen = [("CPP00", None, "", "", "-", "none (unpatched copy: must pass)")] + chosen
    rows = []
    with tempfile.TemporaryDirectory(prefix="lc-cpp-mutants-") as root:
        for m in chosen:
            r = run_one(root, m, a.budget, a.seed, tree)
            rows.append(r)
            print(f"{r['id']}: {'caught' if r['caught'] else 'NOT caught'} (exit {r['exit']}, "
                  f"{r['catch_s']} s, {r['check']}, {r['cases']} cases, {r['not_reached']} pairs "
                  f"not reached) {' '.join(r['stderr'])}", file=sys.stderr, flush=True)
    print(table(rows, APART, reach=True))
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
