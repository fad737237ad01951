"""A known finding is exactly its answer, a crash finding knows its crash, and a finding that
can only be recognised by a property is a "known region, answer not checked".

* NVlabs PyCuTe's copies with one line changed (the mutation table's NV11 and NV12): a
  different weak complement in F-143's region is a disagreement, not F-143; an invalid layout
  where the spec refuses is garbage, not a refusal (``layoutcheck op`` and the fuzz check
  agree).
* The DSL's SIGFPE on a zero-size complement is F-125 in ``op`` and in the campaign; another
  death there (another signal, a hang) is an error.
* A symptom marked ``@unchecked_symptom`` makes a failure "known region": counted apart in the
  summary, the JSON and JUnit reports and the HTML page, exit 1 unless ``--accept-regions``.
"""

import json
import shutil

import pytest
from layoutcheck.cli import main
from layoutcheck.fuzz.campaign.recognise import known_failure
from layoutcheck.fuzz.campaign.report import exit_status, junit_xml, summary, summary_lines
from layoutcheck.fuzz.checks.base import OracleCrashed
from layoutcheck.fuzz.checks.catalogue import BY_NAME
from layoutcheck.oracles import compare, get_oracle, parse_args
from layoutcheck.oracles.known import SYMPTOMS, answer_checked, explain, find_known, unchecked_tables, verdict
from layoutcheck.oracles.nvlabs.oracle import locate
from layoutcheck.oracles.predicates import checks_answer, crashed_with, unchecked_symptom
from layoutcheck.oracles.protocol import Outcome
from layoutcheck.oracles.reference import reference_for
from layoutcheck.reports.html import render

from layoutcheck.layout import LayoutBase

P = LayoutBase.parse
PKG, HOW = locate()
needs_snapshot = pytest.mark.skipif(PKG is None, reason=f"NVlabs PyCuTe not here: {HOW}")


# --- NVlabs: a different wrong answer in a known region, garbage where the spec refuses ----------

def _patched_copy(tmp_path, old, new):
    """A copy of the located NVlabs snapshot with one line of pycute/layout.py replaced."""
    root = tmp_path / "nvcopy"
    shutil.copytree(PKG.parent if PKG.name == "pycute" else PKG, root)
    layout = root / "pycute" / "layout.py"
    text = layout.read_text()
    assert text.count(old) == 1, old
    layout.write_text(text.replace(old, new))
    return root


@needs_snapshot
def test_F143_is_the_floored_gap_and_a_rounded_up_gap_is_new(tmp_path, capsys):
    """complement((2,2):(1,5)): PyCuTe's weak complement floors the gap 5/2 (F-143: (2,1):(2,10));
    the copy that rounds it up answers (3,1):(2,10), also ordered and disjoint below the bound,
    which a property-only symptom took for F-143."""
    args = parse_args("complement", ["(2,2):(1,5)"])
    ref = get_oracle("spec", sense="cute").run("complement", *args)
    assert find_known("nvlabs", "complement", "agreement", args, Outcome.ok(P("(2,1):(2,10)")), ref) == "F-143"
    assert explain("nvlabs", "complement", "agreement", args, Outcome.ok(P("(3,1):(2,10)")), ref) is None
    assert main(["op", "complement", "(2,2):(1,5)", "--against", "nvlabs"]) == 0
    assert "known F-143" in capsys.readouterr().out
    copy = _patched_copy(tmp_path, "result_s.append(d // result_d[-1])", "result_s.append(-(-d // result_d[-1]))")
    assert main(["op", "complement", "(2,2):(1,5)", "--against", f"nvlabs:{copy}"]) == 1
    out = capsys.readouterr().out
    assert "(3,1):(2,10)" in out and "disagree" in out and "F-143" not in out


