"""Per-call cost of a ``module:`` oracle in its worker vs in-process.

    .venv/bin/python benchmarks/isolation_calls.py [--calls 2000] [--oracle pycute]

Prints microseconds per call for: in-process ``run``, worker ``run`` (one round trip per
call) and worker ``run_many`` (one batch), measured alternately in this process.
"""

import argparse
import time

from layoutcheck.layout import LayoutBase


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--oracle", default="pycute")
    args = ap.parse_args()
    from layoutcheck.oracles import get_oracle
    from layoutcheck.oracles.module.oracle import ModuleOracle
    module = "pycute" if args.oracle == "pycute" else args.oracle.split(":", 1)[1]
    inproc, worker = ModuleOracle(module, name=args.oracle), get_oracle(args.oracle)
    for o in (inproc, worker):
        assert o.unavailable_reason() is None, o.unavailable_reason()
    case = ("composition", (LayoutBase.parse("(6,2):(8,2)"), LayoutBase.parse("(4,3):(3,1)")))
    n = args.calls

    def per_call(fn):
        t0 = time.perf_counter()
        fn()
        return (time.perf_counter() - t0) / n * 1e6
    rows = {"in-process run": [], "worker run": [], "worker run_many": []}
    for _ in range(3):
        rows["in-process run"].append(per_call(lambda: [inproc.run(case[0], *case[1]) for _ in range(n)]))
        rows["worker run"].append(per_call(lambda: [worker.run(case[0], *case[1]) for _ in range(n)]))
        rows["worker run_many"].append(per_call(lambda: worker.run_many([case] * n)))
    base = min(rows["in-process run"])
    for k, v in rows.items():
        print(f"{k:16s} {min(v):8.1f} us/call  ({min(v) / base:.2f}x in-process)")


if __name__ == "__main__":
    from results import recording  # benchmarks/results.py: the entry in RESULTS.md
    with recording("Worker isolation", versions=["nvidia-cutlass"]):
        main()
