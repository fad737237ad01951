"""The cute-cpp fuzz campaign with the cute-cpp-aware case mix (``oracles/cpp_cases.py``)
applied to every drawn batch, for comparison with the plain campaign (issue 14).

    .venv/bin/python benchmarks/cpp_campaign_mix.py [--budget 300] [--seed 7] [--mixed 0.05]
        [--static 0.10] [--report r.json]

It runs ``layoutcheck.fuzz.run_campaign(["cute-cpp"], ...)`` with the campaign's batch
drawing wrapped (``fuzz/pairs.py`` is not changed): each drawn case goes through
``CaseMix.apply``.  Prints the case count, the cases per second and the oracle's stats.
"""

import argparse
import json
import sys


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budget", type=float, default=300.0)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--mixed", type=float, default=0.05)
    p.add_argument("--static", type=float, default=0.10)
    p.add_argument("--report", default=None)
    a = p.parse_args(argv)

    from layoutcheck.fuzz import pairs, run_campaign
    from layoutcheck.oracles.cpp_cases import CaseMix
    mix = CaseMix(None, mixed=a.mixed, static=a.static, seed=a.seed)
    original_draw, original_batches = pairs.draw_cases, pairs.Pair._batches
    current = {}

    def batches(self):
        current["op"] = self.check.op
        mix.oracle = getattr(getattr(self, "oracle", None), "oracle", None) or mix.oracle
        return original_batches(self)

    def draw(strategy, n, seed_value):
        op = current.get("op", "")
        return [mix.apply(op, args) for args in original_draw(strategy, n, seed_value)]

    pairs.Pair._batches, pairs.draw_cases = batches, draw
    report = run_campaign(["cute-cpp"], budget=a.budget, seed=a.seed, use_db=False,
                          command="benchmarks/cpp_campaign_mix.py")
    s = report["summary"]
    out = dict(cases=s["cases"], seconds=report.get("seconds"), new_failures=s["new_failures"],
               known=s["known"], errors=s["error"], oracle=report.get("oracles"))
    print(json.dumps(out, indent=1, default=str))
    if a.report:
        with open(a.report, "w") as f:
            json.dump(report, f, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
