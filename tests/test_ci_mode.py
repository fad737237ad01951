"""The gate's verdict does not depend on the machine: with ``--max-examples`` (the CI mode, and
the demo's campaign) every check judges the same cases whatever the machine's speed, and the
demo's campaign is green on a clean tree for several seeds against every oracle it uses."""

import os
import time

import pytest

from layoutcheck.commands.demo import DEMO_CASES
from layoutcheck.fuzz.campaign import run_campaign
from layoutcheck.fuzz.campaign import startup
from layoutcheck.fuzz.checks.catalogue import CHECKS
from layoutcheck.oracles import available_oracles

DEMO_ORACLES = [n for n in available_oracles() if n not in ("spec", "cute-cpp")]


def _judged(report):
    return [(r["check"], r["oracle"], r["status"], r["cases"], tuple(r["counterexample"] or ()))
            for r in report["results"]]


def test_the_cases_do_not_depend_on_the_machines_speed(monkeypatch):
    """The same options on a slow machine (every answer delayed) judge the same cases with the
    same verdicts as on a fast one."""
    options = dict(against=["impl"], ops=["coalesce", "composition", "complement"],
                   max_examples=25, seed=3, use_db=False)
    fast = run_campaign(**options)
    real = startup.get_oracle

    def slow_oracle(name, **kw):
        oracle = real(name, **kw)
        run_many = oracle.run_many

        def delayed(cases):
            time.sleep(0.002 * len(cases))
            return run_many(cases)
        oracle.run_many = delayed
        return oracle
    monkeypatch.setattr(startup, "get_oracle", slow_oracle)
    slow = run_campaign(**options)
    assert _judged(slow) == _judged(fast)
    assert fast["summary"]["cases"] > 0 and slow["exit_status"] == fast["exit_status"]


def test_a_cap_cuts_the_run_and_says_so():
    report = run_campaign(against=["impl"], max_examples=50, seed=0, use_db=False, time_cap=0.0)
    cut = [r for r in report["results"] if r.get("not_reached")]
    assert cut and report["summary"]["not_reached"] == len(cut)
    assert all(r["status"] == "skipped" for r in cut)


def _new_failures(oracles, seed):
    report = run_campaign(against=oracles, max_examples=DEMO_CASES, seed=seed, use_db=False)
    new = [f"{r['check']} vs {r['oracle']}: {r['counterexample']} ({r['message'][:200]})"
           for r in report["results"]
           if r["status"] in ("fail", "error") and (not r["known_finding"] or r.get("answer_checked") is False)]
    return report, new


def _pycute_lacks():
    """The ops pycute's adapter reports unsupported."""
    import pycute
    from layoutcheck.oracles.protocol import ANSWERS
    from layoutcheck.oracles.pyapi import PyApi
    api = PyApi(pycute, name="pycute")
    lacks = {op for op in ANSWERS if api.missing(op)}
    assert {"flat_divide", "dice", "congruent"} <= lacks and "composition" not in lacks
    return lacks


def _every_check_ran(report, oracles):
    """Every check ran against every oracle; a pair is skipped only where its oracle answered no
    case: pycute lacks the op (flat_divide, dice, congruent ...), or every case drawn was outside
    the check's precondition, so the impl (which has every op) skipped it too."""
    skipped = {o: {r["check"]: r for r in report["results"] if r["oracle"] == o and r["status"] == "skipped"}
               for o in oracles}
    for oracle in oracles:
        rows = [r for r in report["results"] if r["oracle"] == oracle]
        assert {r["check"] for r in rows} == {c.name for c in CHECKS}, oracle
        assert all("answered no case" in r["message"] for r in skipped[oracle].values()), \
            [(r["check"], r["message"]) for r in skipped[oracle].values()]
        if oracle == "pycute":
            lacks = _pycute_lacks()
            assert all(r["op"] in lacks or c in skipped["impl"] for c, r in skipped[oracle].items())
        ran = [r for r in rows if r["status"] != "skipped"]
        assert len(ran) >= 40 and all(r["cases"] >= 1 for r in ran), oracle


@pytest.mark.parametrize("seed", range(5))
def test_the_demo_campaign_is_green(seed):
    """What ``layoutcheck demo`` runs, on five seeds, against the Python oracles: every check
    runs, and every failure is a registered finding with its answer checked."""
    oracles = [n for n in DEMO_ORACLES if n != "cute-dsl"]
    report, new = _new_failures(oracles, seed)
    assert report["exit_status"] == 0 and not new, "\n".join(new)
    _every_check_ran(report, oracles)


@pytest.mark.skipif(not os.environ.get("LAYOUTCHECK_SLOW"), reason="about 2 minutes a seed: opt in with LAYOUTCHECK_SLOW=1")
@pytest.mark.skipif("cute-dsl" not in DEMO_ORACLES, reason="the CuTe DSL is not installed here")
@pytest.mark.parametrize("seed", range(5))
def test_the_demo_campaign_is_green_on_the_dsl(seed):
    """The same against the CuTe DSL (seed 0 is the demo's own)."""
    report, new = _new_failures(["cute-dsl"], seed)
    assert report["exit_status"] == 0 and not new, "\n".join(new)
