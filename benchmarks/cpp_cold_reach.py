"""How many of the cute-cpp check pairs a budget run reaches with an empty kernel cache.

    .venv/bin/python benchmarks/cpp_cold_reach.py [--budgets 180,240,300] [--seed 7]
    .venv/bin/python benchmarks/cpp_cold_reach.py --reports B=r.json[,B=r.json ...] [--note TEXT]

For each budget B, ``layoutcheck fuzz --against cute-cpp --budget B --seed SEED --no-db`` runs in a
subprocess with ``LAYOUTCHECK_CACHE`` a new empty folder (a cold start: every kernel compiles,
as on a fresh CI machine; the folder is removed after).  The table gives the pairs reached (a
pair that judged at least one case, or failed) of all, the pairs the budget did not reach, the
cases judged, the exit status, the new failures and the known regions left unchecked, the wall
time and the load average (1 min) before and after.  The smallest budget that reaches every pair
is the one to give a budget-mode gate on a cold cache.  ``--reports`` records runs made earlier
with that same command (their ``--report`` files; wall time is then the campaign's own
``summary.seconds``, load unknown) instead of running them.
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

from results import record

SECTION = "CuTe C++ budget runs on a cold kernel cache"


def _load():
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def row(budget, report, wall, load0=None, load1=None):
    """A table row of one run's report (a dict; None: the run wrote none)."""
    results = (report or {}).get("results", [])
    s = (report or {}).get("summary", {})
    reached = sum(1 for r in results if r.get("cases") or r["status"] in ("fail", "error"))
    return {"budget (s)": budget, "pairs reached": f"{reached}/{len(results)}",
            "not reached": s.get("not_reached", "-"), "cases": s.get("cases", "-"),
            "exit": (report or {}).get("exit_status", "-"),
            "new failures": s.get("new_failures", "-"), "known unchecked": s.get("known_unchecked", "-"),
            "wall (s)": round(wall, 1) if wall is not None else "-",
            "load": "-" if load0 is None else f"{load0:.1f}..{load1:.1f}"}


def run(budget, seed):
    cache = tempfile.mkdtemp(prefix="lc-cold-")
    report = Path(cache) / "report.json"
    env = dict(os.environ, LAYOUTCHECK_CACHE=cache)
    cmd = [sys.executable, "-m", "layoutcheck", "fuzz", "--against", "cute-cpp", "--budget", str(budget),
           "--seed", str(seed), "--no-db", "--report", str(report)]
    load0, t = _load(), time.monotonic()
    try:
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall, load1 = time.monotonic() - t, _load()
        data = json.loads(report.read_text()) if report.exists() else None
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    return row(budget, data, wall, load0, load1)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budgets", default="180,240,300", help="comma-separated budgets (s)")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--reports", default=None, metavar="B=FILE,...",
                   help="record these earlier runs' reports instead of running")
    p.add_argument("--note", default=None, help="a line added to the entry")
    a = p.parse_args(argv)
    rows = []
    try:
        if a.reports:
            for item in a.reports.split(","):
                b, _, path = item.partition("=")
                data = json.loads(Path(path).read_text())
                rows.append(row(float(b), data, data.get("summary", {}).get("seconds")))
        else:
            for b in [float(x) for x in a.budgets.split(",")]:
                rows.append(run(b, a.seed))
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    except (OSError, ValueError) as e:
        print(f"cpp_cold_reach: {e}", file=sys.stderr)
        return 2
    header = list(rows[0]) if rows else []
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(r[k]) for k in header) + " |" for r in rows]
    full = [r for r in rows if r["not reached"] == 0]
    text = "\n".join(lines)
    if full:
        text += (f"\n\nSmallest budget measured that reached every pair: "
                 f"{min(r['budget (s)'] for r in full):g} s (seed {a.seed}).")
    if a.note:
        text += f"\n\n{a.note}"
    print(text)
    shown = [f"--budgets {a.budgets}", f"--seed {a.seed}"] if not a.reports else \
        ["--reports " + ",".join(f"{i.partition('=')[0]}={Path(i.partition('=')[2]).name}"
                                 for i in a.reports.split(","))]
    command = "benchmarks/cpp_cold_reach.py " + " ".join(shown)  # (the note is in the entry)
    record(SECTION, text, versions=["nvidia-cutlass"], command=command, tools=["g++"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
