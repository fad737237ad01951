"""Campaigns on a cluster: work units on Dask distributed, merged into one report.

A run is cut into *units* (``fuzz.campaign.units``): (oracle, checks, seed) with a budget (or a
number of cases).  Each
oracle gets ``shards`` units with seeds ``seed, seed + 1, ...``; a unit is one
``layoutcheck.fuzz.campaign.runner.run_campaign`` call on a worker (``campaign._shard``), and the
driver merges the units' rows per (check, oracle) into the rows of one report: cases summed,
the smallest new counterexample kept (else the smallest known one), the report's schema and
exit status as for a run in one process.  With a time budget, the units of one *wave* (as
many units as the cluster has worker threads) run side by side, so a unit gets
``budget / waves`` seconds and the run ends near its budget.

Engines, chosen by ``--cluster``:

- ``local[:N]``: an embedded Dask ``LocalCluster`` of N single-threaded worker processes
  (default: ``--jobs``, else the CPU count); ``--jobs N`` alone means ``local:N``;
- ``tcp://HOST:PORT``: an existing Dask scheduler and whatever workers joined it (the run
  waits up to ``WAIT_WORKERS_S`` for the first one);
- ``processes:N``: forked processes without Dask (the fallback when ``distributed`` is not
  installed; a lost unit is not retried there).

Sized to the machine: ``local:N`` and ``processes:N`` start at most as many workers as this
machine has CPUs (``fit_to_machine``; ``--jobs 64`` on 2 CPUs runs 2 workers and says so).
With a time budget, the workers' start counts against it: the units are submitted while the
workers start, each unit gets what is left of the budget when it starts (``deadline_at``, wall
clock), a unit that starts past it reports its pairs as not reached, and the driver stops
waiting at the budget plus its grace and ``UNIT_MARGIN_S``: a unit still running then is an
``incomplete:`` error, one never started is not reached.  Never a pass, and never a wait
past the budget whatever the number of workers.

No false green: a unit whose worker dies (killed, out of memory, ``os._exit``) is run again
on another worker by Dask, at most ``ALLOWED_FAILURES`` times
(``distributed.scheduler.allowed-failures``; a remote scheduler uses its own setting); a
unit still lost after that, one that raised, or one left without any worker for
``NO_WORKER_S`` makes its rows ``error`` rows whose message starts with ``incomplete:``,
never passes.  The report's ``cluster`` entry says what ran where, which units were retried
(from the units' start events) or lost, and how long starting and merging took.
"""

import logging
import multiprocessing as mp
import os
import signal
import sys
import tempfile
import time
import uuid
from multiprocessing.connection import wait

from layoutcheck.fuzz.campaign.budget import grace
from layoutcheck.fuzz.campaign.exampledb import ExampleDbStore
from layoutcheck.fuzz.campaign.shrink import measure
from layoutcheck.fuzz.campaign.units import TOPIC, execute, late_rows, lost_rows, plan
from layoutcheck.fuzz.checks.targets import decode

from layoutcheck import deadline as run_deadline
from layoutcheck.deadline import Deadline
from layoutcheck.errors import LayoutError

__all__ = ["parse_cluster", "plan", "merge_rows", "run_sharded", "execute", "engine_for",
           "ALLOWED_FAILURES", "MAX_WORKERS", "usable_cpus", "fit_to_machine", "UNIT_MARGIN_S"]

MAX_WORKERS = 64
ALLOWED_FAILURES = 2    # worker deaths a unit survives (then: incomplete)
NO_WORKER_S = 60.0      # a cluster without any worker this long: the remaining units are lost
WAIT_WORKERS_S = 60.0   # tcp://: how long to wait for a first worker
CONNECT_S = float(os.environ.get("LAYOUTCHECK_CLUSTER_CONNECT_S", "10"))  # tcp:// connect
POLL_S = 0.2
UNIT_MARGIN_S = 5.0     # past budget + grace: a unit's case in flight and its report
CLOSE_S = 5.0           # closing the client and the cluster (their workers already gone)


class Spec:
    """A parsed ``--cluster``: kind "local" | "tcp" | "processes", workers, address."""

    def __init__(self, kind, workers=None, address=None):
        self.kind, self.workers, self.address = kind, workers, address

    def __str__(self):
        return self.address if self.kind == "tcp" else f"{self.kind}:{self.workers}"


