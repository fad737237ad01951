"""The predicates that recognise the CuTe DSL's registered findings (``oracles/predicates.py``),
by concept; the ones it shares with CuTe C++ live in ``oracles/cpp/findings``."""

from layoutcheck.oracles.dsl.findings import algebra, composed, coordinates, recast, runtime
from layoutcheck.oracles.predicates import collect

REGIONS, SYMPTOMS = collect(algebra, composed, coordinates, recast, runtime)
