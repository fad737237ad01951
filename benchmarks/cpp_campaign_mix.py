"""The cute-cpp fuzz campaign under a chosen case mix (``oracles/cpp/cases.py``).

    .venv/bin/python benchmarks/cpp_campaign_mix.py [--budget 300] [--seed 7] [--mixed 0.05]
        [--static 0.10] [--off] [--cache DIR] [--report r.json]

The campaign applies the mix itself (``fuzz/campaign/pairs.py`` calls ``CuteCppOracle.case_mix``,
set by ``$LAYOUTCHECK_CPP_MIX``); this script sets that variable from ``--mixed`` /
``--static`` (``--off``: the cases exactly as the strategies draw them) and ``--cache``
(``$LAYOUTCHECK_CACHE``: a fresh folder for a cold kernel library), runs
``layoutcheck.fuzz.campaign.run_campaign(["cute-cpp"], ...)`` and prints the case count, the share of
all-static / mixed / all-dynamic cases the oracle answered, and the oracle's stats.
"""

import argparse
import json
import os
import sys


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budget", type=float, default=300.0)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--mixed", type=float, default=0.05)
    p.add_argument("--static", type=float, default=0.10)
    p.add_argument("--off", action="store_true", help="no mix: the cases as drawn")
    p.add_argument("--cache", default=None, help="kernel library folder ($LAYOUTCHECK_CACHE)")
    p.add_argument("--report", default=None)
    a = p.parse_args(argv)
    from layoutcheck.oracles.cpp.cases import MIX_ENV, mix_setting, staticness
    os.environ[MIX_ENV] = "off" if a.off else f"{a.mixed},{a.static}"
    mix_setting()  # a bad pair of fractions: one clear line before the run
    if a.cache:
        os.environ["LAYOUTCHECK_CACHE"] = a.cache

    import layoutcheck.oracles.cpp.oracle as cute_cpp
    shares = {"static": 0, "mixed": 0, "dynamic": 0}
    original = cute_cpp.CuteCppOracle._run_many

    def counted(self, cases):
        for _, args in cases:
            shares[staticness(args)] += 1
        return original(self, cases)

    cute_cpp.CuteCppOracle._run_many = counted
    from layoutcheck.fuzz.campaign import run_campaign
    report = run_campaign(["cute-cpp"], budget=a.budget, seed=a.seed, use_db=False,
                          command="benchmarks/cpp_campaign_mix.py")
    s, n = report["summary"], max(1, sum(shares.values()))
    out = dict(mix=os.environ[MIX_ENV], cases=s["cases"], seconds=report.get("summary", {}).get("seconds"),
               not_reached=s.get("not_reached"), new_failures=s["new_failures"], known=s["known"],
               errors=s["error"], oracle_calls_by_staticness={k: f"{v} ({100 * v / n:.1f}%)"
                                                             for k, v in shares.items()},
               oracle=report.get("oracle_stats"))
    print(json.dumps(out, indent=1, default=str))
    if a.report:
        with open(a.report, "w") as f:
            json.dump(report, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    from results import recording  # benchmarks/results.py: the entry in RESULTS.md
    try:
        with recording("CuTe C++ campaign case mix", versions=["nvidia-cutlass"], fmt="json",
                       tools=["g++"]):
            sys.exit(main())
    except Exception as e:  # noqa: BLE001 - bad input: one clear line
        from layoutcheck.errors import LayoutError
        if isinstance(e, LayoutError):
            print(f"cpp_campaign_mix: {e}", file=sys.stderr)
            sys.exit(2)
        raise
