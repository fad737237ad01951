"""The fuzz gate (every property on the demo's seeds: tests/test_ci_mode.py): the CLI contract, replay, and a broken
module caught with a shrunk counterexample."""

import json
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET

import pytest
from layoutcheck.fuzz.campaign.runner import run_campaign
from layoutcheck.fuzz.checks.catalogue import CHECKS
from layoutcheck.fuzz.checks.targets import decode, encode, table
from layoutcheck.oracles import get_oracle
from layoutcheck.oracles.known import find_known

from layoutcheck.cli import main
from layoutcheck.findings import load
from layoutcheck.layout import LayoutBase

# A realistic bug: coalesce merges two modes when s_i * d_i == d_{i+1} is *not* checked,
# but d_i == d_{i+1} is (a typo-level mistake in the merge condition).
BROKEN = textwrap.dedent("""
    from pycute import *
    from pycute import flatten, Layout

    def coalesce(layout, profile=None):
        shape, stride = [1], [0]
        for s, d in zip(flatten(layout.shape), flatten(layout.stride)):
            if s == 1:
                continue
            if shape[-1] == 1:
                shape[-1], stride[-1] = s, d
            elif stride[-1] == d:          # BUG: should be shape[-1] * stride[-1] == d
                shape[-1] = shape[-1] * s
            else:
                shape.append(s)
                stride.append(d)
        if len(shape) == 1:
            return Layout(shape[0], stride[0])
        return Layout(tuple(shape), tuple(stride))
""")


@pytest.fixture
def broken(tmp_path, monkeypatch):
    (tmp_path / "lc_broken_coalesce.py").write_text(BROKEN)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return "module:lc_broken_coalesce"


def _fuzz(*argv):
    return main(["fuzz", *argv])


def test_broken_module_is_caught_with_a_shrunk_case_and_replayed(broken, tmp_path, capsys):
    rep, junit = tmp_path / "r.json", tmp_path / "j.xml"
    rc = _fuzz("--against", broken, "--ops", "coalesce", "--max-examples", "40", "--no-db",
               "--report", str(rep), "--junit", str(junit))
    out = capsys.readouterr().out
    assert rc == 1
    report = json.loads(rep.read_text())
    # the report schema of the issue
    assert {"command", "seed", "budget_s", "oracles", "results", "summary"} <= set(report)
    assert report["oracles"] == {broken: "available"}
    for r in report["results"]:
        assert {"check", "op", "oracle", "status", "cases", "counterexample",
                "known_finding", "cases_per_s"} <= set(r)
        assert r["status"] in ("pass", "fail", "error", "skipped")
    fails = [r for r in report["results"] if r["status"] == "fail"]
    assert fails and report["summary"]["new_failures"] == len(fails)
    # the counterexample is real and minimal-ish: the bug needs two modes of equal stride
    for r in fails:
        L = decode(r["counterexample"])[0]  # coalesce(L) or coalesce(L, profile)
        assert len(str(L)) <= 16, r["counterexample"]
        assert r["replay"].startswith(f"layoutcheck fuzz --against {broken} --case {r['check']}")
        assert r["counterexample"][0] in out
    law = next(r for r in fails if r["check"] == "law.coalesce.function")
    (L,) = decode(law["counterexample"])
    bad = get_oracle(broken).run("coalesce", L).value
    assert table(bad) != table(L)  # the broken coalesce really changes the function
    # JUnit: one testcase per check, the failures marked
    root = ET.parse(junit).getroot()
    cases = root.findall(".//testcase")
    assert len(cases) == len(report["results"])
    assert len(root.findall(".//failure")) == len(fails)
    # --replay reruns the report's counterexamples and fails again
    assert _fuzz("--replay", str(rep), "--no-db") == 1
    # --case reruns one line of it
    assert _fuzz("--against", broken, "--case", law["check"], *law["counterexample"]) == 1


def test_example_database_replays_failures_first(broken, tmp_path):
    r1 = run_campaign(oracles=[broken], checks=["law.coalesce.function"], max_examples=40)
    db = tmp_path / ".layoutcheck" / "failures.json"
    assert db.exists()
    stored = json.loads(db.read_text())["entries"]
    assert stored[0]["inputs"] == r1["results"][0]["counterexample"]
    r2 = run_campaign(oracles=[broken], checks=["law.coalesce.function"], max_examples=40, seed=99)
    assert r2["results"][0]["counterexample"] == r1["results"][0]["counterexample"]
    assert r2["results"][0]["cases"] == 1  # found by the replay, before any fuzzing


def test_same_seed_and_max_examples_give_the_same_run(broken):
    kw = dict(oracles=[broken, "impl"], ops=["coalesce", "filter"], max_examples=25,
              use_db=False, seed=7)
    a, b = run_campaign(**kw), run_campaign(**kw)
    strip = lambda rep: [(r["check"], r["oracle"], r["status"], r["cases"], r["counterexample"])  # noqa: E731
                         for r in rep["results"]]
    assert strip(a) == strip(b)


def test_jobs_shard_by_seed_and_merge(broken):
    rep = run_campaign(oracles=[broken], checks=["law.coalesce.function", "law.coalesce.minimal"],
                       max_examples=120, use_db=False, jobs=2)
    assert [r["check"] for r in rep["results"]] == ["law.coalesce.function", "law.coalesce.minimal"]
    assert rep["results"][0]["status"] == "fail" and rep["exit_status"] == 1
    assert all(r["cases"] >= 1 for r in rep["results"])


def test_laws_catch_a_bug_without_the_spec(broken):
    rep = run_campaign(oracles=[broken], ops=["coalesce"], kinds=["law"], max_examples=40,
                       use_db=False)
    assert rep["summary"]["new_failures"] >= 1


