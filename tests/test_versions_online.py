"""Versioned oracles on real releases: ``cute-cpp@3.8``, ``pycute@3.8``, ``cute-dsl@4.4.0`` are
fetched from the package index into a test cache (``$LAYOUTCHECK_TEST_CACHE``, default
``~/.cache/layoutcheck-tests``: kept between runs, so only the first run downloads) and run beside
the environment's versions.  These tests need the package index once: each skips, saying so,
when a release is not in the test cache and the index is unreachable.

What they show: F-030 came with CUTLASS 3.9 (3.8 refuses its case at compile time, as the spec
does); pycute's composition of 3.8 refuses what 4.2 answers wrongly (F-071), so against 3.8 as
a baseline that is a regression; the matrix and bisect say where; ``report --run`` calls a
compile-time refusal where the spec refuses "absent", never "present"; two processes fetching one
release download it once; the DSL of another release runs isolated from the environment's.
"""

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from layoutcheck.oracles import fetch, get_oracle, parse_args
from layoutcheck.oracles.versions import VersionError

CACHE = Path(os.environ.get("LAYOUTCHECK_TEST_CACHE") or Path.home() / ".cache" / "layoutcheck-tests")


@pytest.fixture
def cache(monkeypatch):
    monkeypatch.setenv("LAYOUTCHECK_CACHE", str(CACHE))
    return CACHE


def release(name):
    """The release in the test cache, fetched now if need be; a skip when the index is unreachable."""
    old = os.environ.get("LAYOUTCHECK_CACHE")
    os.environ["LAYOUTCHECK_CACHE"] = str(CACHE)
    try:
        return fetch.resolve(name)
    except VersionError as e:
        if "no network" in str(e) or "timed out" in str(e) or "OFFLINE" in str(e):
            pytest.skip(f"needs the package index (to fetch {name} once): {e}")
        raise
    finally:
        if old is None:
            del os.environ["LAYOUTCHECK_CACHE"]
        else:
            os.environ["LAYOUTCHECK_CACHE"] = old


def lc(*args, timeout=600):
    env = dict(os.environ, LAYOUTCHECK_CACHE=str(CACHE))
    return subprocess.run([sys.executable, "-m", "layoutcheck", *args], capture_output=True, text=True,
                          env=env, timeout=timeout)


def test_cute_cpp_of_two_releases_in_one_run():
    tree = release("cute-cpp@3.8")
    assert (tree.include_dir / "cute" / "layout.hpp").is_file() and tree.manifest()["sha256"]
    p = lc("op", "composition", "(_3,_4):(_1,_10)", "_4:_2", "--against", "cute-cpp@3.8,cute-cpp", "--json")
    rows = {r["oracle"]: r for r in map(json.loads, p.stdout.splitlines())}
    assert rows["cute-cpp@3.8"]["verdict"] == "agree" and rows["cute-cpp@3.8"]["kind"] == "raised"
    assert "Static shape_div failure" in rows["cute-cpp@3.8"]["message"]
    assert rows["cute-cpp"]["finding"] == "F-030"
    assert rows["cute-cpp@3.8"]["loaded"].startswith("nvidia-cutlass 3.8.0.0: CUTLASS 3.8.0 headers at ")


def test_pycute_regression_against_a_baseline_release(tmp_path):
    release("pycute@3.8")
    p = lc("fuzz", "--against", "pycute", "--baseline", "pycute@3.8", "--no-db", "--case",
           "diff.composition", "(4,2):(1,8)", "5:1", "--report", str(tmp_path / "r.json"))
    assert p.returncode == 1, p.stdout + p.stderr
    rep = json.loads((tmp_path / "r.json").read_text())
    b = rep["results"][0]["baseline"]
    assert (b["verdict"], b["finding"]) == ("regression", "F-071")
    assert rep["baseline"]["loaded"].startswith("nvidia-cutlass 3.8.0.0: pycute at ")
    assert "REGRESSION (the register knows it as F-071)" in p.stdout


def test_matrix_and_bisect_say_where_a_finding_came_from(tmp_path):
    release("pycute@3.8")
    release("pycute@4.2")
    p = lc("matrix", "--against", "pycute@3.8,pycute@4.2", "--findings", "F-070,F-071,F-201",
           "--json", str(tmp_path / "m.json"), "--html", str(tmp_path / "m.html"), "--cluster", "processes:2")
    assert p.returncode == 0, p.stderr
    m = json.loads((tmp_path / "m.json").read_text())["findings"]["pycute"]
    assert m["F-071"]["statuses"] == {"pycute@3.8": "absent", "pycute@4.2": "present"}
    assert (m["F-071"]["introduced_in"], m["F-070"]["introduced_in"]) == ("4.2.0.0", "<= 3.8.0.0")
    assert m["F-201"]["statuses"]["pycute@3.8"] == "different"  # a NameError before 4.2
    assert 'data-status="P"' in (tmp_path / "m.html").read_text()
    p = lc("bisect", "composition", "(4,2):(1,8)", "5:1", "--against", "pycute@3.8,pycute@4.2", "--json")
    ch = json.loads(p.stdout)["changes"][0]
    assert (ch["before"]["version"], ch["before"]["verdict"]) == ("3.8.0.0", "agree")
    assert (ch["after"]["version"], ch["after"]["finding"]) == ("4.2.0.0", "F-071")


def test_report_run_calls_a_refusal_the_spec_shares_absent():
    release("cute-cpp@3.8")
    p = lc("report", "F-030", "--run", "--against", "cute-cpp@3.8")
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr
    assert p.stdout.count("on cute-cpp@3.8: bug absent") == 2
    assert "CuTe refuses it at compile time, as the spec does" in p.stdout


