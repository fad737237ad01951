"""What bounds a run: the run's deadline (``layoutcheck.deadline``), commands that cannot
outlive it, the progress line (``layoutcheck.progress``), the exit status of a cut run, the
cluster sized to the machine, and the catalogue's estimate and time-limited run.  The
command lines that use them are in the hostile-input suites (tests/test_hostile_*.py)."""

import io
import os
import sys
import time

import pytest

from layoutcheck.commands.common import unfinished_status
from layoutcheck.deadline import Deadline, TimedOut, applied, clip, current, run_bounded
from layoutcheck.fuzz.campaign import cluster as C
from layoutcheck.fuzz.campaign import units as U
from layoutcheck.fuzz.campaign.report import result_row
from layoutcheck.fuzz.checks.catalogue import BY_NAME
from layoutcheck.progress import Progress
from layoutcheck.proofs import CATALOGUE, get_lemma, run
from layoutcheck.proofs.estimate import MEASURED_RANK, estimate
from layoutcheck.proofs.solving import fresh_context


# --- the deadline ---------------------------------------------------------------------------

def test_a_deadline_counts_down_and_travels_as_wall_clock():
    d = Deadline(30, what="--time-limit 30")
    assert 29 < d.remaining() <= 30 and not d.expired() and d.bounded
    assert d.clip(5) == 5 and 29 < d.clip(100) <= 30 and 29 < d.clip(None) <= 30
    there = Deadline.at_wall(d.at)
    assert abs(there.remaining() - d.remaining()) < 1
    never = Deadline(None)
    assert not never.bounded and not never.expired() and never.clip(5) == 5 and never.clip(None) is None
    assert Deadline(0).expired() and Deadline(-1).remaining() == 0


def test_the_runs_deadline_nests_to_the_earlier_one():
    assert current() is None and clip(7) == (7, False)
    late, early = Deadline(100, what="late"), Deadline(10, what="early")
    with applied(late):
        assert current() is late
        with applied(early):
            assert current() is early
            with applied(late):  # a later one never widens it
                assert current() is early
            seconds, cut = clip(60)
            assert cut and seconds <= 10
        assert current() is late
        with applied(None):
            assert current() is late
    assert current() is None


def test_a_bounded_command_is_killed_with_its_children(tmp_path):
    marker = tmp_path / "pid"
    t0 = time.monotonic()
    with pytest.raises(TimedOut) as e:  # the shell and the sleep it started in the background
        run_bounded(["sh", "-c", f"sleep 60 & echo $! > {marker}; wait"], 0.5, "the hang")
    assert time.monotonic() - t0 < 10 and not e.value.by_deadline
    assert "the hang did not finish within 0.5 s" in str(e.value)
    pid = int(marker.read_text())
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the command's child outlived it")
    with applied(Deadline(0.3, what="--time-limit 0.3")), pytest.raises(TimedOut) as e:
        run_bounded(["sleep", "60"], 30, "the sleep")
    assert e.value.by_deadline and "--time-limit 0.3" in str(e.value)
    done = run_bounded([sys.executable, "-c", "import sys; print(sys.stdin.read()[::-1])"], 30,
                       "reverse", input="abc")
    assert done.returncode == 0 and done.stdout.strip() == "cba"


# --- progress --------------------------------------------------------------------------------

class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_is_silent_unless_a_terminal_or_asked():
    quiet = io.StringIO()
    with Progress("job", total=3, stream=quiet) as bar:
        for _ in range(3):
            bar.update(1)
        bar.say("an estimate")
    assert quiet.getvalue() == ""

    clock = iter([0.0, 1.0, 2.0, 11.0]).__next__
    asked = io.StringIO()
    bar = Progress("job", total=3, stream=asked, enabled=True, every=5.0, clock=clock)
    bar.update(1)           # t=1: the first line
    bar.update(1)           # t=2: within `every`, no line
    bar.update(1, note="x")  # t=10: the end
    lines = asked.getvalue().splitlines()
    assert lines == ["job: 1/3 steps, 1.0 s, about 2.0 s left", "job: 3/3 steps, 11 s; x"], lines


def test_progress_on_a_terminal_rewrites_one_line():
    tty = _Terminal()
    with Progress("job", total=2, stream=tty, deadline=Deadline(60, what="--time-limit 60")) as bar:
        bar.update(1, note="first")
        bar.say("said once")
        bar.update(1)
    text = tty.getvalue()
    assert text.startswith("\rjob: 1/2 steps") and "to --time-limit 60" in text
    assert "said once\n" in text and "\n" not in text.replace("said once\n", "")
    assert text.endswith("\r")  # cleared at the end


# --- the exit status of a cut run -------------------------------------------------------------

