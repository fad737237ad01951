"""The campaign's budget: bounded evaluation, the memoised
reference, steering away from known regions, adaptive allocation, the report's accounting."""

import layoutcheck.fuzz.campaign.budget as budget
import layoutcheck.fuzz.campaign.runner as campaign
import layoutcheck.fuzz.campaign.startup as startup
import layoutcheck.fuzz.campaign.steer as steer
import layoutcheck.fuzz.checks.bounds as bounds
import layoutcheck.fuzz.checks.targets as T
import pytest
from layoutcheck.fuzz.campaign.report import summary_lines
from layoutcheck.fuzz.checks.base import CheckFailed
from layoutcheck.fuzz.checks.catalogue import BY_NAME
from layoutcheck.oracles.protocol import Outcome
from layoutcheck.oracles.reference import PACKAGES, MemoReference, PackageOracle

from layoutcheck.layout import LayoutBase

L = LayoutBase.parse
HUGE = L("(1099511627776):(1)")  # 2^40 elements


class Fake(PackageOracle):
    """impl, with ``bug(op, args, outcome) -> outcome`` applied to every answer."""

    def __init__(self, bug, name="fake"):
        super().__init__("impl")
        self.name, self.bug, self.answers = name, bug, 0

    def _run_many(self, cases):
        outs = [self._one(PACKAGES["impl"], op, args) for op, args in cases]  # impl under its name
        self.answers += len(outs)
        return [self.bug(op, args, out) for (op, args), out in zip(cases, outs)]

    def stats(self):
        return {"answers": self.answers}


@pytest.fixture
def fake(monkeypatch, tmp_path):
    """Install Fake oracles under their names for run_campaign (``fake(bug, name)``)."""
    monkeypatch.chdir(tmp_path)
    made = {}
    real = startup.get_oracle
    monkeypatch.setattr(startup, "get_oracle", lambda n: made[n] if n in made else real(n))

    def make(bug, name="fake"):
        made[name] = Fake(bug, name)
        return made[name]
    return make


def _rank(x):
    return len(x.shape) if isinstance(x, LayoutBase) and isinstance(x.shape, tuple) else 1


# --- bounded evaluation -----------------------------------------------------------------------

def test_the_bound_comes_from_the_inputs_modes():
    assert bounds.input_bound((L("(4,2):(1,8)"),)) == bounds.MIN_BOUND  # 4 * 16 = 64, at least 1024
    assert bounds.input_bound((L("(64,64):(1,64)"), 3)) == 4 * 4096 * 3
    assert bounds.layout_size(HUGE) == 1 << 40 and bounds.layout_cosize(L("(2,3):(5,1)")) == 8


def test_table_refuses_a_layout_larger_than_the_inputs_allow_before_enumerating():
    with bounds.bounded((L("8:1"),)):
        with pytest.raises(CheckFailed) as e:
            T.table(HUGE)
    assert "size 1099511627776" in e.value.message and "bound 1024" in e.value.message
    with pytest.raises(bounds.EvaluationLimit, match="LAYOUTCHECK_EVAL_LIMIT"):
        T.table(HUGE)  # no case bound: the harness' own limit still holds
    with bounds.bounded((L("(4,4):(1,4)"),)):
        assert T.table(L("(4,4):(1,4)")) == list(range(16))


def test_the_comparison_measures_an_answer_before_evaluating_it():
    A = L("8:1")
    with bounds.bounded((A,)):
        with pytest.raises(CheckFailed, match="the answer has size 1099511627776"):
            T.compare("coalesce", (A,), L("8:1"), HUGE)


