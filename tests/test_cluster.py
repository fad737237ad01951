"""Campaigns on Dask distributed: a real 2-worker LocalCluster, a worker killed
mid-unit, a unit that keeps killing its worker, and the forked-process engine, each against
the same reference run; the merge rules on their own."""

import os
import signal
import textwrap
import threading
import time

import layoutcheck.fuzz.campaign.runner as C
import pytest
from layoutcheck.fuzz.campaign.cluster import merge_rows, parse_cluster
from layoutcheck.fuzz.campaign.report import result_row

from layoutcheck.cli import main
from layoutcheck.errors import LayoutError

distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed "
                                  "(pip install 'layoutcheck[cluster]')")

BROKEN = textwrap.dedent("""
    from pycute import *
    from pycute import flatten, Layout

    def coalesce(layout, profile=None):   # merges on equal strides: a realistic typo
        shape, stride = [1], [0]
        for s, d in zip(flatten(layout.shape), flatten(layout.stride)):
            if s == 1:
                continue
            if shape[-1] == 1:
                shape[-1], stride[-1] = s, d
            elif stride[-1] == d:
                shape[-1] = shape[-1] * s
            else:
                shape.append(s)
                stride.append(d)
        if len(shape) == 1:
            return Layout(shape[0], stride[0])
        return Layout(tuple(shape), tuple(stride))
""")
ORACLE = "module:lc_cluster_broken"
RUN = dict(oracles=[ORACLE, "impl"], checks=["law.coalesce.function", "diff.size", "diff.coalesce"],
           max_examples=120, seed=3, use_db=False)


