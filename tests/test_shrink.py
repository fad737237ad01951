"""Shrinking (fuzz/campaign/shrink.py, minimise.py): CuTe's order and moves, the search and its
bounds, and planted bugs in a ``module:`` oracle and in CuTe C++'s compiled output whose
reported cases are checked to be minimal: no case one move smaller fails the same way."""

import json

import layoutcheck.fuzz.campaign.runner as campaign
import layoutcheck.fuzz.campaign.replay as replay
import layoutcheck.fuzz.campaign.startup as startup
import pytest
from layoutcheck.fuzz.campaign.minimise import shrink_note
from layoutcheck.fuzz.campaign.shrink import (
    Shrunk,
    candidates,
    label_of,
    measure,
    same,
    shrink,
    signature,
    size_of,
    type_of,
)
from layoutcheck.fuzz.checks.base import CheckFailed
from layoutcheck.fuzz.checks.targets import decode, table
from layoutcheck.oracles import get_oracle
from layoutcheck.oracles.known import find_known
from layoutcheck.oracles.reference import case_key
from shrink_support import MINIMAL, MODULE, PlantedCpp, static

from layoutcheck.cli import main
from layoutcheck.composed import ComposedLayoutBase, Swizzle
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore


def _m(*texts):
    return measure(decode(list(texts)))


# --- the order and the moves ------------------------------------------------------------------

def test_the_order_counts_modes_then_nesting_then_values_then_static_marks():
    assert _m("8:1") < _m("(2,2):(1,0)")               # fewer modes first
    assert _m("(9):(9)") < _m("(1,1):(0,0)")
    assert _m("2:1") < _m("(2):(1)")                   # then fewer parentheses
    assert _m("(2,2):(1,0)") < _m("(2,2):(1,1)")       # then smaller integers
    assert _m("(2,2):(1,0)") < _m("(_2,_2):(_1,_0)")   # then fewer static marks
    assert _m("(1,2):(1,0)") < _m("(2,1):(1,0)")       # then the integers left to right
    assert _m("4:1", "2") < _m("4:1", "(2)")           # tuples of every argument count
    cases = [decode([t]) for t in ("(2,2):(1,0)", "(_2,_2):(_1,_0)", "(2,2):(1,0)")]
    assert len({measure(c) for c in cases}) == 2       # static and runtime told apart


def test_every_candidate_is_smaller_sorted_and_of_the_same_kind():
    args = decode(["(_2,55,(2,1)):(_8,2,(0,0))", "(_,(1,2))", "Sw<3,4,3> o _8 o (8,4):(4,1)"])
    cands = candidates(args)
    assert cands and all(measure(c) < measure(args) for c in cands)
    assert [measure(c) for c in cands] == sorted(measure(c) for c in cands)
    assert len({case_key(c) for c in cands}) == len(cands)
    for c in cands:  # each argument keeps its kind (a tuple may become one of its elements)
        assert isinstance(c[0], LayoutBase) and isinstance(c[2], ComposedLayoutBase)
        assert isinstance(c[1], (tuple, Underscore, int))
    texts = {str(c[0]) for c in cands if c[1:] == args[1:]}
    # drop a mode, unnest, splice, halve, decrement, divide by a factor, stride 0 / 1, unmark
    for want in ("(_2,(2,1)):(_8,(0,0))", "(_2,55,(2)):(_8,2,(0))", "(_2,55,2,1):(_8,2,0,0)",
                 "55:2", "(_2,27,(2,1)):(_8,2,(0,0))", "(_2,54,(2,1)):(_8,2,(0,0))",
                 "(_2,11,(2,1)):(_8,2,(0,0))", "(_2,5,(2,1)):(_8,2,(0,0))",
                 "(_2,55,(2,1)):(_0,2,(0,0))", "(_2,55,(2,1)):(_8,1,(0,0))",
                 "(2,55,(2,1)):(_8,2,(0,0))"):
        assert want in texts, want
    assert "(_2,56,(2,1)):(_8,2,(0,0))" not in texts
    sw = [c[2].outer for c in cands if c[2].outer != args[2].outer]
    assert Swizzle(2, 4, 3) in sw and Swizzle(3, 4, 3) not in sw


