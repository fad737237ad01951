"""``module:NAME`` as the register and the campaign see it: no findings of its own (a
``module:NAME@LINEAGE`` oracle gets LINEAGE's, ``layoutcheck.findings.lineage``)."""

from layoutcheck.oracles.module.oracle import isolated_module
from layoutcheck.oracles.protocol import Implementation

from layoutcheck.errors import LayoutError

__all__ = ["IMPLEMENTATION"]


def _make(name, **options):
    module, _, line = name[len("module:"):].partition("@")
    if not module or not all(p.isidentifier() for p in module.split(".")):
        raise LayoutError(f"bad oracle name {name!r}: expected module:NAME with an importable module name")
    if "@" in name and not all(p.isidentifier() for p in line.replace("-", "_").split(".")):
        raise LayoutError(f"bad oracle name {name!r}: expected module:NAME@LINEAGE, e.g. module:mycopy@pycute")
    oracle = isolated_module(module, name=name, **options)
    oracle.lineage = line or None
    return oracle


IMPLEMENTATION = Implementation(
    lineage="module",
    summary="module:NAME, any Python module with pycute's API (module:NAME@LINEAGE: a copy of LINEAGE)",
    prefixes=("module:",),
    make=_make)