def test_one_download_for_concurrent_fetches(tmp_path, monkeypatch):
    release("pycute@3.3")  # the index is reachable (or the test skips)
    monkeypatch.setenv("LAYOUTCHECK_CACHE", str(tmp_path))
    got, errors = [], []

    def one():
        try:
            got.append(fetch.fetch_cutlass("3.3.0.0"))
        except Exception as e:  # noqa: BLE001
            errors.append(e)
    threads = [threading.Thread(target=one) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len({g.root for g in got}) == 1
    stamps = {g.manifest()["fetched_at"] for g in got}
    assert len(stamps) == 1 and not list((tmp_path / "versions" / "cutlass").glob(".*"))


def test_the_dsl_of_another_release_runs_isolated():
    target = release("cute-dsl@4.4.0")
    assert "python_packages" in str(target.package_dir)
    p = lc("op", "composition", "(_3,_4):(_1,_10)", "_4:_2", "--against", "cute-dsl@4.4.0", "--json")
    row = json.loads(p.stdout.splitlines()[-1])
    assert row["oracle"] == "cute-dsl@4.4.0" and row["verdict"] == "agree" and row["kind"] == "raised"
    assert str(target.root) in row["loaded"]


def test_dsl_releases_before_4_5_say_why_they_cannot_run_runtime_integers():
    """4.4 compiles only with a GPU driver (4.2 cannot export compiled code): runtime integers
    are unsupported there, with the reason, never a wrong answer; static ones run at trace time."""
    release("cute-dsl@4.4.0")
    p = lc("op", "coalesce", "(4,8):(1,4)", "--against", "cute-dsl@4.4.0", "--json")
    row = json.loads(p.stdout.splitlines()[-1])
    assert row["kind"] == "unsupported" and row["verdict"] != "disagree", row
    assert "nvidia-cutlass-dsl 4.4.0 cannot run runtime integers" in row["message"]
    assert "cuInit" in row["message"] and "4.5 or later" in row["message"]
    p = lc("op", "coalesce", "(_4,_8):(_1,_4)", "--against", "cute-dsl@4.4.0", "--json")
    row = json.loads(p.stdout.splitlines()[-1])
    assert row["kind"] == "ok" and row["result"] == "_32:_1" and row["verdict"] == "agree", row
    p = lc("report", "F-243", "--run", "--against", "cute-dsl@4.4.0")  # its reproducer: no verdict
    assert p.returncode == 2 and "on cute-dsl@4.4.0: cannot tell" in p.stdout, p.stdout + p.stderr
    assert "cannot run runtime integers" in p.stdout


def test_the_runtime_path_of_another_release_keeps_its_own_compiled_packs(tmp_path):
    """cute-dsl@4.5 runs runtime integers through compiled code as the environment's DSL does,
    and its compiled packs live in a cache folder named by its own version."""
    release("cute-dsl@4.5")
    env = dict(os.environ, LAYOUTCHECK_CACHE=str(CACHE), LAYOUTCHECK_DSL_CACHE=str(tmp_path))
    p = subprocess.run([sys.executable, "-m", "layoutcheck", "op", "coalesce", "(4,8):(1,4)", "--against",
                        "cute-dsl,cute-dsl@4.5", "--json"], capture_output=True, text=True, env=env, timeout=600)
    rows = {r["oracle"]: r for r in map(json.loads, p.stdout.splitlines())}
    for name in ("cute-dsl", "cute-dsl@4.5"):  # F-243: the runtime modes stay unmerged
        assert rows[name]["result"] == "(4,8):(1,4)" and rows[name]["finding"] == "F-243", rows[name]
    folders = sorted(d.name for d in tmp_path.iterdir())
    assert len(folders) == 2 and any(f.startswith("dsl4.5.") for f in folders), folders


def test_the_campaigns_differences_between_cute_cpp_3_8_and_4_2(cache):
    """F-257, F-258, F-259: what `layoutcheck matrix --campaign --against cute-cpp@3.8,cute-cpp@4.2`
    found, on the real headers: 3.8 answers these cases, wrongly or in another structure, where
    4.2 refuses or answers otherwise."""
    release("cute-cpp@3.8")
    cases = [("left_inverse", ("(7):(2)",)), ("composition", ("(3,4,1):(2,0,4)", "(12):(8)")),
             ("blocked_product", ("12:2", "(4,1):(3,4)")),
             ("zipped_divide", ("(2,(3,6,5,1)):(38,(6,7,0,8))", "5:36"))]
    calls = [(op, parse_args(op, texts)) for op, texts in cases]
    old, new = (get_oracle(n).run_many(calls) for n in ("cute-cpp@3.8", "cute-cpp"))
    assert [str(o.value) for o in old[:3]] == [
        "2:7", "((1,2,6)):((6,0,4))", "((12,(1,4)),(_1,(1,1))):((2,(2,24)),(_0,(2,48)))"]
    assert new[0].kind == "raised" and "Left inverse requires static strides" in new[0].message
    assert str(new[1].value) == "((1,2,6)):((16,0,4))"
    assert str(old[3].value).startswith("((1,1,1,5,1),((2,3,6,1,1),(1,1,1,1,1))):((76,18,42,0,8)")
    assert str(new[3].value).startswith("((1,1,1,5,1),((2,3,6,1,1),(1,1,1,1,1))):((1368,108,42,0,8)")
