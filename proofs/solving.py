"""Asking z3: one query at a time (``solve``), fresh contexts so that every query sees the same
term ids in any process, incremental solving for the lemmas that profit from it, and a
counterexample decoded into a concrete layout that is re-checked on the spec."""

from contextlib import contextmanager

import z3
from layoutcheck.proofs import symbolic
from layoutcheck.proofs.lemmas import get_lemma
from layoutcheck.proofs.symbolic import decode

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase

__all__ = ["solve", "fresh_context", "run_queries", "run_queries_at", "proof_row",
           "expected_outcome_met", "check_assertions", "CounterModel", "Incremental",
           "INCREMENTAL", "NO_GROEBNER", "UNFINISHED"]


# Lemmas whose queries z3 settles faster without Groebner-basis reasoning in its non-linear
# arithmetic (CPU seconds at rank 6, each (lemma, rank) in a fresh context: coalesce_phi
# about 4x, concat_phi 8x, compact_if_colmajor, complementable_increasing, sorted_corrected,
# composition_phi about 2x; complement_disjoint is slower that way, so the others keep z3's
# default).  A query that is unknown that way is asked again with the default settings, so
# a result can only improve: the answer is z3's, with either configuration.
NO_GROEBNER = frozenset({"concat_phi", "coalesce_phi", "coalesce_coalesced",
                         "compact_if_colmajor", "complement_compact", "colmajor_identity",
                         "mixed_radix_unique", "complementable_increasing", "sorted_corrected",
                         "composition_phi"})


# Lemmas whose many small queries z3 settles faster on one solver kept for the whole
# (lemma, rank) (push, the query's assertions, check, pop: z3 then answers with its
# incremental SMT core instead of a fresh solver's tactic preprocessing; CPU seconds at rank
# 6, each in a fresh context: permute_image 3.6 -> 0.4, sort_image 3.0 -> 0.5 (1440 queries
# each), coalesce_coalesced, coalesce_idempotent 2 -> 0.1, complementable_increasing
# 6.3 -> 0.2; coalesce_phi, composition_phi, sorted_corrected and the single queries are
# slower that way and keep solve).  At each check the solver holds exactly the query's
# assertions, so its unsat is the query's; anything else (sat, unknown, past
# INCREMENTAL_TIMEOUT) is asked again with solve as before: an answer is the old one, or
# unsat where the old one was unknown.
INCREMENTAL = frozenset({"permute_image", "sort_image", "coalesce_coalesced",
                         "coalesce_idempotent", "complementable_increasing"})
INCREMENTAL_TIMEOUT = 2.0


class Incremental:
    """One solver for a run of queries: ``unsat(q)`` is True only on z3's unsat for q."""

    def __init__(self, timeout):
        self.solver = z3.Solver()
        self.solver.set("timeout", max(1, int(min(timeout, INCREMENTAL_TIMEOUT) * 1000)))
        self.solver.set("arith.nl.grobner", False)

    def unsat(self, query):
        s = self.solver
        s.push()
        try:
            s.add(*query.assertions)
            return s.check() == z3.unsat
        finally:
            s.pop()


def check_assertions(assertions, timeout, groebner, ctx=None):
    s = z3.Solver(ctx=ctx)
    s.set("timeout", max(1, int(timeout * 1000)))
    if not groebner:
        s.set("arith.nl.grobner", False)
    s.add(*assertions)
    res = s.check()
    if res == z3.unsat:
        return "unsat", None
    if res == z3.sat:
        return "sat", s.model()
    return "unknown", None


class CounterModel:
    """A model found in a fresh context: evaluates terms of the main context."""

    def __init__(self, model, ctx):
        self.model, self.ctx = model, ctx

    def eval(self, t, model_completion=False):
        return self.model.eval(t.translate(self.ctx), model_completion=model_completion)


def _budget(timeout, deadline):
    """Seconds for one attempt: ``timeout``, or what is left before ``deadline`` if less."""
    return timeout if deadline is None else min(timeout, deadline.remaining())


def _fresh(query, timeout, deadline=None):
    """The query copied into a new z3 context and solved there with the defaults: its
    answer (and model) depend on the query alone, not on what the process built before
    (z3's search follows the ids of the terms, so the same query can take 0.1 s in one
    process and time out in another).  A model is the smallest one z3 finds (sum of the
    layout's shapes and strides, by bisection): a canonical counterexample."""
    ctx = z3.Context()
    todo = [a.translate(ctx) for a in query.assertions]
    res, model = check_assertions(todo, _budget(timeout, deadline), True, ctx)
    if model is not None and query.layout is not None:
        model = _smallest(todo, ctx, model, query.layout, min(timeout, 5.0), deadline=deadline)
    return res, (None if model is None else CounterModel(model, ctx))


def _smallest(todo, ctx, model, layout, timeout, rounds=16, deadline=None):
    terms = [t.translate(ctx) for m in layout.modes for t in (m.s, m.d)]
    cost = z3.Sum(terms)
    s = z3.Solver(ctx=ctx)
    s.set("timeout", max(1, int(timeout * 1000)))
    s.add(*todo)
    lo, hi = 0, model.eval(cost, model_completion=True).as_long()
    for _ in range(rounds):
        if lo >= hi or (deadline is not None and deadline.expired()):
            break  # the model found so far is a counterexample too, if not the smallest
        s.set("timeout", max(1, int(_budget(timeout, deadline) * 1000)))
        mid = (lo + hi) // 2
        s.push()
        s.add(cost <= mid)
        if s.check() == z3.sat:
            model = s.model()
            hi = model.eval(cost, model_completion=True).as_long()
        else:
            lo = mid + 1
        s.pop()
    return model


