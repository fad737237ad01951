"""The CuTe DSL as the register and the campaign see it."""

from layoutcheck.oracles.dsl import conventions, findings
from layoutcheck.oracles.dsl.oracle import CuteDslOracle, takes_runtime_integers
from layoutcheck.oracles.protocol import Implementation

__all__ = ["IMPLEMENTATION"]

IMPLEMENTATION = Implementation(
    lineage="cute-dsl",
    summary="the CuTe DSL (nvidia-cutlass-dsl), its layout algebra inside @cute.jit",
    names=("cute-dsl",),
    make=lambda name, **options: CuteDslOracle(**options),
    regions=findings.REGIONS, symptoms=findings.SYMPTOMS,
    conventions=tuple(conventions.CONVENTIONS),
    runtime_integers=takes_runtime_integers)  # the runtime path's ops (oracles/dsl/oracle.py)
