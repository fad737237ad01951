"""The catalogue in parallel worker processes, with the rows of the sequential run.

Each (lemma, rank) and each induction is a unit; the large ranks of the enumerating lemmas
are split into ``jobs`` chunks (every jobs-th pair of queries: the enumerations ask two
queries per pattern, a cheap and a dear one).  A row is the first query of the
whole list that is not ``unsat`` (the smallest index over the chunks, each of which stops
at its own first one), so the result, the counterexample and the query count are those of
the sequential run; ``seconds`` sums the chunks.  Rows reach ``on_row`` in catalogue
order; ``for_all_ranks`` and ``as_expected`` are set once a lemma's rows are all in, as the
sequential runner does.

With a ``deadline`` (``layoutcheck.deadline.Deadline``: ``prove --time-limit``) the units go
in the order that leaves the most done when it is cut: the induction steps first (each
proves a lemma for every rank), then rank 1 of every lemma, rank 2, ...  Each worker asks no
query past the deadline (z3's timeouts are cut to it), and ``KILL_MARGIN_S`` after it the
workers still building queries are killed; every row not settled by then is ``unknown``
with ``"unfinished": True``.  A (lemma, rank) of more than ``estimate.MAX_UNIT_QUERIES``
queries is not attempted (unfinished as well).
"""

import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

from layoutcheck.proofs.estimate import MAX_UNIT_QUERIES, ranks
from layoutcheck.proofs.lemmas import get_lemma
from layoutcheck.proofs.query import Lemma
from layoutcheck.proofs.solving import (
    UNFINISHED,
    expected_outcome_met,
    fresh_context,
    proof_row,
    run_queries_at,
)

from layoutcheck.deadline import Deadline

__all__ = ["run_parallel", "SPLIT_FROM_RANK", "CPU_SECONDS", "KILL_MARGIN_S", "too_large_row"]

KILL_MARGIN_S = 1.0  # past the deadline: workers still building queries are killed

CPU_SECONDS = {}   # unit -> the worker's CPU seconds in the last run (for measurements)

# lemma -> the first rank whose queries are split over the workers (the enumerations)
# (where building the queries is cheap next to solving them: each chunk builds them all)
SPLIT_FROM_RANK = {"coalesce_phi": 5}


