"""The units of a sharded campaign (``fuzz.campaign.cluster``): what one is, how a worker
runs it, and the rows of one that did not run.

A unit is one ``run_campaign`` call on a worker: (oracle, every selected check, seed + k)
with its share of the budget (or of the cases).  ``plan`` makes them, picklable, with the
driver's import path, its ``LAYOUTCHECK_*`` settings and the run's deadline (``deadline_at``,
wall clock); ``execute`` runs one on a worker within what is left before that deadline (the
worker's own start counts); a unit that starts past it runs nothing and reports its pairs as
not reached.  ``late_rows`` and ``lost_rows`` are the rows of a unit the driver gave up on:
never a pass.
"""

import math
import os
import socket
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from layoutcheck.fuzz.campaign.exampledb import ReplayStore
from layoutcheck.fuzz.campaign.report import result_row
from layoutcheck.fuzz.checks.catalogue import BY_NAME

__all__ = ["plan", "execute", "within_deadline", "late_rows", "lost_rows", "TOPIC"]

TOPIC = "layoutcheck-units"


def plan(names: Sequence[str], checks: Sequence[str], seed: int, budget: float | None,
         max_examples: int | None, shards: int, workers: int, store_spec: Any = None,
         replays: list[dict[str, Any]] | None = None,
         deadline_at: float | None = None,
         findings: bool = True,
         extra: dict[str, Any] | None = None) -> tuple[list[dict[str, Any]], float | None]:
    """The units of a run (dicts, picklable): ``kw`` is ``run_campaign``'s arguments (``extra``:
    more of them, the same for every unit, e.g. the baseline);
    ``deadline_at`` (wall clock) the time no unit may fuzz past."""
    units = []
    for oracle in names:
        for k in range(shards):
            units.append({"index": len(units), "oracle": oracle, "shard": k, "seed": seed + k,
                          "checks": list(checks)})
    waves = max(1, math.ceil(len(units) / max(1, workers)))
    per_budget = budget / waves if budget else budget
    per_cases = None if max_examples is None else max(1, -(-max_examples // shards))
    path = [p for p in sys.path if p]
    env = {k: v for k, v in os.environ.items() if k.startswith("LAYOUTCHECK_")}
    for u in units:
        db = store_spec
        if replays is not None:  # the driver's file: this unit's stored cases, read-only
            db = ReplayStore([e for e in replays if e["oracle"] == u["oracle"]
                              and e["check"] in u["checks"]])
        u["kw"] = dict(oracles=[u["oracle"]], ops=None, budget=per_budget, seed=u["seed"],
                       max_examples=per_cases, checks=u["checks"], kinds=None,
                       use_db=db is not None, db_path=db, jobs=1, findings=findings,
                       **(extra or {}))
        u["path"], u["env"], u["deadline_at"] = path, env, deadline_at
    return units, per_budget


def _prepare(unit):
    """A worker runs a unit with the driver's import path (module:NAME oracles) and its
    LAYOUTCHECK_* settings.  Hypothesis' warning that the global ``random`` state moved during
    a draw is silenced: there it is the Dask worker's own threads, not a strategy."""
    warnings.filterwarnings("ignore", message="Do not use the `random` module inside strategies")
    for p in reversed(unit.get("path") or []):
        if p not in sys.path and os.path.isdir(p):
            sys.path.insert(0, p)
    os.environ.update(unit.get("env") or {})


def execute(fn: Callable[[dict[str, Any]], Any], unit: dict[str, Any],
            token: str | None = None) -> dict[str, Any]:
    """Run one unit on a worker: ``{"rows", "oracle_stats", "host", "pid", "seconds"}``
    (``fn`` returns the unit's rows, or ``{"rows", "oracle_stats"}``: the counters of the
    unit's own oracles, which only it saw)."""
    _prepare(unit)
    if token is not None:
        try:
            from distributed import get_worker
            get_worker().log_event(TOPIC, {"token": token, "unit": unit["index"],
                                           "host": socket.gethostname(), "pid": os.getpid()})
        except Exception:  # noqa: BLE001 - no worker context (an engine without Dask)
            pass
    t0 = time.monotonic()
    kw = within_deadline(unit)
    out = {"rows": late_rows(unit, started=False), "oracle_stats": None} if kw is None \
        else fn(kw)
    rows, stats = (out["rows"], out.get("oracle_stats")) if isinstance(out, dict) else (out, None)
    return {"rows": rows, "oracle_stats": stats, "host": socket.gethostname(), "pid": os.getpid(),
            "seconds": round(time.monotonic() - t0, 3)}


def within_deadline(unit: dict[str, Any]) -> dict[str, Any] | None:
    """The unit's ``run_campaign`` arguments with its budget (or time cap) cut to what is left
    before ``unit["deadline_at"]``: the worker's own start counts; None when nothing is left."""
    kw, at = dict(unit["kw"]), unit.get("deadline_at")
    if at is None:
        return kw
    left = at - time.time()
    if left <= 0:
        return None
    if kw.get("max_examples") is None:
        kw["budget"] = min(kw["budget"], left)
    else:
        kw["time_cap"] = left if kw.get("time_cap") is None else min(kw["time_cap"], left)
    return kw


def late_rows(unit: dict[str, Any], started: bool,
              limit: str = "the budget") -> list[dict[str, Any]]:
    """The rows of a unit cut by the budget: never run (not reached), or still running at the
    driver's deadline (an ``incomplete:`` error)."""
    if started:
        return lost_rows(unit, [BY_NAME[c] for c in unit["checks"]],
                          f"did not finish within {limit} (the driver stopped waiting)")
    return [result_row(BY_NAME[c], unit["oracle"], "skipped", not_reached=True,
                       message=f"not reached: {limit} was spent before shard {unit['shard']} "
                               "started (the workers started too late)")
            for c in unit["checks"]]


def lost_rows(unit: dict[str, Any], checks: Sequence[Any], why: str) -> list[dict[str, Any]]:
    msg = f"incomplete: shard {unit['shard']} of {unit['oracle']} (seed {unit['seed']}) {why}"
    return [result_row(c, unit["oracle"], "error", message=msg) for c in checks]
