"""Hostile implementations under test: a ``module:`` oracle that exits, crashes,
hangs, eats memory or answers garbage never makes a gate pass, never hangs the harness and
never blows up its memory.  Through the API (``IsolatedOracle``) for every hostile module,
and through the command line (``op``, ``fuzz --case``, short campaigns, ``--jobs``), each
case under a time and memory cap (``hostile_support``).  ``LAYOUTCHECK_SLOW=1`` adds the
full matrix (every module through every command, the demo)."""

import json
import os
import time

import pytest
from hostile_support import (
    AT_IMPORT,
    BLOCKS_AT_IMPORT,
    DEFAULT_START,
    FAST_ENV,
    HOSTILE_MODULES,
    SHORT_START,
    assert_bad_input,
    assert_not_green,
    cli,
    module_dir,
)
from layoutcheck.oracles import Outcome, get_oracle
from layoutcheck.oracles.isolation import IsolatedOracle

from layoutcheck.layout import LayoutBase

SLOW = bool(os.environ.get("LAYOUTCHECK_SLOW"))
INPUT = "(2,2):(1,2)"
MODULES = sorted(HOSTILE_MODULES)
IN_FUNCTION = [m for m in MODULES if m not in AT_IMPORT]
# what the answer of coalesce must be (kind, words in the message) for each module
CRASHES = {
    "hx_exit0": "SystemExit(0)", "hx_exit3": "SystemExit(3)", "hx_exit_none": "SystemExit",
    "hx_osexit0": "exited with status 0", "hx_osexit1": "exited with status 1",
    "hx_segv": "SIGSEGV", "hx_abort": "SIGABRT", "hx_sigkill": "SIGKILL",
    "hx_sigterm": "SIGTERM", "hx_kbint": "KeyboardInterrupt", "hx_generatorexit": "GeneratorExit",
    "hx_baseexception": "BaseException", "hx_sleep": "no answer within",
    "hx_busy": "no answer within", "hx_memory": "memory", "hx_bad_str": "SystemExit",
    "hx_close_fds": "on this case",
}
IMPORT_FAILURES = {
    "hx_import_exit0": "SystemExit(0)", "hx_import_osexit": "exited with status 0",
    "hx_import_segv": "SIGSEGV", "hx_import_raise": "broken at import",
    "hx_import_sleep": "did not start within", "hx_import_kbint": "KeyboardInterrupt",
    "hx_import_lock": "did not start within",
}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """The hostile modules on disk; PYTHONPATH for children, sys.path for this process."""
    import sys
    d = tmp_path_factory.mktemp("hostile")
    env = module_dir(d)
    sys.path.insert(0, str(d))
    old = {k: os.environ.get(k) for k in FAST_ENV}
    os.environ.update(FAST_ENV)
    yield env
    sys.path.remove(str(d))
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


# --- the API: every module through the worker ---------------------------------------------

@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", MODULES)
def test_worker_reports_what_happened(hostile, name):
    o = get_oracle(f"module:{name}", start_timeout=3 if name in BLOCKS_AT_IMPORT else None)
    assert isinstance(o, IsolatedOracle)
    t0 = time.monotonic()
    reason = o.unavailable_reason()
    if name in AT_IMPORT:
        assert reason and IMPORT_FAILURES[name] in reason, reason
        return
    assert reason is None, reason
    L = LayoutBase.parse(INPUT)
    first, second = o.run_many([("coalesce", (L,)), ("size", (L,))])
    if name in CRASHES:
        assert first.kind == "crashed" and CRASHES[name] in first.message, first
    else:
        assert first.kind in ("ok", "raised"), first  # garbage is a wrong answer, not a crash
    # the next case runs (on a fresh worker after a crash) and gets the right answer
    assert second == Outcome.ok(4), second
    assert time.monotonic() - t0 < 60
    o.close()


def test_worker_keeps_batching_after_a_crash(hostile):
    o = get_oracle("module:hx_segv")
    L = LayoutBase.parse(INPUT)
    outs = o.run_many([("size", (L,)), ("coalesce", (L,)), ("size", (L,)), ("coalesce", (L,)),
                       ("size", (L,))])
    assert [x.kind for x in outs] == ["ok", "crashed", "ok", "crashed", "ok"]
    assert outs[4].value == 4 and o.restarts >= 2


