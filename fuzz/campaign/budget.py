"""How a time budget is shared across (check, oracle) pairs.

Equal slices waste the budget: a pair that has long stopped producing anything new gets as
much time as one that keeps finding new behaviour.  The campaign runs in two phases:

1. **Rounds of equal quotas** (``LADDER``: 1, 4, 8, 16, ... cases per pair).  Every pair
   judges its first case (one batch for a batched oracle) in the first round, whatever it
   takes, as long as the budget lasts, so a 20 s budget over 150 pairs still reaches every
   pair; the later rounds give every pair the same number of cases (the same cases for the same
   seed, as with ``--max-examples``) until ``FLOOR_FRACTION`` of the budget, so cases are shared
   before seconds.  A batched oracle's pair goes from its first batch to the adaptive rounds
   (where its compiles run beside reuse batches).  A pair the budget cannot reach at all is
   reported as not reached (``summary["not_reached"]``), never as a pass.
2. **Adaptive rounds** (the idea of HypoFuzz).  Every other round gives a quantum to the
   least explored pair (the least time spent), the others to the pair with the highest expected rate
   of *new behaviour*: the Good-Turing estimate of the chance that
   the next case shows a behaviour not seen yet (behaviours seen exactly once / cases) times
   the pair's cases per second.  A behaviour is a cheap feature of a case (``features``):
   each answer's kind (ok / raised with its condition / unsupported / crashed) and shape
   (profile, static or dynamic, size-1 modes, zero strides), the comparison level, and the
   case's verdict (pass, skip, known finding, failure).  Pairs that keep producing new
   behaviour get more time; a pair that found a new failure, or whose strategy is
   exhausted, leaves the rotation.

Budget discipline: the campaign ends within ``budget + grace(budget)`` plus at most one case
in flight (an oracle call cannot be interrupted; module oracles have a per-call timeout).
A new failure is shrunk for at most ``shrink_room`` (``SHRINK_FRACTION`` of the budget, at
least ``MIN_SHRINK_S``, and never past the deadline plus the grace); shrinking a known
finding's first case gets ``known_shrink_room`` and never passes the deadline; all shrinking
together draws on a ``ShrinkPool`` of ``SHRINK_POOL`` of the budget.  The oracles' start
counts against the budget, and no worker start or compile of the run goes past
``run_limit`` (the budget, its grace and ``START_MARGIN_S``).
"""

import time

import layoutcheck.fuzz.checks.targets as _targets

from layoutcheck.deadline import Deadline
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["Novelty", "Scheduler", "Observed", "ShrinkPool", "features", "grace", "shrink_room",
           "known_shrink_room", "run_limit", "first_start_limit", "START_MARGIN_S",
           "MIN_FRACTION", "MIN_CASES", "LADDER", "FLOOR_FRACTION"]

MIN_FRACTION = 0.4   # of the budget: the guaranteed minimum, spread over every pair
MIN_CASES = 4        # cases a pair runs in its guaranteed slice, even when the slice is short
LADDER = (1, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096)  # each round's quota per pair
FLOOR_FRACTION = 0.6  # of the budget: no quota round starts a pair past it
QUANTUM = (0.1, 5.0)  # seconds per adaptive round: bounds of remaining / (2 * active pairs)
SHRINK_FRACTION = 0.15  # of the budget, at most, for one new failure
SHRINK_POOL = 0.3       # of the budget, at most, for all shrinking together (plus the grace)
MIN_SHRINK_S = 2.0
KNOWN_SHRINK_S = 1.0


def grace(budget):
    """The stated overrun past the budget a run may take (shrinking a late failure)."""
    return max(1.0, 0.05 * budget)


START_MARGIN_S = 2.0  # past budget + grace: what a start (a worker's restart) may still use


def run_limit(budget: float, max_examples: int | None = None,
              time_cap: float | None = None) -> Deadline | None:
    """The run's deadline (``layoutcheck.deadline``), from now: the budget plus its grace and
    ``START_MARGIN_S``, or with ``max_examples`` the time cap likewise (None without one).
    Every worker start and compile of the run is bounded by it."""
    if max_examples is None:
        return Deadline(budget + grace(budget) + START_MARGIN_S, what=f"the budget of {budget:g} s")
    if time_cap is not None:
        return Deadline(time_cap + grace(time_cap) + START_MARGIN_S,
                        what=f"the time cap of {time_cap:g} s")
    return None


def first_start_limit(budget: float, max_examples: int | None = None,
                      time_cap: float | None = None) -> Deadline | None:
    """The deadline of the oracles' first start, from now: the budget (or the time cap)
    itself, since a worker that starts later has nothing left to run."""
    if max_examples is None:
        return Deadline(budget, what=f"the budget of {budget:g} s")
    return None if time_cap is None else Deadline(time_cap, what=f"the time cap of {time_cap:g} s")


