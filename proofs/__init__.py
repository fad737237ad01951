"""layoutcheck.proofs: z3 proofs of the layout lemmas of the paper (2.1.2-2.1.7).

``CATALOGUE`` lists the lemmas (``Lemma`` objects); ``run(lemmas=None, max_rank=4,
timeout=20.0)`` proves them rank by rank, and by induction where a per-mode step exists,
and returns one row per (lemma, rank): ``{"lemma", "rank", "result", "seconds",
"counterexample", "for_all_ranks", ...}``.  A timeout is ``unknown``, never ``proved``; a
refutation is reported only after the counterexample re-checks on ``layoutcheck.spec``.
"""

from layoutcheck.proofs.lemmas import CATALOGUE, Lemma, Query, get_lemma
from layoutcheck.proofs.runner import DEFAULT_MAX_RANK, DEFAULT_TIMEOUT, expected_outcome_met, run, run_lemma
from layoutcheck.proofs.solving import solve

__all__ = ["CATALOGUE", "Lemma", "Query", "get_lemma", "run", "run_lemma", "solve",
           "expected_outcome_met", "DEFAULT_MAX_RANK", "DEFAULT_TIMEOUT"]
