"""How much work a run of the catalogue is, before it starts.

``estimate(chosen, max_rank, timeout, induction, jobs)`` counts the z3 queries of every
(lemma, rank) from the catalogue (``Lemma.count``, without building them) and the induction
steps, and says how long the run is expected to take: each query at its lemma's measured
cost (``Lemma.cost``, CPU seconds per query at ranks up to 6), shared by the workers; and at
most, if every query ran into its timeout on each of its ``ATTEMPTS``.

Ranks above ``MEASURED_RANK`` are beyond what the catalogue has been run at
(benchmarks/RESULTS.md): their queries grow (coalesce asks (3^r + 1) / 2 at rank r) and z3
is not known to settle them, so the expectation says nothing there; ``layoutcheck prove``
asks for ``--time-limit`` before it starts such a run.  A (lemma, rank) of more than
``MAX_UNIT_QUERIES`` queries is never attempted (building them alone would not fit in
memory): its row is unknown and unfinished.
"""

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from layoutcheck.proofs.query import Lemma
from layoutcheck.proofs.solving import fresh_context

from layoutcheck.deadline import format_seconds

__all__ = ["Estimate", "estimate", "ranks", "MEASURED_RANK", "MAX_UNIT_QUERIES", "ATTEMPTS"]

MEASURED_RANK = 8         # the highest rank the catalogue has been run at
MAX_UNIT_QUERIES = 10_000  # a (lemma, rank) with more queries is not attempted
ATTEMPTS = 3              # a query is asked at most three times (solving.solve), each with the timeout


def ranks(lemma: Lemma, max_rank: int) -> list[int]:
    """The ranks of ``lemma`` a run up to ``max_rank`` proves."""
    top = max_rank if lemma.max_rank is None else min(max_rank, lemma.max_rank)
    return list(range(lemma.min_rank, top + 1))


@dataclass
class Estimate:
    """What a run asks: ``units`` [(lemma name, rank, queries)], ``inductions`` (steps),
    ``queries`` (all of them), ``expected_s`` (None where ranks past ``MEASURED_RANK`` make
    it unknowable), ``worst_s``, ``beyond`` [(lemma, top rank, queries up to it)] past
    ``MEASURED_RANK``, ``too_large`` [(lemma, rank, queries)] past ``MAX_UNIT_QUERIES``."""
    units: list = field(default_factory=list)
    inductions: int = 0
    queries: int = 0
    expected_s: float | None = 0.0
    worst_s: float = 0.0
    beyond: list = field(default_factory=list)
    too_large: list = field(default_factory=list)
    jobs: int = 1

    def line(self) -> str:
        """One line: the work and how long it is expected to take."""
        lemmas = len({u[0] for u in self.units})
        top = max((u[1] for u in self.units), default=0)
        text = (f"{lemmas} lemma{'s' if lemmas != 1 else ''}, ranks up to {top}: "
                f"{_count(self.queries)} z3 queries in {len(self.units)} (lemma, rank) steps"
                + (f" and {self.inductions} induction steps" if self.inductions else ""))
        workers = f" on {self.jobs} worker{'s' if self.jobs > 1 else ''}"
        if self.expected_s is None:
            worst = self.beyond[0]
            text += (f"; past rank {MEASURED_RANK} no time can be expected ({worst[0]} alone asks "
                     f"{_count(worst[2])} queries up to rank {worst[1]})")
        else:
            text += f"; expected about {format_seconds(self.expected_s)}{workers}"
        return text + f", at most {format_seconds(self.worst_s)} if every query ran into its timeout"


def _count(n: int) -> str:
    return f"{n:,}" if n < 10 ** 9 else f"{n:.1e}"


def estimate(chosen: Sequence[Lemma], max_rank: int, timeout: float, induction: bool = True,
             jobs: int = 1) -> Estimate:
    """The ``Estimate`` of running ``chosen`` (Lemma objects) up to ``max_rank``."""
    est = Estimate(jobs=max(1, jobs))
    cpu = 0.0
    for lemma in chosen:
        mine = 0
        for rank in ranks(lemma, max_rank):
            n = lemma.count(rank)
            est.units.append((lemma.name, rank, n))
            mine += n
            cpu += n * lemma.cost
            if n > MAX_UNIT_QUERIES:
                est.too_large.append((lemma.name, rank, n))
        est.queries += mine
        top = ranks(lemma, max_rank)[-1] if ranks(lemma, max_rank) else 0
        if top > MEASURED_RANK:
            est.beyond.append((lemma.name, top, mine))
        if induction and lemma.induction is not None:
            with fresh_context():
                steps = len(lemma.induction())
            est.inductions += steps
            est.queries += steps
            cpu += steps * lemma.cost
    est.beyond.sort(key=lambda b: -b[2])
    parallel = min(est.jobs, max(1, len(est.units)))
    est.expected_s = None if est.beyond else cpu / parallel
    est.worst_s = est.queries * ATTEMPTS * timeout / parallel if est.queries < 1e300 else math.inf
    return est