def test_joint_moves_drop_the_same_mode_of_a_coordinate_and_its_shape():
    args = decode(["(1,2,3)", "(4,5,6):(1,4,20)"])
    cands = {(a, str(b)) for a, b in candidates(args)}
    assert ((1, 3), "(4,6):(1,20)") in cands and ((2, 3), "(5,6):(4,20)") in cands


def test_runtime_integers_are_one_type_static_values_each_another():
    assert type_of(decode(["(4,2):(1,4)"])) == type_of(decode(["(3,2):(1,0)"]))
    assert type_of(decode(["(_4,2):(1,4)"])) != type_of(decode(["(_3,2):(1,4)"]))
    assert type_of(decode(["(4,2):(1,4)"])) != type_of(decode(["4:1"]))


def test_signatures_blank_the_values_and_keep_the_statement():
    a = CheckFailed("results disagree (strictest agreement: function: structure differs)")
    b = CheckFailed("results disagree (strictest agreement: none: sizes differ: 5 vs 4)")
    assert signature(a) == signature(b) == "results disagree"
    assert signature(CheckFailed("L(R(12)) != 12")) == signature(CheckFailed("L(R(3)) != 3"))
    x = CheckFailed("pycute rejects an input the spec accepts", {"pycute": "AssertionError (no message)"})
    y = CheckFailed("pycute rejects an input the spec accepts", {"pycute": "ValueError: no"})
    assert label_of(x, None, "pycute") != label_of(y, None, "pycute")
    assert label_of(x) == label_of(y)
    known = label_of(x, "F-070", "pycute")
    assert same(known, label_of(y, "F-070", "pycute")) and not same(known, label_of(y, None, "pycute"))
    assert not same(label_of(x, None, "pycute"), known)  # a new failure never shrinks into a known one
    assert label_of(RuntimeError("x"))[0] == "error:RuntimeError"


# --- the search ----------------------------------------------------------------------------------

def _coalesce_bug(L):
    """The planted bug as a pure function: does coalesce(L) lose a trailing (2, 0) mode?"""
    shape, stride = [], []
    for s, d in zip(map(int, _flat(L.shape)), map(int, _flat(L.stride))):
        if s == 1:
            continue
        if shape and stride[-1] * shape[-1] == d:
            shape[-1] *= s
        else:
            shape.append(s)
            stride.append(d)
    return len(shape) > 1 and shape[-1] == 2 and stride[-1] == 0


def _flat(t):
    return [x for e in t for x in _flat(e)] if isinstance(t, tuple) else [t]


def _judge(cases):
    label = ("fail", "coalesce changed the layout function", None)
    return [(label, None) if _coalesce_bug(c[0]) else None for c in cases]


def test_the_search_reaches_the_smallest_case_and_says_how():
    first = decode(["(_2,55,(2,1)):(_8,2,(0,0))"])
    out = shrink(first, None, _judge, ("fail", "coalesce changed the layout function", None))
    assert str(out.minimal[0]) == MINIMAL and out.cut is None and out.first == first
    assert out.steps >= 2 and out.candidates >= out.steps and out.rounds >= out.steps
    row = out.row()
    assert row["first"] == ["(_2,55,(2,1)):(_8,2,(0,0))"] and row["size"] == size_of(out.minimal)
    assert row["first_size"]["modes"] == 4 and row["size"] == {"modes": 2, "tuples": 1,
                                                               "largest": 2, "statics": 0}
    # deterministic: the same first case gives the same minimal one, step by step
    again = shrink(first, None, _judge, ("fail", "coalesce changed the layout function", None))
    assert (again.minimal, again.steps, again.candidates) == (out.minimal, out.steps, out.candidates)


