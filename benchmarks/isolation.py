"""Throughput of ``module:`` oracles in their worker process vs in-process.

    .venv/bin/python benchmarks/isolation.py [--budget 30] [--seed 0] [--oracle pycute] [--rounds 1]

Runs ``layoutcheck fuzz --against ORACLE --budget B --seed S --no-db`` (as ``run_campaign``)
alternately with the worker (what the harness does) and with the adapter in this process
(``ModuleOracle`` directly, only for this measurement), and prints the cases of each run and
their ratio.  Alternating rounds in one process keeps the comparison fair on a shared machine.
"""

import argparse
import time


def campaign(oracle, budget, seed, isolated):
    import layoutcheck.oracles.module.oracle as pm
    from layoutcheck.fuzz.campaign.runner import run_campaign
    real = pm.isolated_module
    if not isolated:
        pm.isolated_module = lambda module, name=None, **kw: pm.ModuleOracle(module, name=name)
    try:
        t0 = time.monotonic()
        report = run_campaign(oracles=[oracle], budget=budget, seed=seed, use_db=False)
        return report["summary"]["cases"], time.monotonic() - t0, report["exit_status"]
    finally:
        pm.isolated_module = real


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=30.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--oracle", default="pycute")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    totals = {True: 0, False: 0}
    for r in range(args.rounds):
        for isolated in (False, True):
            cases, secs, status = campaign(args.oracle, args.budget, args.seed, isolated)
            totals[isolated] += cases
            print(f"round {r}: {'worker    ' if isolated else 'in-process'} {cases:7d} cases "
                  f"in {secs:6.1f} s (exit {status})", flush=True)
    ratio = totals[False] / totals[True] if totals[True] else float("inf")
    print(f"in-process / worker cases: {ratio:.2f}x")


if __name__ == "__main__":
    from results import recording  # benchmarks/results.py: the entry in RESULTS.md
    with recording("Worker isolation", versions=["nvidia-cutlass"]):
        main()
