"""CuTe C++ as the register and the campaign see it."""

from layoutcheck.oracles.cpp import conventions, findings
from layoutcheck.oracles.cpp.oracle import CuteCppOracle
from layoutcheck.oracles.fetch import resolve
from layoutcheck.oracles.protocol import Implementation

__all__ = ["IMPLEMENTATION"]


def _make(name, **options):
    """``cute-cpp`` (``--cute-include``, else the wheel's headers) or ``cute-cpp@VERSION`` /
    ``cute-cpp@DIR``: another release's headers, fetched into the cache."""
    if name == "cute-cpp":
        return CuteCppOracle(**options)
    tree = resolve(name)
    options.pop("include_dir", None)
    return CuteCppOracle(include_dir=tree.include_dir, name=name, origin=tree.label(), **options)


IMPLEMENTATION = Implementation(
    lineage="cute-cpp",
    summary="CuTe C++: the CuTe headers of a CUTLASS release, compiled with g++",
    names=("cute-cpp",), prefixes=("cute-cpp@",),
    make=_make,
    regions=findings.REGIONS, symptoms=findings.SYMPTOMS,
    conventions=tuple(conventions.CONVENTIONS),
    runtime_integers=lambda op: True)  # a plain int is a runtime int in every op
