"""The checks the fuzzer runs, in one catalogue: differential checks (an oracle against the spec)
and algebraic laws (an oracle alone), by concept.

A check (``base.Check``) has a name (``diff.<op>`` or ``law.<op>.<law>``), the operation it
exercises, a hypothesis strategy of argument tuples, and ``run(ctx, args)``, which returns
when the case is fine and raises ``CheckFailed`` (with both answers) when it is not;
``ctx.oracle`` is the oracle under test and ``ctx.spec`` its reference
(``oracles.reference.reference_for``).  The concepts: ``algebra`` (coalesce, complement,
composition, divides, products, inverses), ``coordinates`` (coordinates, slices, IntTuples,
profiles, ``_`` tilers), ``swizzle`` (swizzles, F2 layouts, composed layouts, bank
conflicts), ``recast`` (recast and vectorization) and ``tiling`` (tiling helpers, partitions,
TiledCopy).
"""

from layoutcheck.fuzz.checks.algebra import ALGEBRA_CHECKS
from layoutcheck.fuzz.checks.base import Check
from layoutcheck.fuzz.checks.coordinates import COORDINATE_CHECKS
from layoutcheck.fuzz.checks.recast import RECAST_CHECKS
from layoutcheck.fuzz.checks.swizzle import SWIZZLE_CHECKS
from layoutcheck.fuzz.checks.tiling import TILING_CHECKS

__all__ = ["CHECKS", "BY_NAME", "checks_for", "CONCEPTS"]

CHECKS: list[Check] = ALGEBRA_CHECKS + COORDINATE_CHECKS + SWIZZLE_CHECKS + RECAST_CHECKS + TILING_CHECKS
BY_NAME = {c.name: c for c in CHECKS}
# concept -> its checks (the mutation tables use them to aim at a mutant's concept)
CONCEPTS = {"algebra": ALGEBRA_CHECKS, "coordinates": COORDINATE_CHECKS, "swizzle": SWIZZLE_CHECKS,
            "recast": RECAST_CHECKS, "tiling": TILING_CHECKS}


def checks_for(ops=None, kinds=None, names=None):
    """The checks selected by op names, kinds ("differential", "law") and/or check names."""
    out = []
    for c in CHECKS:
        if ops and c.op not in ops:
            continue
        if kinds and c.kind not in kinds:
            continue
        if names and c.name not in names:
            continue
        out.append(c)
    return out