def test_unfinished_work_is_never_exit_0(capsys):
    limit = Deadline(0, what="--time-limit 1")
    assert unfinished_status("layoutcheck x", False, []) == 0
    assert unfinished_status("layoutcheck x", False, ["a", "b"], limit) == 2
    assert unfinished_status("layoutcheck x", True, ["a"], limit) == 1  # the work done failed
    err = capsys.readouterr().err.splitlines()
    assert err == ["layoutcheck x: --time-limit 1 reached after 0.0 s; not finished: a, b",
                   "layoutcheck x: --time-limit 1 reached after 0.0 s; not finished: a"]


# --- the cluster, sized to the machine ---------------------------------------------------------

def test_more_workers_than_cpus_are_capped_with_a_note():
    cpus = C.usable_cpus()
    spec, note = C.fit_to_machine("local:64")
    if cpus < 64:
        assert spec.workers == cpus and "64 workers asked" in note and f"{cpus} CPU" in note
    spec, note = C.fit_to_machine("processes:1")
    assert spec.workers == 1 and note is None
    spec, note = C.fit_to_machine("tcp://127.0.0.1:8786")  # another machine's workers: as asked
    assert spec.kind == "tcp" and note is None


def test_a_unit_gets_what_is_left_of_the_budget():
    unit = {"index": 0, "oracle": "impl", "shard": 1, "seed": 1, "checks": ["diff.size"],
            "kw": {"budget": 30.0, "max_examples": None}, "deadline_at": time.time() + 5}
    kw = U.within_deadline(unit)
    assert 4 < kw["budget"] <= 5 and unit["kw"]["budget"] == 30.0
    unit.update(kw={"budget": 30.0, "max_examples": 10, "time_cap": None})
    assert 4 < U.within_deadline(unit)["time_cap"] <= 5
    unit["deadline_at"] = time.time() - 1
    assert U.within_deadline(unit) is None
    out = U.execute(lambda kw: pytest.fail("a late unit runs nothing"), unit)
    (row,) = out["rows"]
    assert row["status"] == "skipped" and row["not_reached"] and "shard 1" in row["message"]


def test_a_pair_with_a_shard_that_never_ran_is_not_a_pass():
    check = BY_NAME["diff.size"]
    ran = result_row(check, "impl", "pass", cases=40, seconds=1.0)
    late = result_row(check, "impl", "skipped", not_reached=True, message="not reached: late")
    row = C.merge_rows([ran, late])
    assert row["status"] == "skipped" and row["not_reached"] and "1 of 2 shards" in row["message"]
    assert row["cases"] == 40
    lost = C.merge_rows([ran, U.late_rows({"index": 1, "oracle": "impl", "shard": 1, "seed": 1,
                                            "checks": ["diff.size"]}, started=True)[0]])
    assert lost["status"] == "error" and lost["message"].startswith("incomplete:")


# --- the catalogue: its estimate, and a run under a time limit ---------------------------------

def test_the_catalogue_counts_its_queries_without_building_them():
    for lemma in CATALOGUE:
        top = 4 if lemma.max_rank is None else min(4, lemma.max_rank)
        for rank in range(lemma.min_rank, top + 1):
            with fresh_context():
                built = len(lemma.queries(rank))
            assert lemma.count(rank) == built, (lemma.name, rank)


def test_the_estimate_says_what_a_run_asks():
    est = estimate(CATALOGUE, 4, 20.0, induction=True, jobs=2)
    assert est.queries == sum(n for _, _, n in est.units) + est.inductions
    assert est.expected_s is not None and 0 < est.expected_s < est.worst_s and not est.beyond
    assert "expected about" in est.line()
    big = estimate([get_lemma("coalesce_phi"), get_lemma("squeeze_size")], 100, 5.0)
    assert big.expected_s is None and big.beyond[0][0] == "coalesce_phi"
    assert big.beyond[0][1] == 100 > MEASURED_RANK and big.too_large
    assert "no time can be expected" in big.line()


def test_a_time_limited_run_goes_cheapest_first_and_marks_what_it_cut():
    t0 = time.monotonic()
    rows = run(["squeeze_size", "coalesce_phi"], max_rank=40, timeout=5.0, jobs=1,
               deadline=Deadline(3, what="--time-limit 3"))
    assert time.monotonic() - t0 < 3 + 15
    assert len(rows) == 2 * 41
    cut = [r for r in rows if r.get("unfinished")]
    assert cut and all(r["result"] == "unknown" for r in cut)
    assert all(r["result"] != "unknown" for r in rows if not r.get("unfinished"))  # no z3 unknown
    assert {(r["lemma"], r["result"]) for r in rows if r["rank"] == "all"} == \
        {("squeeze_size", "proved"), ("coalesce_phi", "proved")}  # the inductions went first
    notes = {r["note"] for r in cut}
    assert any(n.startswith("not attempted") for n in notes)  # coalesce at rank 10 and up
    assert any("--time-limit 3" in n for n in notes)