@pytest.fixture(scope="module")
def broken_path(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cluster_oracle")
    (folder / "lc_cluster_broken.py").write_text(BROKEN)
    import sys
    sys.path.insert(0, str(folder))
    yield folder
    sys.path.remove(str(folder))


def _pycute_or_skip():
    from layoutcheck.oracles import get_oracle
    why = get_oracle("pycute").unavailable_reason()
    if why:
        pytest.skip(f"the broken oracle is a patched pycute: {why}")


def _rows(report):
    """What every engine must agree on; a failing check's case count is left out (how many
    cases the shrinker tries before its time grace ends depends on the machine's load)."""
    return [(r["check"], r["oracle"], r["status"], r["cases"] if r["status"] == "pass" else "-",
             r["counterexample"], r["known_finding"]) for r in report["results"]]


@pytest.fixture(scope="module")
def reference(broken_path):
    """The run on forked processes (no Dask): what every engine must reproduce."""
    _pycute_or_skip()
    return C.run_campaign(cluster="processes:2", **RUN)


def test_cluster_specs():
    assert str(parse_cluster("local:3")) == "local:3"
    assert parse_cluster("local", jobs=4).workers == 4
    assert parse_cluster("tcp://10.0.0.1:8786").address == "tcp://10.0.0.1:8786"
    assert parse_cluster("processes:2").kind == "processes"
    for bad in ("local:0", "local:65", "local:x", "tcp://host", "tcp://:1", "udp://h:1", "yarn"):
        with pytest.raises(LayoutError, match="--cluster"):
            parse_cluster(bad)


class _Check:
    name, op, kind = "law.x", "coalesce", "law"


def test_merge_keeps_the_smallest_new_case_and_sums_cases():
    def row(status, cases, ce=None, known=None, msg=""):
        return result_row(_Check, "o", status, cases=cases, seconds=1.0, counterexample=ce,
                          known_finding=known, message=msg)
    rows = [row("pass", 10), row("fail", 3, ["(4,2):(1,4)"], "F-001"),
            row("fail", 5, ["(2,2):(1,2)", "3:1"]), row("fail", 4, ["2:1", "1:1"]),
            row("error", 0, msg="incomplete: shard 4 of o (seed 4) was lost")]
    m = merge_rows(rows)
    assert m["status"] == "fail" and m["counterexample"] == ["2:1", "1:1"] and not m["known_finding"]
    assert m["cases"] == 22 and "incomplete: shard 4" in m["message"]
    known = merge_rows(rows[:2])
    assert known["known_finding"] == "F-001" and known["status"] == "fail"
    lost = merge_rows([rows[0], rows[4]])
    assert lost["status"] == "error" and lost["message"].startswith("incomplete:")  # never a pass


def test_a_sharded_report_sums_the_shards_oracle_counters():
    """The parent's oracle objects run nothing in a sharded run: the report's oracle counters
    are the shards' (summed; a per-process setting and text kept), the harness' rate is the
    merged rows'."""
    from layoutcheck.fuzz.campaign.report import oracle_stats
    rows = [result_row(_Check, "cute-cpp", "pass", cases=30, seconds=2.0),
            result_row(_Check, "cute-cpp", "pass", cases=10, seconds=2.0)]
    shard = lambda n: {"cute-cpp": {"cases": n, "seconds": 1.0, "cases_per_s": n, "compiles": n,  # noqa: E731
                                    "oracle_seconds": 0.5, "jobs": 2, "cutlass_version": "4.2.0",
                                    "oracle_cases": {"driver": n, "static": 1}}}
    got = oracle_stats({}, ["cute-cpp"], rows, shards=[shard(3), shard(5)])["cute-cpp"]
    assert got["cases"] == 40 and got["cases_per_s"] == 10.0 and got["shards"] == 2
    assert got["compiles"] == 8 and got["oracle_seconds"] == 1.0 and got["jobs"] == 2
    assert got["oracle_cases"] == {"driver": 8, "static": 2} and got["cutlass_version"] == "4.2.0"


def test_local_cluster_of_two_workers_reproduces_the_reference(reference):
    rep = C.run_campaign(cluster="local:2", **RUN)
    assert _rows(rep) == _rows(reference)
    assert [r["check"] for r in rep["results"]][:3] == sorted(RUN["checks"])  # one-process order
    info = rep["cluster"]
    assert info["engine"] == "dask" and info["workers"] == 2 and info["units"] == 4
    assert info["lost"] == [] and info["retried"] == []
    assert info["timeline"][-1][1] == rep["summary"]["cases"]  # every unit's cases, summed
    assert rep["oracle_stats"][ORACLE]["shards"] == 2 and "oracle_stats" not in info  # 2 units each
    bad = [r for r in rep["results"] if r["oracle"] == ORACLE and r["status"] == "fail"]
    assert bad and all(r["counterexample"] for r in bad) and rep["exit_status"] == 1


def test_jobs_runs_on_an_embedded_dask_cluster(broken_path):
    rep = C.run_campaign(oracles=["impl"], checks=["diff.size"], max_examples=10, jobs=2,
                         use_db=False)
    assert rep["cluster"]["engine"] == "dask" and rep["cluster"]["cluster"] == "local:2"
    assert rep["results"][0]["status"] == "pass" and rep["results"][0]["cases"] > 0
    assert rep["exit_status"] == 0


def _busy_worker(client, token_hint, timeout=60):
    """(address, pid) of a worker that has been running one of our units for a moment."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        busy = {w: keys for w, keys in client.processing().items()
                if any(str(k).startswith(token_hint) for k in keys)}
        if busy:
            time.sleep(1.0)  # mid-unit: it has started fuzzing
            w = sorted(busy)[0]
            return w, client.run(os.getpid, workers=[w])[w]
        time.sleep(0.05)
    raise AssertionError("no worker picked up a unit")


def test_a_worker_killed_mid_unit_is_retried_and_loses_no_failure(reference):
    import logging

    import dask
    from distributed import Client, LocalCluster
    with dask.config.set({"distributed.scheduler.allowed-failures": 2}), \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                         dashboard_address=":0", silence_logs=logging.CRITICAL) as lc, \
            Client(lc) as client:
        out = {}

        def run():
            try:
                out["report"] = C.run_campaign(cluster=lc.scheduler_address, jobs=2, **RUN)
            except BaseException as e:  # noqa: BLE001 - shown by the assertion below
                out["error"] = e
        t = threading.Thread(target=run)
        t.start()
        worker, pid = _busy_worker(client, "layoutcheck-")
        os.kill(pid, signal.SIGKILL)
        t.join(240)
        assert not t.is_alive(), "the run did not end"
    assert "error" not in out, out.get("error")
    rep = out["report"]
    assert rep["cluster"]["retried"], rep["cluster"]  # the killed unit started twice
    assert all(x["starts"] == 2 for x in rep["cluster"]["retried"]) and not rep["cluster"]["lost"]
    assert _rows(rep) == _rows(reference)  # nothing lost, nothing counted twice
    assert rep["exit_status"] == 1


def _dying(kw):  # a unit that kills whatever runs it (pickled by reference to the workers)
    if kw["seed"] == 1:
        os._exit(9)
    return C.run_campaign(**kw)["results"]


@pytest.mark.parametrize("cluster, why", [("processes:2", "exited with status 9"),
                                          ("local:2", "every worker that ran it died")])
def test_a_unit_that_keeps_dying_is_incomplete_never_passed(cluster, why, monkeypatch):
    monkeypatch.setattr(C, "_shard", _dying)
    t0 = time.monotonic()
    rep = C.run_campaign(oracles=["impl"], checks=["diff.size"], max_examples=6, cluster=cluster,
                         jobs=2, use_db=False)
    row = rep["results"][0]
    assert row["status"] == "error" and row["message"].startswith("incomplete: shard 1 of impl")
    assert why in row["message"] and rep["exit_status"] == 2
    assert rep["cluster"]["lost"][0]["seed"] == 1
    assert time.monotonic() - t0 < 120


def test_cli_validates_the_cluster_options_before_any_work(capsys):
    for argv, what in ((["--cluster", "local:0"], "--cluster"), (["--cluster", "tcp://x"], "--cluster"),
                       (["--db", "redis://127.0.0.1:notaport/0"], "--db"),
                       (["--db", "redis://127.0.0.1:1/x"], "--db"),
                       (["--db", "redis://127.0.0.1:1/0", "--no-db"], "--no-db"),
                       (["--html", "/nonexistent/dir/r.html"], "--html"),
                       (["--report", "same.json", "--html", "same.json"], "different files")):
        assert main(["fuzz", "--against", "impl", "--max-examples", "1", *argv]) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and what in err[0], (argv, err)


def test_an_unreachable_scheduler_or_redis_is_one_line(capsys, monkeypatch):
    import layoutcheck.fuzz.campaign.cluster as K
    from cluster_support import free_port
    monkeypatch.setattr(K, "CONNECT_S", 2.0)
    port = free_port()
    t0 = time.monotonic()
    assert main(["fuzz", "--against", "impl", "--max-examples", "1", "--no-db",
                 "--cluster", f"tcp://127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no Dask scheduler answers" in err[0], err
    assert main(["fuzz", "--against", "impl", "--max-examples", "1",
                 "--db", f"redis://127.0.0.1:{port}/0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not answer" in err[0], err
    assert time.monotonic() - t0 < 30