def shrink_room(budget, now, deadline):
    """Seconds a new failure found at ``now`` may spend shrinking."""
    return max(0.0, min(max(MIN_SHRINK_S, SHRINK_FRACTION * budget),
                        deadline + grace(budget) - now))


def known_shrink_room(budget, now, deadline):
    """Seconds for re-shrinking a known finding's case (within the budget itself)."""
    return max(0.0, min(KNOWN_SHRINK_S, 0.02 * budget, deadline - now))


class ShrinkPool:
    """The share of the budget that shrinking may take across all pairs (``SHRINK_POOL`` of it;
    all of it for a single pair), so that many failing pairs cannot starve the others: once
    the pool is spent a failure is reported as found (the smallest failing case seen)."""

    def __init__(self, budget, deadline, fraction=None):
        self.budget, self.deadline = budget, deadline
        self.left = (SHRINK_POOL if fraction is None else fraction) * budget + grace(budget)
        self.waiting = 0  # pairs still owed their guaranteed slice (set by the Scheduler)

    def room(self, now, known=False):
        """Seconds granted to a failure found at ``now`` (charged to the pool now); while
        pairs still wait for their guaranteed slice, at most an even share of the pool."""
        cap = (known_shrink_room if known else shrink_room)(self.budget, now, self.deadline)
        granted = max(0.0, min(cap, self.left / (1 + self.waiting)))
        self.left -= granted
        return granted

    def refund(self, seconds):
        self.left += max(0.0, seconds)


# --- behaviours --------------------------------------------------------------------------

def _profile(t):
    if isinstance(t, tuple):
        return "(" + ",".join(_profile(e) for e in t) + ")"
    return "."


def _layout_shape(L):
    s, d = list(leaves(L.shape)), list(leaves(L.stride))
    if len(s) > 16:
        return ("L", "rank>16")
    static = {type(x).__name__ == "C" for x in s + d}
    return ("L", _profile(L.shape), "static" if static == {True} else
            "dynamic" if static == {False} else "mixed",
            any(int(x) == 1 for x in s), any(int(x) == 0 for x in d))


def _condition(message):
    """The named condition of a refusal (``[condition NAME]``), else the error's type."""
    m = message or ""
    i = m.rfind("[condition ")
    if i >= 0:
        return m[i + 11:m.find("]", i)][:40]
    head = m.split(":", 2)
    return head[0][:40] if not m.startswith("internal error") else ":".join(head[:2])[:60]


def features(op, outcome):
    """One behaviour of an oracle's answer (hashable, small)."""
    kind = outcome.kind
    if kind != "ok":
        return (op, kind, _condition(outcome.message) if kind == "raised" else "")
    v = outcome.value
    if isinstance(v, LayoutBase):
        return (op,) + _layout_shape(v)
    if isinstance(v, bool):
        return (op, "bool", v)
    if isinstance(v, int):
        return (op, "int", min(int(v), 2).bit_length())
    if isinstance(v, tuple):
        return (op, "tuple", min(len(v), 64).bit_length(),
                isinstance(v[0], LayoutBase) if v else None)
    return (op, type(v).__name__)


class Novelty:
    """Behaviours a pair has seen, with the Good-Turing estimate of finding a new one."""

    __slots__ = ("counts", "cases", "singletons", "seconds")

    def __init__(self):
        self.counts, self.cases, self.singletons, self.seconds = {}, 0, 0, 0.0

    def add(self, feats):
        self.cases += 1
        counts = self.counts
        for f in set(feats):
            c = counts.get(f, 0) + 1
            counts[f] = c
            if c == 1:
                self.singletons += 1
            elif c == 2:
                self.singletons -= 1

    def p_new(self):
        return (self.singletons + 1) / (self.cases + 2)

    def score(self):
        """Expected new behaviours per second: p_new x cases per second."""
        if not self.cases:
            return 0.0
        return self.p_new() * self.cases / max(self.seconds, 1e-3)


# --- the schedule ------------------------------------------------------------------------