@needs_snapshot
def test_an_invalid_layout_where_the_spec_refuses_is_no_refusal(tmp_path, capsys):
    """The copy without complement's injectivity check answers the malformed (0,1):(3,4) for
    (3,2):(1,2): ``op`` grades it ``none`` and exits 1, as ``fuzz --case`` does."""
    copy = _patched_copy(tmp_path, "if is_static(d) and is_static(result_d[-1]) and d < result_d[-1]:",
                         "if False:")
    oracle = f"nvlabs:{copy}"
    assert main(["op", "complement", "(3,2):(1,2)", "--against", oracle, "--json"]) == 1
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    row = next(r for r in rows if r["oracle"] == oracle)
    assert row["verdict"] == "disagree" and row["level"] == "none", row
    assert "(0, 1):(3, 4)" in row["message"]
    assert main(["fuzz", "--against", oracle, "--no-db", "--case", "diff.complement", "(3,2):(1,2)"]) == 1
    capsys.readouterr()
    assert main(["op", "complement", "(3,2):(1,2)", "--against", "nvlabs"]) == 0  # the snapshot refuses


def test_compare_grades_garbage_below_a_refusal():
    ref = Outcome.raised("not complementable [condition is_complementable]")
    garbage = Outcome.raised("returned an invalid layout (0, 1):(3, 4): shape entry at mode (0) is 0")
    c = compare("complement", (P("(3,2):(1,2)"),), ref, garbage)
    assert c.level == "none" and c.ok is False
    assert compare("complement", (P("(3,2):(1,2)"),), ref, Outcome.raised("ValueError: no")).level == "both-raised"


# --- crashes: a crash finding's own death is known, any other death is an error -----------------

DEMO_CASE = ("logical_divide", ["(_8,_16):(_1,_4)", "(_2,_64):(_2,_3)"])  # F-125: SIGFPE at trace time (static integers)


def test_a_crash_is_known_only_with_its_findings_signal():
    op, texts = DEMO_CASE
    args = parse_args(op, texts)
    ref = get_oracle("spec", sense="cute").run(op, *args)
    assert find_known("cute-dsl", op, "agreement", args, Outcome.crashed("killed by SIGFPE on this case"), ref) == "F-125"
    for other in ("killed by SIGSEGV on this case", "no answer within 30 s (the worker was stopped)",
                  "killed by SIGFPE before this case", "it exited with status 1 on this case"):
        assert find_known("cute-dsl", op, "agreement", args, Outcome.crashed(other), ref) is None, other
    outside = parse_args(op, ["(8,16):(1,4)", "(_2,_64):(1,2)"])  # a complementable divisor
    assert find_known("cute-dsl", op, "agreement", outside, Outcome.crashed("killed by SIGFPE on this case"),
                      get_oracle("spec", sense="cute").run(op, *outside)) is None
    assert crashed_with(Outcome.crashed("killed by signal 8 on this case"), "SIGFPE")


class _Crashing:
    """An oracle whose worker dies on every case (a real death is run by the DSL test below)."""

    def __init__(self, name, message):
        self.name, self.message, self.calls = name, message, 0

    def run(self, op, *args):
        self.calls += 1
        return Outcome.crashed(self.message)


class _Ctx:
    def __init__(self, oracle):
        self.oracle, self.spec = oracle, reference_for("cute-dsl", get_oracle("spec"))


@pytest.mark.parametrize("message, known", [("killed by SIGFPE on this case", "F-125"),
                                            ("killed by SIGABRT on this case", None)])
def test_the_campaign_recognises_a_crash_without_running_it_again(message, known):
    op, texts = DEMO_CASE
    args = parse_args(op, texts)
    ctx = _Ctx(_Crashing("cute-dsl", message))
    check = BY_NAME["diff.logical_divide"]
    with pytest.raises(OracleCrashed) as e:
        check.run(ctx, args)
    rec = known_failure(check, ctx, args, e.value)
    assert rec.finding == known and rec.checked
    assert ctx.oracle.calls == 1  # the crashed call's answer came from the failure


