"""The warm start of a budget run (budget mode only): every pair of a batched oracle that can
``prepare`` calls (cute-cpp) draws its first batch, a few cases, then stage by stage the calls
of all of them go to the oracle together: ``prepare`` compiles their kernels in a few large
units on every core, and ``run_many`` answers them (the composed programs in large units too)
into each pair's cache.  The first round of the schedule then judges each pair's batch from
its cache instead of compiling several small units per pair; on a cold kernel cache that is
what lets a budget reach every check.

The answers are the oracle's own, asked once: a pair judges its batch from them exactly as it
would from the answers its own ``prefetch`` would have asked for (the cache holds only the
pair's calls).  Nothing new starts past ``until``: a pair left then draws or answers in its own
turn, and a pair the budget cuts is reported not reached, as before."""

from __future__ import annotations

import time
from typing import Any, Iterable

from layoutcheck.fuzz.campaign.batched import STAGES
from layoutcheck.oracles.reference import case_key

__all__ = ["WARM_FRACTION", "warm_start", "answers_of"]

WARM_FRACTION = 0.5  # of the budget: no stage of the warm start starts past it
WARM_PART = 256      # calls per run_many of the warm start, for calls whose kernels are compiled
WARM_DEAR = 8        # ... and for the costly ones (cute-cpp's composed programs: a unit each)


def warm_start(pairs: Iterable[Any], until: float) -> int:
    """Warm ``pairs`` (``fuzz.campaign.pairs.Pair``) up to ``until`` (monotonic), in
    ``compile_rank`` order (the cheap kernels first); returns how many pairs got answers.  A
    failure of the oracle here ends the warm start: each pair then asks on its own, and the
    failure shows there."""
    by_oracle: dict[int, tuple[Any, list]] = {}
    for p in sorted(pairs, key=lambda p: p.compile_rank()):
        if time.monotonic() > until:
            break
        calls = p.first_calls()
        if calls:
            by_oracle.setdefault(id(p.proxy.oracle), (p.proxy.oracle, []))[1].append((p, calls))
    warmed = 0
    for oracle, waiting in by_oracle.values():
        touched = set()
        for stage in range(STAGES):
            if not waiting or stage and time.monotonic() > until:
                break  # (the first stage's prepare and answers stop at ``until`` themselves)
            calls = list({k: c for _, cs in waiting for k, c in _keyed(cs)}.items())
            try:
                oracle.prepare([c for _, c in calls], until=until)
                answers = answers_of(oracle, calls, until)
            except Exception:  # noqa: BLE001 - only a head start: the pairs ask on their own
                break
            still = []
            for p, cs in waiting:
                mine = {k: answers[k] for k, _ in _keyed(cs) if k in answers}
                if len(mine) < len(cs):  # cut by ``until``: the pair asks the rest itself
                    if mine:
                        p.warm(mine)
                        touched.add(id(p))
                    continue
                touched.add(id(p))
                more = p.warm(mine)
                if more:
                    still.append((p, more))
            waiting = still
        warmed += len(touched)
    return warmed


def _keyed(calls):
    return [((op, case_key(a)), (op, a)) for op, a in calls]


def answers_of(oracle: Any, calls: list, until: float) -> dict:
    """``{(op, case key): Outcome}`` for ``calls`` (``[(key, (op, args))]``): those that need no
    compile first (their kernels prepared), then the costly ones (``compile_cost``: cute-cpp's
    composed programs) in small parts, none started past ``until`` (a part in flight is the
    most the warm start overruns).  A call whose kernel ``prepare`` left uncompiled (its time
    ran out) is not asked."""
    cost = getattr(oracle, "compile_cost", None)
    uncompiled = getattr(oracle, "uncompiled", None)
    dear = [c for c in calls if callable(cost) and cost(c[1][0])]
    cheap = [c for c in calls if not (callable(cost) and cost(c[1][0]))]
    if callable(uncompiled):
        cheap = [c for c in cheap if not uncompiled([c[1]])]
    out = {}
    for todo, part in ((cheap, WARM_PART), (dear, WARM_DEAR)):
        for k in range(0, len(todo), part):
            if time.monotonic() > until:
                return out
            chunk = todo[k:k + part]
            for (key, _), outcome in zip(chunk, oracle.run_many([c for _, c in chunk])):
                out[key] = outcome
    return out
