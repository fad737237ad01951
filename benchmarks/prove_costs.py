"""The cost of the lemma catalogue per query, which ``layoutcheck prove`` uses for its estimate
(``Lemma.cost``, proofs/estimate.py), measured and recorded in benchmarks/RESULTS.md.

    .venv/bin/python benchmarks/prove_costs.py [--max-rank 6] [--timeout 20]

Each (lemma, rank) and each induction runs in this process in a fresh z3 context (as the
sequential runner does); the CPU seconds (building the queries and solving them) are summed
per lemma and divided by its queries.  The table shows the measured cost next to the
catalogue's ``cost``, and the estimate of the whole run next to its CPU time: a catalogue cost
far from the measured one is worth updating.
"""

import argparse
import time

from results import recording

from layoutcheck.proofs import CATALOGUE
from layoutcheck.proofs.estimate import estimate, ranks
from layoutcheck.proofs.solving import fresh_context, run_queries


def measure(lemma, max_rank, timeout):
    """(queries, CPU seconds) of the lemma up to ``max_rank``, its induction included."""
    queries, cpu = 0, 0.0
    for rank in ranks(lemma, max_rank):
        c0 = time.process_time()
        with fresh_context():
            qs = lemma.queries(rank)
            run_queries(lemma, qs, timeout)
        cpu += time.process_time() - c0
        queries += len(qs)
    if lemma.induction is not None:
        c0 = time.process_time()
        with fresh_context():
            qs = lemma.induction()
            run_queries(lemma, qs, timeout)
        cpu += time.process_time() - c0
        queries += len(qs)
    return queries, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-rank", type=int, default=6)
    ap.add_argument("--timeout", type=float, default=20.0)
    a = ap.parse_args()
    with recording("Proofs", versions=["z3-solver"]):
        print(f"CPU seconds per query, ranks up to {a.max_rank} and the induction, one process:")
        print()
        print("| lemma | queries | CPU s | measured s/query | catalogue cost |")
        print("|---|---|---|---|---|")
        total_q, total_cpu = 0, 0.0
        for lemma in CATALOGUE:
            q, cpu = measure(lemma, a.max_rank, a.timeout)
            total_q, total_cpu = total_q + q, total_cpu + cpu
            print(f"| {lemma.name} | {q} | {cpu:.2f} | {cpu / q:.4f} | {lemma.cost} |")
        est = estimate(CATALOGUE, a.max_rank, a.timeout, induction=True, jobs=1)
        print()
        print(f"All: {total_q} queries in {total_cpu:.1f} CPU s; the estimate of `layoutcheck prove "
              f"--max-rank {a.max_rank} --jobs 1` says {est.expected_s:.1f} s.")


if __name__ == "__main__":
    main()
