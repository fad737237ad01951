"""CuTe C++ as the register and the campaign see it."""

from layoutcheck.oracles.cpp import conventions, findings
from layoutcheck.oracles.cpp.oracle import CuteCppOracle
from layoutcheck.oracles.protocol import Implementation

__all__ = ["IMPLEMENTATION"]

IMPLEMENTATION = Implementation(
    lineage="cute-cpp",
    summary="CuTe C++: the CuTe headers of a CUTLASS release, compiled with g++",
    names=("cute-cpp",),
    make=lambda name, **options: CuteCppOracle(**options),
    regions=findings.REGIONS, symptoms=findings.SYMPTOMS,
    conventions=tuple(conventions.CONVENTIONS),
    runtime_integers=lambda op: True)  # a plain int is a runtime int in every op