def test_a_huge_answer_is_a_failure_not_a_memory_blow_up(fake):
    """An oracle whose coalesce answers (2^40):(1): the checks that evaluate the answer fail
    on it, naming the size and the bound, at once (it used to take 8 GB and 41 s)."""
    fake(lambda op, args, out: Outcome.ok(HUGE) if op == "coalesce" else out)
    rep = campaign.run_campaign(oracles=["fake"], checks=["law.coalesce.function",
                                                          "diff.coalesce"],
                                max_examples=10, use_db=False)
    by = {r["check"]: r for r in rep["results"]}
    law, diff = by["law.coalesce.function"], by["diff.coalesce"]
    assert law["status"] == diff["status"] == "fail" and rep["summary"]["new_failures"] == 2
    assert "has size 1099511627776, more than the inputs allow" in law["message"], law
    assert law["answers"]["answer"] == "(1099511627776):(1)"
    assert "sizes differ" in diff["message"]  # the comparison samples; it never enumerates


# --- the memoised reference -------------------------------------------------------------------

class _Counting:
    name = "ref"

    def __init__(self, outcome=None):
        self.calls, self.outcome = 0, outcome

    def run(self, op, *args):
        self.calls += 1
        return self.outcome or Outcome.ok(args[0])


def test_the_reference_is_memoised_by_static_and_dynamic_value():
    owner = _Counting()
    ref = MemoReference(owner, owner)
    for text in ("4:1", "4:1", "_4:_1", "_4:_1"):
        ref.run("coalesce", L(text))
    assert owner.calls == 2 and ref.stats() == {"hits": 2, "misses": 2}
    assert str(ref.run("coalesce", L("_4:_1")).value) == "_4:_1"  # not the dynamic twin


def test_a_crash_of_the_reference_is_never_memoised():
    owner = _Counting(Outcome.crashed("worker died"))
    ref = MemoReference(owner, owner)
    ref.run("coalesce", L("4:1"))
    ref.run("coalesce", L("4:1"))
    assert owner.calls == 2


def test_the_oracle_under_test_is_asked_every_time(fake):
    o = fake(lambda op, args, out: out)
    campaign.run_campaign(oracles=["fake"], checks=["diff.coalesce"], max_examples=30,
                          use_db=False)
    assert o.answers >= 30  # one answer per case: nothing cached on its side


# --- steering away from known regions ---------------------------------------------------------

def test_the_region_sample_is_deterministic_and_low_rate():
    s = steer.Steering("fake", BY_NAME["diff.coalesce"])
    cases = [(L(f"({i},2):(1,{i})"),) for i in range(1, 2001)]
    kept = [s.keep(c) for c in cases]
    assert kept == [s.keep(c) for c in cases]
    assert 0.04 < sum(kept) / len(kept) < 0.12


def _known_rank2(monkeypatch):
    """A registered-looking finding F-TEST: diff.coalesce on fake, region rank >= 2."""
    def region(oracle, op, check, inputs=(), *a, **k):
        ok = oracle == "fake" and op == "coalesce" and check in ("diff.coalesce", "agreement")
        return "F-TEST" if ok and _rank(inputs[0]) >= 2 else None
    monkeypatch.setattr(steer, "find_region", region)
    monkeypatch.setattr(campaign, "_known",
                        lambda ctx, check, args, failure=None:
                        (region(ctx.oracle.name, check.op, check.name, args), True))


def _swap_modes(op, args, out):
    """A coalesce that is wrong on every rank >= 2 input (answers the input reversed)."""
    if op != "coalesce" or out.kind != "ok" or _rank(args[0]) < 2:
        return out
    A = args[0]
    return Outcome.ok(LayoutBase(tuple(reversed(A.shape)), tuple(reversed(A.stride))))


def test_a_pair_steers_away_from_a_region_it_has_hit(fake, monkeypatch):
    _known_rank2(monkeypatch)
    fake(_swap_modes)
    rep = campaign.run_campaign(oracles=["fake"], checks=["diff.coalesce"], max_examples=150,
                                use_db=False)
    (r,) = rep["results"]
    assert r["known_finding"] == "F-TEST" and r["steered"] == ["F-TEST"]
    assert r["region_skipped"] > 0                       # drawn in the region, not run
    assert 0 < r["known_region_cases"] < r["new_ground_cases"]  # the region is still sampled
    assert r["new_ground_cases"] + r["known_region_cases"] == r["cases"]
    s = rep["summary"]
    assert (s["region_skipped"], s["known_region_cases"]) == (r["region_skipped"],
                                                              r["known_region_cases"])
    assert any("steered away from F-TEST" in line for line in summary_lines(rep))


