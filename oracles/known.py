"""Recognising the register's findings: is this failure a known one?

A finding's ``match`` tables (``layoutcheck/findings.toml``; DESIGN.md, "Known findings") each
name the exact ``oracles`` (lineages) they apply to, fnmatch patterns for ``op`` and
``check``, a *region* ``when`` and a *symptom* ``answer`` (``oracles/predicates.py``).
``find_known`` needs both: the inputs lie in the region *and* the implementation's answer is
exactly the one that bug or convention produces.  A table whose symptom checks only a property
of the answer (``@unchecked_symptom``: the bug's answer cannot be recomputed) makes a failure
"known region, answer not checked" (``explain`` finds it, ``answer_checked`` says so, ``verdict``
answers ``known region``), never "known".  ``find_region`` uses the region only (the campaign
steers generation away from regions it has already hit; never to pass a gate).
Tables of paper findings (``oracles = ["paper"]``) are about a printed statement, not an
oracle's answer, and have no ``answer``.

The predicates come from every implementation's package, listed explicitly in
``oracles/implementations.py``: a missing package is an import error, never skipped.
"""

from __future__ import annotations

import fnmatch
from typing import Any, Callable, Iterable, Sequence

import layoutcheck.oracles.regions as regions
from layoutcheck.oracles.compare import Comparison
from layoutcheck.oracles.implementations import IMPLEMENTATIONS
from layoutcheck.oracles.predicates import UNCHECKED, checks_answer, install_register
from layoutcheck.oracles.protocol import Outcome

from layoutcheck.findings import lineage, load, match_tables

__all__ = ["PREDICATES", "SYMPTOMS", "PREDICATE_MODULES", "find_known", "find_region", "explain", "verdict",
           "answer_checked", "unchecked_tables", "Hit", "CHECK", "KNOWN", "KNOWN_REGION"]


def _merged() -> tuple[dict[str, Callable], dict[str, Callable]]:
    predicates, symptoms = dict(regions.REGIONS), dict(regions.SYMPTOMS)
    for implementation in IMPLEMENTATIONS:
        for mine, theirs in ((predicates, implementation.regions), (symptoms, implementation.symptoms)):
            for name, fn in theirs.items():
                if mine.get(name, fn) is not fn:
                    raise ValueError(f"finding predicate {name!r} is defined twice")
                mine[name] = fn
    return predicates, symptoms


# Region predicates (a table's ``when``) and symptoms (its ``answer``), by name.
PREDICATES, SYMPTOMS = _merged()

# The modules that define them (where each keeps its planted cases, ``PLANTED``, for the tests).
PREDICATE_MODULES = tuple(sorted({fn.__module__ for fn in (*PREDICATES.values(), *SYMPTOMS.values())}))

# The check name under which oracle disagreements are registered in findings.toml
# (``match = {oracles = [...], op = "...", check = "agreement", when = "..."}``).
CHECK = "agreement"


def _applies(m: dict, oracle: str, op: str, check: str) -> bool:
    """The table is about this oracle's lineage, op and check (its region aside)."""
    line = lineage(oracle)
    if line is None or line not in m.get("oracles", ()):
        return False
    return all(fnmatch.fnmatchcase(val, m.get(key, "*")) for key, val in (("op", op), ("check", check)))


# (oracle, op, check) -> (register, [(finding, table)])
_TABLES: dict[tuple[str, str, str], tuple[Sequence[dict], tuple[tuple[dict, dict], ...]]] = {}


def _tables_for(register: Sequence[dict], oracle: str, op: str, check: str) -> tuple[tuple[dict, dict], ...]:
    """[(finding, table)] of ``register`` (``load()``) that apply to (oracle, op, check), in
    register order: the campaign asks for the same few triples for every case it draws
    (a register loaded again is a new object: its tables are recomputed)."""
    key = (oracle, op, check)
    got = _TABLES.get(key)
    if got is None or got[0] is not register:
        if len(_TABLES) > 4096:
            _TABLES.clear()
        got = _TABLES[key] = (register, tuple(
            (f, m) for f in register for m in match_tables(f) if _applies(m, oracle, op, check)))
    return got[1]


def _in_region(m: dict, op: str, inputs: tuple) -> bool:
    when = m.get("when")
    if not when:
        return True
    fn = PREDICATES.get(when)
    try:
        if fn is not None and getattr(fn, "wants_op", False):
            return bool(fn(*inputs, op=op))
        return fn is not None and bool(fn(*inputs))
    except Exception:  # noqa: BLE001 - a predicate that cannot judge these inputs: not covered
        return False


