"""Oracles: every implementation under test behind one protocol, and the references it is
judged against.

``get_oracle(name)`` returns an ``Oracle`` with ``unavailable_reason()``, ``run(op, *args)``
and ``run_many([(op, args), ...])``, each answer an ``Outcome`` (``ok`` / ``raised`` /
``unsupported`` / ``crashed``).  ``compare(op, inputs, expected, actual)`` grades an answer
against the reference (``oracles/compare.py``); ``verdict`` says whether a disagreement is a
known finding (``oracles/known.py``).  The implementations are listed in
``oracles/implementations.py``, one package each.
"""

from __future__ import annotations

from typing import Any

from layoutcheck.oracles.compare import LEVELS, REQUIRED, Comparison, compare
from layoutcheck.oracles.implementations import IMPLEMENTATIONS, implementation_for
from layoutcheck.oracles.known import CHECK, verdict
from layoutcheck.oracles.protocol import OPS, Oracle, Outcome, parse_args
from layoutcheck.oracles.reference import PACKAGES, PackageOracle

from layoutcheck.errors import LayoutError

__all__ = ["get_oracle", "available_oracles", "ORACLE_NAMES", "compare", "Comparison", "Outcome",
           "Oracle", "OPS", "LEVELS", "REQUIRED", "CHECK", "verdict", "parse_args"]

# The oracles a plain name selects (module:NAME, nvlabs:PATH and versioned names aside).
ORACLE_NAMES = ("spec", "impl", "pycute", "nvlabs", "cute-cpp", "cute-dsl")


def get_oracle(name: str, **options: Any) -> Oracle:
    """The oracle called ``name`` (one of ORACLE_NAMES, ``module:NAME[@LINEAGE]`` or
    ``nvlabs:PATH``).

    ``options`` go to the oracle's constructor (cute-cpp: ``include_dir``, ``cxx``, ``cuda``,
    ``cache_dir``; spec and impl: ``sense``).  An unknown name raises LayoutError; an
    unavailable oracle is returned and says why through ``unavailable_reason()``.
    """
    if name in PACKAGES:
        return PackageOracle(name, **options)
    implementation = implementation_for(name) if isinstance(name, str) else None
    if implementation is None:
        raise LayoutError(f"unknown oracle {name!r}; known: {', '.join(ORACLE_NAMES)}, "
                          "module:NAME[@LINEAGE], nvlabs:PATH")
    return implementation.make(name, **options)


def available_oracles() -> list[str]:
    """The names in ORACLE_NAMES whose oracle can run here."""
    return [n for n in ORACLE_NAMES if get_oracle(n).unavailable_reason() is None]
