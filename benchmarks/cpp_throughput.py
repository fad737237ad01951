"""Throughput of the cute-cpp oracle: cases per second on its two paths.

    .venv/bin/python benchmarks/cpp_throughput.py [--dynamic-cases 20000] [--static-seconds 60]
        [--static-per-op N] [--jobs N] [--cache DIR] [--json out.json]

- **runtime-integer cases** (every integer a runtime ``int``): cases drawn by the fuzzer's
  own strategies for composition, coalesce, complement, logical_divide, logical_product,
  the inverses, size and values.  A first pass compiles the kernels of their types (cold;
  counted apart); the timed passes answer fresh cases of the same ops with warm kernels,
  which is what a long campaign sees.  Reported: cases / wall second, and cases per
  CPU-second of this process and its children (g++, the driver programs).
- **all-static cases** (every integer ``_N``): a stream of batches of 64 cases of types
  the library has never seen (the oracle's ``is_new`` filter, ``--static-pool`` of them
  drawn before the clock starts), for ``--static-seconds``; every case costs a compile.
  Reported the same way.

- ``--static-per-op N``: CPU milliseconds per fresh all-static case, op by op (N each).

``--cache`` (default: a fresh temporary folder, so the static stream is cold and the numbers
do not depend on what earlier runs compiled) is ``$LAYOUTCHECK_CACHE`` for the run.  On a
shared machine the wall-clock rates move with the load; the CPU-second rates much less.
"""

import argparse
import json
import os
import sys
import tempfile
import time

OPS = ("composition", "coalesce", "complement", "logical_divide", "logical_product",
       "left_inverse", "right_inverse", "size", "values")


def _strategies(static):
    import layoutcheck.fuzz.strategies.algebra as S
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
        "values": st.tuples(S.layouts(static=static)),
    }


def draw(static, per_op, seed):
    """Cases of OPS whose integers are all static (static=True) or all runtime ints."""
    from layoutcheck.fuzz.campaign.batched import draw_cases
    from layoutcheck.oracles.cpp.cases import retype
    cases = []
    for k, (op, strat) in enumerate(_strategies(static).items()):
        cases += [(op, retype(tuple(a), static)) for a in draw_cases(strat, per_op, seed * 100 + k)]
    return cases


def _cpu():
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _measure(oracle, cases, batch=256):
    t0, c0 = time.perf_counter(), _cpu()
    kinds = {}
    for i in range(0, len(cases), batch):
        for out in oracle.run_many(cases[i:i + batch]):
            kinds[out.kind] = kinds.get(out.kind, 0) + 1
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    return dict(cases=len(cases), wall_s=round(wall, 2), cpu_s=round(cpu, 2),
                cases_per_s=round(len(cases) / wall, 1), cases_per_cpu_s=round(len(cases) / cpu, 1),
                outcomes=kinds)


def dynamic(oracle, n):
    per_op = max(1, n // len(OPS))
    warm = draw(False, per_op, seed=1)
    cold = _measure(oracle, warm)
    stats0 = oracle.stats()
    hot = _measure(oracle, draw(False, per_op, seed=2))
    stats1 = oracle.stats()
    hot["compiles_during"] = stats1["compiles"] - stats0["compiles"]
    return dict(cold=cold, warm=hot)


def _add_fresh(oracle, cases, seen, fresh):
    """Append to ``fresh`` the cases of C++ types neither in ``seen`` nor compiled before."""
    from layoutcheck.oracles.cpp.oracle import type_key
    for c in cases:
        key = type_key(*c)
        if key not in seen and oracle.is_new(*c):
            seen.add(key)
            fresh.append(c)


def static(oracle, seconds, pool):
    """Fresh all-static cases (types never compiled: ``is_new``), 64 a batch, for
    ``seconds``; the cases are drawn before the clock starts (drawing is the fuzzer's cost,
    not the oracle's)."""
    fresh, seen, seed = [], set(), 100
    while len(fresh) < pool and seed < 100 + pool:
        _add_fresh(oracle, draw(True, 40, seed), seen, fresh)
        seed += 1
    t0, c0 = time.perf_counter(), _cpu()
    done, kinds = 0, {}
    for i in range(0, len(fresh), 64):
        for out in oracle.run_many(fresh[i:i + 64]):
            kinds[out.kind] = kinds.get(out.kind, 0) + 1
        done += len(fresh[i:i + 64])
        if time.perf_counter() - t0 >= seconds:
            break
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    return dict(cases=done, drawn=len(fresh), wall_s=round(wall, 2), cpu_s=round(cpu, 2),
                cases_per_s=round(done / wall, 1), cases_per_cpu_s=round(done / cpu, 1),
                outcomes=kinds)


def static_per_op(oracle, n):
    """CPU milliseconds per fresh all-static case, op by op (``n`` cases of each op in
    batches of 64, one op at a time): where the static path's cost is CuTe's own templates
    (every op's cases pay the same fixed cost per unit and the same layout construction)."""
    from layoutcheck.fuzz.campaign.batched import draw_cases
    from layoutcheck.oracles.cpp.cases import retype
    strategies, out = _strategies(True), {}
    for k, op in enumerate(OPS):
        fresh, seen = [], set()
        for seed in range(200, 260):
            _add_fresh(oracle, [(op, retype(tuple(a), True))
                                for a in draw_cases(strategies[op], 64, seed * 100 + k)], seen, fresh)
            if len(fresh) >= n:
                break
        got = _measure(oracle, fresh[:n], batch=64)
        out[op] = dict(cases=got["cases"], cpu_ms_per_case=round(1000 * got["cpu_s"] / max(1, got["cases"]), 1),
                       outcomes=got["outcomes"])
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dynamic-cases", type=int, default=20000)
    p.add_argument("--static-seconds", type=float, default=60.0)
    p.add_argument("--static-pool", type=int, default=4000,
                   help="fresh static cases drawn before the static clock starts")
    p.add_argument("--static-per-op", type=int, default=0,
                   help="also: CPU ms per fresh all-static case of each op (this many of each)")
    p.add_argument("--jobs", type=int, default=None)
    p.add_argument("--cache", default=None)
    p.add_argument("--json", default=None)
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="lc-cpp-bench-") as tmp:
        os.environ["LAYOUTCHECK_CACHE"] = a.cache or tmp
        from layoutcheck.oracles import get_oracle
        oracle = get_oracle("cute-cpp", jobs=a.jobs)
        why = oracle.unavailable_reason()
        if why:
            print(f"cute-cpp unavailable: {why}", file=sys.stderr)
            return 2
        out = dict(toolchain=oracle.provenance(), jobs=oracle.library.jobs, cpus=os.cpu_count())
        if a.dynamic_cases:
            out["dynamic"] = dynamic(oracle, a.dynamic_cases)
        if a.static_seconds:
            out["static"] = static(oracle, a.static_seconds, a.static_pool)
        if a.static_per_op:
            out["static_per_op"] = static_per_op(oracle, a.static_per_op)
        out["stats"] = oracle.stats()
    print(json.dumps(out, indent=1))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    from results import recording  # benchmarks/results.py: the entry in RESULTS.md
    with recording("CuTe C++ oracle throughput", versions=["nvidia-cutlass"], fmt="json",
                   tools=["g++"]):
        sys.exit(main())
