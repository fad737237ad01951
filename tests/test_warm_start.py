"""The warm start of a budget run (fuzz/campaign/warmstart.py): every pair of a batched oracle
draws its first batch, their calls go to the oracle together (``prepare``, then one
``run_many``), and each pair judges its batch from those answers.

- the answers are the oracle's own, asked once: no call of the warm start is asked again;
- the verdict is the one the pairs reach without it (the same first batch, the same failure);
- a per-call cost (cute-cpp: a compile per unit) is paid once instead of once per pair, so a
  budget that could not reach every pair now does; a pair it cuts is still reported not
  reached;
- ``--max-examples`` (the CI mode) has no warm start: its cases are those it judged before.

The oracle is impl under a batched oracle's name (real answers, a record of the calls).
"""

import threading
import time

import layoutcheck.fuzz.campaign.runner as campaign
import layoutcheck.fuzz.campaign.warmstart as warmstart
import pytest
from layoutcheck.oracles.protocol import Outcome
from layoutcheck.oracles.reference import PackageOracle, case_key

CHECKS = ["diff.coalesce", "diff.filter", "diff.size", "diff.cosize", "diff.values",
          "diff.right_inverse", "diff.left_inverse", "diff.rank", "diff.flatten", "diff.product",
          "diff.prefix_product", "diff.layout_left"]


class Batched(PackageOracle):
    """impl as a batched oracle ("cute-dsl"): each ``run_many`` costs ``per_call`` seconds (a
    compile per unit), and every call is recorded."""

    def __init__(self, per_call=0.0, wrong_size=False):
        super().__init__("impl")
        self.name, self.per_call, self.wrong_size = "cute-dsl", per_call, wrong_size
        self.batches, self.prepared = [], []

    def prepare(self, calls, until=None):
        self.prepared.append(([(op, case_key(a)) for op, a in calls], until,
                              threading.current_thread() is threading.main_thread()))

    def _run_many(self, cases):
        self.batches.append([(op, case_key(a)) for op, a in cases])
        time.sleep(self.per_call)
        out = super()._run_many(cases)
        if self.wrong_size:  # a planted bug: every size is one too many
            out = [Outcome.ok(o.value + 1) if op == "size" and o.kind == "ok" else o
                   for (op, _), o in zip(cases, out)]
        return out


def test_every_pairs_first_batch_is_answered_at_once_and_never_asked_again(install):
    oracle = install(Batched())
    rep = campaign.run_campaign(oracles=["cute-dsl"], checks=["diff.coalesce", "diff.size"],
                                budget=3.0, use_db=False)
    first, until, on_main = oracle.prepared[0]
    assert on_main and {op for op, _ in first} == {"coalesce", "size"}
    warm = oracle.batches[0]  # the warm start's one run_many: every pair's first calls
    assert set(warm) == set(first)
    later = [c for b in oracle.batches[1:] for c in b]
    assert not set(warm) & set(later)  # judged from the warm answers, not asked again
    assert all(r["status"] == "pass" and r["cases"] > 0 for r in rep["results"])


def _verdicts(rep):
    return [(r["check"], r["status"], r["known_finding"], tuple(r["counterexample"] or ()),
             r.get("answers")) for r in rep["results"]]


def test_the_verdict_is_the_one_the_pairs_reach_without_it(install, monkeypatch):
    """The warm batch is the batch the pair would draw first (the same seed), judged from the
    same oracle's answers: the same failure, the same counterexample."""
    options = dict(oracles=["cute-dsl"], checks=["diff.size", "diff.coalesce"], budget=3.0,
                   use_db=False, seed=5)
    install(Batched(wrong_size=True))
    warm = campaign.run_campaign(**options)
    oracle = install(Batched(wrong_size=True))
    monkeypatch.setattr(campaign, "warm_start", lambda pairs, until: 0)
    cold = campaign.run_campaign(**options)
    assert not oracle.prepared or not any(main for _, _, main in oracle.prepared)
    assert _verdicts(warm) == _verdicts(cold)
    assert {r["check"]: r["status"] for r in warm["results"]} == {"diff.size": "fail",
                                                                  "diff.coalesce": "pass"}
    assert warm["exit_status"] == cold["exit_status"] == 1


