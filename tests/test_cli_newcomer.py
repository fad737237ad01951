"""What a newcomer stumbled on: the pytest plugin's collection and known findings,
the demo's per-section progress and fuzz lines, the device script's default Python, the
README's strategy promises, ``--against ""`` meaning the same everywhere."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from layoutcheck.cli import main

ROOT = Path(__file__).resolve().parent.parent

FAKE_RUN_CHECK = textwrap.dedent('''
    import layoutcheck.fuzz.campaign.runner as c

    def fake(check, oracle, spec, **kw):
        known = check.name == "diff.size"
        return {"check": check.name, "op": check.op, "kind": check.kind, "oracle": oracle.name,
                "status": "fail" if known else "pass", "cases": 3, "seconds": 0.1,
                "cases_per_s": 30.0, "counterexample": ["4:1"] if known else None,
                "answers": {"spec": "4", oracle.name: "5"} if known else None,
                "message": "size is off by one" if known else "",
                "known_finding": "F-033" if known else None, "known_cases": 3 if known else 0,
                "replay": "layoutcheck fuzz --case diff.size 4:1" if known else None}
    c.run_check = fake
''')


def _pytest(tmp_path, *args):
    (tmp_path / "test_user.py").write_text("def test_user():\n    assert True\n")
    (tmp_path / "conftest.py").write_text(FAKE_RUN_CHECK)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rx",
                           "test_user.py", *args], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)


def test_plugin_counts_its_items_and_marks_known_findings_xfail(tmp_path):
    from layoutcheck.fuzz.checks.catalogue import checks_for
    n = len(checks_for(["size"]))
    p = _pytest(tmp_path, "--layoutcheck=impl", "--layoutcheck-ops=size")
    out = p.stdout
    assert p.returncode == 0, out + p.stderr
    assert f"collected {n + 1} items" in out and "collected 0 items" not in out
    assert "XFAIL" in out and "known F-033" in out
    assert "1 xfailed" in out and f"{n} passed" in out


def test_plugin_usage_errors(tmp_path):
    p = _pytest(tmp_path, "--layoutcheck=nosuch")
    assert p.returncode == 4 and "unknown oracle" in p.stderr + p.stdout
    p = _pytest(tmp_path, "--layoutcheck=impl", "--layoutcheck-budget=nan")
    assert p.returncode == 4
    p = _pytest(tmp_path, "--help")
    assert "seconds per check" in p.stdout


def test_demo_fuzz_section_shows_known_and_what_it_ran(monkeypatch):
    from layoutcheck.commands import demo

    def fake_campaign(against, max_examples, time_cap, seed, progress=None, use_db=True):
        rows = [{"check": "diff.size", "op": "size", "oracle": "impl", "status": "fail",
                 "counterexample": ["4:1"], "known_finding": "F-033", "message": "m"},
                {"check": "diff.cosize", "op": "cosize", "oracle": "impl", "status": "pass",
                 "counterexample": None, "known_finding": None, "message": ""}]
        return {"results": rows, "summary": {"checks": 2, "cases": 7, "pass": 1, "known": 1,
                                             "new_failures": 0, "error": 0, "skipped": 0}}
    monkeypatch.setattr(demo, "run_campaign", fake_campaign)
    status, lines, _ = demo._fuzz(["impl"], 5, 600.0, 0)
    assert status == "passed"
    assert "5 cases each (seed 0; the same cases on any machine)" in lines[0], lines[0]
    assert lines[1].strip().startswith("known F-033 diff.size vs impl")
    assert not any("FAIL" in ln for ln in lines)


def test_demo_section_error_is_never_a_pass(monkeypatch, capsys):
    from layoutcheck.commands import demo

    def boom():
        raise RuntimeError("kaput")
    monkeypatch.setattr(demo, "_examples", boom)
    for name in ("_oracles", "_proofs"):
        monkeypatch.setattr(demo, name, lambda *a: ("passed", ["ok"], None))
    monkeypatch.setattr(demo, "_fuzz", lambda *a: ("passed", ["ok"], None))
    monkeypatch.setattr(demo, "_gpu", lambda: ("passed", ["ok"], None))
    assert main(["demo", "--against", "impl"]) == 2
    out = capsys.readouterr().out
    assert "[ERROR] paper examples (spec)" in out and "RuntimeError: kaput" in out
    assert "1 errors" in out


def test_empty_against_is_an_error_everywhere(capsys):
    for cmd in (["fuzz"], ["op", "size", "4:1"], ["demo"]):
        assert main([*cmd, "--against", ""]) == 2
        assert "names no oracle" in capsys.readouterr().err


def test_device_script_uses_the_project_python_for_dry_run(tmp_path):
    """Without PYTHON set, --dry-run runs .venv/bin/python (the system python3 lacks the
    project's packages).  The run is stopped early (an unusable SITE): the log's first line
    names the python it chose."""
    venv = ROOT / ".venv" / "bin" / "python"
    if not venv.exists():
        pytest.skip("no .venv")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHON", "OUT")}
    env.update(SITE="/proc/no-such-site", CARRY=str(tmp_path / "carry"))
    res = subprocess.run(["bash", str(ROOT / "gpu_checks" / "run_on_device.sh"), "--dry-run",
                          str(tmp_path / "out")], capture_output=True, text=True, env=env,
                         timeout=120)
    assert res.returncode == 2 and "could not install" in res.stderr
    first = (tmp_path / "out" / "run.log").read_text().splitlines()[0]
    assert f"mode dry-run, python {venv}" in first


def test_device_script_keeps_python3_on_the_device():
    text = (ROOT / "gpu_checks" / "run_on_device.sh").read_text()
    assert '[ "$MODE" != device ] && [ -x "$ROOT/.venv/bin/python" ]' in text