def parse_cluster(text, jobs=1):
    """``local``, ``local:N``, ``processes:N`` or ``tcp://HOST:PORT``; LayoutError otherwise."""
    if isinstance(text, Spec):
        return text
    t = str(text).strip()
    if t.startswith("tcp://"):
        host, _, port = t[6:].rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536 or "/" in host:
            raise LayoutError(f"--cluster {t}: expected tcp://HOST:PORT (a Dask scheduler)")
        return Spec("tcp", address=t)
    kind, _, n = t.partition(":")
    if kind not in ("local", "processes"):
        raise LayoutError(f"--cluster {t}: expected local, local:N, processes:N or tcp://HOST:PORT")
    if not n:
        n = str(jobs if jobs and jobs > 1 else (os.cpu_count() or 1))
    if not n.isdigit() or not 1 <= int(n) <= MAX_WORKERS:
        raise LayoutError(f"--cluster {t}: the number of workers must be an integer in "
                          f"[1, {MAX_WORKERS}]")
    return Spec(kind, workers=int(n))


def usable_cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def fit_to_machine(spec: "Spec | str",
                   max_examples: int | None = None) -> tuple["Spec", str | None]:
    """(spec, note): a ``local`` or ``processes`` cluster of more workers than this machine
    has CPUs is cut down to one worker per CPU; ``note`` says so (None when nothing was
    cut).  With ``--max-examples`` the shards stay as asked (the cases do not depend on the
    machine), fewer processes run them."""
    spec = parse_cluster(spec)
    cpus = usable_cpus()
    if spec.kind == "tcp" or spec.workers <= cpus:
        return spec, None
    what = ("the shards run on" if max_examples is not None else "the run uses")
    note = (f"{spec.workers} workers asked, but this machine has {cpus} CPU"
            f"{'s' if cpus > 1 else ''}: {what} {cpus} worker process{'es' if cpus > 1 else ''}")
    return Spec(spec.kind, workers=cpus), note


# --- merging --------------------------------------------------------------------------------

SUMMED = ("cases", "known_cases", "known_region_cases", "new_ground_cases", "region_skipped",
          "duplicates", "rounds", "runtime_cases", "static_cases", "mixed_cases")


def _is_new(r):
    return r["status"] in ("fail", "error") and bool(r["counterexample"]) and not r["known_finding"]


def _rank(r):
    """Which row of a pair speaks for it: a new failure (smallest case first), then an error
    without a case (a harness error, a lost unit), then a known region whose answer was not
    checked, then a known failure, a pass, a skip."""
    if _is_new(r):
        grade = 5
    elif r["status"] == "error":
        grade = 4
    elif r["known_finding"]:
        grade = 3 if r.get("answer_checked") is False else 2
    else:
        grade = {"pass": 1}.get(r["status"], 0)
    ce = r["counterexample"] or []
    return (-grade, r["status"] != "fail", _measure(ce), list(ce))


def _measure(inputs):
    """A counterexample's place in the shrinking order (``shrink.measure``), so that the
    units' minimal cases are compared as each unit compared its candidates."""
    try:
        return measure(decode(inputs))
    except Exception:  # noqa: BLE001 - a row from elsewhere: its text length
        return (sum(map(len, inputs)),)


def merge_rows(rows):
    """One pair's rows from several units, as one row (see the module docstring)."""
    best = min(rows, key=_rank)
    out = dict(best)
    for k in SUMMED:
        out[k] = sum(r.get(k) or 0 for r in rows)
    out["seconds"] = max(r["seconds"] for r in rows)
    out["cases_per_s"] = round(out["cases"] / out["seconds"], 1) if out["seconds"] else 0.0
    out["behaviours"] = max(r.get("behaviours") or 0 for r in rows)
    out["steered"] = list(dict.fromkeys(x for r in rows for x in r.get("steered") or []))
    for k in ("first_failure_s", "first_known_s"):
        vals = [r[k] for r in rows if r.get(k) is not None]
        out[k] = min(vals) if vals else None
    if any(r.get("elapsed_s") is not None for r in rows):
        out["elapsed_s"] = max(r["elapsed_s"] for r in rows if r.get("elapsed_s") is not None)
    unreached = [r for r in rows if r.get("not_reached")]
    if unreached and out["status"] == "skipped":
        out["not_reached"] = True
    elif unreached and out["status"] == "pass":  # part of the run never ran: no pass
        out.update(status="skipped", not_reached=True,
                   message=f"not reached in full: {len(unreached)} of {len(rows)} shards did "
                           f"not run ({unreached[0]['message']})")
    lost = [r["message"] for r in rows if r is not best and r["message"].startswith("incomplete:")]
    if lost and best["status"] != "error":
        out["message"] = (out["message"] + " " if out["message"] else "") + "(" + "; ".join(lost) + ")"
    return out


