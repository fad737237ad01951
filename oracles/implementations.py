"""Every implementation under test, listed explicitly: the one place the register, the
campaign and ``get_oracle`` learn which implementations exist.  A package that is missing is
an import error here, never skipped."""

from __future__ import annotations

from layoutcheck.oracles.conventions import Convention
from layoutcheck.oracles.cpp.implementation import IMPLEMENTATION as CPP
from layoutcheck.oracles.dsl.implementation import IMPLEMENTATION as DSL
from layoutcheck.oracles.module.implementation import IMPLEMENTATION as MODULE
from layoutcheck.oracles.nvlabs.implementation import IMPLEMENTATION as NVLABS
from layoutcheck.oracles.protocol import Implementation
from layoutcheck.oracles.pycute_wheel.implementation import IMPLEMENTATION as PYCUTE

from layoutcheck.findings import lineage

__all__ = ["IMPLEMENTATIONS", "implementation_for", "CONVENTIONS", "conventions_for", "takes_runtime_integers"]

IMPLEMENTATIONS: tuple[Implementation, ...] = (PYCUTE, NVLABS, CPP, DSL, MODULE)

# lineage -> declared conventions (a module:NAME@LINEAGE oracle has its lineage's)
CONVENTIONS: dict[str, list[Convention]] = {
    i.lineage: list(i.conventions) for i in IMPLEMENTATIONS if i.conventions}


def implementation_for(name: str) -> Implementation | None:
    """The implementation an oracle name belongs to, or None (spec, impl, unknown names)."""
    return next((i for i in IMPLEMENTATIONS if i.claims(name)), None)


def conventions_for(oracle: str) -> list[Convention]:
    """The declared conventions of ``oracle`` (a ``module:NAME@LINEAGE`` oracle has its
    lineage's; a plain ``module:NAME`` none)."""
    return list(CONVENTIONS.get(lineage(oracle) or "", ()))


def takes_runtime_integers(oracle: str, op: str) -> bool:
    """Whether ``oracle`` runs the plain ``int`` leaves of ``op``'s inputs as runtime
    integers (and the ``_N`` ones as static): the one place that says so, per (oracle, op).

    spec and impl keep both kinds (CuTe's integer rules); CuTe C++ does in every op; the CuTe
    DSL does in the ops of its runtime path (``oracles/dsl/oracle.py`` ``RUNTIME_OPS``) and
    runs the others at trace time, all static; pycute, NVlabs' PyCuTe and ``module:`` oracles
    read every integer as a known value, i.e. static.  The gate gives an oracle that does not
    tell them apart, and its reference, all-static inputs (``fuzz/checks/base.py``), so that
    the staticness of both answers stays comparable."""
    name = str(oracle).split("[")[0]
    if name in ("spec", "impl"):
        return True
    implementation = implementation_for(name)
    return implementation is not None and bool(implementation.runtime_integers(op))
