"""pycute as the register and the campaign see it."""

from layoutcheck.oracles.fetch import resolve
from layoutcheck.oracles.module.oracle import isolated_module
from layoutcheck.oracles.protocol import Implementation
from layoutcheck.oracles.pycute_wheel import conventions, findings

__all__ = ["IMPLEMENTATION"]


def _make(name, **options):
    """``pycute`` (the environment's) or ``pycute@VERSION`` / ``pycute@DIR``: another release's
    pycute, fetched into the cache and imported from there by the worker alone."""
    if name == "pycute":
        return isolated_module("pycute", name="pycute", **options)
    tree = resolve(name)
    return isolated_module("pycute", name=name, first=tree.pycute_path, label=tree.label(), **options)


IMPLEMENTATION = Implementation(
    lineage="pycute",
    summary="pycute, the Python CuTe of the nvidia-cutlass wheel",
    names=("pycute",), prefixes=("pycute@",),
    make=_make,
    regions=findings.REGIONS, symptoms=findings.SYMPTOMS,
    conventions=tuple(conventions.CONVENTIONS))
