"""The two kinds of predicate a finding's match table names (DESIGN.md, "Known findings").

* a **region** (a table's ``when``): ``fn(*inputs) -> bool``, the inputs on which the bug or
  convention shows;
* a **symptom** (a table's ``answer``): ``fn(inputs, answer, reference) -> bool`` over
  ``Outcome``s, True only when the implementation's answer is exactly the one that bug or
  convention produces.

Either may declare a keyword ``op`` to be told the operation.  Each implementation's package
marks its predicates with ``@region`` / ``@symptom`` and gathers them with ``collect``;
``layoutcheck.oracles.known`` merges every package's.

A symptom recomputes the answer the bug produces (the implementation's model, its pinned
exception, its signal).  Where that answer cannot be recomputed, ``@unchecked_symptom(REASON)``
marks a symptom that checks only a property of the answer, and a symptom that recomputes most
answers returns ``UNCHECKED`` (truthy) for an answer it can only check by a property: a
failure explained so is "known region, answer not checked", counted apart from "known" and
never passing a gate unless the gate accepts regions (docs/findings.md lists each such case
with its reason).
"""

from __future__ import annotations

import inspect
from types import ModuleType
from typing import Any, Callable, Iterable, Sequence

from layoutcheck.oracles.compare import compare
from layoutcheck.oracles.protocol import Outcome

__all__ = ["region", "symptom", "unchecked_symptom", "partly_unchecked", "checks_answer", "UNCHECKED", "collect", "wants_op", "answered",
           "raised_with_any", "raised_with_all", "crashed_with", "same_as_model", "install_register",
           "inner_finding"]

Predicate = Callable[..., bool]
# ``oracles/known.py``'s ``find_known(oracle, op, check, inputs, answer, reference)``
FindKnown = Callable[[str, str, str, Iterable[Any], Any, Any], "str | None"]


def wants_op(fn: Callable) -> bool:
    """The predicate declares a keyword ``op`` (it is told the operation)."""
    try:
        return "op" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def region(fn: Predicate) -> Predicate:
    """Mark ``fn`` as a region predicate (a match table's ``when``)."""
    fn.finding_role = "region"  # type: ignore[attr-defined]
    fn.wants_op = wants_op(fn)  # type: ignore[attr-defined]
    return fn


def symptom(fn: Predicate) -> Predicate:
    """Mark ``fn`` as a symptom predicate (a match table's ``answer``): True only for exactly
    the answer that the bug or convention produces."""
    fn.finding_role = "symptom"  # type: ignore[attr-defined]
    fn.wants_op = wants_op(fn)  # type: ignore[attr-defined]
    fn.checks_answer = True  # type: ignore[attr-defined]
    fn.unchecked_reason = ""  # type: ignore[attr-defined]
    return fn


def unchecked_symptom(reason: str) -> Callable[[Predicate], Predicate]:
    """Mark a symptom that checks a *property* of the answer, not the answer itself, because
    the bug's answer cannot be recomputed (``reason`` says why).  A failure it explains is
    "known region, answer not checked"."""
    if not reason:
        raise ValueError("an unchecked symptom needs the reason its answer cannot be recomputed")

    def mark(fn: Predicate) -> Predicate:
        symptom(fn)
        fn.checks_answer = False  # type: ignore[attr-defined]
        fn.unchecked_reason = reason  # type: ignore[attr-defined]
        return fn
    return mark


def partly_unchecked(reason: str) -> Callable[[Predicate], Predicate]:
    """Mark a symptom that recomputes the answer but returns ``UNCHECKED`` for some answers it
    can only match by a property (``reason`` says which and why)."""
    if not reason:
        raise ValueError("a partly unchecked symptom needs the reason")

    def mark(fn: Predicate) -> Predicate:
        symptom(fn)
        fn.unchecked_reason = reason  # type: ignore[attr-defined]
        return fn
    return mark


class _Unchecked:
    """What a symptom returns for an answer that it matches by a property only (truthy)."""

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "UNCHECKED"


UNCHECKED = _Unchecked()


def checks_answer(fn: Callable | None) -> bool:
    """The symptom recomputes the answer (``@symptom``), rather than a property of it."""
    return fn is not None and getattr(fn, "checks_answer", True)