def _work(unit, timeout, limit=None):
    """One unit in a worker; ``limit``: (wall-clock deadline, what it is) or None."""
    name, rank, i, n = unit
    lemma = get_lemma(name)
    deadline = None if limit is None else Deadline.at_wall(limit[0], what=limit[1])
    t0, c0 = time.perf_counter(), time.process_time()
    with fresh_context():
        qs = lemma.induction() if rank == "all" else lemma.queries(rank)
        mine = [(k, q) for k, q in enumerate(qs) if (k // 2) % n == i]
        idx, res, cex, note = run_queries_at(lemma, mine, timeout, deadline)
    return unit, idx, res, cex, note, len(qs), time.perf_counter() - t0, \
        time.process_time() - c0


def _cost(unit):
    name, rank, _, _ = unit
    return (name in SPLIT_FROM_RANK, 0 if rank == "all" else rank)


def _first_done(unit):  # with a deadline: inductions, then rank by rank
    name, rank, _, _ = unit
    return (0, 0) if rank == "all" else (1, rank)


def too_large_row(lemma: Lemma, rank: int) -> dict[str, Any]:
    """The row of a (lemma, rank) with more queries than a run attempts."""
    n = lemma.count(rank)
    return proof_row(lemma, rank, UNFINISHED, 0.0, None,
                     f"not attempted: {n:.3g} queries, more than {MAX_UNIT_QUERIES:,}", n)


def run_parallel(chosen: Sequence[Lemma], max_rank: int, timeout: float, induction: bool,
                 on_row: Callable[[dict[str, Any]], object] | None, jobs: int,
                 deadline: Deadline | None = None,
                 on_progress: Callable[[int, int], object] | None = None) -> list[dict[str, Any]]:
    """The rows of ``chosen`` (see the module docstring); ``on_progress(done, total)`` after
    each unit."""
    report = on_row or (lambda row: None)
    keys, units, rows = [], [], {}
    for lemma in chosen:
        for rank in ranks(lemma, max_rank):
            n = jobs if rank >= SPLIT_FROM_RANK.get(lemma.name, 10 ** 9) else 1
            keys.append((lemma.name, rank, n))
            if lemma.count(rank) > MAX_UNIT_QUERIES:
                rows[(lemma.name, rank)] = too_large_row(lemma, rank)
            else:
                units += [(lemma.name, rank, i, n) for i in range(n)]
        if induction and lemma.induction is not None:
            keys.append((lemma.name, "all", 1))
            units.append((lemma.name, "all", 0, 1))
    order = sorted(units, key=_first_done) if deadline is not None else \
        sorted(units, key=_cost, reverse=True)
    limit = None if deadline is None else (deadline.at, deadline.what)
    parts, done, emitted, finished = {}, {}, [0], [0]

    def emit():
        while emitted[0] < len(keys) and keys[emitted[0]][:2] in rows:
            name, rank, _ = keys[emitted[0]]
            row = rows[(name, rank)]
            done.setdefault(name, []).append(row)
            emitted[0] += 1
            _finish_lemma(name, done, keys, emitted[0])  # before its last row is out
            report(row)

    # fork: no re-import of the caller's main module (a script without a __main__ guard);
    # the parent runs no solver while it forks
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)
    futures = [pool.submit(_work, u, timeout, limit) for u in order]
    try:
        emit()
        pending = set(futures)
        while pending:
            left = None if deadline is None else deadline.remaining() + KILL_MARGIN_S
            ready, pending = wait(pending, timeout=left, return_when=FIRST_COMPLETED)
            if not ready:
                break  # past the deadline: what is left is unfinished
            for fut in ready:
                unit, idx, res, cex, note, nq, secs, cpu = fut.result()
                CPU_SECONDS[unit] = cpu
                name, rank, _, n = unit
                parts.setdefault((name, rank), []).append((idx, res, cex, note, nq, secs))
                if len(parts[(name, rank)]) == n:
                    rows[(name, rank)] = _merge(get_lemma(name), rank, parts.pop((name, rank)))
                finished[0] += 1
                if on_progress:
                    on_progress(finished[0], len(units))
            emit()
        if pending:
            _stop(pool, before)
            for name, rank, _ in keys:
                if (name, rank) not in rows:
                    rows[(name, rank)] = _unfinished_row(get_lemma(name), rank, deadline,
                                                         parts.get((name, rank), []))
            emit()
    except BaseException:
        _stop(pool, before)
        raise
    pool.shutdown(wait=True, cancel_futures=True)
    return [rows[k[:2]] for k in keys]


def _stop(pool, before):
    """Kill this pool's workers (those still building queries cannot be told to stop); the
    pool then fails every future left (a cancelled one would trip its own bookkeeping)."""
    for p in set(multiprocessing.active_children()) - before:
        try:
            p.kill()
            p.join(5)
        except (OSError, ValueError, AssertionError):
            pass
    try:
        pool.shutdown(wait=True)
    except Exception:  # noqa: BLE001 - a pool whose workers were killed: nothing left to do
        pass


def _unfinished_row(lemma, rank, deadline, parts):
    n = lemma.count(rank) if rank != "all" else (parts[0][4] if parts else 0)
    seconds = sum(p[5] for p in parts)
    return proof_row(lemma, rank, UNFINISHED, seconds, None,
                     f"not finished before {deadline.what}", n)


def _merge(lemma, rank, parts):
    """The row of a unit from its chunks: the first query not unsat over all of them (as the
    sequential run asks them), unfinished where a chunk cut by the deadline comes first."""
    hits = [p for p in parts if p[0] is not None]
    seconds = sum(p[5] for p in parts)
    nq = parts[0][4]
    if not hits:
        res, cex, note = "proved", None, ""
    else:
        _, res, cex, note, _, _ = min(hits, key=lambda p: p[0])
    if rank == "all" and res == "proved":
        note = lemma.induction_argument
    return proof_row(lemma, rank, res, seconds, cex, note, nq)


def _finish_lemma(name, done, keys, emitted):
    """Once the last row of ``name`` is out: for_all_ranks and as_expected, as run_lemma."""
    if emitted < len(keys) and keys[emitted][0] == name:
        return
    mine = done[name]
    lemma = get_lemma(name)
    if lemma.induction is not None and mine[-1]["rank"] == "all":
        all_rows = mine[-1]["result"] == "proved"
        for r in mine:
            r["for_all_ranks"] = all_rows
    met = expected_outcome_met(lemma, mine)
    for r in mine:
        r["as_expected"] = met
