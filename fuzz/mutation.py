"""Mutation test of the harness: does ``layoutcheck fuzz`` catch realistic bugs it has never seen?

Each mutant is a one-place source patch of pycute (from the installed ``nvidia-cutlass``
wheel): the package is copied into a temporary directory as ``pycute_mNN``, the patch is
applied, and ``layoutcheck fuzz --against module:pycute_mNN --budget B --fail-fast`` runs in
a subprocess with that directory on ``PYTHONPATH``.  A mutant is *caught* when the run
exits 1 (a new failure) on a counterexample that unpatched pycute passes; the time to catch is
the campaign's time to its first new failure.
``pycute_m00`` is the unpatched copy: it must come out clean (known findings F-070..F-077
match any oracle named ``*pycute*``), otherwise every mutant would look caught.

    python -m layoutcheck.fuzz.mutation --budget 15 [--only M01,M07] [--jobs 1]

prints a markdown table (mutant, operation, bug, caught, time to catch, failing check).
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

# (id, file, old text, new text, operation, the bug in words)
MUTANTS = [
    ("M01", "layout.py", "elif result_shape[-1] * result_stride[-1] == stride:",
     "elif result_stride[-1] * shape == stride:", "coalesce", "wrong merge condition (s_{i+1} d_i == d_{i+1})"),
    ("M02", "layout.py", "    # skip their shape-1s\n    if shape == 1:\n      continue",
     "    # skip their shape-1s\n    if shape == 0:\n      continue", "coalesce", "size-1 modes not skipped"),
    ("M03", "layout.py", "      result_shape[-1] = result_shape[-1] * shape\n",
     "      result_shape[-1] = result_shape[-1] * shape\n      result_stride[-1] = stride\n",
     "coalesce", "merge overwrites the stride"),
    ("M04", "layout.py", "  result_shape  = [1]\n  result_stride = [0]\n  for (shape,stride) in zip(flatten(layout.shape),flatten(layout.stride)):\n    # skip their shape-1s",
     "  result_shape  = [1]\n  result_stride = [1]\n  for (shape,stride) in zip(flatten(layout.shape),flatten(layout.stride)):\n    # skip their shape-1s",
     "coalesce", "size-1 result gets stride 1 instead of 0"),
    ("M05", "layout.py", "    elif result_shape[-1] == 1:\n      result_shape[-1]  = shape\n      result_stride[-1] = stride",
     "    elif result_shape[-1] == 1 and len(result_shape) > 1:\n      result_shape[-1]  = shape\n      result_stride[-1] = stride",
     "coalesce", "leading size-1 placeholder not replaced"),
    ("M06", "layout.py", "    if not (shape == 1 or stride == 0):", "    if not (shape == 1):",
     "filter", "stride-0 modes kept"),
    ("M07", "layout.py", "  if len(result_shape) == 0:\n    return Layout(1,0)",
     "  if len(result_shape) == 0:\n    return Layout(1,1)", "filter", "empty result 1:1 instead of 1:0"),
    ("M08", "layout.py", "assert curr_shape % rest_stride == 0 or rest_stride % curr_shape == 0",
     "assert curr_shape % rest_stride == 0", "composition", "divisibility test too strict (one direction)"),
    ("M09", "layout.py", "new_shape = min(max(1, curr_shape // rest_stride), rest_shape)",
     "new_shape = min(curr_shape // rest_stride, rest_shape)", "composition", "missing max(1, ...) clamp"),
    ("M10", "layout.py", "rest_stride = -(-rest_stride // curr_shape)",
     "rest_stride = rest_stride // curr_shape", "composition", "floor instead of ceil division of the stride"),
    ("M11", "layout.py", "result_stride.append(rest_stride * curr_stride)",
     "result_stride.append(curr_stride)", "composition", "result stride not scaled by the rest stride"),
    ("M12", "layout.py", "result_stride.append(rest_stride * flatten(flat_A.stride)[-1])",
     "result_stride.append(rest_stride)", "composition", "last mode's stride ignores A's last stride"),
    ("M13", "layout.py", "    flat_A = coalesce(layoutA)", "    flat_A = layoutA",
     "composition", "A not coalesced first"),
    ("M14", "layout.py", "  if layoutB.stride == 0:\n    return Layout(layoutB.shape, 0)",
     "  if layoutB.shape == 1:\n    return Layout(layoutB.shape, 0)", "composition",
     "wrong special case (shape 1 instead of stride 0)"),
    ("M15", "layout.py",
     "    return make_layout(chain((composition(layoutA[i], layoutB[i]) for i in range(           0,len(layoutB))),\n                             (layoutA[i]                          for i in range(len(layoutB),len(layoutA)))))",
     "    return make_layout(chain((composition(layoutA[i], layoutB[i]) for i in range(           0,len(layoutB))),))",
     "composition", "by-mode composition drops A's untiled modes"),
    ("M16", "layout.py", "result_shape.append((max_idx + current_idx - 1) // current_idx)  # ceil_div",
     "result_shape.append(max_idx // current_idx)", "complement", "floor instead of ceil for the last mode"),
    ("M17", "layout.py", "result_shape.append((max_idx + current_idx - 1) // current_idx)  # ceil_div",
     "result_shape.append((max_idx + current_idx) // current_idx)", "complement", "off-by-one in the ceil"),
    ("M18", "layout.py", "    result_stride.append(current_idx)\n    current_idx = shape * stride",
     "    result_stride.append(current_idx)\n    current_idx = stride", "complement",
     "next index is d_i, not s_i d_i"),
    ("M19", "layout.py", "    result_shape.append(stride // current_idx)",
     "    result_shape.append((stride + current_idx - 1) // current_idx)", "complement",
     "ceil instead of exact division (equivalent on complementable input)"),
    ("M20", "layout.py", "sorted_DS = sorted(zip(flatten(layout.stride), flatten(layout.shape)))",
     "sorted_DS = list(zip(flatten(layout.stride), flatten(layout.shape)))", "complement",
     "modes not sorted by stride"),
    ("M21", "layout.py", "    if stride == 0 or shape == 1:\n      continue",
     "    if stride == 0:\n      continue", "complement", "size-1 modes not skipped"),
    ("M22", "layout.py", "  return coalesce(Layout(tuple(result_shape), tuple(result_stride)))\n\n\n# Layout right inverse",
     "  return Layout(tuple(result_shape), tuple(result_stride))\n\n\n# Layout right inverse",
     "complement", "result not coalesced (same function)"),
    ("M23", "layout.py", "    if current_idx != stride:\n      break",
     "    if current_idx > stride:\n      break", "right_inverse", "wrong stop condition (> instead of !=)"),
    ("M24", "layout.py", "    result_stride.append(rstride)", "    result_stride.append(stride)",
     "right_inverse", "uses the stride instead of the index prefix product"),
    ("M25", "int_tuple.py", "        r.append(prefix_product(v,init))\n        init = init * product(v)",
     "        init = init * product(v)\n        r.append(prefix_product(v,init))", "prefix_product",
     "inclusive instead of exclusive prefix product"),
    ("M26", "layout.py", "    if shape == 1:\n      continue\n    if current_idx != stride:",
     "    if current_idx != stride:", "right_inverse", "size-1 modes not skipped"),
    ("M27", "layout.py", "  return right_inverse(make_layout(layout, complement(layout)))",
     "  return right_inverse(layout)", "left_inverse", "complement not appended"),
    ("M28", "layout.py", "  return right_inverse(make_layout(layout, complement(layout)))",
     "  return right_inverse(make_layout(complement(layout), layout))", "left_inverse",
     "complement prepended instead of appended"),
    ("M29", "layout.py", "  return composition(layoutA, make_layout(layoutB, complement(layoutB, size(layoutA))))",
     "  return composition(layoutA, make_layout(layoutB, complement(layoutB, cosize(layoutA))))",
     "logical_divide", "complement up to cosize(A) instead of size(A)"),
    ("M30", "layout.py", "  return composition(layoutA, make_layout(layoutB, complement(layoutB, size(layoutA))))",
     "  return composition(layoutA, make_layout(complement(layoutB, size(layoutA)), layoutB))",
     "logical_divide", "tile and rest modes swapped"),
    ("M31", "layout.py", "complement(layoutA, size(layoutA)*cosize(layoutB))",
     "complement(layoutA, size(layoutA)*size(layoutB))", "logical_product",
     "complement bound uses size(B) instead of cosize(B)"),
    ("M32", "layout.py", "  return make_layout(layoutA, composition(complement(layoutA, size(layoutA)*cosize(layoutB)), layoutB));",
     "  return make_layout(composition(complement(layoutA, size(layoutA)*cosize(layoutB)), layoutB), layoutA);",
     "logical_product", "modes in the wrong order"),
    ("M33", "layout.py", "    return self(self.size() - 1) + 1", "    return self(self.size() - 1)",
     "cosize", "cosize off by one"),
    ("M34", "int_tuple.py",
     "      for i in range(len(shape)-1):\n        result += crd2idx(crd % product(shape[i]), shape[i], stride[i])\n        crd = crd // product(shape[i])\n      return result + crd2idx(crd, shape[-1], stride[-1])",
     "      for i in range(len(shape)-1, 0, -1):\n        result += crd2idx(crd % product(shape[i]), shape[i], stride[i])\n        crd = crd // product(shape[i])\n      return result + crd2idx(crd, shape[0], stride[0])",
     "evaluation", "index to coordinate in row-major instead of column-major order"),
    ("M35", "int_tuple.py", "    return reduce(lambda val,elem : val*product(elem), a, 1)",
     "    return reduce(lambda val,elem : val*(elem if is_int(elem) else 1), a, 1)", "size",
     "product not recursive (nested modes count as 1)"),
    ("M36", "int_tuple.py", "      return tuple(i for a in t for i in flatten(a))",
     "      return tuple(i for a in t for i in (a if is_tuple(a) else (a,)))", "flatten",
     "flattens one level only"),
    ("M37", "layout.py", "  return make_layout([result[0]] + [result[1][i] for i in range(len(result[1]))])\n\n\n# Apply logical product",
     "  return make_layout([result[0]] + [result[1][i] for i in range(len(result[1]) - 1)])\n\n\n# Apply logical product",
     "tiled_divide", "off-by-one drops the last rest mode"),
    ("M38", "layout.py", "    return make_layout(composition(layoutA, layoutB_i) for layoutB_i in layoutB)",
     "    return composition(layoutA, coalesce(layoutB))", "composition",
     "B's modes merged (same function, mode structure lost)"),
    ("M39", "layout.py", "  elif is_int(layoutB):\n    return logical_divide(layoutA, Layout(layoutB))\n  elif is_tuple(layoutB):\n    assert len(layoutA) >= len(layoutB)\n    return make_layout(chain((logical_divide(",
     "  elif is_int(layoutB):\n    return logical_divide(layoutA, Layout(layoutB, 2))\n  elif is_tuple(layoutB):\n    assert len(layoutA) >= len(layoutB)\n    return make_layout(chain((logical_divide(",
     "logical_divide", "int tiler n read as n:2"),
    ("M40", "layout.py", "    in_bound = current_idx <= shape * stride",
     "    in_bound = current_idx < shape * stride", "complement",
     "bound check off by one (only rejects non-complementable input: equivalent at the gate)"),
]


def _pycute_dir():
    import pycute
    return Path(pycute.__file__).parent


def make_mutant(root, mutant):
    """Copy pycute into root/pycute_<id> and apply the patch; return the package name."""
    mid, fname, old, new = mutant[:4]
    name = f"pycute_{mid.lower()}"
    dst = Path(root) / name
    shutil.copytree(_pycute_dir(), dst, ignore=shutil.ignore_patterns("__pycache__"))
    if fname:
        path = dst / fname
        text = path.read_text()
        count = text.count(old)
        if count != 1:
            raise SystemExit(f"mutant {mid}: the patched text occurs {count} times in {fname}")
        path.write_text(text.replace(old, new))
    return name


def run_one(root, mutant, budget, seed, extra=()):
    name = make_mutant(root, mutant)
    report = Path(root) / f"{name}.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    cmd = [sys.executable, "-m", "layoutcheck", "fuzz", "--against", f"module:{name}",
           "--budget", str(budget), "--seed", str(seed), "--no-db", "--fail-fast",
           "--report", str(report), *extra]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=root)
    wall = time.monotonic() - t0
    try:
        rep = json.loads(report.read_text())
    except (OSError, ValueError):
        rep = None
    first = next((r for r in (rep or {}).get("results", [])
                  if r["status"] in ("fail", "error") and not r["known_finding"]), None)
    attributable = True
    if first and first["counterexample"]:  # the same case must pass on unpatched pycute
        from layoutcheck.fuzz.campaign import replay_cases
        base = replay_cases([(first["check"], "pycute", first["counterexample"])], ["pycute"])
        attributable = base["summary"]["new_failures"] == 0
    return {"id": mutant[0], "op": mutant[4], "bug": mutant[5], "exit": proc.returncode,
            "caught": proc.returncode == 1 and attributable, "baseline_fails": not attributable,
            "wall_s": round(wall, 1),
            "catch_s": (rep or {}).get("summary", {}).get("first_failure_s"),
            "check": first["check"] if first else None,
            "case": " ".join(first["counterexample"] or []) if first else None,
            "stderr": proc.stderr.strip().splitlines()[-1:] if proc.returncode == 2 else []}


def table(rows):
    out = ["| mutant | operation | injected bug | caught | time to catch (s) | check | counterexample |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        caught = "yes" if r["caught"] else ("error" if r["exit"] == 2 else
                                            "no (case fails on pycute too)" if r.get("baseline_fails")
                                            else "no")
        out.append(f"| {r['id']} | {r['op']} | {r['bug']} | {caught} | "
                   f"{r['catch_s'] if r['catch_s'] is not None else '-'} | {r['check'] or '-'} | "
                   f"`{r['case']}` |" if r["case"] else
                   f"| {r['id']} | {r['op']} | {r['bug']} | {caught} | - | - | - |")
    mutants = [r for r in rows if r["id"] != "M00"]
    n = sum(r["caught"] for r in mutants)
    out.append("")
    out.append(f"caught {n}/{len(mutants)} mutants ({100 * n / max(1, len(mutants)):.0f}%)")
    return "\n".join(out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budget", type=float, default=15.0, help="seconds per mutant (default 15)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--only", default=None, help="comma-separated mutant ids")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    p.add_argument("--no-baseline", action="store_true", help="skip the unpatched copy M00")
    a = p.parse_args(argv)
    chosen = [m for m in MUTANTS if not a.only or m[0] in a.only.split(",")]
    if not a.no_baseline:
        chosen = [("M00", None, "", "", "-", "none (unpatched copy: must pass)")] + chosen
    rows = []
    with tempfile.TemporaryDirectory(prefix="lc-mutants-") as root:
        for m in chosen:
            r = run_one(root, m, a.budget, a.seed)
            rows.append(r)
            print(f"{r['id']}: {'caught' if r['caught'] else 'NOT caught'} "
                  f"(exit {r['exit']}, {r['catch_s']} s, {r['check']}) {' '.join(r['stderr'])}",
                  file=sys.stderr, flush=True)
    print(table(rows))
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
