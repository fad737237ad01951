"""pycute as the register and the campaign see it."""

from layoutcheck.oracles.module.oracle import isolated_module
from layoutcheck.oracles.protocol import Implementation
from layoutcheck.oracles.pycute import conventions, findings

__all__ = ["IMPLEMENTATION"]

IMPLEMENTATION = Implementation(
    lineage="pycute",
    summary="pycute, the Python CuTe of the nvidia-cutlass wheel",
    names=("pycute",),
    make=lambda name, **options: isolated_module("pycute", name="pycute", **options),
    regions=findings.REGIONS, symptoms=findings.SYMPTOMS,
    conventions=tuple(conventions.CONVENTIONS))
