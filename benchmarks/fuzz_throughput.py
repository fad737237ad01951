"""Spec-vs-impl differential throughput of the fuzz campaign, in CPU time.

    .venv/bin/python benchmarks/fuzz_throughput.py [--max-examples 300 | --budget 30] [--all]
        [--rounds 1] [--per-check] [--ops OP,OP]

Runs ``run_campaign(["impl"], kinds=["differential"])`` on the 18 algebra operations (``--all``:
every differential check) and prints, per round, the distinct cases judged, the CPU seconds
of this process, distinct cases per CPU-second, and where the CPU went: the reference (the
spec, memoised), the oracle under test, the rest of judging (comparison, bookkeeping) and
everything outside judging (hypothesis drawing the cases); ``--per-check`` splits each
check the same way.  CPU time, not wall time, so that a loaded machine changes the figures
less; round k runs with seed ``--seed`` + k (fresh cases: the spec's memos of sub-layouts
outlive a round, whole cases never repeat across rounds); rounds alternate nothing (one
variant), so compare two trees by running this script in each, interleaved.  With the default
300 cases a check stays in its first hypothesis run (10 examples), which draws on hypothesis'
own provider; ``--max-examples 1200`` measures the later runs too, which draw on
``fuzz/campaign/provider.py``'s backend.
"""

import argparse
import resource
import time

ALGEBRA = ("coalesce filter size cosize values right_inverse left_inverse complement "
           "composition logical_divide zipped_divide tiled_divide flat_divide logical_product "
           "zipped_product tiled_product blocked_product raked_product").split()


def _cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _timed(cls, attr, into, key):
    real = getattr(cls, attr)

    def wrapper(*a, **k):
        t = time.process_time()
        try:
            return real(*a, **k)
        finally:
            into[key] = into.get(key, 0.0) + time.process_time() - t
    setattr(cls, attr, wrapper)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-examples", type=int, default=None)
    ap.add_argument("--budget", type=float, default=None)
    ap.add_argument("--all", action="store_true", help="every differential check")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--per-check", action="store_true",
                    help="also print cases per CPU-second of each check, and its split")
    ap.add_argument("--seed", type=int, default=0,
                    help="campaign seed of the first round; round k uses seed + k, so that no "
                         "round replays another's cases (the spec's memos outlive a round)")
    ap.add_argument("--ops", default=None,
                    help="comma-separated operations (default: the 18 algebra operations)")
    a = ap.parse_args(argv)
    import layoutcheck.fuzz.campaign.budget as budget
    import layoutcheck.fuzz.campaign.runner as campaign
    import layoutcheck.oracles.reference as reference
    spent = {}
    _timed(reference.MemoReference, "run", spent, "reference")
    _timed(budget.Observed, "run", spent, "oracle")
    _timed(campaign._Runner, "judge", spent, "judge")
    import layoutcheck.fuzz.campaign.pairs as pairs
    per_check, split = {}, {}
    real_step = pairs.Pair.step

    def step(self, *args, **kw):  # CPU seconds per check (drawing included), and its split
        t, before = time.process_time(), dict(spent)
        try:
            return real_step(self, *args, **kw)
        finally:
            name = self.check.name
            per_check[name] = per_check.get(name, 0.0) + time.process_time() - t
            row = split.setdefault(name, {})
            for k, v in spent.items():
                row[k] = row.get(k, 0.0) + v - before.get(k, 0.0)
    pairs.Pair.step = step
    ops = a.ops.split(",") if a.ops else None if a.all else list(ALGEBRA)
    kw = {"budget": a.budget} if a.budget else {"max_examples": a.max_examples or 300}
    for rnd in range(a.rounds):
        spent.clear()
        per_check.clear()
        split.clear()
        t = _cpu()
        rep = campaign.run_campaign(oracles=["impl"], kinds=["differential"], seed=a.seed + rnd,
                                    ops=ops, use_db=False, **kw)
        cpu = _cpu() - t
        s = rep["summary"]
        judge = spent.get("judge", 0.0)
        parts = {"reference": spent.get("reference", 0.0), "oracle": spent.get("oracle", 0.0)}
        parts["rest of judging"] = judge - sum(parts.values())
        parts["drawing (hypothesis)"] = cpu - judge
        print(f"round {rnd}: {s['cases']} distinct cases ({s['duplicates']} duplicates not run), "
              f"{cpu:.2f} CPU-s -> {s['cases'] / cpu:.0f} cases per CPU-second; "
              + ", ".join(f"{k} {100 * v / cpu:.0f}%" for k, v in parts.items())
              + f"; new failures {s['new_failures']}", flush=True)
        if a.per_check:
            for row in rep["results"]:
                c = per_check.get(row["check"], 0.0)
                rate = row.get("cases", 0) / c if c > 0 else 0.0
                sp = split.get(row["check"], {})
                ref, orc, jud = (sp.get(k, 0.0) for k in ("reference", "oracle", "judge"))
                shares = (f"ref {100 * ref / c:3.0f}% oracle {100 * orc / c:3.0f}% "
                          f"judging {100 * (jud - ref - orc) / c:3.0f}% "
                          f"drawing {100 * (c - jud) / c:3.0f}%") if c > 0 else ""
                print(f"  {row['check']:<24} {row.get('cases', 0):>6} cases {c:6.2f} CPU-s "
                      f"{rate:7.0f}/CPU-s  {shares}{'  (under 1000)' if rate < 1000 else ''}",
                      flush=True)


if __name__ == "__main__":
    from results import recording  # benchmarks/results.py: the entry in RESULTS.md
    with recording("Spec against impl: fuzz throughput"):
        main()