def test_an_answer_too_large_is_a_crash_not_memory(hostile, monkeypatch):
    import layoutcheck.oracles.isolation as iso
    monkeypatch.setattr(iso, "MAX_ANSWER_BYTES", 1 << 10)
    o = get_oracle("module:hx_many_modes")
    out = o.run("coalesce", LayoutBase.parse(INPUT))
    assert out.kind == "crashed" and "larger than" in out.message


def test_worker_stdout_is_not_the_harness_stdout(hostile, capfd):
    o = get_oracle("module:hx_print")
    assert o.run("coalesce", LayoutBase.parse(INPUT)).kind == "ok"
    out, err = capfd.readouterr()
    assert "31 checks" not in out and "31 checks" in err


def test_timeout_is_configurable_and_validated(monkeypatch):
    from layoutcheck.oracles.isolation import case_timeout

    from layoutcheck.errors import LayoutError
    monkeypatch.setenv("LAYOUTCHECK_ORACLE_TIMEOUT", "2.5")
    assert case_timeout() == 2.5
    for bad in ("nan", "inf", "-1", "0", "x", "1e9"):
        monkeypatch.setenv("LAYOUTCHECK_ORACLE_TIMEOUT", bad)
        with pytest.raises(LayoutError, match="LAYOUTCHECK_ORACLE_TIMEOUT"):
            case_timeout()


def test_a_forked_copy_never_kills_the_parents_worker(hostile):
    o = get_oracle("pycute")
    if o.unavailable_reason():
        pytest.skip(o.unavailable_reason())
    pid = os.fork()
    if pid == 0:  # the copy drops its handle: the parent's worker must survive
        o._stop()
        os._exit(0)
    os.waitpid(pid, 0)
    assert o.run("size", LayoutBase.parse(INPUT)) == Outcome.ok(4)


# --- the checks: a crash is a failure, never a refusal --------------------------------------

def test_differential_and_laws_treat_crashed_as_failure():
    from layoutcheck.fuzz.checks.base import OracleCrashed
    from layoutcheck.fuzz.checks.catalogue import BY_NAME

    class Ctx:
        class oracle:
            name = "module:x"

            @staticmethod
            def run(op, *args):
                return Outcome.crashed("killed by SIGSEGV")
        spec = get_oracle("spec")
    Ctx.spec.run("size", LayoutBase.parse(INPUT))
    L = LayoutBase.parse(INPUT)
    for name in ("diff.coalesce", "law.coalesce.function", "law.values.index_vs_coordinate"):
        with pytest.raises(OracleCrashed, match="SIGSEGV"):
            BY_NAME[name].run(Ctx, (L,))


def test_compare_grades_crashed_none():
    from layoutcheck.oracles import compare
    L = LayoutBase.parse(INPUT)
    c = compare("coalesce", (L,), Outcome.ok(LayoutBase.parse("4:1")), Outcome.crashed("SIGKILL"))
    assert c.level == "none" and c.ok is False and "crashed" in c.detail
    c = compare("coalesce", (L,), Outcome.raised("no"), Outcome.crashed("SIGKILL"))
    assert c.ok is False  # both "raised" would agree; a crash never does


# --- the command line ---------------------------------------------------------------------

def _op(env, name, *extra):
    env = dict(env, **SHORT_START) if name in BLOCKS_AT_IMPORT else env
    return cli("op", "coalesce", INPUT, "--against", f"module:{name}", *extra, env=env)


@pytest.mark.parametrize("name", MODULES if SLOW else
                         ["hx_exit0", "hx_osexit0", "hx_segv", "hx_sleep", "hx_kbint", "hx_memory",
                          "hx_huge", "hx_none", "hx_bad_str", "hx_import_exit0", "hx_import_osexit",
                          "hx_import_sleep", "hx_close_fds"])
def test_op_never_passes_a_misbehaving_module(hostile, name):
    r = _op(hostile, name)
    if name in AT_IMPORT:
        assert_bad_input(r, "unavailable")
        return
    assert_not_green(r)
    assert r.rc == 1, r.out + r.err  # a crash or a wrong answer is a failed check
    if name in CRASHES:
        assert "CRASHED" in r.out


def test_op_json_stays_json_when_the_module_prints(hostile):
    r = _op(hostile, "hx_print", "--json")
    assert r.rc == 1
    rows = [json.loads(line) for line in r.out.splitlines()]
    assert [x["oracle"] for x in rows] == ["spec", "module:hx_print"]
    assert "31 checks" in r.err and "31 checks" not in r.out


@pytest.mark.parametrize("name", IN_FUNCTION if SLOW else
                         ["hx_exit0", "hx_osexit0", "hx_segv", "hx_busy", "hx_huge", "hx_object"])