def _shows_symptom(m: dict, op: str, inputs: tuple, answer: Any, reference: Any) -> Any:
    """True, False, or ``UNCHECKED`` (the answer matches the symptom by a property only)."""
    name = m.get("answer")
    if name is None:
        return m.get("oracles") == ["paper"]  # a printed statement: no answer to judge
    fn = SYMPTOMS.get(name)
    if fn is None or answer is None:
        return False
    answer = answer if isinstance(answer, Outcome) else Outcome.ok(answer)
    if reference is not None and not isinstance(reference, Outcome):
        reference = Outcome.ok(reference)
    try:
        if fn.wants_op:  # type: ignore[attr-defined]
            got = fn(tuple(inputs), answer, reference, op=op)
        else:
            got = fn(tuple(inputs), answer, reference)
    except Exception:  # noqa: BLE001 - a symptom that cannot judge this answer: not known
        return False
    if got is UNCHECKED or (got and not checks_answer(fn)):
        return UNCHECKED
    return bool(got)


class Hit(tuple):
    """``(finding, table)`` that explains an answer; ``checked`` is False when the table's
    symptom matched the answer by a property only ("known region, answer not checked")."""

    checked: bool = True

    def __new__(cls, finding: dict, table: dict, checked: bool = True) -> "Hit":
        hit = super().__new__(cls, (finding, table))
        hit.checked = checked
        return hit


def answer_checked(table: dict) -> bool:
    """The table's symptom recomputes the answer (a paper table judges a statement: checked);
    False for an ``@unchecked_symptom``, which checks a property only.  A ``Hit`` (from
    ``explain``) says it for the answer it explains."""
    if isinstance(table, Hit):
        return table.checked
    name = table.get("answer")
    return name is None or checks_answer(SYMPTOMS.get(name))


def unchecked_tables(register: Sequence[dict] | None = None) -> list[tuple[dict, dict]]:
    """(finding, table) of every match table whose symptom does not check the answer."""
    return [(f, m) for f in (load() if register is None else register) for m in match_tables(f)
            if not answer_checked(m)]


def find_region(oracle: str, op: str, check: str, inputs: Iterable = ()) -> str | None:
    """The id of the first finding whose region (``when``) covers these inputs, or None
    (used to steer generation, never to pass a gate)."""
    inputs = tuple(inputs)
    for f, m in _tables_for(load(), str(oracle), op, check):
        if _in_region(m, op, inputs):
            return f["id"]
    return None


def explain(oracle: str, op: str, check: str, inputs: Iterable = (), answer: Any = None,
            reference: Any = None) -> Hit | None:
    """``Hit(finding, table)`` of the first table whose region covers the inputs *and* whose
    symptom is the oracle's ``answer`` (an Outcome), or None.  ``hit.checked`` is False for a
    known region whose answer was not checked; a table that checks the answer comes first."""
    inputs = tuple(inputs)
    loose = None
    for f, m in _tables_for(load(), str(oracle), op, check):
        if not _in_region(m, op, inputs):
            continue
        shown = _shows_symptom(m, op, inputs, answer, reference)
        if shown is UNCHECKED:
            loose = loose or Hit(f, m, checked=False)
        elif shown:
            return Hit(f, m)
    return loose


def find_known(oracle: str, op: str, check: str, inputs: Iterable = (), answer: Any = None,
               reference: Any = None) -> str | None:
    """The id of the finding that explains this failure, or None: the inputs lie in one of
    its tables' region and the answer is exactly its symptom (a symptom that checks the answer;
    a "known region, answer not checked" is None here).  Without ``answer`` only paper
    findings (no oracle answer to judge) can match."""
    hit = explain(oracle, op, check, inputs, answer, reference)
    return hit[0]["id"] if hit and hit.checked else None


KNOWN, KNOWN_REGION = "known", "known region"


def verdict(oracle: str, op: str, inputs: Iterable, comparison: Comparison, answer: Any = None,
            reference: Any = None) -> tuple[str, str | None]:
    """``("agree" | "disagree" | "known" | "known region" | "no verdict", finding id or None)``.

    A disagreement that a finding of the register explains is ``known``, not a failure:
    the inputs lie in the finding's region and ``answer`` (the oracle's Outcome: a value, a
    refusal or a crash) is exactly its symptom; ``known region`` where the finding's symptom
    checks only a property of the answer; without the answer it is a disagreement.
    ``reference`` is the reference's Outcome.
    """
    if comparison.ok is None:
        return "no verdict", None
    if comparison.ok:
        return "agree", None
    hit = explain(oracle, op, CHECK, tuple(inputs), answer, reference)
    if hit is None:
        return "disagree", None
    return (KNOWN if hit.checked else KNOWN_REGION), hit[0]["id"]


install_register(find_known)