def collect(*modules: ModuleType) -> tuple[dict[str, Predicate], dict[str, Predicate]]:
    """(regions, symptoms) defined in ``modules``, by name; a name defined twice is an error."""
    regions: dict[str, Predicate] = {}
    symptoms: dict[str, Predicate] = {}
    for module in modules:
        for name, fn in vars(module).items():
            role = getattr(fn, "finding_role", None)
            if role is None or getattr(fn, "__module__", None) != module.__name__:
                continue
            table = regions if role == "region" else symptoms
            if name in table and table[name] is not fn:
                raise ValueError(f"finding predicate {name!r} is defined twice "
                                 f"({table[name].__module__}, {module.__name__})")
            table[name] = fn
    return regions, symptoms


# --- what symptoms are written with ------------------------------------------------------------

def answered(answer: Outcome | None) -> bool:
    """The implementation answered a value (an ``ok`` Outcome)."""
    return answer is not None and answer.kind == "ok"


def raised_with_any(answer: Outcome | None, *needles: str) -> bool:
    """The implementation refused, with any one of ``needles`` in its message."""
    return answer is not None and answer.kind == "raised" and any(n in answer.message for n in needles)


def raised_with_all(answer: Outcome | None, *needles: str) -> bool:
    """The implementation refused, with every one of ``needles`` in its message."""
    return answer is not None and answer.kind == "raised" and all(n in answer.message for n in needles)


def same_as_model(op: str, inputs: Sequence[Any], model: Any, answer: Outcome | None) -> bool:
    """``answer`` (an Outcome) is the value ``model`` (a value or an ok Outcome) recomputes for
    ``op(*inputs)``: the two are the same answer at the level the gate judges ``op`` at
    (``compare``, post-conditions included), and at least the same function where the op
    is judged by a property only (the inverses, where any valid answer would pass).  A
    different wrong answer in the region therefore never matches."""
    if model is None or not answered(answer):
        return False
    if isinstance(model, Outcome):
        if model.kind != "ok":
            return False
        model = model.value
    c = compare(op, tuple(inputs), Outcome.ok(model), answer)
    return c.ok is True and c.level not in ("property", "both-raised")


# How an isolated worker's death on a case is worded (oracles/isolation.py): "killed by SIGFPE
# on this case", "no answer within N s (the worker was stopped; ...)".
CRASH_WORDS = {"SIGFPE": ("killed by SIGFPE", "killed by signal 8"),
               "SIGSEGV": ("killed by SIGSEGV", "killed by signal 11"),
               "SIGABRT": ("killed by SIGABRT", "killed by signal 6"),
               "SIGBUS": ("killed by SIGBUS", "killed by signal 7"),
               "timeout": ("no answer within",)}


def crashed_with(answer: Outcome | None, *signals: str) -> bool:
    """The implementation did not answer: its worker died by one of ``signals`` (``SIGFPE``,
    ``SIGSEGV``, ``SIGABRT``, ``SIGBUS``, or ``timeout``).  A crash symptom names the signal the
    finding records, so another death in its region (another signal, a hang) stays new."""
    if answer is None or answer.kind != "crashed" or "before this case" in answer.message:
        return False  # a worker that died before the case is no answer to it
    return any(w in answer.message for sig in signals for w in CRASH_WORDS[sig])


# --- symptoms that consult the register ----------------------------------------------------------
# A composed layout's failure is known when its inner layout's is (F-226): those symptoms ask
# the register itself.  ``oracles/known.py`` installs its ``find_known`` here when it loads (the
# register's predicates include these symptoms, so they cannot import it).

_find_known: FindKnown | None = None


def install_register(find_known: FindKnown) -> None:
    """Called once by ``oracles/known.py`` with its ``find_known``."""
    global _find_known
    _find_known = find_known


def inner_finding(oracle: str, op: str, check: str, inputs: Iterable[Any], answer: Any,
                  reference: Any) -> str | None:
    """The register's ``find_known`` on an inner operation (None before the register loads)."""
    return None if _find_known is None else _find_known(oracle, op, check, inputs, answer, reference)