# --- engines --------------------------------------------------------------------------------

def _quiet_dask():

    import dask
    for name in ("distributed", "distributed.nanny", "distributed.scheduler", "distributed.worker",
                 "distributed.core", "distributed.comm", "tornado"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    return dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
                            "distributed.worker.daemon": False,
                            "distributed.worker.profile.enabled": False,  # samples every 10 ms
                            "distributed.admin.log-length": 0})


class DaskEngine:
    name = "dask"

    def __init__(self, spec):
        self.spec, self.cluster, self.client, self.token = spec, None, None, uuid.uuid4().hex

    def __enter__(self):
        try:
            from distributed import Client, LocalCluster
        except ImportError as e:
            raise LayoutError(f"--cluster {self.spec} needs Dask distributed (pip install "
                              f"'layoutcheck[cluster]'; processes:N runs without it): {e}") from None
        self._config = _quiet_dask()
        self._config.__enter__()
        self._children = set(mp.active_children())
        try:
            if self.spec.kind == "local":
                self._tmp = tempfile.TemporaryDirectory(prefix="layoutcheck-dask-",
                                                        ignore_cleanup_errors=True)
                # the scheduler now, the workers while the units wait: their start is
                # charged to the budget, never waited for before it
                self.cluster = LocalCluster(n_workers=0, threads_per_worker=1,
                                            processes=True, host="127.0.0.1", scheduler_port=0,
                                            dashboard_address=":0", silence_logs=logging.CRITICAL,
                                            local_directory=self._tmp.name)
                self.client = Client(self.cluster, timeout=CONNECT_S)
                self.cluster.scale(self.spec.workers)
            else:
                try:
                    self.client = Client(self.spec.address, timeout=CONNECT_S)
                except (OSError, TimeoutError) as e:
                    raise LayoutError(f"--cluster {self.spec}: no Dask scheduler answers there: "
                                      f"{' '.join(str(e).split())[:200]}") from None
                wait, _ = run_deadline.clip(WAIT_WORKERS_S)
                try:
                    self.client.wait_for_workers(1, timeout=max(wait, 0.1))
                except TimeoutError:
                    raise LayoutError(f"--cluster {self.spec}: no worker joined the scheduler "
                                      f"within {wait:.3g} s") from None
        except BaseException:
            self.__exit__(*sys.exc_info())
            raise
        return self

    def __exit__(self, *exc):
        # an embedded cluster's worker processes go first, told not to come back (Nanny's
        # close_gracefully): a worker still starting holds a graceful close past any timeout,
        # and the interpreter's exit after it; the cluster then closes at once
        for nanny in list(getattr(self.cluster, "workers", {}).values()):
            try:
                nanny.close_gracefully()
            except Exception:  # noqa: BLE001 - tearing down: nothing left to report
                pass
        for p in set(mp.active_children()) - getattr(self, "_children", set()):
            try:
                p.kill()
                p.join(1)
            except (OSError, ValueError, AssertionError):
                pass
        for thing in (self.client, self.cluster):
            _close(thing)
        if getattr(self, "_tmp", None) is not None:
            self._tmp.cleanup()
        self._config.__exit__(None, None, None)
        return False

    def workers(self):
        if self.spec.kind == "local":  # still starting: as many as were asked for
            return self.spec.workers
        info = self.client.scheduler_info()["workers"]
        return max(1, sum(w.get("nthreads", 1) for w in info.values()))

    def run(self, units, fn, done, deadline=None, start_by=None):
        """Submit every unit; call ``done(unit, ("ok", payload) | ("lost", why))`` as each ends,
        and ``done(unit, ("late", started))`` for each unit not started when ``start_by``
        passes and for each unit left when ``deadline`` passes (both ``Deadline`` or None)."""
        from distributed import KilledWorker
        futures = {self.client.submit(execute, fn, u, self.token, pure=False,
                                      key=f"layoutcheck-{self.token[:8]}-{u['index']}"): u
                   for u in units}
        empty_since = None
        try:
            while futures:
                late = [d for d in (start_by, deadline) if d is not None and d.expired()]
                if late:
                    started = self.attempts()
                    for fut, unit in list(futures.items()):
                        begun = started.get(unit["index"], 0) > 0
                        if deadline in late or not begun:
                            fut.cancel()
                            futures.pop(fut)
                            done(unit, ("late", begun))
                    start_by = None
                    if not futures:
                        break
                for fut in [f for f in futures if f.done()]:
                    unit = futures.pop(fut)
                    try:
                        payload = ("ok", fut.result())
                    except KilledWorker:
                        payload = ("lost", f"was lost: every worker that ran it died "
                                           f"({ALLOWED_FAILURES + 1} tries)")
                    except (KeyboardInterrupt, SystemExit):
                        raise
                    except BaseException as e:  # noqa: BLE001 - raised on its worker, cancelled
                        payload = ("lost", f"failed on its worker: {type(e).__name__}: "
                                           f"{' '.join(str(e).split())[:300]}")
                    done(unit, payload)
                if not futures:
                    break
                if self.spec.kind == "tcp" and not self.client.scheduler_info()["workers"]:
                    empty_since = empty_since or time.monotonic()
                    if time.monotonic() - empty_since > NO_WORKER_S:
                        for fut, unit in list(futures.items()):
                            done(unit, ("lost", f"was lost: the cluster had no worker for "
                                                f"{NO_WORKER_S:g} s"))
                        futures.clear()
                else:
                    empty_since = None
                time.sleep(POLL_S)
        finally:
            for fut in futures:
                fut.cancel()

    def attempts(self):
        """{unit index: how many times a worker started it} from the units' start events."""
        out = {}
        try:
            for _, msg in self.client.get_events(TOPIC):
                if isinstance(msg, dict) and msg.get("token") == self.token:
                    out[msg["unit"]] = out.get(msg["unit"], 0) + 1
        except Exception:  # noqa: BLE001 - events are informative only
            return {}
        return out