@pytest.mark.parametrize("check", ["diff.coalesce", "law.coalesce.function"])
def test_fuzz_case_never_passes(hostile, name, check):
    r = cli("fuzz", "--against", f"module:{name}", "--case", check, INPUT, "--no-db", env=hostile)
    assert_not_green(r)
    if name in CRASHES:
        assert "crashed" in r.out and INPUT in r.out  # the case, with what happened


@pytest.mark.parametrize("name", ["hx_exit0", "hx_huge"] + (
    ["hx_segv", "hx_sleep", "hx_memory", "hx_none", "hx_huge_nested", "hx_many_modes"] if SLOW else []))
def test_fuzz_campaign_never_passes_and_ends(hostile, name):
    r = cli("fuzz", "--against", f"impl,module:{name}", "--checks",
            "diff.coalesce,law.coalesce.function", "--max-examples", "5", "--no-db", env=hostile,
            timeout=180)
    assert_not_green(r)
    assert r.seconds < 150


def test_fuzz_with_jobs_and_a_crashing_module_ends(hostile):
    r = cli("fuzz", "--against", "module:hx_osexit0", "--checks", "diff.coalesce",
            "--max-examples", "4", "--jobs", "2", "--no-db", env=hostile, timeout=180)
    assert_not_green(r)


@pytest.mark.parametrize("name", ["hx_import_exit0", "hx_import_segv"])
def test_unavailable_module_is_exit_2_everywhere(hostile, name):
    for argv in (["fuzz", "--against", f"module:{name}", "--max-examples", "2", "--no-db"],
                 ["fuzz", "--against", f"impl,module:{name}", "--checks", "diff.size",
                  "--max-examples", "2", "--no-db"],
                 ["demo", "--against", f"module:{name}"]):
        r = cli(*argv, env=hostile)
        assert r.rc == 2 and "Traceback" not in r.err, (argv, r.rc, r.err[-2000:])
        assert name in r.err


def test_jobs_lost_shard_is_an_error_not_a_hang(monkeypatch):
    import layoutcheck.fuzz.campaign.runner as c
    real = c._shard

    def dying(kw):
        if kw["seed"] == 1:
            os._exit(9)
        return real(kw)
    monkeypatch.setattr(c, "_shard", dying)
    t0 = time.monotonic()
    # the lost shard's rows are errors ("incomplete: ..."), the run exits 2
    rep = c.run_campaign(oracles=["impl"], checks=["diff.size"], max_examples=5, jobs=2,
                         use_db=False)
    row = rep["results"][0]
    # shard 1's worker dies; shard 0 may have been queued on that same worker and die with it
    assert row["status"] == "error" and row["message"].startswith("incomplete: shard "), row["message"]
    assert " of impl (seed " in row["message"] and "was lost" in row["message"]
    assert rep["exit_status"] == 2
    assert time.monotonic() - t0 < 60


@pytest.mark.slow
@pytest.mark.parametrize("name", ["hx_exit0", "hx_segv", "hx_sleep"])
def test_demo_never_passes_a_crashing_module(hostile, name):
    r = cli("demo", "--against", f"module:{name}", "--budget", "2", "--max-rank", "1",
            env=hostile, timeout=1500)
    assert_not_green(r)
    assert "CRASHED" in r.out


def test_a_worker_that_died_while_idle_blames_no_case(hostile):
    import signal
    o = get_oracle("pycute")
    if o.unavailable_reason():
        pytest.skip(o.unavailable_reason())
    L = LayoutBase.parse(INPUT)
    assert o.run("size", L) == Outcome.ok(4)
    os.kill(o._proc.pid, signal.SIGKILL)
    o._proc.wait(10)
    assert o.run("size", L) == Outcome.ok(4) and o.restarts == 1


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM", "SIGUSR1"])
def test_a_module_that_signals_the_harness_never_passes(tmp_path, sig):
    """CLI only: in this process it would signal the test runner itself."""
    (tmp_path / "hxp_signal.py").write_text(
        "import os, signal, time\n"
        "class Layout:\n    def __init__(self, s, d=None): self.shape, self.stride = s, d\n"
        f"def coalesce(L, profile=None):\n    os.kill(os.getppid(), signal.{sig}); time.sleep(30)\n")
    r = cli("op", "coalesce", INPUT, "--against", "module:hxp_signal", env={"PYTHONPATH": str(tmp_path)})
    assert r.rc != 0 and "Traceback" not in r.err, (r.rc, r.err[-2000:])