def test_a_bound_cuts_the_search_and_the_row_says_so_and_it_resumes():
    first = decode(["(_2,55,(2,1)):(_8,2,(0,0))"])
    label = ("fail", "coalesce changed the layout function", None)
    cut = shrink(first, None, _judge, label, until=0.0)
    assert cut.cut == "time" and cut.minimal == first and cut.steps == 0
    assert "shrinking cut by its time bound after 0 steps" in shrink_note(cut)
    few = shrink(first, None, _judge, label, max_candidates=3)
    assert few.cut == "candidates" and few.candidates == 3
    done = shrink(first, None, _judge, label, resume=cut)
    assert done is cut and done.cut is None and str(done.minimal[0]) == MINIMAL
    assert shrink_note(done) == ""


# --- planted bugs: a module oracle and CuTe C++ ------------------------------------------------

def _local_minimum(oracle, minimal):
    """No case one move smaller than ``minimal`` makes coalesce change the function (the
    law, evaluated here on the oracle's own answers)."""
    cands = [c for c in candidates(decode(minimal))]
    outs = oracle.run_many([("coalesce", (c[0],)) for c in cands])
    bad = [str(c[0]) for c, o in zip(cands, outs)
           if o.kind == "ok" and table(o.value) != table(c[0])]
    return not bad, bad


@pytest.fixture
def planted_module(tmp_path, monkeypatch):
    (tmp_path / "lc_planted_coalesce.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return "module:lc_planted_coalesce"


@pytest.mark.parametrize("seed", [1, 2])
def test_a_module_bug_comes_out_minimal_within_a_short_budget(planted_module, tmp_path, seed,
                                                               capsys):
    rep, page = tmp_path / "r.json", tmp_path / "r.html"
    rc = main(["fuzz", "--against", planted_module, "--checks", "law.coalesce.function",
               "--budget", "20", "--seed", str(seed), "--no-db", "--report", str(rep),
               "--html", str(page)])
    out = capsys.readouterr().out
    assert rc == 1
    (row,) = json.loads(rep.read_text())["results"]
    assert row["counterexample"] == [MINIMAL] and row["shrink"]["cut"] is None, row
    assert row["first_counterexample"] != [MINIMAL] and "not shrunk" not in row["message"]
    assert f"counterexample: {MINIMAL}" in out and "found as: " in out
    assert f"--case law.coalesce.function '{MINIMAL}'" in row["replay"]
    html = page.read_text()
    assert f'<code class="case">coalesce({MINIMAL})</code>' in html
    assert f'<code class="first">coalesce({row["first_counterexample"][0]})</code>' in html
    ok, bad = _local_minimum(get_oracle(planted_module), row["counterexample"])
    assert ok, bad


def test_a_module_bug_is_minimal_with_max_examples_too_and_replays(planted_module, tmp_path):
    rep = campaign.run_campaign(oracles=[planted_module], checks=["law.coalesce.function"],
                                max_examples=200, seed=3, use_db=False)
    (row,) = rep["results"]
    assert row["counterexample"] == [MINIMAL] and row["shrink"]["cut"] is None
    again = campaign.run_campaign(oracles=[planted_module], checks=["law.coalesce.function"],
                                  max_examples=200, seed=3, use_db=False)
    drop = lambda how: {k: v for k, v in how.items() if k != "seconds"}  # noqa: E731
    assert drop(again["results"][0]["shrink"]) == drop(row["shrink"])  # a function of the seed
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rep))
    replayed = replay.replay_report(str(path))["results"][0]
    assert replayed["counterexample"] == [MINIMAL] and replayed["shrink"] is None  # as given


CPP = get_oracle("cute-cpp")


