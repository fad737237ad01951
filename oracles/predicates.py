"""The two kinds of predicate a finding's match table names (DESIGN.md, "Known findings").

* a **region** (a table's ``when``): ``fn(*inputs) -> bool``, the inputs on which the bug or
  convention shows;
* a **symptom** (a table's ``answer``): ``fn(inputs, answer, reference) -> bool`` over
  ``Outcome``s, True only when the implementation's answer is exactly the one that bug or
  convention produces.

Either may declare a keyword ``op`` to be told the operation.  Each implementation's package
marks its predicates with ``@region`` / ``@symptom`` and gathers them with ``collect``;
``layoutcheck.oracles.known`` merges every package's.
"""

from __future__ import annotations

import inspect
from types import ModuleType
from typing import Any, Callable, Iterable

from layoutcheck.oracles.protocol import Outcome

__all__ = ["region", "symptom", "collect", "wants_op", "answered", "raised_with_any", "raised_with_all",
           "install_register", "inner_finding"]

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
    """Mark ``fn`` as a symptom predicate (a match table's ``answer``)."""
    fn.finding_role = "symptom"  # type: ignore[attr-defined]
    fn.wants_op = wants_op(fn)  # type: ignore[attr-defined]
    return fn


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
