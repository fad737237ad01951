"""Hostile command lines: every bad input exits 2 with one line on stderr (after
the subcommand's usage for a usage error), no traceback, no hang, bounded memory: each case
runs ``python -m layoutcheck`` as a child under a time and memory cap (``hostile_support``).
The issue's enumeration examples finish fast with an answer or a one-line refusal."""

import json
import os
import subprocess
import sys
import time

import pytest
from hostile_support import ROOT, assert_bad_input, cli

DEEP = "(" * 400 + "1" + ")" * 400
BAD_LAYOUTS = [  # (text, a word the one-line message must hold)
    ("²:1", "ASCII"), ("٣:1", "ASCII"), ("３:1", "ASCII"), ("𝟑:1", "ASCII"), ("1٣:1", "ASCII"),
    ("2:1²", "ASCII"), ("1" * 4301 + ":1", "digits"), (DEEP, "nesting"), ("", "expected a layout"),
    ("(2,3", "never closed"), ("(2,3):(1,2,3)", "congruent"), ("(0):(1)", "positive"),
    ("4:-1", "non-negative"), ("4.5:1", "integer"), ("x" * 20000, "characters"), (")", "unexpected"),
    ("(2,3):(1,2))", "unexpected"), ("4:1:1", "unexpected"), ("(2,,3):(1,2)", "integer"),
    ("(2,3)\u3000:(1,2)", "':'"), ("4 : 1 x", "unexpected"), ("_:1", "integer"),
]


@pytest.mark.parametrize("text, word", BAD_LAYOUTS, ids=[f"show-{i}" for i in range(len(BAD_LAYOUTS))])
def test_show_bad_layout(text, word):
    assert_bad_input(cli("show", text), word)


@pytest.mark.parametrize("text, word", BAD_LAYOUTS[:12], ids=[f"op-{i}" for i in range(12)])
def test_op_bad_layout(text, word):
    assert_bad_input(cli("op", "coalesce", text, "--against", "impl"), word)


