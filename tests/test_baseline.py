"""`layoutcheck fuzz --baseline ORACLE`: each failure compared with another implementation's answer
on the same case.  Two copies of pycute stand in for two versions of a user's library: one
correct, and three with a size-1 coalesce bug (the same bug twice, and another wrong answer).
A failure both share is known, one only the implementation has is a regression (exit 1), one
only the baseline has is fixed (exit 0), and two different failures are a change (exit 1), in the
summary, the JSON, the JUnit XML and the HTML report."""

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from layoutcheck.fuzz.campaign.baseline import refusal_key, same_crash, same_outcome
from layoutcheck.oracles import Outcome, get_oracle

from layoutcheck.layout import LayoutBase

PYCUTE = get_oracle("pycute")
pytestmark = pytest.mark.skipif(bool(PYCUTE.unavailable_reason()), reason=str(PYCUTE.unavailable_reason()))

BAD = '''import pycute
from pycute import *  # noqa: F401,F403


def coalesce(layout, profile=None):  # a size-1 result keeps stride {stride} instead of 0
    r = pycute.coalesce(layout) if profile is None else pycute.coalesce(layout, profile)
    return pycute.Layout(1, {stride}) if pycute.size(r) == 1 and profile is None else r
'''


@pytest.fixture(scope="module")
def libs(tmp_path_factory):
    root = tmp_path_factory.mktemp("libs")
    (root / "lc_good.py").write_text("from pycute import *  # noqa: F401,F403\n")
    (root / "lc_bad.py").write_text(BAD.format(stride=1))
    (root / "lc_bad_too.py").write_text(BAD.format(stride=1))
    (root / "lc_bad_other.py").write_text(BAD.format(stride=2))
    return root


def fuzz(libs, tmp, mine, base, *extra):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(libs), os.environ.get("PYTHONPATH", "")]))
    out = {k: tmp / f"r.{k}" for k in ("json", "xml", "html")}
    p = subprocess.run([sys.executable, "-m", "layoutcheck", "fuzz", "--against", f"module:{mine}@pycute",
                        "--baseline", f"module:{base}@pycute", "--no-db", "--report", str(out["json"]),
                        "--junit", str(out["xml"]), "--html", str(out["html"]), *extra],
                       capture_output=True, text=True, env=env, cwd=tmp, timeout=300)
    return p, json.loads(out["json"].read_text()), ET.parse(out["xml"]), out["html"].read_text()


@pytest.mark.parametrize("mine, base, verdict, status", [
    ("lc_bad", "lc_good", "regression", 1),
    ("lc_good", "lc_bad", "fixed", 0),
    ("lc_bad_too", "lc_bad", "known", 0),
    ("lc_bad_other", "lc_bad", "changed", 1),
])
def test_each_verdict_in_every_report(libs, tmp_path, mine, base, verdict, status):
    p, rep, xml, page = fuzz(libs, tmp_path, mine, base, "--case", "diff.coalesce", "(1,1):(3,4)")
    assert p.returncode == status, p.stdout + p.stderr
    row = rep["results"][0]
    assert row["baseline"]["verdict"] == verdict and row["baseline"]["oracle"] == f"module:{base}@pycute"
    assert rep["baseline"][verdict] == 1 and rep["exit_status"] == status
    if verdict == "known":
        assert row["known_finding"] == f"baseline:module:{base}@pycute" and row["status"] == "fail"
    if verdict == "fixed":
        assert row["status"] == "pass" and row["baseline"]["fixed"]["counterexample"] == ["(1,1):(3,4)"]
        assert "FIXED diff.coalesce" in p.stdout
    if verdict in ("regression", "changed"):
        assert row["known_finding"] is None and f"{verdict.upper()} diff.coalesce" in p.stdout
        assert xml.find(".//failure") is not None
    props = {e.get("name"): e.get("value") for e in xml.iter("property")}
    assert props["baseline"] == f"module:{base}@pycute" and props[f"baseline.{verdict}"] == "1"
    assert f'data-baseline="{verdict}"' in page and f"module:{base}@pycute" in page
    assert "--baseline" in (row["replay"] or "--baseline")


