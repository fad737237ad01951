"""The predicates that recognise CuTe C++'s registered findings (``oracles/predicates.py``),
by concept: the algebra, coordinates and IntTuples, composed layouts, swizzles, recast and
tiling helpers.  The CuTe DSL runs the same algebra and shares many of them."""

from layoutcheck.oracles.cpp.findings import algebra, composed, coordinates, recast, swizzle
from layoutcheck.oracles.predicates import collect

REGIONS, SYMPTOMS = collect(algebra, composed, coordinates, recast, swizzle)