@pytest.mark.parametrize("argv, word", [
    (["fuzz", "--budget", "nan"], "--budget"), (["fuzz", "--budget", "inf"], "--budget"),
    (["fuzz", "--budget", "-inf"], "--budget"), (["fuzz", "--budget", "-1"], "--budget"),
    (["fuzz", "--budget", "0"], "--budget"), (["fuzz", "--budget", "1e308"], "--budget"),
    (["fuzz", "--budget", "abc"], "--budget"), (["fuzz", "--budget", ""], "--budget"),
    (["fuzz", "--max-examples", "0"], "--max-examples"),
    (["fuzz", "--max-examples", "-3"], "--max-examples"),
    (["fuzz", "--max-examples", "1e3"], "--max-examples"),
    (["fuzz", "--max-examples", "99999999999"], "--max-examples"),
    (["fuzz", "--jobs", "0"], "--jobs"), (["fuzz", "--jobs", "65"], "--jobs"),
    (["fuzz", "--jobs", "x"], "--jobs"), (["fuzz", "--seed", "-1"], "--seed"),
    (["fuzz", "--seed", "x"], "--seed"), (["fuzz", "--kind", "bogus"], "--kind"),
    (["fuzz", "--against", ""], "names no oracle"), (["fuzz", "--against", " , "], "names no oracle"),
    (["fuzz", "--against", "nosuch"], "unknown oracle"), (["fuzz", "--against", "module:"], "module:NAME"),
    (["fuzz", "--against", "module:a-b"], "module:NAME"),
    (["fuzz", "--against", "impl", "--checks", "nosuch", "--no-db"], "no check"),
    (["fuzz", "--against", "impl", "--ops", "nosuch", "--no-db"], "no check"),
    (["fuzz", "--bogus"], "unrecognized"), (["fuzz", "--case"], "--case"),
    (["fuzz", "--against", "impl", "--case", "nosuch", "4:1"], "unknown check"),
    (["fuzz", "--against", "impl", "--case", "diff.coalesce"], "takes 1 to 2"),
    (["fuzz", "--against", "impl", "--case", "diff.coalesce", "4:1", "(2)", "5"], "takes 1 to 2"),
    (["fuzz", "--against", "impl", "--case", "law.composition.associative", "4:1"], "takes 3"),
    (["fuzz", "--against", "impl", "--case", "diff.coalesce", "²:1"], "ASCII"),
    (["fuzz", "--against", "impl", "--case", "diff.coalesce", DEEP], "nesting"),
    (["fuzz", "--replay", ""], "file name"), (["fuzz", "--replay", "/nonexistent.json"], "cannot read"),
    (["fuzz", "--replay", "/dev/zero"], "not a regular file"), (["fuzz", "--replay", "/tmp"], "directory"),
    (["fuzz", "--replay", "x.json", "--case", "diff.size", "4:1"], "cannot be combined"),
    (["fuzz", "--report", "/tmp"], "directory"), (["fuzz", "--report", "/dev/full"], "regular file"),
    (["fuzz", "--report", "/nonexistent/r.json"], "does not exist"),
    (["fuzz", "--report", ""], "file name"), (["fuzz", "--junit", "/dev/full"], "regular file"),
    (["fuzz", "--report", "/tmp/x.json", "--junit", "/tmp/x.json"], "same file"),
    (["demo", "--against", "nosuch"], "unknown oracle"), (["demo", "--against", ""], "names no oracle"),
    (["demo", "--budget", "nan"], "--budget"), (["demo", "--max-rank", "0"], "--max-rank"),
    (["demo", "--max-rank", "99"], "--max-rank"), (["demo", "--seed", "-5"], "--seed"),
    (["demo", "--report", "/tmp"], "directory"), (["demo", "--report", "/dev/full"], "regular file"),
    (["demo", "--bogus"], "unrecognized"),
    (["op", "frobnicate", "4:1"], "unknown operation"), (["op", "coalesce"], "takes 1 or 2"),
    (["op", "coalesce", "4:1", "(2,2)", "5"], "takes 1 or 2"),
    (["op", "complement", "4:1", "(2,3)"], "integer"),
    (["op", "coalesce", "4:1", "--against", ""], "names no oracle"),
    (["op", "coalesce", "4:1", "--against", "nosuch"], "unknown oracle"),
    (["op", "coalesce", "4:1", "--against", "module:no_such_module_here"], "unavailable"),
    (["op", "coalesce", "4:1", "--sense", "x"], "--sense"),
    (["op", "values", "(1073741824):(1)", "--against", "impl"], "at most"),
    (["op", "coalesce", "4:1", "--bogus"], "unrecognized"),
    (["show"], "required"), (["show", "4:1", "--limit", "-1"], "--limit"),
    (["show", "4:1", "--limit", "99999999"], "--limit"), (["show", "4:1", "--limit", "x"], "--limit"),
    (["prove", "--timeout", "inf"], "timeout"), (["prove", "--timeout", "nan"], "timeout"),
    (["prove", "--timeout", "0"], "timeout"), (["prove", "--max-rank", "0"], "max rank"),
    (["prove", "no_such_lemma"], "no_such_lemma"),
    (["prove", "--report", "/dev/full"], "regular file"),
    (["gpu", "--count", "0"], "--count"), (["gpu", "--count", "x"], "--count"),
    (["gpu", "--cute-count", "0"], "--cute-count"), (["gpu", "--sizes", "x"], "--sizes"),
    (["gpu", "--sizes", "99"], "--sizes"), (["gpu", "--report", "/tmp"], "directory"),
    (["gpu", "--backend", "bogus"], "--backend"),
    (["examples", "--only", "9.9.9"], "9.9.9"), (["examples", "--bogus"], "unrecognized"),
    (["nosuch"], "invalid choice"), (["--bogus"], "unrecognized"),
], ids=lambda x: " ".join(x)[:60] if isinstance(x, list) else None)
def test_bad_flag(argv, word):
    assert_bad_input(cli(*argv), word)


def test_usage_error_prints_the_subcommands_usage():
    r = cli("fuzz", "--bogus")
    assert r.err.startswith("usage: layoutcheck fuzz") and "layoutcheck fuzz: error:" in r.err


@pytest.fixture
def reports(tmp_path):
    """Replay inputs that are not reports."""
    files = {
        "empty.json": "", "blank.json": "  \n", "not_json.json": "{results: [}",
        "list.json": "[1, 2]", "no_results.json": '{"command": "x"}',
        "bad_row.json": '{"results": [{"check": 3, "oracle": "impl", "counterexample": ["4:1"]}]}',
        "bad_case.json": '{"results": [{"check": "diff.size", "oracle": "impl", "counterexample": [4]}]}',
        "nothing.json": '{"results": [{"check": "diff.size", "oracle": "impl", "counterexample": null}]}',
        "deep.json": "[" * 100000 + "]" * 100000,
        "latin1.json": b'{"x": "\xe9"}',
        "bad_notation.json": '{"results": [{"check": "diff.size", "oracle": "impl", "counterexample": ["\\u00b2:1"]}]}',
        "unknown_check.json": '{"results": [{"check": "diff.nope", "oracle": "impl", "counterexample": ["4:1"]}]}',
    }
    for name, text in files.items():
        p = tmp_path / name
        p.write_bytes(text if isinstance(text, bytes) else text.encode())
    with open(tmp_path / "huge.json", "wb") as f:  # sparse: 64 MiB that cost nothing
        f.truncate(64 << 20)
    return tmp_path


