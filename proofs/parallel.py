"""The catalogue in parallel worker processes, with the rows of the sequential run.

Each (lemma, rank) and each induction is a unit; the large ranks of the enumerating lemmas
are split into ``jobs`` chunks (every jobs-th pair of queries: the enumerations ask two
queries per pattern, a cheap and a dear one).  A row is the first query of the
whole list that is not ``unsat`` (the smallest index over the chunks, each of which stops
at its own first one), so the result, the counterexample and the query count are those of
the sequential run; ``seconds`` sums the chunks.  Rows reach ``on_row`` in catalogue
order; ``for_all_ranks`` and ``as_expected`` are set once a lemma's rows are all in, as the
sequential runner does.
"""

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from layoutcheck.proofs.lemmas import get_lemma
from layoutcheck.proofs.solving import expected_outcome_met, fresh_context, proof_row, run_queries_at

__all__ = ["run_parallel", "SPLIT_FROM_RANK", "CPU_SECONDS"]

CPU_SECONDS = {}   # unit -> the worker's CPU seconds in the last run (for measurements)

# lemma -> the first rank whose queries are split over the workers (the enumerations)
# (where building the queries is cheap next to solving them: each chunk builds them all)
SPLIT_FROM_RANK = {"coalesce_phi": 5}


def _ranks(lemma, max_rank):
    top = max_rank if lemma.max_rank is None else min(max_rank, lemma.max_rank)
    return list(range(lemma.min_rank, top + 1))


def _work(unit, timeout):
    name, rank, i, n = unit
    lemma = get_lemma(name)
    t0, c0 = time.perf_counter(), time.process_time()
    with fresh_context():
        qs = lemma.induction() if rank == "all" else lemma.queries(rank)
        mine = [(k, q) for k, q in enumerate(qs) if (k // 2) % n == i]
        idx, res, cex, note = run_queries_at(lemma, mine, timeout)
    return unit, idx, res, cex, note, len(qs), time.perf_counter() - t0, \
        time.process_time() - c0


def _cost(unit):
    name, rank, _, _ = unit
    return (name in SPLIT_FROM_RANK, 0 if rank == "all" else rank)


def run_parallel(chosen, max_rank, timeout, induction, on_row, jobs):
    report = on_row or (lambda row: None)
    keys, units = [], []
    for lemma in chosen:
        for rank in _ranks(lemma, max_rank):
            n = jobs if rank >= SPLIT_FROM_RANK.get(lemma.name, 10 ** 9) else 1
            keys.append((lemma.name, rank, n))
            units += [(lemma.name, rank, i, n) for i in range(n)]
        if induction and lemma.induction is not None:
            keys.append((lemma.name, "all", 1))
            units.append((lemma.name, "all", 0, 1))
    parts = {}
    rows, done, emitted = {}, {}, 0
    # fork: no re-import of the caller's main module (a script without a __main__ guard);
    # the parent runs no solver while it forks
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        futures = [pool.submit(_work, u, timeout) for u in sorted(units, key=_cost, reverse=True)]
        try:
            for fut in _as_done(futures):
                unit, idx, res, cex, note, nq, secs, cpu = fut.result()
                CPU_SECONDS[unit] = cpu
                name, rank, _, n = unit
                parts.setdefault((name, rank), []).append((idx, res, cex, note, nq, secs))
                if len(parts[(name, rank)]) == n:
                    rows[(name, rank)] = _merge(get_lemma(name), rank, parts.pop((name, rank)))
                while emitted < len(keys) and keys[emitted][:2] in rows:
                    name, rank, _ = keys[emitted]
                    row = rows[(name, rank)]
                    done.setdefault(name, []).append(row)
                    emitted += 1
                    _finish_lemma(name, done, keys, emitted)  # before its last row is out
                    report(row)
        except BaseException:
            for f in futures:
                f.cancel()
            raise
    return [rows[k[:2]] for k in keys]


def _as_done(futures):
    return as_completed(futures)


def _merge(lemma, rank, parts):
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
