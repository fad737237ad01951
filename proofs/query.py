"""What a lemma of the catalogue is: ``Query`` (one question to z3, asking for a violation)
and ``Lemma`` (its queries per rank, its induction steps), and the helpers the lemmas share
(points of a layout, selections, image queries)."""

from dataclasses import dataclass
from typing import Callable, Optional

import z3
from layoutcheck.proofs.symbolic import (
    SymLayout,
)

__all__ = ["Query", "Lemma"]


@dataclass
class Query:
    """One satisfiability question: ``assertions`` describe a violation."""
    label: str
    assertions: list
    layout: Optional[SymLayout] = None   # decoded into the counterexample on ``sat``


@dataclass(frozen=True)
class Lemma:
    name: str
    ref: str                      # the paper's number
    statement: str
    queries: Callable             # rank -> [Query]
    check: Callable               # concrete layout -> True (holds) / False (violated) / None (n/a)
    expected: str = "proved"      # or "refuted" (a literal erratum)
    bound: str = "unbounded"
    induction: Optional[Callable] = None      # () -> [Query], the steps
    induction_argument: str = ""
    min_rank: int = 1
    max_rank: Optional[int] = None            # the encoding enumerates; not attempted beyond
    strategy: str = "layout"      # which concrete inputs the re-validation draws
    count: Callable = lambda rank: 1          # rank -> len(queries(rank)), without building them
    cost: float = 0.015           # CPU seconds per query, measured at ranks up to 6


def point(name, L):
    x = z3.Int(name)
    return x, [0 <= x, x < L.size()]


def select(items, idx):
    out = items[-1]
    for k in range(len(items) - 2, -1, -1):
        out = z3.If(idx == k, items[k], out)
    return out


def precedes_or_equal(s1, d1, s2, d2):
    """s1:d1 ⪯ s2:d2 (Def 2.1.3.23)."""
    return z3.Or(d1 < d2, z3.And(d1 == d2, s1 <= s2))


def uninterpreted(name):
    return z3.Function(name, z3.IntSort(), z3.IntSort())


def coords_of(name, L):
    return [z3.Int(f"{name}{i}") for i in range(L.rank)]


def image_queries(label, A, B, to_b, to_a):
    """Image(Phi_A) = Image(Phi_B), both inclusions, in coordinate form with witnesses.

    Image(Phi_L) = phi_L([0, S)) because colex^-1 is a bijection [0, size) -> [0, S)
    (colex_inverse, mixed_radix_unique), so each inclusion is: for every coordinate of one
    side, the witness coordinate (a fixed map) lies in the other box with the same value.
    """
    xs = coords_of(f"{label}_x", A)
    yw = to_b(xs)
    q1 = Query(f"{label}: Image(A) ⊆ Image(B)",
               [A.in_box(xs), z3.Not(z3.And(B.in_box(yw), B.phi(yw) == A.phi(xs)))])
    ys = coords_of(f"{label}_y", B)
    xw = to_a(ys)
    q2 = Query(f"{label}: Image(B) ⊆ Image(A)",
               [B.in_box(ys), z3.Not(z3.And(A.in_box(xw), A.phi(xw) == B.phi(ys)))])
    return [q1, q2]


def with_layout(qs, L, cons):
    for q in qs:
        q.assertions = cons + q.assertions
        q.layout = L
    return qs


def head_vars():
    s, d, n = z3.Ints("s d N_T")
    return s, d, n, [s >= 1, d >= 0, n >= 1]


def differ(xs, ys):
    return z3.Or([False] + [a != b for a, b in zip(xs, ys)])
