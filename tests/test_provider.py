"""The campaign's fast hypothesis backend (fuzz/campaign/provider.py): its draws stay in
their bounds and follow the weights, a run on it is a function of its seed, and a failure it
finds is found again and shrunk exactly as on hypothesis' own provider."""

import random

import layoutcheck.fuzz.campaign.provider as P
import layoutcheck.fuzz.campaign.runner as campaign
import pytest
from layoutcheck.fuzz.checks.catalogue import BY_NAME
from layoutcheck.oracles import get_oracle
from layoutcheck.oracles.protocol import Outcome
from layoutcheck.oracles.reference import PackageOracle

from layoutcheck.layout import LayoutBase, leaves

pytestmark = pytest.mark.skipif(P.BACKEND == "hypothesis",
                                reason="this hypothesis takes no backend setting")


def _provider(seed):
    from hypothesis.internal.conjecture.data import ConjectureData
    return ConjectureData(random=random.Random(seed), provider=P.FastProvider).provider


def test_draws_stay_in_bounds_and_follow_the_weights():
    p = _provider(1)
    for lo, hi in ((0, 0), (1, 2), (1, 16), (-5, 5), (0, 1 << 40), (3, 1 << 60)):
        xs = [p.draw_integer(lo, hi) for _ in range(3000)]
        assert min(xs) >= lo and max(xs) <= hi, (lo, hi)
        if hi - lo <= 16:
            assert set(xs) == set(range(lo, hi + 1)), (lo, hi)  # every value is reachable
    xs = [p.draw_integer(0, 1000, weights={7: 0.25, 1000: 0.25}) for _ in range(4000)]
    assert 0.2 < xs.count(7) / len(xs) < 0.3 and 0.2 < xs.count(1000) / len(xs) < 0.3
    small = [p.draw_integer(0, 1023) for _ in range(4000)]
    assert 0.5 < sum(x < 512 for x in small) / len(small) < 0.8  # small offsets likelier
    bools = [p.draw_boolean(0.25) for _ in range(4000)]
    assert 0.2 < sum(bools) / len(bools) < 0.3
    assert [_provider(5).draw_integer(0, 99) for _ in range(3)] == \
        [_provider(5).draw_integer(0, 99) for _ in range(3)]


class _Wrong(PackageOracle):
    """impl, answering coalesce of every layout whose size is a multiple of 7 with ``_1:_0``
    (not the strategy's simplest case: ``(_4,5,6):(_1,1,40)``, of size 120)."""

    name = "wrong"

    def __init__(self):
        super().__init__("impl")

    def _run_many(self, cases):
        outs = super()._run_many(cases)
        big = LayoutBase.parse("_1:_0")
        return [Outcome.ok(big) if op == "coalesce" and o.kind == "ok"
                and _size(args[0]) % 7 == 0 else o for (op, args), o in zip(cases, outs)]


def _size(L):
    n = 1
    for s in leaves(L.shape):
        n *= int(s)
    return n


@pytest.mark.parametrize("fast", [False, True])
def test_a_failure_found_on_either_provider_is_found_again_and_shrunk(fast, monkeypatch):
    check = BY_NAME["diff.coalesce"]
    pair = campaign._pair(check, _Wrong(), get_oracle("spec"))
    r = pair.runner
    used, found = [], []
    real, judge = P.FastProvider.draw_integer, r.judge
    r.judge = lambda args, region=None: (found.append(args), judge(args, region))
    monkeypatch.setattr(P.FastProvider, "draw_integer",
                        lambda self, *a, **k: (used.append(1), real(self, *a, **k))[1])
    r.hypothesis_run(check.strategy(), 10, 3, fast=fast)
    assert bool(used) == fast
    assert r.best is not None and r.best[3] == "fail"
    first = r.best[4]  # the run ends at its first failure (the last case judged) ...
    assert found[-1] == first and _size(first[0]) % 7 == 0
    pair.shrink_found()  # ... and the pair shrinks it
    L = r.best[4][0]
    assert r.shrunk.first == first and r.shrunk.cut is None and r.shrunk.steps >= 1
    assert str(L) == "7:0", L  # the smallest layout of a size that is a multiple of 7


def test_a_run_past_the_first_chunk_is_a_function_of_the_seed():
    def run():
        rep = campaign.run_campaign(["impl"], checks=["diff.composition", "diff.logical_divide"],
                                    max_examples=700, seed=4, use_db=False)
        return [(x["check"], x["status"], x["cases"], x["duplicates"]) for x in rep["results"]]
    first = run()
    assert all(status == "pass" and cases == 700 for _, status, cases, _ in first), first
    assert run() == first


class _Flaky(PackageOracle):
    """impl, answering coalesce wrong (``_1:_0``) the first time only that it sees a layout
    whose size is a multiple of 7: the replay on hypothesis' provider then passes."""

    name = "flaky"

    def __init__(self):
        super().__init__("impl")
        self.seen = set()

    def _run_many(self, cases):
        outs = super()._run_many(cases)
        wrong = []
        for (op, args), o in zip(cases, outs):
            first = op == "coalesce" and _size(args[0]) % 7 == 0 and str(args[0]) not in self.seen
            self.seen.add(str(args[0]))
            wrong.append(Outcome.ok(LayoutBase.parse("_1:_0")) if first and o.kind == "ok" else o)
        return wrong


@pytest.mark.parametrize("fast", [False, True])
def test_a_failure_that_does_not_replay_is_still_reported(fast):
    """No false green: hypothesis reports a failure its replay does not reproduce as flaky (on
    a backend: ``FlakyBackendFailure``); the pair keeps the failing case it judged."""
    from layoutcheck.fuzz.campaign.pairs import finish
    check = BY_NAME["diff.coalesce"]
    pair = campaign._pair(check, _Flaky(), get_oracle("spec"))
    pair.runner.hypothesis_run(check.strategy(), 10, 3, fast=fast)
    row = finish(pair.runner, "flaky", 1.0, 0.0)
    assert row["status"] == "fail" and row["counterexample"], row
    assert _size(pair.runner.best[4][0]) % 7 == 0
