"""Running the catalogue: one row per (lemma, rank) and one per induction ("all" ranks).

``proved`` only on ``unsat`` of every query; ``refuted`` only when z3's model, decoded into a
concrete layout, also violates the statement when evaluated on ``layoutcheck.spec``;
everything else (timeout, z3 ``unknown``, an unconfirmed model) is ``unknown``.
"""

import time

from layoutcheck.proofs.estimate import MAX_UNIT_QUERIES, ranks
from layoutcheck.proofs.lemmas import CATALOGUE, get_lemma
from layoutcheck.proofs.parallel import run_parallel, too_large_row
from layoutcheck.proofs.solving import expected_outcome_met, fresh_context, proof_row, run_queries

from layoutcheck.errors import LayoutError

__all__ = ["run", "run_lemma", "check_arguments", "expected_outcome_met", "DEFAULT_MAX_RANK",
           "DEFAULT_TIMEOUT"]


DEFAULT_MAX_RANK = 4


DEFAULT_TIMEOUT = 20.0


def run_lemma(lemma, max_rank=DEFAULT_MAX_RANK, timeout=DEFAULT_TIMEOUT, induction=True,
              on_row=None):
    """The rows of one lemma; ``on_row(row)`` is called as each rank finishes."""
    rows = []
    report = on_row or (lambda row: None)
    for rank in ranks(lemma, max_rank):
        if lemma.count(rank) > MAX_UNIT_QUERIES:  # its queries alone would not fit in memory
            rows.append(too_large_row(lemma, rank))
            report(rows[-1])
            continue
        t0 = time.perf_counter()
        with fresh_context():
            qs = lemma.queries(rank)
            res, cex, note = run_queries(lemma, qs, timeout)
        rows.append(proof_row(lemma, rank, res, time.perf_counter() - t0, cex, note, len(qs)))
        report(rows[-1])
    if induction and lemma.induction is not None:
        t0 = time.perf_counter()
        with fresh_context():
            qs = lemma.induction()
            res, cex, note = run_queries(lemma, qs, timeout)
        all_rows = res == "proved"
        rows.append(proof_row(lemma, "all", res, time.perf_counter() - t0, cex,
                         lemma.induction_argument if all_rows else note, len(qs)))
        for r in rows:
            r["for_all_ranks"] = all_rows
        report(rows[-1])
    met = expected_outcome_met(lemma, rows)
    for r in rows:
        r["as_expected"] = met
    return rows


def check_arguments(lemmas, max_rank, timeout, jobs=1):
    """The chosen lemmas; LayoutError for an unknown name, a rank < 1, a timeout <= 0 or a
    number of jobs < 1."""
    if isinstance(max_rank, bool) or not isinstance(max_rank, int) or max_rank < 1:
        raise LayoutError(f"max rank must be an integer >= 1, got {max_rank!r}")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < 1e6:
        raise LayoutError(f"timeout must be a positive number of seconds, got {timeout!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise LayoutError(f"jobs must be an integer >= 1, got {jobs!r}")
    return CATALOGUE if not lemmas else [get_lemma(n) for n in lemmas]


QUICK_MAX_RANK = 3


def run(lemmas=None, max_rank=DEFAULT_MAX_RANK, timeout=DEFAULT_TIMEOUT, induction=True,
        on_row=None, quick=False, jobs=1, deadline=None, on_progress=None):
    """Run the named lemmas (all when None) for ranks up to ``max_rank``; return the rows.

    ``timeout`` is in seconds per z3 attempt (see ``solve``); ``on_row(row)`` sees each row
    as it finishes; ``quick`` caps the ranks at 3 (the whole catalogue in about 10 s);
    ``jobs`` > 1 runs the queries in that many worker processes (proofs.parallel: the same
    rows, in the same order).  ``deadline`` (a ``layoutcheck.deadline.Deadline``) ends the
    run there, in worker processes whatever ``jobs``: the rows it cut are ``unknown`` with
    ``"unfinished": True``.  ``on_progress(done, total)`` follows the units of a run in
    worker processes.  Each row carries ``as_expected``: whether its lemma ended as the
    catalogue expects.
    """
    if quick:
        max_rank = min(max_rank, QUICK_MAX_RANK)
    chosen = check_arguments(lemmas, max_rank, timeout, jobs)
    if deadline is not None and deadline.bounded:  # killable workers, each lemma once
        chosen = list({lm.name: lm for lm in chosen}.values())
        return run_parallel(chosen, max_rank, timeout, induction, on_row, jobs, deadline,
                            on_progress)
    if jobs > 1 and len({lm.name for lm in chosen}) == len(chosen):
        return run_parallel(chosen, max_rank, timeout, induction, on_row, jobs,
                            on_progress=on_progress)
    rows = []
    for lemma in chosen:
        rows += run_lemma(lemma, max_rank, timeout, induction, on_row)
    return rows