@pytest.mark.parametrize("argv, why", [
    (["--against", "no-such-oracle"], "unknown oracle"),
    (["--against", "module:"], "bad oracle name"),
    (["--budget", "0"], "--budget must be positive"),
    (["--max-examples", "0"], "--max-examples must be at least 1"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--ops", "no_such_op"], "no check matches"),
    (["--replay", "/nonexistent/report.json"], "cannot read report"),
    (["--against", "pycute", "--case", "no.such.check", "8:1"], "unknown check"),
])
def test_usage_errors_exit_2_with_one_line(argv, why, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert _fuzz(*argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and why in err[0], err


def test_unavailable_oracle_skips_everything_and_exits_2(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    rep = tmp_path / "r.json"
    assert _fuzz("--against", "module:no_such_module_xyz", "--ops", "coalesce",
                 "--max-examples", "3", "--report", str(rep)) == 2
    report = json.loads(rep.read_text())
    assert "not installed" in report["oracles"]["module:no_such_module_xyz"]
    assert all(r["status"] == "skipped" for r in report["results"])


def test_clean_oracle_exits_0(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert _fuzz("--against", "impl", "--ops", "coalesce", "--max-examples", "10") == 0


def test_counterexamples_round_trip_through_text():
    args = (LayoutBase.parse("(2,(3,_4)):(1,(2,6))"),
            (LayoutBase.parse("2:1"), 4, LayoutBase.parse("(2,2):(1,8)")), 5)
    assert decode(encode(args)) == args
    assert encode(decode(encode(args))) == encode(args)


def test_pytest_plugin_runs_the_gate(broken, tmp_path):
    (tmp_path / "test_user.py").write_text("def test_user():\n    assert True\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_user.py",
         f"--layoutcheck={broken}", "--layoutcheck-ops=coalesce", "--layoutcheck-max-examples=60"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={**__import__("os").environ, "PYTHONPATH": str(tmp_path)})
    out = proc.stdout
    assert proc.returncode == 1, out
    assert "layoutcheck::module:lc_broken_coalesce::law.coalesce.function" in out
    assert "counterexample:" in out and "replay: layoutcheck fuzz" in out
    assert " 1 passed" in out or "passed" in out


FINDINGS = {  # id -> (op, check, inputs, what pycute does)
    "F-070": ("composition", "diff.composition", ("(4,6):(8,0)", "3:5"), "raised"),
    "F-071": ("composition", "law.composition.pointwise", ("(4,2):(1,8)", "5:1"), "4:1"),
    "F-072": ("logical_product", "law.logical_product.modes", ("2:4", "_5:_1"), "(2,4):(4,1)"),
    "F-073": ("right_inverse", "diff.right_inverse", ("(2,2):(0,1)",), "1:0"),
    "F-074": ("left_inverse", "diff.left_inverse", ("(2,2):(1,3)",), "2:1"),
    "F-075": ("complement", "diff.complement", ("(2,2):(1,3)", "8"), "2:6"),
    "F-076": ("logical_product", "diff.logical_product", ("(2,2):(1,2)", "3"), "(3,2):(1,3)"),
    "F-077": ("zipped_product", "diff.zipped_product", ("_2:_3", "(12,1):(4,4)"), "raised"),
}


@pytest.mark.parametrize("fid", sorted(FINDINGS))
def test_pycute_findings_reproduce(fid):
    """Each registered pycute finding still happens, and the register recognises it."""
    import layoutcheck.oracles.pycute_wheel.findings.algebra  # noqa: F401  (registers the predicates)
    assert any(f["id"] == fid for f in load())
    op, check, texts, observed = FINDINGS[fid]
    args = decode(texts)
    out = get_oracle("pycute").run(op, *args)
    if observed == "raised":
        assert out.kind == "raised"
    else:
        assert out.kind == "ok" and str(out.value) == observed
    assert find_known("pycute", op, check, args, out) == fid


@pytest.mark.slow
def test_mutants_of_pycute_are_caught(tmp_path):
    """A few mutants from the mutation script: the unpatched copy passes, bugs are caught."""
    from layoutcheck.fuzz.mutation.pycute import MUTANTS, run_one
    base = ("M00", None, "", "", "-", "unpatched")
    assert not run_one(tmp_path, base, 10, 0)["caught"]
    for m in (x for x in MUTANTS if x[0] in ("M01", "M18", "M25", "M34")):
        r = run_one(tmp_path, m, 15, 0)
        assert r["caught"], r


@pytest.mark.slow
@pytest.mark.parametrize("oracle, op, texts", [
    ("cute-cpp", "complement", ("(2):(0)", "4")),       # SIGFPE on a dynamic stride 0
    ("cute-cpp", "coalesce", ("(1):(1)",)),             # a dynamic size-1 mode is kept
    ("cute-dsl", "complement", ("(46,4):(1,47)", "162")),  # no complementability check
])
def test_cute_findings_reproduce(oracle, op, texts):
    """Disagreements the fuzzer found in CuTe C++ and the DSL still happen and are registered."""
    import layoutcheck.oracles.pycute_wheel.findings.algebra  # noqa: F401
    o = get_oracle(oracle)
    if o.unavailable_reason():
        pytest.skip(o.unavailable_reason())
    args = decode(texts)
    from layoutcheck.oracles.reference import reference_for
    spec_out = reference_for(oracle, get_oracle("spec")).run(op, *args)  # spec, CuTe's sense
    out = o.run(op, *args)
    assert (out.kind, str(out.value)) != (spec_out.kind, str(spec_out.value))
    check = "law.coalesce.minimal" if op == "coalesce" else f"diff.{op}"
    assert find_known(oracle, op, check, args, out, spec_out) is not None
