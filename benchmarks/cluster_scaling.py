"""Cases per second of one fuzz campaign on 1 and 2 local Dask workers and on forked
processes, and what sharding costs (cluster start, merge).

    .venv/bin/python benchmarks/cluster_scaling.py [--clusters none,local:1,local:2,processes:2]
        [--against impl] [--ops coalesce,complement,composition,logical_divide,logical_product]
        [--budget 20 | --max-examples N] [--seed 0] [--json out.json] [--keep DIR]

Each configuration is one ``layoutcheck fuzz ... --no-db --cluster C --report FILE`` in its
own process (as a user runs it; ``none`` is the run in one process, no ``--cluster``), one
after the other.  Per configuration it prints: units, cases, the report's seconds (the
run, from the first unit submitted to the merged report), the process's wall time
(interpreter start and imports included), cases per second of the run, the cluster's
start time and the merge time (``report["cluster"]``: ``start_s``, ``merge_s``), and the
1-minute load average before and after (``os.getloadavg``), since a shared machine's other
load changes every number here; also the CPU seconds of the whole process tree (driver,
scheduler, workers, oracle processes: ``RUSAGE_CHILDREN``) and cases per CPU second, which
show a starved worker (CPU s well under workers x run s) apart from a slow one.  With ``--budget`` the cases differ between runs (a time
budget); with ``--max-examples`` the work is fixed per shard count and the wall time is
what to compare.  To measure a fixed copy of the code while the checkout changes, copy the
packages into one ``layoutcheck/`` folder and put it first: ``PYTHONPATH=SNAPSHOT`` (the
workers inherit it).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPS = "coalesce,complement,composition,logical_divide,logical_product"


def _layoutcheck():
    exe = ROOT / ".venv" / "bin" / "layoutcheck"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "layoutcheck"]


def run_one(cluster, a):
    with tempfile.TemporaryDirectory(prefix="lc-scaling-") as tmp:
        report = Path(tmp) / "r.json"
        argv = [*_layoutcheck(), "fuzz", "--against", a.against, "--ops", a.ops,
                "--seed", str(a.seed), "--no-db", "--report", str(report)]
        argv += ["--max-examples", str(a.max_examples)] if a.max_examples else \
            ["--budget", str(a.budget)]
        if cluster != "none":
            argv += ["--cluster", cluster]
        load0, ru0 = os.getloadavg()[0], resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        p = subprocess.run(argv, cwd=tmp, capture_output=True, text=True)
        wall = time.monotonic() - t0
        load1, ru1 = os.getloadavg()[0], resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)
        if not report.exists():
            raise SystemExit(f"{cluster}: exit {p.returncode}, no report\n{p.stderr[-2000:]}")
        rep = json.loads(report.read_text())
        if a.keep:
            Path(a.keep).mkdir(parents=True, exist_ok=True)
            (Path(a.keep) / f"{cluster.replace(':', '_')}.json").write_text(report.read_text())
    s, c = rep["summary"], rep.get("cluster") or {}
    return dict(cluster=cluster, exit=p.returncode, units=c.get("units", 1),
                workers=c.get("workers", 1), cases=s["cases"], run_s=s["seconds"],
                wall_s=round(wall, 2), cases_per_s=round(s["cases"] / s["seconds"], 1),
                cpu_s=round(cpu, 1), cases_per_cpu_s=round(s["cases"] / cpu, 1) if cpu else None,
                start_s=c.get("start_s"), merge_s=c.get("merge_s"),
                not_reached=s.get("not_reached", 0), load_before=round(load0, 2),
                load_after=round(load1, 2))


def code_state():
    """The commit and a hash of the uncommitted changes: the code that was measured."""
    import hashlib
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip()
        diff = subprocess.run(["git", "diff", "HEAD"], cwd=ROOT, capture_output=True).stdout
    except OSError:
        return "unknown (no git)"
    return head + (f"+{hashlib.sha1(diff).hexdigest()[:8]}" if diff else "")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clusters", default="none,local:1,local:2,processes:2")
    p.add_argument("--against", default="impl")
    p.add_argument("--ops", default=OPS)
    p.add_argument("--budget", type=float, default=20.0)
    p.add_argument("--max-examples", type=int, default=None)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", default=None, help="also write the rows here")
    p.add_argument("--keep", default=None, metavar="DIR", help="keep each run's report here")
    a = p.parse_args(argv)
    rows = []
    print(f"code {code_state()}, {os.cpu_count()} CPUs, --against {a.against} --ops {a.ops} "
          + (f"--max-examples {a.max_examples}" if a.max_examples else f"--budget {a.budget:g}")
          + f" --seed {a.seed}"
          + (f", PYTHONPATH={os.environ['PYTHONPATH']}" if os.environ.get("PYTHONPATH") else ""))
    print("| cluster | units | cases | run s | wall s | cases/s | CPU s | cases/CPU s | start s | "
          "merge s | load 1-min before/after |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for cluster in a.clusters.split(","):
        r = run_one(cluster.strip(), a)
        r["code"] = code_state()
        rows.append(r)
        print(f"| {r['cluster']} | {r['units']} | {r['cases']} | {r['run_s']} | {r['wall_s']} | "
              f"{r['cases_per_s']} | {r['cpu_s']} | {r['cases_per_cpu_s']} | "
              f"{r['start_s'] if r['start_s'] is not None else '-'} | "
              f"{r['merge_s'] if r['merge_s'] is not None else '-'} | "
              f"{r['load_before']} / {r['load_after']} |", flush=True)
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    from results import recording  # benchmarks/results.py: the entry in RESULTS.md
    with recording("Cluster scaling", versions=["dask", "distributed"], fmt="markdown"):
        sys.exit(main())
