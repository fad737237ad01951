"""A pair's failures shrunk through its oracle: ``shrink``'s search, its candidates judged in
batches, within the campaign's bounds.

Every oracle is driven the same way.  The candidates of one chunk are answered stage by stage
through one ``run_many`` per stage (``batched.prefetch``: a worker oracle gets one message, CuTe
C++ one compile for the chunk's new kernels, and runtime-integer candidates whose kernel is
compiled run through its driver without compiling), then each candidate is judged from those
answers with the pair's own check and recognition (``_Runner.label``).  A candidate counts only
when it fails the same way: the same kind of failure and, for a known finding, the same
finding; a new failure never shrinks into a known one.

Bounds: in budget mode, the seconds the campaign granted the failure (``budget.ShrinkPool``)
and ``SHRINK_COMPILES`` compiler runs; with ``--max-examples`` (and wherever no time was
granted) a count of candidates (``SHRINK_CASES_NEW``, ``SHRINK_CASES_KNOWN``), so that the run
stays a function of its seed.  A crash (the oracle's worker died, hung or ran out of memory on
the case) is shrunk one candidate at a time, at most ``SHRINK_CASES_CRASH`` of them: each
crashing candidate costs a worker.  A search its bound cut says so in the row.
"""

import copy
import time

from layoutcheck.fuzz.campaign.batched import Prefetching, prefetch
from layoutcheck.fuzz.campaign.budget import SHRINK_FRACTION
from layoutcheck.fuzz.campaign.shrink import CHUNK, Shrunk, shrink

__all__ = ["shrink_failure", "shrink_note", "bounds", "shrink_reserve", "finish_shrinks", "SHRINK_CASES_NEW", "SHRINK_CASES_KNOWN",
           "SHRINK_COMPILES"]

SHRINK_CASES_NEW = 2000   # candidates judged for a new failure, where no time bound applies
SHRINK_CASES_KNOWN = 1000  # ... and for a known finding's first case
SHRINK_COMPILES = 64      # compiler runs (CuTe C++) for one failure, in budget mode
SHRINK_CASES_CRASH = 32   # candidates for a crash (each crashing one costs a worker), at most
CRASH = "error:OracleCrashed"


def _compiles(proxy):
    """A callable giving the oracle's running count of compiler runs, or None."""
    stats = getattr(proxy.oracle, "stats", None)
    if not callable(stats):
        return None

    def count():
        try:
            return int((stats() or {}).get("compiles", 0))
        except Exception:  # noqa: BLE001 - an oracle's statistics are optional
            return 0
    return count if "compiles" in (stats() or {}) else None


def shrink_failure(runner, proxy, args, failure, label, *, until=None, max_candidates=None,
                   known_pass=None, resume=None) -> Shrunk:
    """Shrink ``args`` (which failed with ``failure``, labelled ``label``) through the pair's
    oracle.  ``proxy``: the pair's ``Prefetching`` oracle (a batched oracle), else None (one
    is made around the runner's oracle for the search); ``resume``: a search its time bound
    cut, continued."""
    ctx = runner.ctx
    if proxy is None:
        proxy = Prefetching(ctx.oracle)
        ctx = copy.copy(ctx)
        ctx.oracle = proxy

    def judge(cases):
        proxy.cache.clear()
        prefetch(proxy, runner.check, ctx, cases)
        out = [runner.label(ctx, args) for args in cases]
        proxy.cache.clear()
        return out

    compiles = _compiles(proxy)
    crash = label[0] == CRASH  # one candidate at a time: the first that crashes is taken
    if crash:
        max_candidates = min(max_candidates or SHRINK_CASES_CRASH, SHRINK_CASES_CRASH)
    return shrink(args, failure, judge, label, until=until, max_candidates=max_candidates,
                  max_compiles=SHRINK_COMPILES if until is not None else None,
                  compiles=compiles, known_pass=known_pass, resume=resume,
                  chunk=1 if crash else CHUNK)


def bounds(runner, known):
    """(until, max_candidates) for shrinking now: the time the campaign grants in budget
    mode (a new failure's was granted when it was found), else a count of candidates."""
    if runner.shrink_room is not None and not runner.deterministic:
        if known:
            now = time.monotonic()
            return now + runner.shrink_room(now, True), None
        if runner.shrink_until is not None:
            return runner.shrink_until, None
    return None, SHRINK_CASES_KNOWN if known else SHRINK_CASES_NEW


def shrink_note(shrunk):
    """The words a row's message gets when the search was cut, else ""."""
    if shrunk is None or shrunk.cut is None:
        return ""
    unit = "step" if shrunk.steps == 1 else "steps"
    why = shrunk.cut if shrunk.cut.startswith("error") else f"its {shrunk.cut} bound"
    return (f" (shrinking cut by {why} after {shrunk.steps} {unit} and "
            f"{shrunk.candidates} candidates: the smallest failing case reached)")


def shrink_reserve(pairs, pool, budget):
    """Seconds the adaptive rounds leave before the deadline for the shrinks a bound cut: as
    much as the shrink pool has left, at most ``SHRINK_FRACTION`` of the budget for each."""
    waiting = sum(1 for p in pairs if p.unfinished() is not None)
    if not waiting or pool is None:
        return 0.0
    return max(0.0, min(pool.left, waiting * SHRINK_FRACTION * budget))


def finish_shrinks(pairs, end):
    """After the schedule: the shrinks a bound cut go on, new failures first, then known
    findings' cases, each in the pairs' order with an even share of the time left until
    ``end`` (monotonic); what is then still cut says so."""
    waiting = sorted((p for p in pairs if p.unfinished() is not None),
                     key=lambda p: p.runner.best is None)
    for i, p in enumerate(waiting):
        left = end - time.monotonic()
        if left <= 0:
            return
        p.resume_shrink(time.monotonic() + left / (len(waiting) - i))