def _close(thing):
    if thing is not None:
        try:
            thing.close(timeout=CLOSE_S)
        except Exception:  # noqa: BLE001 - tearing down: nothing left to report
            pass


class ForkEngine:
    """``processes:N``: at most N forked processes at a time, one per unit (no Dask)."""
    name = "processes"

    def __init__(self, spec):
        self.spec = spec

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def workers(self):
        return self.spec.workers

    def attempts(self):
        return {}

    def run(self, units, fn, done, deadline=None, start_by=None):

        def child(unit, conn):
            try:
                conn.send(("ok", execute(fn, unit)))
            except BaseException as e:  # noqa: BLE001 - reported to the driver
                conn.send(("lost", f"failed: {type(e).__name__}: {e}"[:2000]))

        ctx, todo, live = mp.get_context("fork"), list(units), {}
        try:
            while todo or live:
                if start_by is not None and start_by.expired():
                    for unit in todo:
                        done(unit, ("late", False))
                    todo.clear()
                    if not live:
                        break
                while todo and len(live) < self.spec.workers:
                    unit = todo.pop(0)
                    recv, send = ctx.Pipe(duplex=False)
                    p = ctx.Process(target=child, args=(unit, send), daemon=True,
                                    name=f"layoutcheck unit {unit['index']}")
                    p.start()
                    send.close()
                    live[recv] = (p, unit)
                left = min((d.remaining() for d in (deadline, start_by if todo else None)
                            if d is not None), default=None)
                ready = wait(list(live), timeout=left)
                if not ready and (deadline is None or not deadline.expired()):
                    continue  # start_by passed: the units still to start are dropped above
                if not ready:
                    for p, unit in live.values():
                        p.kill()
                        p.join(5)
                        done(unit, ("late", True))
                    live.clear()
                    for unit in todo:
                        done(unit, ("late", False))
                    todo.clear()
                    break
                for conn in ready:
                    p, unit = live.pop(conn)
                    try:
                        outcome = conn.recv()
                    except (EOFError, OSError):
                        p.join(5)
                        outcome = ("lost", f"was lost: its process {_ended(p.exitcode)} before "
                                           "it reported")
                    p.join(5)
                    done(unit, outcome)
        finally:
            for p, _ in live.values():
                if p.is_alive():
                    p.kill()
                p.join(5)


def _ended(code):
    if code is None:
        return "did not end"
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


def engine_for(spec):
    if spec.kind == "processes":
        return ForkEngine(spec)
    try:
        import distributed  # noqa: F401
    except ImportError:
        if spec.kind == "local":  # --jobs N on a core install: the same units in processes
            return ForkEngine(Spec("processes", spec.workers))
        raise
    return DaskEngine(spec)