@pytest.mark.skipif(bool(CPP.unavailable_reason()), reason=str(CPP.unavailable_reason()))
def test_a_bug_in_cute_cpps_output_comes_out_minimal(monkeypatch, tmp_path):
    """The bug planted in the answers of the real compiled kernels: the candidates of each
    shrinking round go through the driver and the compiler in batches, and the case reported
    is the smallest for CuTe C++, which keeps a runtime size-1 mode: ``(1,2):(0,0)``, one
    smaller than the module's ``(2,2):(1,0)`` (which fails here too)."""
    monkeypatch.chdir(tmp_path)
    oracle = PlantedCpp()
    real = startup.get_oracle
    monkeypatch.setattr(startup, "get_oracle", lambda n: oracle if n == "cute-cpp" else real(n))
    runs = []
    count = oracle.run_many
    monkeypatch.setattr(oracle, "run_many", lambda cases: runs.append(len(cases)) or count(cases))
    rep = campaign.run_campaign(oracles=["cute-cpp"], checks=["law.coalesce.function"],
                                max_examples=100, seed=2, use_db=False)
    (row,) = rep["results"]
    assert row["status"] == "fail" and row["shrink"]["cut"] is None, row
    assert row["counterexample"] == ["(1,2):(0,0)"] and row["shrink"]["steps"] >= 1
    assert row["first_counterexample"] != row["counterexample"]
    assert max(runs) > 1  # candidates answered in batches
    ok, bad = _local_minimum(oracle, row["counterexample"])
    assert ok, bad
    assert measure(decode(row["counterexample"])) < measure(decode([MINIMAL]))
    for text in (MINIMAL, static(MINIMAL)):  # the module's minimal case fails here too
        (out,) = oracle.run_many([("coalesce", decode([text]))])
        assert table(out.value) != table(decode([text])[0]), text


# --- known findings and the register ------------------------------------------------------------

def test_a_known_findings_case_shrinks_into_the_same_finding():
    rep = campaign.run_campaign(oracles=["pycute"], checks=["diff.composition"], max_examples=40,
                                seed=1, use_db=False)
    (row,) = rep["results"]
    assert row["known_finding"] == "F-070" and row["shrink"]["cut"] is None, row
    args = decode(row["counterexample"])
    out = get_oracle("pycute").run("composition", *args)
    assert find_known("pycute", "composition", "diff.composition", args, out) == "F-070"
    assert measure(args) < measure(decode(row["first_counterexample"]))


def test_with_the_register_off_every_failure_is_new(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    rc = main(["fuzz", "--against", "pycute", "--checks", "diff.composition",
               "--max-examples", "40", "--seed", "1", "--no-db", "--no-findings"])
    out = capsys.readouterr().out
    assert rc == 1 and out.startswith("FAIL diff.composition [pycute]") and "KNOWN" not in out


def test_an_unshrunk_row_of_nothing_still_reads():
    assert static("(2,2):(1,0)") == "(_2,_2):(_1,_0)"
    assert isinstance(decode([static("4:1")])[0].shape, C)
    assert Shrunk((), ()).row()["size"] == {"modes": 0, "tuples": 0, "largest": 0, "statics": 0}


def test_a_harness_error_on_some_candidates_leaves_out_only_those():
    """A chunk the oracle cannot build (a harness error, not the case's failure) is judged by
    halves: the candidates it fails on count as not failing, the others are judged."""
    label = ("fail", "two modes", None)
    bad = {"(1,1):(0,0)"}

    def judge(cases):
        if any(str(c[0]) in bad for c in cases):
            raise RuntimeError("the generated program does not compile")
        return [(label, None) if isinstance(c[0].shape, tuple) and len(c[0].shape) == 2 else None
                for c in cases]
    out = shrink(decode(["(4,4,4):(1,4,16)"]), None, judge, label)
    assert out.cut is None and str(out.minimal[0]) in ("(1,1):(0,1)", "(1,1):(1,0)"), out.minimal