def test_a_different_wrong_answer_outside_the_region_is_still_new(fake, monkeypatch):
    _known_rank2(monkeypatch)

    def bugs(op, args, out):  # the known bug, plus a new one on rank-1 layouts of size 6
        if op == "coalesce" and out.kind == "ok" and _rank(args[0]) == 1 \
                and bounds.layout_size(args[0]) == 6:
            return Outcome.ok(L("6:7"))
        return _swap_modes(op, args, out)
    fake(bugs)
    rep = campaign.run_campaign(oracles=["fake"], checks=["diff.coalesce"], max_examples=400,
                                use_db=False)
    (r,) = rep["results"]
    assert r["status"] == "fail" and r["known_finding"] is None, r
    assert rep["exit_status"] == 1 and r["first_failure_s"] is not None


def test_steering_keeps_the_run_a_function_of_the_seed(fake, monkeypatch):
    _known_rank2(monkeypatch)
    fake(_swap_modes)
    runs = [campaign.run_campaign(oracles=["fake"], checks=["diff.coalesce"], max_examples=60,
                                  use_db=False, seed=3)["results"][0] for _ in range(2)]
    keys = ("cases", "known_cases", "region_skipped", "known_region_cases", "counterexample")
    assert [{k: r[k] for k in keys} for r in runs][0] == {k: runs[1][k] for k in keys}


# --- adaptive allocation ----------------------------------------------------------------------

class _Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


class _FakePair:
    """Spends ``cost`` seconds per case of a fake clock; ``new`` behaviours per case fade."""

    def __init__(self, clock, cost, fresh, name):
        self.clock, self.cost, self.fresh, self.name = clock, cost, fresh, name
        self.novelty, self.done, self.not_reached, self.rounds = budget.Novelty(), False, False, 0
        self.quota_steps = 0

    def step(self, until, minimum=False, quota=None):
        if quota is not None and self.novelty.cases >= quota:
            return
        self.rounds += 1
        self.quota_steps += quota is not None
        t0 = self.clock.t
        while True:
            k = self.novelty.cases
            self.novelty.add([(self.name, k if k < self.fresh else "old")])
            self.clock.t += self.cost
            if quota is not None and self.novelty.cases >= quota:
                break
            if self.clock.t >= until:
                break
        self.novelty.seconds += self.clock.t - t0


def test_every_pair_gets_its_quotas_then_time_goes_to_new_behaviour():
    clock = _Clock()
    pairs = [_FakePair(clock, 0.001, 10, f"dull{i}") for i in range(20)]
    pairs.append(_FakePair(clock, 0.001, 10 ** 9, "lively"))
    s = budget.Scheduler(pairs, 20.0, t0=0.0, clock=clock)
    s.run()
    assert s.floor >= 64 and all(p.novelty.cases >= s.floor for p in pairs)  # the same quota each
    assert clock.t <= 20.0 + 0.001                             # within the budget
    lively, dull = pairs[-1], pairs[:-1]
    assert lively.novelty.seconds > 3 * max(p.novelty.seconds for p in dull)


def test_a_costly_check_gets_as_many_cases_as_a_cheap_one_in_the_rounds():
    """The rounds share cases, not seconds: a check whose cases cost 50 times more still gets
    the quota of every round the budget completes (a few dozen cases, not one or two)."""
    clock = _Clock()
    cheap = [_FakePair(clock, 0.0005, 10, f"cheap{i}") for i in range(100)]
    costly = [_FakePair(clock, 0.025, 10, f"costly{i}") for i in range(10)]
    s = budget.Scheduler(cheap + costly, 20.0, t0=0.0, clock=clock)
    s.run()
    assert s.floor >= 16 and min(p.novelty.cases for p in costly) >= s.floor