# --- a sharded run --------------------------------------------------------------------------

def _limits(budget, max_examples, time_cap):
    """(the units' deadline as wall-clock seconds, the same as a ``Deadline``: no unit starts
    past it, the driver's ``Deadline``: no unit runs past it), from what is left of the run's
    budget (or time cap; all None without one).  The run's deadline
    (``layoutcheck.deadline.current()``, set by ``run_campaign``) says how much is spent."""
    limit = budget if max_examples is None else time_cap
    if limit is None:
        return None, None, None
    run = run_deadline.current()
    left = max(0.0, limit - (run.elapsed() if run is not None else 0.0))
    what = f"the budget of {limit:g} s" if max_examples is None else f"the time cap of {limit:g} s"
    driver = Deadline(left + grace(limit) + UNIT_MARGIN_S, what=what)
    return time.time() + left, Deadline(left, what=what), driver.earlier(run)


def run_sharded(names, selected, *, budget, seed, max_examples, jobs, cluster, fn, store=None,
                db=(), progress=None, time_cap=None, findings=True, extra=None):
    """(rows in the order of a one-process run, the report's ``cluster`` entry).  ``fn``
    runs one unit's ``kw`` on a worker (``campaign._shard``); ``store`` is the run's example
    database (a Redis store is opened by every unit; else the driver's entries ``db`` are
    sent along, read-only); ``time_cap`` bounds a run with ``max_examples``."""
    spec, capped = fit_to_machine(parse_cluster(cluster or f"local:{jobs}", jobs), max_examples)
    if capped and max_examples is None:
        jobs = min(jobs or 1, spec.workers)  # a budget's shards run side by side
    deadline_at, start_by, driver = _limits(budget, max_examples, time_cap)
    t0 = time.monotonic()
    shared = isinstance(store, ExampleDbStore)
    with engine_for(spec) as engine:
        started = time.monotonic() - t0
        workers = engine.workers()
        shards = jobs if jobs and jobs > 1 else workers
        units, per_budget = plan(names, [c.name for c in selected], seed, budget, max_examples,
                                 shards, workers,
                                 store_spec=store.url if shared else None,
                                 replays=None if shared or store is None else list(db),
                                 deadline_at=deadline_at, findings=findings, extra=extra)
        results, timeline, hosts, lost, stats, late = {}, [], {}, [], [], []
        total = len(units) * len(selected)
        shown, cases = [0], [0]

        def done(unit, outcome):
            kind, value = outcome
            if kind == "ok":
                rows = value["rows"]
                hosts.setdefault(value["host"], set()).add(value["pid"])
                if value.get("oracle_stats"):
                    stats.append(value["oracle_stats"])
            elif kind == "late":
                rows = late_rows(unit, value, driver.what)
                late.append({"unit": unit["index"], "oracle": unit["oracle"],
                             "seed": unit["seed"], "started": value})
            else:
                rows = lost_rows(unit, selected, value)
                lost.append({"unit": unit["index"], "oracle": unit["oracle"],
                             "seed": unit["seed"], "why": value})
            results[unit["index"]] = rows
            cases[0] += sum(r["cases"] for r in rows)
            timeline.append([round(time.monotonic() - t0, 3), cases[0]])
            for r in rows:
                shown[0] += 1
                if progress:
                    progress(shown[0], total, r)

        engine.run(units, fn, done, driver, start_by)
        attempts = engine.attempts()
    t_merge = time.monotonic()
    order = {(c.name, n): i for i, (n, c) in enumerate((n, c) for n in names for c in selected)}
    by_pair = {}
    for u in units:
        for r in results[u["index"]]:
            by_pair.setdefault((r["check"], r["oracle"]), []).append(r)
    merged = [merge_rows(by_pair[k]) for k in sorted(by_pair, key=order.__getitem__)]
    info = {"engine": engine.name, "cluster": str(spec), "workers": workers, "shards": shards,
            "units": len(units), "unit_budget_s": None if max_examples is not None else per_budget,
            "start_s": round(started, 3), "merge_s": round(time.monotonic() - t_merge, 4),
            "retried": [{"unit": i, "oracle": units[i]["oracle"], "seed": units[i]["seed"],
                         "starts": n} for i, n in sorted(attempts.items()) if n > 1],
            "lost": lost, "late": late, "capped": capped,
            "hosts": {h: len(p) for h, p in hosts.items()}, "timeline": timeline,
            "oracle_stats": stats}
    return merged, info
