"""The CuTe DSL as the register and the campaign see it."""

from layoutcheck.oracles.dsl import conventions, findings
from layoutcheck.oracles.dsl.oracle import CuteDslOracle, takes_runtime_integers
from layoutcheck.oracles.fetch import resolve
from layoutcheck.oracles.protocol import Implementation

__all__ = ["IMPLEMENTATION"]


def _make(name, **options):
    """``cute-dsl`` (the environment's) or ``cute-dsl@VERSION``: another release, installed into
    a folder of the cache and run isolated in its own worker process."""
    if name == "cute-dsl":
        return CuteDslOracle(**options)
    return CuteDslOracle(name=name, target=resolve(name), **options)


IMPLEMENTATION = Implementation(
    lineage="cute-dsl",
    summary="the CuTe DSL (nvidia-cutlass-dsl), its layout algebra inside @cute.jit",
    names=("cute-dsl",), prefixes=("cute-dsl@",),
    make=_make,
    regions=findings.REGIONS, symptoms=findings.SYMPTOMS,
    conventions=tuple(conventions.CONVENTIONS),
    runtime_integers=takes_runtime_integers)  # the runtime path's ops (oracles/dsl/oracle.py)