def test_a_crash_that_no_crash_finding_explains_stays_an_error(monkeypatch):
    from layoutcheck.fuzz.campaign.runner import run_check
    ctx_oracle = _Crashing("cute-dsl", "killed by SIGABRT on this case")
    ctx_oracle.unavailable_reason = lambda: None
    row = run_check(BY_NAME["diff.logical_divide"], ctx_oracle, get_oracle("spec"), max_examples=0,
                    replays=[list(DEMO_CASE[1])])
    assert row["status"] == "error" and row["known_finding"] is None, row
    ok = _Crashing("cute-dsl", "killed by SIGFPE on this case")
    ok.unavailable_reason = lambda: None
    row = run_check(BY_NAME["diff.logical_divide"], ok, get_oracle("spec"), max_examples=0,
                    replays=[list(DEMO_CASE[1])])
    assert row["status"] == "fail" and row["known_finding"] == "F-125" and row["answer_checked"] is True, row


def test_the_dsl_sigfpe_is_F125_in_op_and_in_the_gate(capsys):
    dsl = get_oracle("cute-dsl")
    if dsl.unavailable_reason():
        pytest.skip(f"cute-dsl: {dsl.unavailable_reason()}")
    op, texts = DEMO_CASE
    assert main(["op", op, *texts, "--against", "cute-dsl"]) == 0
    assert "known F-125 (crashed)" in capsys.readouterr().out
    assert main(["fuzz", "--against", "cute-dsl", "--no-db", "--case", f"diff.{op}", *texts]) == 0
    assert "KNOWN F-125" in capsys.readouterr().out


# --- a known region whose answer is not checked ----------------------------------------------------

def test_every_symptom_says_whether_it_checks_the_answer():
    for name, fn in SYMPTOMS.items():
        assert checks_answer(fn) in (True, False), name
        if not checks_answer(fn):
            assert fn.unchecked_reason, name
    assert all(not answer_checked(m) for _, m in unchecked_tables())
    with pytest.raises(ValueError):
        unchecked_symptom("")


@pytest.fixture
def weak_F071(monkeypatch):
    """F-071's pycute table with a symptom that accepts any layout of the wrong size (the kind
    of property-only symptom the register had), marked unchecked."""
    @unchecked_symptom("a test's weak symptom: any answer of the wrong size")
    def weak(inputs, answer, reference):
        return answer.kind == "ok"
    monkeypatch.setitem(SYMPTOMS, "pycute_answer", weak)
    return weak


def test_an_unchecked_symptom_makes_a_known_region(weak_F071):
    A, B = P("(4,2):(1,8)"), P("5:1")
    ref = get_oracle("spec", sense="cute").run("composition", A, B)
    wrong = Outcome.ok(P("5:2"))  # not pycute's 4:1
    hit = explain("pycute", "composition", "agreement", (A, B), wrong, ref)
    assert hit[0]["id"] == "F-071" and not answer_checked(hit[1])
    assert find_known("pycute", "composition", "agreement", (A, B), wrong, ref) is None
    c = compare("composition", (A, B), ref, wrong)
    assert verdict("pycute", "composition", (A, B), c, wrong, ref) == ("known region", "F-071")


def _report(rows, accept=False):
    rep = {"results": rows, "summary": summary(rows, 1.0), "accept_regions": accept, "command": "t",
           "oracles": {"pycute": "available"}}
    rep["exit_status"] = exit_status(rep)
    return rep


def _row(**kw):
    r = {"check": "diff.composition", "op": "composition", "kind": "differential", "oracle": "pycute",
         "status": "fail", "cases": 3, "seconds": 0.1, "cases_per_s": 30.0, "message": "m",
         "counterexample": ["(4,2):(1,8)", "5:1"], "answers": {"pycute": "5:2"}, "replay": "r",
         "known_finding": "F-071", "answer_checked": True}
    r.update(kw)
    return r


def test_a_known_region_is_counted_apart_and_fails_the_gate_unless_accepted():
    known, region = _row(), _row(check="law.composition.pointwise", answer_checked=False)
    rep = _report([known, region])
    s = rep["summary"]
    assert (s["known"], s["known_unchecked"], s["new_failures"]) == (1, 1, 0)
    assert rep["exit_status"] == 1 and _report([known, region], accept=True)["exit_status"] == 0
    assert _report([known])["exit_status"] == 0
    assert "1 known findings, 1 known regions (answer not checked)" in summary_lines(rep)[0]
    xml = junit_xml(rep)
    assert xml.count("<failure") == 1 and 'type="known-region"' in xml and "answer not checked" in xml
    assert "<failure" not in junit_xml(_report([known, region], accept=True))
    page = render(rep)
    assert 'data-verdict="region"' in page and "KNOWN REGION F-071 (answer not checked)" in page
    assert "1 known regions (answer not checked)" in page


