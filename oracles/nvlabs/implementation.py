"""NVIDIA's new PyCuTe as the register and the campaign see it."""

from layoutcheck.oracles.nvlabs import conventions, findings
from layoutcheck.oracles.nvlabs.oracle import nvlabs_oracle
from layoutcheck.oracles.predicates import collect
from layoutcheck.oracles.protocol import Implementation

from layoutcheck.errors import LayoutError

__all__ = ["IMPLEMENTATION"]


def _make(name, **options):
    path = name[len("nvlabs:"):] if name != "nvlabs" else None
    if path == "":
        raise LayoutError(f"bad oracle name {name!r}: expected nvlabs or nvlabs:PATH")
    return nvlabs_oracle(path, name=name, **options)


_REGIONS, _SYMPTOMS = collect(findings)

IMPLEMENTATION = Implementation(
    lineage="nvlabs",
    summary="NVIDIA's new PyCuTe (NVlabs), loaded from a path",
    names=("nvlabs",), prefixes=("nvlabs:",),
    make=_make,
    regions=_REGIONS, symptoms=_SYMPTOMS,
    conventions=tuple(conventions.CONVENTIONS))