@pytest.mark.parametrize("name, word", [
    ("empty.json", "empty"), ("blank.json", "empty"), ("not_json.json", "not JSON"),
    ("list.json", "not a layoutcheck fuzz report"), ("no_results.json", "not a layoutcheck fuzz report"),
    ("bad_row.json", "results[0]"), ("bad_case.json", "results[0]"),
    ("nothing.json", "no counterexample"), ("deep.json", "nested too deeply"),
    ("latin1.json", "UTF-8"), ("huge.json", "larger than"), ("bad_notation.json", "ASCII"),
    ("unknown_check.json", "unknown check"),
])
def test_replay_of_a_bad_file(reports, name, word):
    assert_bad_input(cli("fuzz", "--replay", str(reports / name), "--no-db"), word)


def test_report_written_atomically_and_checked_before_the_run(tmp_path):
    t0 = time.monotonic()
    r = cli("fuzz", "--against", "impl", "--budget", "600", "--report", str(tmp_path))
    assert_bad_input(r, "directory")
    assert time.monotonic() - t0 < 30  # refused before any fuzzing
    good = tmp_path / "r.json"
    r = cli("fuzz", "--against", "impl", "--checks", "diff.size", "--max-examples", "3", "--no-db",
            "--report", str(good), "--junit", "/dev/null")
    assert r.rc == 0, r.err
    assert json.loads(good.read_text())["summary"]["checks"] == 1
    assert not [p for p in tmp_path.iterdir() if ".tmp" in p.name]


# --- the enumeration examples: fast, with an answer or one refusal line --------------

@pytest.mark.parametrize("argv, rc, word", [
    (["show", "(1073741824):(1)"], 0, "1073741824"),
    (["show", "2:4294967296"], 0, "4294967297"),
    (["show", "(1099511627776,1099511627776):(1,1099511627776)", "--json"], 0, "injective"),
    (["op", "values", "(1073741824):(1)", "--against", "impl"], 2, "at most"),
    (["op", "left_inverse", "(1099511627776,1099511627776):(1,1099511627776)", "--against", "impl"],
     0, "reference: impl"),
    (["op", "coalesce", "(34359738368,2):(2,1)", "--against", "impl"], 0, "reference"),
    (["fuzz", "--against", "impl", "--case", "law.values.index_vs_coordinate", "(1073741824):(1)",
      "--no-db"], None, ""),
])
def test_enumeration_examples_finish_fast(argv, rc, word):
    r = cli(*argv, timeout=60, memory=2 << 30)
    assert "Traceback" not in r.err + r.out
    if rc is None:  # refused (exit 2) or failed (1), never a pass, never a hang
        assert r.rc in (1, 2), r.out + r.err
    else:
        assert r.rc == rc, r.out + r.err
        assert word in (r.out if rc == 0 else r.err), r.out + r.err
    assert r.seconds < 45


def test_shadowing_folder_is_one_line(tmp_path):
    (tmp_path / "layoutcheck").symlink_to(ROOT)  # the clone's parent: ./layoutcheck is the clone
    r = cli("show", "4:1", cwd=tmp_path)
    assert_bad_input(r, "shadows")


