"""Mutation test of the checks on swizzles, composed layouts, recast and tiling: are realistic swizzle / recast / vectorization / tiling
bugs caught?

Each mutant is a one-place source patch of a copy of ``layoutcheck.impl`` (its swizzle,
recast and tiling modules): the package is copied into a temporary folder as
``lc_impl_mNN``, patched, and fuzzed in a subprocess with every check of
``fuzz/checks/swizzle.py`` (the mutant stands in for impl: the spec in the paper's sense is the
reference), one check after another until the first failure or the budget -- the checks of
the mutated operation first (the table's op column; each gets a tenth of the budget), then
the others (an even share each).  A mutant is
*caught* when a check fails on a case that unpatched impl passes (the same check re-run on
the counterexample).  ``M00`` is the unpatched copy and must pass.

    python -m layoutcheck.fuzz.mutation.impl [--budget 30] [--seed 1] [--only M01,M07] [--json F]

prints a markdown table (mutant, op, bug, caught, time to catch, check, counterexample).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from layoutcheck.fuzz.campaign.replay import replay_cases
from layoutcheck.fuzz.campaign.runner import run_check
from layoutcheck.fuzz.checks.recast import RECAST_CHECKS
from layoutcheck.fuzz.checks.swizzle import SWIZZLE_CHECKS
from layoutcheck.fuzz.checks.tiling import TILING_CHECKS

COMPOSED_CHECKS = SWIZZLE_CHECKS + RECAST_CHECKS + TILING_CHECKS  # the checks of the ops beyond the algebra
from layoutcheck.fuzz.mutation.pycute import table as pycute_table
from layoutcheck.oracles import get_oracle
from layoutcheck.oracles.reference import PackageOracle, reference_for

# (id, file, old text, new text, operation, the bug in words)
MUTANTS = [
    ("M01", "swizzle.py", "return x ^ ((t >> s) if s >= 0 else (t << -s))",
     "return x ^ ((t << s) if s >= 0 else (t >> -s))", "swizzle", "YYY shifted the wrong way"),
    ("M02", "swizzle.py", "return f << (M + max(0, S)), f << (M - min(0, S)), S",
     "return f << (M + abs(S)), f << (M - min(0, S)), S", "swizzle",
     "YYY at M + |S| (wrong for a negative shift)"),
    ("M03", "swizzle.py", "return f << (M + max(0, S)), f << (M - min(0, S)), S",
     "return f << (M - min(0, S)), f << (M + max(0, S)), S", "swizzle", "YYY and ZZZ swapped"),
    ("M04", "swizzle.py", "    f = (1 << B) - 1\n    return f << (M + max(0, S))",
     "    f = (1 << (B + 1)) - 1\n    return f << (M + max(0, S))", "swizzle",
     "one bit too many in the mask"),
    ("M05", "swizzle.py", "inner = np.asarray(values(as_layout(Cl.inner)), dtype=np.int64) + int(Cl.offset)",
     "inner = np.asarray(values(as_layout(Cl.inner)), dtype=np.int64)", "composed_values",
     "the composed layout's offset ignored"),
    ("M06", "swizzle.py", "    return int(_composed_array(Cl).max()) + 1",
     "    return int(np.asarray(values(as_layout(as_composed(Cl).inner))).max()) + 1",
     "composed_cosize", "cosize of the inner layout (CuTe's definition)"),
    ("M07", "swizzle.py", "    return (ComposedLayout(Cl.outer, Cl.offset + off, sliced), C(0))",
     "    return (ComposedLayout(Cl.outer, Cl.offset, sliced), C(0))",
     "composed_slice_and_offset", "the slice's offset dropped"),
    ("M08", "swizzle.py", "return Swizzle(B, m, S) if m >= 0 else Swizzle(max(B + m, 0), 0, S)",
     "return Swizzle(B, m, S) if m >= 0 else Swizzle(B, 0, S)", "composed_upcast",
     "upcast of a swizzle below its base keeps all its bits"),
    ("M09", "recast.py", "return (s + C(k - 1)) // C(k), C(-(-int(d) // n))",
     "return s // C(k), C(-(-int(d) // n))", "upcast", "floor instead of ceil of the shape"),
    ("M10", "recast.py", "return (s + C(k - 1)) // C(k), C(-(-int(d) // n))",
     "return (s + C(k - 1)) // C(k), C(int(d) // n)", "upcast", "floor instead of ceil of the stride"),
    ("M11", "recast.py", "(s * N, d) if isinstance(d, C) and d == 1 else (s, d * N)",
     "(s * N, d) if d == 1 else (s, d * N)", "downcast", "a dynamic stride 1 read as the unit mode"),
    ("M12", "recast.py", "    num, den = n // a, o // a", "    num, den = o // a, n // a",
     "recast_layout", "the ratio of the element widths inverted"),
    ("M13", "recast.py", "    N = int(bad[0]) if bad.size else stop",
     "    N = int(bad[0]) + 1 if bad.size else stop", "max_common_vector",
     "one element too many (the first mismatch counted)"),
    ("M14", "recast.py", "    bad = np.nonzero(a != np.arange(stop))[0]",
     "    bad = np.nonzero(a != a)[0]", "max_common_vector",
     "A never checked: the length of B's contiguous prefix"),
    ("M15", "recast.py", "    return coalesce(composition(R, Layout(C(N), C(1)), sense=\"cute\"))",
     "    return coalesce(R)", "max_common_layout", "right_inverse(B) not truncated to N"),
    ("M16", "recast.py", "picked = [k for k, d in enumerate(stride) if isinstance(d, C) and d == 0]",
     "picked = [k for k, d in enumerate(stride) if d == 0]", "nullspace",
     "dynamic zero strides taken as static"),
    ("M17", "recast.py", "    return Layout(tuple(shape[k] for k in picked), tuple(cm[k] for k in picked))",
     "    return Layout(tuple(shape[k] for k in picked), compact_col_major(tuple(shape[k] for k in picked)))",
     "nullspace", "strides compact over the picked modes, not over L's domain"),
    ("M18", "tiling.py", "        while j < len(ranked) and keys[ranked[j]] == keys[ranked[k]]:",
     "        while j < len(ranked) and j == k:", "make_ordered_layout",
     "tied orders laid out one after the other"),
    ("M19", "tiling.py", "    keys = [int(o) if isinstance(o, C) else top + 1 + k for k, o in enumerate(orders)]",
     "    keys = [int(o) for o in orders]", "make_ordered_layout",
     "dynamic orders sorted by value (not 'large, left to right')"),
    ("M20", "tiling.py", "    if isinstance(stride, C) and stride == 0:\n        return tuple(",
     "    if False:\n        return tuple(", "make_layout_like", "static zero strides not kept"),
    ("M21", "tiling.py", "    if all(isinstance(x, C) for x in tsz) and any(int(t) % int(b) for t, b in zip(tsz, bsz)):",
     "    if False:", "tile_to_shape", "no divisibility check (the block does not divide)"),
    ("M22", "tiling.py", "    hier = idx2crd(index, thr.shape, thr.stride)",
     "    hier = idx2crd(index, thr.shape)", "local_partition",
     "the thread's natural coordinate instead of the thread layout's inverse"),
    ("M23", "tiling.py", "def local_tile(L, tiler, coord):\n    return inner_partition(L, tiler, coord)",
     "def local_tile(L, tiler, coord):\n    return outer_partition(L, tiler, coord)", "local_tile",
     "outer partition (slices the tile instead of the rest)"),
    ("M24", "swizzle.py", "        wds = np.unique(words[p * per_phase:(p + 1) * per_phase].reshape(-1))",
     "        wds = words[p * per_phase:(p + 1) * per_phase].reshape(-1)", "bank_conflicts",
     "a broadcast word counted once per thread"),
    ("M25", "swizzle.py", "    per_phase = 32 // words_per", "    per_phase = 32", "bank_conflicts",
     "wide accesses served in one phase"),
    ("M26", "swizzle.py", "out.append(int(np.bincount(wds & 31, minlength=32).max()))",
     "out.append(int(np.bincount(wds & 15, minlength=32).max()))", "bank_conflicts", "16 banks"),
    ("M27", "swizzle.py", "        table = (mode[:, None] ^ table[None, :]).reshape(-1)",
     "        table = (mode[:, None] + table[None, :]).reshape(-1)", "f2_values",
     "F2 strides added with carries"),
    ("M28", "swizzle.py", "        d = (1 << start) | ((1 << z0) if k == y_field and width else 0)",
     "        d = 1 << start", "swizzle_as_f2", "the YYY field's F2 stride lacks its ZZZ partner"),
    ("M29", "swizzle.py", "    new = make_swizzle(crd2idx(y, L.shape, L.stride), crd2idx(z, L.shape, L.stride))\n    n = T.size(L.shape)\n    if n > _VALUES_LIMIT:",
     "    new = make_swizzle(crd2idx(z, L.shape, L.stride), crd2idx(y, L.shape, L.stride))\n    n = T.size(L.shape)\n    if n > _VALUES_LIMIT:",
     "layout_swizzle_composition", "make_swizzle<Y,Z> with the masks swapped"),
    ("M30", "swizzle.py", "    if not ok:\n        raise LayoutError(f\"right_inverse({Cl}): {R} is no right inverse\", condition=\"right_inverse\")",
     "    if False:\n        pass", "composed_right_inverse",
     "CuTe's construction returned without the right-inverse check"),
]

IMPL_DIR = Path(__file__).resolve().parent.parent / "impl"
OWN_SHARE = 0.1  # of a mutant's budget, for each check of the mutated op (fuzz_one)


def make_mutant(root, mutant):
    mid, fname, old, new = mutant[:4]
    name = f"lc_impl_{mid.lower()}"
    dst = Path(root) / name
    shutil.copytree(IMPL_DIR, dst, ignore=shutil.ignore_patterns("__pycache__"))
    if fname:
        path = dst / fname
        text = path.read_text()
        if text.count(old) != 1:
            raise SystemExit(f"mutant {mid}: the patched text occurs {text.count(old)} times in {fname}")
        path.write_text(text.replace(old, new))
    return name


def _oracle(module):
    o = PackageOracle("impl")
    o._module_name = module  # the mutant answers as impl would
    return o


def fuzz_one(module, budget, seed, op=None):
    """In this process: every check of swizzles, recast and tiling against the module until the first failure, the
    checks of the mutated op first (``op``: the table's operation column), then the rest."""
    oracle, spec = _oracle(module), get_oracle("spec")
    ref = reference_for("impl", spec)
    t0 = time.monotonic()
    per = max(0.2, budget / len(COMPOSED_CHECKS))  # the unpatched copy must reach every check
    # the mutated op's own checks (a few of the 59) get OWN_SHARE of the budget each, at least
    # an even share: with more checks an even share alone shrank below a second
    own = max(per, OWN_SHARE * budget)
    order = sorted(COMPOSED_CHECKS, key=lambda c: (c.op != op, c.kind != "differential"))
    for check in order:
        left = budget - (time.monotonic() - t0)
        if left <= 0:
            break
        row = run_check(check, oracle, ref, budget=min(own if check.op == op else per, left),
                        seed=seed)
        if row.get("status") in ("fail", "error") and not row.get("known_finding"):
            return {"check": check.name, "case": row.get("counterexample"),
                    "catch_s": round(time.monotonic() - t0, 1)}
    return {"check": None, "case": None, "catch_s": None}


def _baseline_passes(check_name, case):
    """The failing case on unpatched impl: True when it passes there."""
    rep = replay_cases([(check_name, "impl", case)], ["impl"])
    return not rep["summary"]["new_failures"]


def run_one(root, mutant, budget, seed):
    name = make_mutant(root, mutant)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    cmd = [sys.executable, "-m", "layoutcheck.fuzz.mutation.impl", "--one", name,
           "--budget", str(budget), "--seed", str(seed), "--op", mutant[4]]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=root)
    try:
        res = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        res = {"check": None, "case": None, "catch_s": None, "error": proc.stderr[-300:]}
    caught = bool(res["check"]) and _baseline_passes(res["check"], res["case"])
    return {"id": mutant[0], "op": mutant[4], "bug": mutant[5], "caught": caught,
            "check": res["check"], "case": " ".join(res["case"] or []) if res["case"] else None,
            "catch_s": res["catch_s"], "wall_s": round(time.monotonic() - t0, 1),
            "error": res.get("error")}


def table(rows):
    """The same markdown table as the pycute mutation test's."""
    return pycute_table(rows)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budget", type=float, default=30.0, help="seconds per mutant (default 30)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", default=None, help="comma-separated mutant ids")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument("--one", metavar="MODULE", help=argparse.SUPPRESS)  # the subprocess
    p.add_argument("--op", default=None, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.one:
        print(json.dumps(fuzz_one(a.one, a.budget, a.seed, a.op)))
        return 0
    chosen = [("M00", None, "", "", "-", "none (unpatched copy: must pass)")] + \
        [m for m in MUTANTS if not a.only or m[0] in a.only.split(",")]
    rows = []
    with tempfile.TemporaryDirectory(prefix="lc-composed-mutants-") as root:
        for m in chosen:
            r = run_one(root, m, a.budget, a.seed)
            rows.append(r)
            print(f"{r['id']}: {'caught' if r['caught'] else 'NOT caught'} ({r['catch_s']} s, "
                  f"{r['check']})", file=sys.stderr, flush=True)
    print(table(rows))
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    return 0 if not rows[0]["check"] else 1


if __name__ == "__main__":
    sys.exit(main())
