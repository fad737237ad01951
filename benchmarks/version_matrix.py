"""The version matrix in one process and on 1 and 2 local Dask workers (one version per unit),
recorded in benchmarks/RESULTS.md.

    .venv/bin/python benchmarks/version_matrix.py [--against pycute@3.3..4.2]
        [--clusters none,local:1,local:2] [--findings F-030,...]

Each configuration is one ``layoutcheck matrix --against ... --json FILE [--cluster C]`` in its
own process (as a user runs it), one after the other, on a warm cache (every release fetched and,
for cute-cpp, every kernel compiled once before: run it twice to measure the warm case).  Per
configuration: the wall time of the process, the seconds of each version (the units' own), the
sum of those (the work), the 1-minute load average before and after (a shared machine's other
load changes every number here), and whether the matrix is the same as the first configuration's
(it must be: the statuses do not depend on where a version ran).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from results import record

ROOT = Path(__file__).resolve().parent.parent


def _layoutcheck():
    exe = ROOT / ".venv" / "bin" / "layoutcheck"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "layoutcheck"]


def one(against, cluster, findings, tmp):
    out = Path(tmp) / f"m-{cluster or 'none'}.json"
    cmd = _layoutcheck() + ["matrix", "--against", against, "--json", str(out)]
    if cluster:
        cmd += ["--cluster", cluster]
    if findings:
        cmd += ["--findings", findings]
    load0 = os.getloadavg()[0]
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr[-500:]}")
    m = json.loads(out.read_text())
    statuses = {lineage: {f: e["statuses"] for f, e in t.items()} for lineage, t in m["findings"].items()}
    return {"cluster": cluster or "none", "wall_s": round(wall, 1),
            "work_s": round(sum(s or 0 for s in m["seconds"].values()), 1),
            "slowest_version_s": max(s or 0 for s in m["seconds"].values()),
            "load_before": round(load0, 1), "load_after": round(os.getloadavg()[0], 1)}, statuses


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", default="pycute@3.3..4.2")
    ap.add_argument("--clusters", default="none,local:1,local:2")
    ap.add_argument("--findings", default=None)
    a = ap.parse_args(argv)
    rows, first = [], None
    with tempfile.TemporaryDirectory() as tmp:
        for c in a.clusters.split(","):
            row, statuses = one(a.against, None if c == "none" else c, a.findings, tmp)
            first = first or statuses
            row["same_matrix"] = statuses == first
            rows.append(row)
            print(row, flush=True)
    text = (f"`layoutcheck matrix --against {a.against}`, warm cache, one configuration after the "
            "other:\n\n| cluster | wall s | work s (sum of versions) | slowest version s | load before | "
            "load after | same matrix |\n|---|---|---|---|---|---|---|\n"
            + "\n".join(f"| {r['cluster']} | {r['wall_s']} | {r['work_s']} | {r['slowest_version_s']} | "
                        f"{r['load_before']} | {r['load_after']} | {r['same_matrix']} |" for r in rows))
    print(text)
    record("Version matrix on a cluster", text, versions=["nvidia-cutlass", "nvidia-cutlass-dsl", "dask"],
           command=" ".join([Path(sys.argv[0]).name, *(argv if argv is not None else sys.argv[1:])]))
    return 0 if all(r["same_matrix"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