def test_a_campaign_with_a_baseline_goes_on_past_shared_failures(libs, tmp_path):
    """The copy with the same bug: every coalesce failure is known (no exit 1), and the pair
    keeps fuzzing; the buggy copy against the correct one is a regression, shrunk."""
    p, rep, _, _ = fuzz(libs, tmp_path, "lc_bad_too", "lc_bad", "--ops", "coalesce", "--max-examples", "60",
                        "--seed", "1")
    assert p.returncode == 0, p.stdout + p.stderr
    assert rep["baseline"]["regression"] == rep["baseline"]["changed"] == 0
    p, rep, _, _ = fuzz(libs, tmp_path, "lc_bad", "lc_good", "--ops", "coalesce", "--max-examples", "60",
                        "--seed", "1")
    assert p.returncode == 1 and rep["baseline"]["regression"] >= 1
    row = next(r for r in rep["results"] if (r.get("baseline") or {}).get("verdict") == "regression")
    assert sum(map(len, row["counterexample"])) <= 12, row["counterexample"]
    assert row["shrink"] is not None and row["shrink"]["cut"] is None, row["shrink"]  # a local minimum
    assert row["first_counterexample"] == row["shrink"]["first"]
    assert row["shrink"]["steps"] > 0 and row["counterexample"] != row["first_counterexample"], row


def test_bad_baselines_are_one_line(libs, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(libs))
    for args, words in ((["--against", "pycute", "--baseline", "pycute"], "also an oracle under test"),
                        (["--against", "pycute", "--baseline", "nosuch"], "unknown oracle"),
                        (["--against", "pycute", "--baseline", "module:no_such_lib"], "unavailable")):
        p = subprocess.run([sys.executable, "-m", "layoutcheck", "fuzz", *args, "--max-examples", "2",
                            "--no-db", "--ops", "size"], capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=120)
        assert p.returncode == 2 and words in p.stderr and p.stderr.count("\n") == 1, p.stderr


def test_the_same_answer():
    L = LayoutBase.parse
    assert same_outcome(Outcome.ok(L("(2,2):(1,2)")), Outcome.ok(L("(2,2):(1,2)")), op="coalesce")
    assert not same_outcome(Outcome.ok(L("_4:_1")), Outcome.ok(L("4:1")), op="coalesce")  # staticness
    assert not same_outcome(Outcome.ok(L("4:1")), Outcome.raised("x"), op="coalesce")
    assert not same_outcome(Outcome.crashed("x"), Outcome.crashed("x"), op="coalesce")
    a = "compile-time rejection: static assertion failed: Static shape_div failure (int_tuple.hpp:372)"
    b = "compile-time rejection: static assertion failed: Static shape_div failure (int_tuple.hpp:404)"
    assert refusal_key(a) == refusal_key(b)
    assert same_outcome(Outcome.raised(a), Outcome.raised(b), op="composition")
    assert not same_outcome(Outcome.raised(a), Outcome.raised("compile-time rejection: static assertion "
                                                              "failed: Stride Divisibility Condition"),
                            op="composition")


def test_a_crash_is_compared_with_the_baseline():
    """A crash the baseline lacks is a regression whatever the register says (F-247 is a crash
    finding of the DSL); two crashes are the same only with the same message."""
    from_dsl = "cute-dsl crashed on composition: cute-dsl at run time: killed by SIGFPE (composition(1:0, 1:0))"
    from_old = from_dsl.replace("cute-dsl crashed", "cute-dsl@4.6.0 crashed")
    assert same_crash(from_dsl, from_old, ("cute-dsl", "cute-dsl@4.6.0"))
    assert not same_crash(from_dsl, from_old.replace("SIGFPE", "SIGABRT"), ("cute-dsl", "cute-dsl@4.6.0"))
    why = get_oracle("cute-dsl").unavailable_reason()
    if why:
        pytest.skip(f"the CuTe DSL is needed for a real crash: {why}")
    p = subprocess.run([sys.executable, "-m", "layoutcheck", "fuzz", "--against", "cute-dsl", "--baseline", "pycute",
                        "--no-db", "--case", "law.composition.pointwise", "(1,1):(0,0)", "1:0"],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and "REGRESSION (the register knows it as F-247)" in p.stdout, p.stdout + p.stderr