class Scheduler:
    """Runs ``pairs`` (objects with ``step(until, quota=N)``, ``step(until, minimum=False)``,
    ``done``, ``novelty``, ``not_reached``, ``rounds``) within ``budget`` seconds from
    ``t0``: rounds of equal quotas of cases (``LADDER``), then adaptive rounds."""

    def __init__(self, pairs, budget, t0=None, clock=time.monotonic, pool=None):
        self.pairs, self.budget, self.clock, self.pool = list(pairs), float(budget), clock, pool
        self.t0 = clock() if t0 is None else t0
        self.deadline = self.t0 + self.budget
        self.floor = 0  # the quota of the last round every pair was offered in full

    def run(self, after_minimum=None, stop=None, reserve=None, settle=None):
        """``after_minimum(k, n, pair)`` after each pair's first round; ``stop()`` True ends
        the schedule early (--fail-fast); ``reserve()``: seconds before the deadline kept for
        shrinking the failures a bound cut: once the schedule reaches them, ``settle()`` goes on
        with those shrinks, and the schedule goes on only if that left time (a pair the first
        round has not reached by then is not reached)."""
        stop = stop or (lambda: False)
        if self._rounds(after_minimum, stop, reserve, settle):
            self._adaptive(stop, reserve, settle)

    def _rounds(self, after_minimum, stop, reserve=None, settle=None):
        """The quota rounds; False when the schedule is over (the deadline, or ``stop``)."""
        clock, pairs = self.clock, self.pairs
        floor_end = self.t0 + FLOOR_FRACTION * self.budget
        for k, quota in enumerate(LADDER):
            if k and clock() >= floor_end:
                break
            for i, p in enumerate(pairs):
                if stop():
                    return False
                if p.done or p.not_reached or (k and not _answers(p)):
                    continue
                if k and getattr(p, "proxy", None) is not None:
                    continue  # a batched oracle's pair: its first batch, then the adaptive
                    # rounds (where cute-cpp's reuse batches run beside its compiles)
                now = clock()
                end = self._end(reserve, settle)
                if now >= end:
                    if not p.rounds:
                        p.not_reached = True  # reported, never a pass
                    continue
                if k and now >= floor_end:
                    return True  # the rest of this round is cut: the adaptive rounds follow
                if self.pool is not None:
                    self.pool.waiting = len(pairs) - i - 1 if not k else 0
                # the first round runs each pair's first case whatever it takes (every pair is
                # reached unless the budget itself runs out); the later ones stop at floor_end
                p.step(end if not k else min(floor_end, end), quota=quota)
                if not k and after_minimum:
                    after_minimum(i + 1, len(pairs), p)
            if self.pool is not None:
                self.pool.waiting = 0
            self.floor = quota
        return clock() < self.deadline

    def _adaptive(self, stop, reserve=None, settle=None):
        clock, pairs = self.clock, self.pairs
        explore = False
        while True:
            now = clock()
            # pairs whose every case was skipped (an op the oracle lacks) get no more rounds
            active = [p for p in pairs if not p.done and not p.not_reached and _answers(p)]
            end = self._end(reserve, settle)
            now = clock()
            if now >= end or not active or stop():
                return
            q = min(max((self.deadline - now) / (2 * len(active)), QUANTUM[0]), QUANTUM[1])
            # every other round goes to the least explored pair: a pair whose first cases
            # were slow (an oracle warming up) or unremarkable is never starved by the
            # pairs that keep showing new behaviour
            if explore:
                best = min(active, key=lambda p: p.novelty.seconds)
            else:
                best = max(active, key=lambda p: p.novelty.score())
            explore = not explore
            best.step(min(now + q, end), minimum=False)

    def _end(self, reserve, settle):
        """When the schedule must end: the deadline less ``reserve()``; reached, the cut
        shrinks go on first (``settle()``), which may leave time for more."""
        end = self.deadline - (reserve() if reserve else 0.0)
        if settle is not None and end < self.deadline and self.clock() >= end:
            settle()
            end = self.deadline - (reserve() if reserve else 0.0)
        return end


def _answers(pair):
    """False for a pair whose every case so far (at least 4) was skipped (an op the oracle
    lacks): the adaptive rounds go to pairs that answer."""
    r = getattr(pair, "runner", None)
    return r is None or r.cases > r.skipped or r.cases < 4


class Observed:
    """The oracle under test, reporting a behaviour per answer to ``targets.observer``
    (set by the campaign while it judges a case; None otherwise)."""

    def __init__(self, oracle):
        self._oracle, self.name = oracle, oracle.name

    def unavailable_reason(self):
        return self._oracle.unavailable_reason()

    def run(self, op, *args):
        out = self._oracle.run(op, *args)
        obs = _targets.observer
        if obs is not None:
            obs(features(op, out))
        return out

    def run_many(self, cases):
        outs = self._oracle.run_many(cases)
        obs = _targets.observer
        if obs is not None:
            for (op, _), out in zip(cases, outs):
                obs(features(op, out))
        return outs

    def __getattr__(self, name):
        return getattr(self._oracle, name)