def test_a_cost_per_call_is_paid_once_and_every_pair_is_reached(install, monkeypatch):
    """Twelve pairs, a second per run_many (a compile), 8 s: one by one, the first round
    cannot reach them all (12 s); warmed together, every pair is judged."""
    options = dict(oracles=["cute-dsl"], checks=CHECKS, budget=8.0, use_db=False, seed=1)
    install(Batched(per_call=1.0))
    warm = campaign.run_campaign(**options)
    assert warm["summary"]["not_reached"] == 0
    assert all(r["cases"] > 0 for r in warm["results"] if r["status"] != "skipped"), warm["results"]
    install(Batched(per_call=1.0))
    monkeypatch.setattr(campaign, "warm_start", lambda pairs, until: 0)
    cold = campaign.run_campaign(**options)
    cut = [r for r in cold["results"] if r.get("not_reached")]
    assert cut and all(r["status"] == "skipped" and r["cases"] == 0 for r in cut)  # never a pass


def test_past_its_share_of_the_budget_the_warm_start_asks_nothing(install, monkeypatch):
    """No stage starts past ``until``: the pairs then draw and ask in their own turn."""
    oracle = install(Batched())
    monkeypatch.setattr(campaign, "WARM_FRACTION", 0.0)
    rep = campaign.run_campaign(oracles=["cute-dsl"], checks=["diff.coalesce", "diff.size"],
                                budget=2.0, use_db=False)
    assert not [p for p in oracle.prepared if p[2]]  # nothing drawn, nothing asked
    assert all(r["status"] == "pass" and r["cases"] > 0 for r in rep["results"])


def test_answers_of_stops_at_until_and_skips_what_prepare_left_uncompiled():
    oracle = Batched()
    oracle.uncompiled = lambda calls: int(calls[0][0] == "cosize")
    from layoutcheck import parse
    L = parse("(2,3):(1,2)")
    calls = [((op, case_key((L,))), (op, (L,))) for op in ("size", "cosize")]
    out = warmstart.answers_of(oracle, calls, until=time.monotonic() + 60)
    assert set(out) == {("size", case_key((L,)))} and out[("size", case_key((L,)))].value == 6
    assert warmstart.answers_of(oracle, calls, until=0.0) == {}


def test_the_ci_mode_has_no_warm_start(install, monkeypatch):
    """--max-examples: no warm start, nothing prepared on the campaign's thread, and the cases
    judged are those of an oracle with no prepare at all."""
    options = dict(oracles=["cute-dsl"], checks=["diff.coalesce", "diff.composition"],
                   max_examples=20, use_db=False, seed=3)
    oracle = install(Batched())
    oracle.kernel_seconds = lambda: 100.0  # a pace the budget mode would size batches by

    def no_warm_start(pairs, until):
        raise AssertionError("warm start in the CI mode")
    monkeypatch.setattr(campaign, "warm_start", no_warm_start)
    ci = campaign.run_campaign(**options)
    assert not oracle.prepared
    plain = install(Batched())
    del Batched.prepare  # (restored below) an oracle that prepares nothing
    try:
        again = campaign.run_campaign(**options)
    finally:
        Batched.prepare = _prepare
    assert oracle.batches == plain.batches
    assert _verdicts(ci) == _verdicts(again) and ci["summary"]["cases"] > 0


def test_no_pair_draws_for_the_warm_start_past_its_share(install, monkeypatch):
    """Drawing a first batch costs time too (a strategy): past ``WARM_FRACTION`` of the budget
    no pair draws for the warm start; those left draw their batch in their own turn."""
    import layoutcheck.fuzz.campaign.pairs as pairs
    oracle = install(Batched())
    real = pairs.Pair.first_calls

    def slow_first_calls(self):
        time.sleep(0.3)
        return real(self)
    monkeypatch.setattr(pairs.Pair, "first_calls", slow_first_calls)
    t0 = time.monotonic()
    checks = ["diff.coalesce", "diff.size", "diff.cosize", "diff.values", "diff.rank", "diff.flatten"]
    rep = campaign.run_campaign(oracles=["cute-dsl"], checks=checks, budget=2.0, use_db=False)
    (calls, until, _), = [p for p in oracle.prepared if p[2]]
    assert until <= t0 + campaign.WARM_FRACTION * 2.0 + 0.5
    assert len({op for op, _ in calls}) < len(checks)
    assert all(r["cases"] > 0 or r.get("not_reached") for r in rep["results"])


_prepare = Batched.prepare