def test_the_gate_reports_a_known_region(weak_F071, tmp_path, capsys):
    """``fuzz --case``: a different wrong answer in F-071's region, recognised only by the weak
    symptom, is a known region: exit 1, or 0 with --accept-regions; the JSON report counts it."""
    import textwrap
    if get_oracle("pycute").unavailable_reason():
        pytest.skip("pycute is not installed")
    (tmp_path / "lc_region_copy.py").write_text(textwrap.dedent('''
        import pycute as _p
        from pycute import *  # noqa: F401,F403

        def composition(A, B):
            R = _p.composition(A, B)
            if not isinstance(B, (int, tuple)) and B is not None and _p.size(R) != _p.size(B):
                return _p.Layout(_p.size(B), 2)
            return R
        '''))
    import sys
    sys.path.insert(0, str(tmp_path))
    try:
        report = tmp_path / "r.json"
        base = ["fuzz", "--against", "module:lc_region_copy@pycute", "--no-db", "--report", str(report),
                "--case", "diff.composition", "(4,2):(1,8)", "5:1"]
        assert main(base) == 1
        out = capsys.readouterr().out
        assert "KNOWN REGION F-071 (answer not checked)" in out
        rep = json.loads(report.read_text())
        assert rep["summary"]["known_unchecked"] == 1 and rep["results"][0]["answer_checked"] is False
        assert main(base + ["--accept-regions"]) == 0
        capsys.readouterr()
        assert main(["op", "composition", "(4,2):(1,8)", "5:1", "--against", "module:lc_region_copy@pycute"]) == 1
        assert "KNOWN REGION F-071" in capsys.readouterr().out
        assert main(["op", "composition", "(4,2):(1,8)", "5:1", "--against", "module:lc_region_copy@pycute",
                     "--accept-regions"]) == 0
    finally:
        sys.path.remove(str(tmp_path))


def test_the_answers_a_model_cannot_recompute_are_known_regions():
    """The two answers docs/findings.md lists as "answer not checked": a CuTe C++ rejection that
    g++ reports without the static_assert the model names (which of CuTe's checks fired is not
    visible), and the DSL's refusal in F-125's region (the model does not say whether the DSL
    refuses or dies, and its refusal names only the op's family)."""
    spec = get_oracle("spec", sense="cute")
    args = parse_args("composition", ["(_27,_6):(_2,_28)", "(_3,_3):(_55,_162)"])  # F-025
    ref = spec.run("composition", *args)
    exact = Outcome.raised("compile-time rejection: static assertion failed: Stride Divisibility Condition")
    other_line = Outcome.raised("compile-time rejection: no matching function for call to 'cute::make_layout()'")
    other_assert = Outcome.raised("compile-time rejection: static assertion failed: Shape Divisibility Condition")
    assert explain("cute-cpp", "composition", "agreement", args, exact, ref).checked
    hit = explain("cute-cpp", "composition", "agreement", args, other_line, ref)
    assert hit[0]["id"] == "F-025" and not hit.checked
    assert explain("cute-cpp", "composition", "agreement", args, other_assert, ref) is None
    assert verdict("cute-cpp", "composition", args, compare("composition", args, ref, other_line),
                   other_line, ref) == ("known region", "F-025")
    op, texts = DEMO_CASE
    args = parse_args(op, texts)
    ref = spec.run(op, *args)
    refusal = Outcome.raised("MLIRError: error: unknown: failed to perform a valid division of ...")
    hit = explain("cute-dsl", op, "agreement", args, refusal, ref)
    assert hit[0]["id"] == "F-125" and not hit.checked
    assert explain("cute-dsl", op, "agreement", args, Outcome.crashed("killed by SIGFPE on this case"), ref).checked