# --- start-up: bounded by its own limit and by the run's budget -----------------------------

def test_the_start_limit_has_a_default_and_follows_its_setting(monkeypatch):
    from layoutcheck.oracles.isolation import DEFAULT_START_TIMEOUT_S, START_TIMEOUT_ENV

    from layoutcheck.errors import LayoutError
    monkeypatch.delenv(START_TIMEOUT_ENV, raising=False)
    monkeypatch.delenv("LAYOUTCHECK_ORACLE_TIMEOUT", raising=False)
    assert IsolatedOracle("x", None).start_timeout == DEFAULT_START_TIMEOUT_S == 30
    assert IsolatedOracle("x", None, default_start_timeout=120).start_timeout == 120  # the DSL's
    monkeypatch.setenv(START_TIMEOUT_ENV, "4")
    assert IsolatedOracle("x", None, default_start_timeout=120).start_timeout == 4
    for bad in ("nan", "0", "x", "-1"):
        monkeypatch.setenv(START_TIMEOUT_ENV, bad)
        with pytest.raises(LayoutError, match=START_TIMEOUT_ENV):
            IsolatedOracle("x", None)


def test_a_start_never_outlasts_the_runs_deadline(hostile):
    from layoutcheck.deadline import Deadline, applied
    o = get_oracle("module:hx_import_lock")  # its own limit is FAST_ENV's 20 s
    t0 = time.monotonic()
    with applied(Deadline(1.5, what="the budget of 1.5 s")):
        reason = o.unavailable_reason()
    assert "did not start within" in reason and "the budget of 1.5 s" in reason, reason
    assert time.monotonic() - t0 < 10


@pytest.mark.parametrize("name", sorted(BLOCKS_AT_IMPORT))
def test_op_on_a_module_that_blocks_at_import_ends(hostile, name):
    r = cli("op", "composition", "(6,2):(8,2)", "(4,3):(3,1)", "--against", f"module:{name}",
            env=dict(hostile, **SHORT_START))
    assert_bad_input(r, "did not start within", "LAYOUTCHECK_ORACLE_START_TIMEOUT")


@pytest.mark.parametrize("name", sorted(BLOCKS_AT_IMPORT))
def test_fuzz_on_a_module_that_blocks_at_import_ends_within_its_budget(hostile, name):
    """The default start limit (30 s) is longer than the budget: the budget bounds the start."""
    r = cli("fuzz", "--against", f"module:{name}", "--budget", "3", "--ops", "coalesce,composition",
            "--no-db", env=dict(hostile, **DEFAULT_START))
    assert_not_green(r)
    assert r.rc == 2 and "did not start within" in r.err and "the budget of 3 s" in r.err, r.err
    assert r.seconds < 3 + 20, r.seconds  # the interpreter's start, never the 30 s limit


def _cxx(tmp_path, body):
    path = tmp_path / "g++"
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return str(path)


def _cpp_usable():
    from layoutcheck.oracles.cpp.toolchain import Toolchain
    return Toolchain().unavailable_reason()


@pytest.mark.skipif(bool(_cpp_usable()), reason=f"cute-cpp unavailable here: {_cpp_usable()}")
def test_a_compiler_whose_probe_hangs_makes_cute_cpp_unavailable(tmp_path):
    cxx = _cxx(tmp_path, "exec sleep 3600")
    r = cli("op", "coalesce", "4:1", "--against", "cute-cpp",
            env={"CXX": cxx, "LAYOUTCHECK_ORACLE_START_TIMEOUT": "2",
                 "LAYOUTCHECK_CACHE": str(tmp_path / "cache")})
    assert_bad_input(r, "unavailable", "--version did not answer within 2 s")
    assert r.seconds < 30


@pytest.mark.skipif(bool(_cpp_usable()), reason=f"cute-cpp unavailable here: {_cpp_usable()}")
def test_a_compile_that_hangs_is_cut_at_its_limit(tmp_path):
    cxx = _cxx(tmp_path, 'case "$1" in --version) exec g++ --version;; esac\nexec sleep 3600')
    r = cli("op", "coalesce", "4:1", "--against", "cute-cpp",
            env={"CXX": cxx, "LAYOUTCHECK_CPP_COMPILE_TIMEOUT": "2",
                 "LAYOUTCHECK_CACHE": str(tmp_path / "cache")})
    assert_bad_input(r, "did not finish within 2 s", "LAYOUTCHECK_CPP_COMPILE_TIMEOUT")
    assert r.seconds < 30