def solve(query, timeout, fast=False, deadline=None):
    """'unsat' | 'sat' | 'unknown', and the model on 'sat'.  ``fast``: first without
    Groebner bases, then (on unknown) with z3's defaults; an unknown is asked once more in
    a fresh context, and a sat is answered by the fresh context's model (the same model in
    any process, sequential or parallel).  Each attempt has ``timeout``, and none runs past
    ``deadline`` (a ``layoutcheck.deadline.Deadline``)."""
    res, model = "unknown", None
    if fast:
        res, model = check_assertions(query.assertions, _budget(timeout, deadline), groebner=False)
    if res == "unknown":
        res, model = check_assertions(query.assertions, _budget(timeout, deadline), groebner=True)
    if res == "unsat":
        return res, model
    again, fresh_model = _fresh(query, timeout, deadline)
    if again != "unknown":
        return again, fresh_model
    return res, model


@contextmanager
def fresh_context():
    """Build and solve one (lemma, rank) in a new z3 main context: its queries then get
    the same term ids whatever ran before in the process (sequential or parallel), and
    z3's search, which follows those ids, does not depend on the history (the induction
    step of concat_phi takes 0.07 s in a fresh context and 16 s after the catalogue)."""
    old = z3.z3._main_ctx
    z3.z3._main_ctx = z3.Context()
    symbolic.MEMO.clear()
    try:
        yield
    finally:
        z3.z3._main_ctx = old
        symbolic.MEMO.clear()


def _layout_text(shape, stride):
    return str(LayoutBase(shape, stride))


UNFINISHED = "unfinished"  # a result of run_queries_at: the deadline came first


def run_queries(lemma, queries, timeout, deadline=None):
    """Run queries until one is sat or unknown; return (result, counterexample, note)."""
    return run_queries_at(lemma, list(enumerate(queries)), timeout, deadline)[1:]


def run_queries_at(lemma, indexed, timeout, deadline=None):
    """(index, result, counterexample, note) of the first query of ``indexed`` (pairs
    (index, query)) that is not unsat; index None when all are.  Past ``deadline`` the
    result is ``UNFINISHED`` at the first query not settled."""
    fast = lemma.name in NO_GROEBNER
    inc = Incremental(timeout) if lemma.name in INCREMENTAL else None
    for i, q in indexed:
        if deadline is not None and deadline.expired():
            return i, UNFINISHED, None, f"{q.label}: not asked before {deadline.what}"
        if inc is not None and inc.unsat(q):
            continue
        out = _one_query(lemma, q, timeout, fast, deadline)
        if out is not None:
            return (i,) + out
    return None, "proved", None, ""


def _one_query(lemma, q, timeout, fast, deadline=None):
    """None when unsat, else (result, counterexample, note)."""
    res, model = solve(q, timeout, fast, deadline)
    if res == "unsat":
        return None
    if res == "unknown" and deadline is not None and deadline.expired():
        return UNFINISHED, None, f"{q.label}: not settled before {deadline.what}"
    if res == "unknown":  # the row can no longer be proved: stop here
        return "unknown", None, f"{q.label}: solver timeout or unknown"
    if q.layout is None:
        return "unknown", None, f"{q.label}: sat without a layout to decode"
    shape, stride = decode(model, q.layout)
    text = _layout_text(shape, stride)
    try:
        held = lemma.check((shape, stride))
    except LayoutError as e:
        return "unknown", text, f"{q.label}: cannot re-check {text} on the spec: {e}"
    if held is False:
        return "refuted", text, q.label
    return "unknown", text, f"{q.label}: z3's model {text} does not re-check on the spec"


def proof_row(lemma, rank, result, seconds, cex, note, n_queries):
    """A row of the table; an ``UNFINISHED`` result is ``unknown`` with ``"unfinished": True``
    (the run's time limit cut it: the lemma was not settled there, nor refuted)."""
    row = {"lemma": lemma.name, "rank": rank, "result": result, "seconds": round(seconds, 3),
           "counterexample": cex, "for_all_ranks": False, "bound": lemma.bound,
           "queries": n_queries, "note": note, "expected": lemma.expected,
           "induction": lemma.induction is not None}
    if result == UNFINISHED:
        row.update(result="unknown", unfinished=True)
    return row


def expected_outcome_met(lemma, rows):
    """Did the lemma end as its catalogue entry expects?

    refuted: some row refuted (re-checked), none unknown.  proved: every row proved, or the
    induction ("all" row) proved and no row refuted: a fixed-rank query that z3 does not
    settle in time stays in the table as unknown, but the lemma is proved for every rank.
    """
    lemma = get_lemma(lemma) if isinstance(lemma, str) else lemma
    mine = [r for r in rows if r["lemma"] == lemma.name]
    if not mine:
        return False
    if lemma.expected == "refuted":
        return any(r["result"] == "refuted" for r in mine) and \
            all(r["result"] != "unknown" for r in mine)
    if any(r["result"] == "refuted" for r in mine):
        return False
    by_induction = any(r["rank"] == "all" and r["result"] == "proved" for r in mine)
    return by_induction or all(r["result"] == "proved" for r in mine)
