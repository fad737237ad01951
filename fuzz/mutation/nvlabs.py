"""Mutation test of the gate on NVIDIA's new PyCuTe: does ``layoutcheck fuzz --baseline`` catch a
bug in an upgraded PyCuTe that it has never seen?

Each mutant is a one-place source patch of NVlabs PyCuTe (the checkout ``--nvlabs PATH`` or
``$LAYOUTCHECK_NVLABS_PATH`` names): the package is copied into a folder of its own and patched
there, and ``layoutcheck fuzz --against nvlabs:FOLDER --baseline nvlabs --budget 20 --seed 1
--fail-fast`` runs in a subprocess: every check, the mutant judged against the spec and compared
case by case with the unpatched checkout (``fuzz/campaign/baseline.py``).  A mutant is *caught*
when the run exits 1: a regression or a change against the baseline, attributable to the patch
by construction (the baseline is the same code without it).  ``N00`` is the unpatched copy: it
must come out clean (exit 0), its failures all known.

    python -m layoutcheck.fuzz.mutation.nvlabs [--budget 20] [--seed 1] [--only N01,N07] [--json FILE]

prints a markdown table: mutant, operation, injected bug, caught, time to catch, the failing check
and the counterexample.
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

from layoutcheck.oracles.nvlabs.oracle import ENV_VAR, locate

__all__ = ["MUTANTS", "make_mutant", "run_one", "table", "main"]

# (id, file, original text, patched text, operation, injected bug); each original text occurs
# exactly once in its file
MUTANTS = [
    ("N01", "layout.py", "    if len(new_s) > 1 and new_s[-1] == 1:", "    if len(new_s) > 1 and new_s[-1] == 0:",
     "coalesce", "a trailing size-1 mode is kept"),
    ("N02", "layout.py", "      return Layout._set(1, 0)\n    if len(new_s) > 1 and new_s[-1] == 1:",
     "      return Layout._set(1, 1)\n    if len(new_s) > 1 and new_s[-1] == 1:",
     "coalesce", "an empty result is 1:1 instead of 1:0"),
    ("N03", "layout.py", "    if B.stride == 0:       # Special case stride-0, A o N:0 => N:0\n"
     "      return Layout._set(B.shape, 0)",
     "    if B.stride == 0:       # Special case stride-0, A o N:0 => N:0\n      return Layout._set(B.shape, 1)",
     "composition", "A o N:0 gets stride 1"),
    ("N04", "layout.py", "      return Layout._set(B.shape, A(B.stride))", "      return Layout._set(B.shape, B.stride)",
     "composition", "A o 1:M is 1:M instead of 1:A(M)"),
    ("N05", "layout.py", "      result_d[0] *= strideB\n", "      result_d[0] *= 1\n",
     "composition", "the head mode's stride is not scaled by what is left of B's stride"),
    ("N06", "layout.py", "        if rDS != 0:\n          break", "        if rDS > 1:\n          break",
     "composition", "a mode is stepped past on a remainder of 1"),
    ("N07", "layout.py", "        elif qSD < B.shape - 1:", "        elif qSD < B.shape - 2:",
     "composition", "the stride divisibility check lets one more case through"),
    ("N08", "layout.py", "    A = self._coalesce_z(coprofile(B))", "    A = self",
     "composition", "A is not coalesced before the walk"),
    ("N09", "layout.py", "        if de == 0 or s == 1:               # Carries no positional information",
     "        if de == 0:                         # Carries no positional information",
     "right_inverse", "size-1 modes are not skipped"),
    ("N10", "layout.py", "        curr_d = s * curr_d", "        curr_d = s + curr_d",
     "right_inverse", "the running extent is added, not multiplied"),
    ("N11", "layout.py", "      if gap < result_s[-1]:", "      if gap < result_s[-1] - 1:",
     "left_inverse", "the injectivity check is off by one"),
    ("N12", "layout.py", "      result_d.append(pps)", "      result_d.append(s)",
     "left_inverse", "the stride is the mode's size, not its prefix product"),
    ("N13", "layout.py", "      result_d.append(d * s)", "      result_d.append(d)",
     "complement", "the running extent is the stride, not stride times size"),
    ("N14", "layout.py", "      if d == 0 or s == 1:\n        continue\n      # The injectivity",
     "      if d == 0:\n        continue\n      # The injectivity", "complement", "size-1 modes are not skipped"),
    ("N15", "layout.py", "          shapeR[i] = (s + sizeC - 1) // sizeC", "          shapeR[i] = s // sizeC",
     "complement", "the extension rounds down instead of up"),
    ("N16", "layout.py", "                       unwrap(tuple(pshape[i] for i in iseq)))",
     "                       unwrap(tuple(fshape[i] for i in iseq)))", "nullspace",
     "the nullspace's strides are the shapes, not their prefix products"),
    ("N17", "algebra.py", "    return make_layout([A, composition(complement(A), B)])",
     "    return make_layout([A, B])", "logical_product", "B is not composed with A's complement"),
    ("N18", "algebra.py", "    return composition(A, make_layout([B, complement(B, extend=shape(A))]))",
     "    return composition(A, make_layout([B, complement(B)]))", "logical_divide",
     "the complement is not extended to A's shape"),
    ("N19", "shape.py", "          idx,rem = divmod(idx,s)        # (idx // s, idx % s)",
     "          idx,rem = divmod(idx,s+1)      # (idx // s, idx % s)", "idx2crd",
     "divides by one more than each extent"),
    ("N20", "stride.py", "          and (s_a - 1) * d_a + d_b == (2 * s_a - 1) * d_a\n",
     "", "coalesce", "the second linearity test is dropped"),
]


def make_mutant(root, mutant, source):
    """Copy the package at ``source`` into ``root/<id>/pycute`` and apply the patch; the folder."""
    mid, fname, old, new = mutant[:4]
    dst = Path(root) / mid.lower()
    shutil.copytree(source, dst / "pycute", ignore=shutil.ignore_patterns("__pycache__"))
    if fname:
        path = dst / "pycute" / fname
        text = path.read_text()
        if text.count(old) != 1:
            raise SystemExit(f"mutant {mid}: the patched text occurs {text.count(old)} times in {fname}")
        path.write_text(text.replace(old, new))
    return dst


def run_one(root, mutant, source, budget, seed):
    folder = make_mutant(root, mutant, source)
    report = Path(root) / f"{mutant[0]}.json"
    env = dict(os.environ, **{ENV_VAR: str(Path(source).parent)})
    cmd = [sys.executable, "-m", "layoutcheck", "fuzz", "--against", f"nvlabs:{folder}", "--baseline",
           "nvlabs", "--budget", str(budget), "--seed", str(seed), "--no-db", "--fail-fast",
           "--report", str(report)]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=root)
    try:
        rep = json.loads(report.read_text())
    except (OSError, ValueError):
        rep = {}
    first = next((r for r in rep.get("results", []) if r["status"] in ("fail", "error")
                  and not r["known_finding"]), None)
    return {"id": mutant[0], "op": mutant[4], "bug": mutant[5], "exit": proc.returncode,
            "caught": proc.returncode == 1, "wall_s": round(time.monotonic() - t0, 1),
            "catch_s": rep.get("summary", {}).get("first_failure_s"),
            "check": first["check"] if first else None,
            "verdict": ((first or {}).get("baseline") or {}).get("verdict"),
            "case": " ".join(first["counterexample"] or []) if first else None,
            "stderr": proc.stderr.strip().splitlines()[-1:] if proc.returncode == 2 else []}


def table(rows):
    out = ["| mutant | operation | injected bug | caught | time to catch (s) | check | counterexample |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        caught = ("yes" + (f" ({r['verdict']})" if r.get("verdict") else "") if r["caught"] else
                  "error" if r["exit"] == 2 else "no")
        case = f"`{r['case']}`" if r["case"] else "-"
        out.append(f"| {r['id']} | {r['op']} | {r['bug']} | {caught} | "
                   f"{r['catch_s'] if r['catch_s'] is not None else '-'} | {r['check'] or '-'} | {case} |")
    mutants = [r for r in rows if r["id"] != "N00"]
    n = sum(r["caught"] for r in mutants)
    out += ["", f"caught {n}/{len(mutants)} mutants ({100 * n / max(1, len(mutants)):.0f}%)"]
    return "\n".join(out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nvlabs", metavar="PATH", default=None,
                   help=f"the NVlabs PyCuTe checkout (default ${ENV_VAR})")
    p.add_argument("--budget", type=float, default=20.0, help="seconds per mutant (default 20)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", default=None, help="comma-separated mutant ids")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    a = p.parse_args(argv)
    source, how = locate(a.nvlabs)
    if source is None:
        print(f"nvlabs mutation table: {how}", file=sys.stderr)
        return 2
    chosen = [("N00", None, "", "", "-", "none (unpatched copy: must pass)")]
    chosen += [m for m in MUTANTS if not a.only or m[0] in a.only.split(",")]
    rows = []
    with tempfile.TemporaryDirectory(prefix="lc-nvlabs-mutants-") as root:
        for m in chosen:
            r = run_one(root, m, source, a.budget, a.seed)
            rows.append(r)
            print(f"{r['id']}: {'caught' if r['caught'] else 'NOT caught'} (exit {r['exit']}, "
                  f"{r['catch_s']} s, {r['check']}) {' '.join(r['stderr'])}", file=sys.stderr, flush=True)
    print(table(rows))
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