def test_closed_stdout_is_not_a_success():
    p = subprocess.Popen([sys.executable, "-m", "layoutcheck", "fuzz", "--list"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(60) == 2 and "broken pipe" in err and "Traceback" not in err


def test_debug_shows_the_traceback_and_exits_2(tmp_path):
    env = {"PYTHONPATH": str(tmp_path)}
    (tmp_path / "sitecustomize.py").write_text(
        "import layoutcheck.commands.show as s\n"
        "def boom(args):\n    raise RuntimeError('kaput')\n"
        "s.run = boom\n")
    r = cli("show", "4:1", env=env)
    assert r.rc == 2 and "internal error: RuntimeError: kaput" in r.err and "Traceback" not in r.err
    r = cli("--debug", "show", "4:1", env=env)
    assert r.rc == 2 and "Traceback" in r.err and "kaput" in r.err


def test_spec_limit_env_is_validated():
    r = cli("op", "size", "4:1", "--against", "impl", env={"LAYOUTCHECK_SPEC_LIMIT": "lots"})
    assert_bad_input(r, "LAYOUTCHECK_SPEC_LIMIT")
    r = cli("op", "left_inverse", "(64,64):(1,64)", "--against", "impl",
            env={"LAYOUTCHECK_SPEC_LIMIT": "100"})
    assert r.rc == 0 and "reference: impl" in r.out, r.out + r.err


def test_worker_timeout_env_is_validated():
    r = cli("op", "size", "4:1", "--against", "pycute", env={"LAYOUTCHECK_ORACLE_TIMEOUT": "nan"})
    assert_bad_input(r, "LAYOUTCHECK_ORACLE_TIMEOUT")
    for name in ("LAYOUTCHECK_ORACLE_START_TIMEOUT", "LAYOUTCHECK_CPP_COMPILE_TIMEOUT"):
        r = cli("op", "size", "4:1", "--against", "impl", env={name: "soon"})
        assert_bad_input(r, name)


@pytest.mark.skipif(not os.environ.get("LAYOUTCHECK_SLOW"), reason="long run: opt in with LAYOUTCHECK_SLOW=1")
@pytest.mark.parametrize("text, word", BAD_LAYOUTS)
def test_fuzz_case_bad_layout_slow(text, word):
    assert_bad_input(cli("fuzz", "--against", "impl", "--case", "diff.coalesce", text, "--no-db"), word)


# --- bounded: workers sized to the machine, long commands under one total limit -------------

@pytest.mark.parametrize("argv, word", [
    (["fuzz", "--time-limit", "0"], "--time-limit"), (["fuzz", "--time-limit", "nan"], "--time-limit"),
    (["prove", "--time-limit", "-1"], "--time-limit"), (["prove", "--time-limit", "x"], "--time-limit"),
    (["gpu", "--time-limit", "inf"], "--time-limit"),
    (["report", "F-030", "--run", "--time-limit", "1e99"], "--time-limit"),
    (["prove", "--layout", "8:1", "--property", "injective", "--time-limit", "5"], "catalogue only"),
], ids=lambda x: " ".join(x)[:60] if isinstance(x, list) else None)
def test_bad_time_limit(argv, word):
    assert_bad_input(cli(*argv), word)


def test_oversubscribed_jobs_are_capped_and_the_budget_is_honoured():
    from layoutcheck.fuzz.campaign.cluster import usable_cpus
    r = cli("fuzz", "--against", "impl", "--ops", "coalesce", "--budget", "3", "--jobs", "64",
            "--no-db", timeout=120)
    assert r.rc in (0, 2) and "Traceback" not in r.err, r.out + r.err  # 2: workers too slow
    cap = [ln for ln in r.err_lines if "64 workers asked" in ln]
    cpus = usable_cpus()
    if cpus < 64:  # one line says what runs instead
        assert len(cap) == 1 and f"uses {cpus} worker process" in cap[0], r.err
    if r.rc == 2:  # the workers' start took the budget: said, never a pass
        assert "not reached" in r.out or "not reached" in r.err, r.out + r.err
    assert r.seconds < 3 + 30, r.seconds  # 64 workers used to take over 60 s


@pytest.mark.parametrize("argv", [["prove", "--max-rank", "100"],
                                  ["prove", "squeeze_size", "--max-rank", "100", "--timeout", "5"]])
def test_prove_past_the_measured_ranks_needs_a_time_limit(argv):
    r = cli(*argv)
    assert_bad_input(r, "--time-limit", "past what the catalogue has been run at")
    assert r.seconds < 30


def test_prove_under_a_time_limit_ends_there_and_names_what_it_did_not_finish():
    r = cli("prove", "squeeze_size", "coalesce_phi", "--max-rank", "100", "--timeout", "5",
            "--time-limit", "4", timeout=120)
    assert r.rc == 2 and "Traceback" not in r.err, r.out + r.err
    first, last = r.err_lines[0], r.err_lines[-1]
    assert first.startswith("layoutcheck prove: 2 lemmas, ranks up to 100:"), first  # the estimate
    assert "--time-limit 4 reached" in last and "not finished: " in last, last
    assert "coalesce_phi (ranks" in last and "squeeze_size (ranks" in last, last
    rows = [ln.split() for ln in r.out.splitlines() if ln.startswith(("squeeze_size", "coalesce_phi"))]
    assert len(rows) == 2 * 101  # every rank and the induction, each once
    assert [x[2] for x in rows if x[1] == "all"] == ["proved", "proved"]  # inductions go first
    assert "all 2 lemmas as expected" not in r.out
    assert r.seconds < 4 + 30, r.seconds
