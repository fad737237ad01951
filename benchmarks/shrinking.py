"""How the gate shrinks its failures: a fuzz run's failures, first case against minimal case.

    .venv/bin/python benchmarks/shrinking.py LABEL -- layoutcheck fuzz ARG...   (adds --report)
    .venv/bin/python benchmarks/shrinking.py LABEL --report FILE                 (a saved report)

For example, CuTe C++ 3.8 with the register, and 4.2 with the register switched off:

    .venv/bin/python benchmarks/shrinking.py "cute-cpp 3.8" -- .venv/bin/layoutcheck fuzz \\
        --against cute-cpp --cute-include CUTLASS_3.8/include --budget 300 --seed 7 --no-db
    .venv/bin/python benchmarks/shrinking.py "cute-cpp 4.2, no register" -- .venv/bin/layoutcheck \\
        fuzz --against cute-cpp --budget 300 --seed 7 --no-db --no-findings

Records under "Shrinking" in benchmarks/RESULTS.md: how many failures the run reported (new
and known), how many shrank (the minimal case differs from the first), how many reached a local
minimum and how many a bound cut, the median size of the first and of the minimal case (modes;
largest integer), and the seconds and compiles shrinking cost (total and median per failure);
then one line per failure, first case -> minimal case.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

from results import record

from layoutcheck.fuzz.campaign.shrink import size_of
from layoutcheck.fuzz.checks.targets import decode


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def _fmt(x):
    if x is None:
        return "-"
    return f"{x:g}" if isinstance(x, float) else str(x)


def summarise(report, label, wall=None):
    """(summary row, per-failure rows) of a fuzz report."""
    rows = [r for r in report["results"] if r["status"] in ("fail", "error") and r["counterexample"]]
    per, before, after = [], [], []
    for r in rows:
        minimal = decode(r["counterexample"])
        first = decode(r.get("first_counterexample") or r["counterexample"])
        b, a = size_of(first), size_of(minimal)
        before.append(b)
        after.append(a)
        how = r.get("shrink") or {}
        per.append({"check": r["check"], "finding": r.get("known_finding") or "new",
                    "first": " ".join(r.get("first_counterexample") or r["counterexample"]),
                    "minimal": " ".join(r["counterexample"]), "steps": how.get("steps"),
                    "candidates": how.get("candidates"), "s": how.get("seconds"),
                    "compiles": how.get("compiles"), "cut": how.get("cut") or "-"})
    shrunk = [r for r in rows if r.get("first_counterexample")
              and r["first_counterexample"] != r["counterexample"]]
    cut = [r for r in rows if (r.get("shrink") or {}).get("cut")]
    unshrunk = [r for r in rows if not r.get("shrink")]
    secs = [(r.get("shrink") or {}).get("seconds") for r in rows]
    comps = [(r.get("shrink") or {}).get("compiles") for r in rows]
    summary = {
        "run": label, "failures": len(rows),
        "new/known": f"{sum(1 for r in rows if not r.get('known_finding'))}/"
                     f"{sum(1 for r in rows if r.get('known_finding'))}",
        "shrank": len(shrunk), "local minimum": len(rows) - len(cut) - len(unshrunk),
        "cut by a bound": len(cut),
        "modes (median) first -> minimal": f"{_fmt(_median([b['modes'] for b in before]))} -> "
                                           f"{_fmt(_median([a['modes'] for a in after]))}",
        "largest integer (median)": f"{_fmt(_median([b['largest'] for b in before]))} -> "
                                    f"{_fmt(_median([a['largest'] for a in after]))}",
        "shrink s (total; median)": f"{sum(s or 0 for s in secs):.1f}; {_fmt(_median(secs))}",
        "compiles (total; median)": f"{sum(c or 0 for c in comps)}; {_fmt(_median(comps))}",
        "run s": _fmt(round(wall, 1)) if wall is not None else _fmt(report["summary"].get("seconds")),
    }
    return summary, per


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    command = []
    if "--" in argv:
        k = argv.index("--")
        argv, command = argv[:k], argv[k + 1:]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("label")
    ap.add_argument("--report", help="a saved fuzz --report instead of a command")
    ap.add_argument("--keep", metavar="FILE", help="also save the command's report here")
    a = ap.parse_args(argv)
    if bool(command) == bool(a.report):
        ap.error("give a command after --, or --report FILE")
    wall = None
    if command:
        fd, path = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        t0 = time.monotonic()
        rc = subprocess.run(command + ["--report", path]).returncode
        wall = time.monotonic() - t0
        try:
            with open(path) as f:
                report = json.load(f)
            if a.keep:
                with open(a.keep, "w") as f:
                    json.dump(report, f, indent=1)
        except (OSError, ValueError):
            print(f"the command exited {rc} and wrote no report", file=sys.stderr)
            return 2
        finally:
            os.unlink(path)
    else:
        with open(a.report) as f:
            report = json.load(f)
    summary, per = summarise(report, a.label, wall)
    shown = re.sub(r" --report \S+", "", report.get("command") or " ".join(command))
    text = ["`" + shown + "`", "",
            "| " + " | ".join(summary) + " |", "|" + "---|" * len(summary),
            "| " + " | ".join(str(v) for v in summary.values()) + " |", ""]
    if per:
        cols = list(per[0])
        text += ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
        text += ["| " + " | ".join(f"`{v}`" if c in ("first", "minimal") else _fmt(v)
                                   for c, v in row.items()) + " |" for row in per]
    out = "\n".join(text)
    print(out)
    record("Shrinking", out, versions=["hypothesis"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
