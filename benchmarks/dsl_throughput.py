"""Throughput of the cute-dsl oracle's runtime path: cases per second, and what the disk
cache of compiled packs saves.

    .venv/bin/python benchmarks/dsl_throughput.py [--runtime-cases 20000] [--static-cases 600]
        [--batch 256] [--cache DIR] [--json out.json]

- **runtime-integer cases** (every integer a runtime ``int``): cases drawn by the fuzzer's
  own strategies for the runtime path's ops.  A first pass compiles the structures of their
  nestings (cold, with the cache folder empty); the warm pass answers fresh cases of the
  same ops (new values, mostly known nestings), which is what a long campaign sees; the
  compiled pass runs the warm cases that did not crash again (every structure compiled: the
  compiled code's rate, without the two forks each crash costs).
- **all-static cases** (every integer ``_N``): every case a structure of its own, so every
  case costs its trace and a share of a pack's compile.
- **disk cache**: the cold pass again in a new oracle (a new worker process, nothing compiled
  in memory) with the cache folder the first oracle filled: structures loaded, not compiled.

``--cache`` (default: a fresh temporary folder) is ``$LAYOUTCHECK_CACHE`` for the run, so the
cold numbers do not depend on what earlier runs compiled.  Rates are per wall-clock second and
per CPU second of the oracle's worker and its forked children (``cpu_s``, from the worker's
rusage); on a shared machine the wall-clock rates move with the load (recorded with each
entry), the CPU-second rates much less.
"""

import argparse
import json
import os
import sys
import tempfile
import time

OPS = ("composition", "coalesce", "complement", "logical_divide", "logical_product",
       "left_inverse", "right_inverse", "size", "crd2idx", "slice_")


def _strategies(static):
    import layoutcheck.fuzz.strategies.algebra as S
    import layoutcheck.fuzz.strategies.coordinates as CS
    from hypothesis import strategies as st
    return {
        "composition": S.composable_pairs(static=static),
        "coalesce": st.tuples(S.layouts(static=static)),
        "complement": S.complement_args(static=static),
        "logical_divide": S.divide_args(static=static),
        "logical_product": S.product_args(static=static),
        "left_inverse": st.tuples(S.layouts(static=static, complementable=True)),
        "right_inverse": st.tuples(S.layouts(static=static)),
        "size": st.tuples(S.layouts(static=static)),
        "crd2idx": CS.crd2idx_args(),
        "slice_": CS.slice_args(),
    }


def draw(static, per_op, seed):
    """Cases of OPS whose integers are all static (static=True) or all runtime ints."""
    from layoutcheck.fuzz.campaign.batched import draw_cases
    from layoutcheck.oracles.cpp.cases import retype
    cases = []
    for k, (op, strat) in enumerate(_strategies(static).items()):
        cases += [(op, retype(tuple(a), static)) for a in draw_cases(strat, per_op, seed * 100 + k)]
    return cases


def _measure(oracle, cases, batch, answers=None):
    t0 = time.perf_counter()
    kinds = {}
    for i in range(0, len(cases), batch):
        outs = oracle.run_many(cases[i:i + batch])
        if answers is not None:
            answers += outs
        for out in outs:
            kinds[out.kind] = kinds.get(out.kind, 0) + 1
    wall = time.perf_counter() - t0
    return dict(cases=len(cases), wall_s=round(wall, 2), cases_per_s=round(len(cases) / wall, 1),
                outcomes=kinds)


def _delta(after, before, keys=("compiled", "from_disk", "rows", "cpu_s")):
    out = {k: round(after.get(k, 0) - before.get(k, 0), 2) for k in keys}
    out["cases_per_cpu_s"] = None
    return out


def _rate(row):
    """Cases per CPU second of the oracle's worker and its children."""
    if row.get("cpu_s"):
        row["cases_per_cpu_s"] = round(row["cases"] / row["cpu_s"], 1)
    return row


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runtime-cases", type=int, default=20000)
    p.add_argument("--static-cases", type=int, default=600)
    p.add_argument("--batch", type=int, default=256, help="cases per run_many (the campaign's: 256)")
    p.add_argument("--cache", default=None)
    p.add_argument("--json", default=None)
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="lc-dsl-bench-") as tmp:
        os.environ["LAYOUTCHECK_CACHE"] = a.cache or tmp
        from layoutcheck.oracles import get_oracle
        oracle = get_oracle("cute-dsl")
        why = oracle.unavailable_reason()
        if why:
            print(f"cute-dsl unavailable: {why}", file=sys.stderr)
            return 2
        out = dict(cpus=os.cpu_count(), load=os.getloadavg())
        per_op = max(1, a.runtime_cases // len(OPS))
        cold_cases = draw(False, per_op, seed=1)
        s0 = oracle.stats()
        out["runtime_cold"] = _measure(oracle, cold_cases, a.batch)
        s1 = oracle.stats()
        out["runtime_cold"].update(_delta(s1, s0))
        warm_cases, warm_answers = draw(False, per_op, seed=2), []
        out["runtime_warm"] = _measure(oracle, warm_cases, a.batch, warm_answers)
        s2 = oracle.stats()
        out["runtime_warm"].update(_delta(s2, s1))
        steady = [c for c, o in zip(warm_cases, warm_answers) if o.kind != "crashed"]
        out["runtime_compiled_no_crash"] = _measure(oracle, steady, a.batch)
        s3 = oracle.stats()
        out["runtime_compiled_no_crash"].update(_delta(s3, s2))
        s2 = s3
        if a.static_cases:
            static_cases = draw(True, max(1, a.static_cases // len(OPS)), seed=3)
            out["static_cold"] = _measure(oracle, static_cases, a.batch)
            out["static_cold"].update(_delta(oracle.stats(), s2))
        oracle.close()
        fresh = get_oracle("cute-dsl")  # a new worker: only the disk cache is warm
        out["runtime_cold_from_disk"] = _measure(fresh, cold_cases, a.batch)
        out["runtime_cold_from_disk"].update(_delta(fresh.stats(), {}))
        fresh.close()
    for row in out.values():
        if isinstance(row, dict):
            _rate(row)
    print(json.dumps(out, indent=1))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    from results import recording  # benchmarks/results.py: the entry in RESULTS.md
    with recording("CuTe DSL oracle throughput", versions=["nvidia-cutlass-dsl"], fmt="json"):
        sys.exit(main())