def test_a_budget_too_small_for_every_pair_reports_the_ones_not_reached():
    clock = _Clock()
    pairs = [_FakePair(clock, 1.0, 10, f"slow{i}") for i in range(10)]  # 1 s per case
    budget.Scheduler(pairs, 3.0, t0=0.0, clock=clock).run()
    reached = [p for p in pairs if p.rounds]
    assert 1 <= len(reached) <= 4 and all(p.not_reached for p in pairs if not p.rounds)


def test_features_name_the_kind_of_each_answer():
    assert budget.features("coalesce", Outcome.raised("x [condition is_composable]")) == \
        ("coalesce", "raised", "is_composable")
    assert budget.features("size", Outcome.ok(7)) == ("size", "int", 2)
    f = budget.features("coalesce", Outcome.ok(L("(2,(_1,3)):(1,(0,2))")))
    assert f[:3] == ("coalesce", "L", "(.,(.,.))") and f[3] == "mixed" and f[4] and f[5]
    n = budget.Novelty()
    for feats in ([1, 2], [1], [1, 3]):
        n.add(feats)
    assert (n.cases, n.singletons) == (3, 2)


# --- the whole run ------------------------------------------------------------------------------

def test_a_budget_run_reaches_every_pair_and_ends_on_time(fake):
    fake(lambda op, args, out: out)
    rep = campaign.run_campaign(oracles=["fake", "impl"], ops=["coalesce", "composition"],
                                budget=4.0, use_db=False)
    s = rep["summary"]
    assert s["not_reached"] == 0 and all(r["cases"] >= 1 for r in rep["results"])
    assert all(r["rounds"] >= 1 for r in rep["results"])
    # the stated overrun (budget.grace) plus one case in flight, with room for a loaded machine
    assert s["seconds"] <= 4.0 + budget.grace(4.0) + 5.0, s
    assert rep["oracle_stats"]["fake"]["answers"] >= rep["oracle_stats"]["fake"]["cases"]
    lines = summary_lines(rep)
    assert any(line.startswith("oracle fake: ") and "answers" in line for line in lines)
    assert any("on new ground" in line for line in lines)


def test_a_failure_found_in_budget_mode_is_shrunk_within_the_budget(fake):
    fake(_swap_modes)
    rep = campaign.run_campaign(oracles=["fake"], checks=["diff.coalesce", "diff.size"],
                                budget=3.0, use_db=False)
    r = next(r for r in rep["results"] if r["check"] == "diff.coalesce")
    assert r["status"] == "fail" and r["counterexample"]
    assert r["first_failure_s"] is not None and r["first_failure_s"] <= r["elapsed_s"]
    assert rep["summary"]["first_failure_s"] == r["first_failure_s"]
    assert rep["summary"]["seconds"] <= 3.0 + budget.grace(3.0) + 5.0
    # the other pair still got its share
    assert next(r for r in rep["results"] if r["check"] == "diff.size")["cases"] >= 1


def test_a_batched_oracle_is_answered_a_stage_at_a_time_and_its_failure_reported(fake):
    """cute-cpp / cute-dsl get a batch of cases per run_many (one compile per batch)."""
    o = fake(_swap_modes, name="cute-dsl")
    calls = []
    real = o.run_many
    o.run_many = lambda cases: calls.append(len(cases)) or real(cases)
    rep = campaign.run_campaign(oracles=["cute-dsl"], checks=["diff.coalesce"], max_examples=40,
                                use_db=False)
    (r,) = rep["results"]
    assert r["status"] == "fail" and max(calls) > 1  # answered in batches, not case by case
    # shrunk through the same batches (fuzz/campaign/minimise.py) to the smallest rank-2 case
    # that is not the DSL's own F-243 (its coalesce keeps (1,1):(0,0) of runtime integers)
    assert r["counterexample"] == ["(2,1):(0,0)"] and r["shrink"]["cut"] is None
    assert r["first_counterexample"] == r["shrink"]["first"]
    rep = campaign.run_campaign(oracles=["cute-dsl"], checks=["diff.size"], budget=2.0,
                                use_db=False)
    assert rep["results"][0]["status"] == "pass" and rep["results"][0]["cases"] >= 1
