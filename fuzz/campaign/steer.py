"""Steering a pair away from the regions of known findings it has already hit.

Once a (check, oracle) pair has re-hit a known finding, every further case drawn inside that
finding's *region* (``layoutcheck.findings.find_region``: the finding's ``when`` predicate,
not its answer) is skipped, except a deterministic sample of ``RATE`` of them (chosen by a
hash of the case, so ``--seed`` with ``--max-examples`` still repeats exactly): the region is
still sampled, so a *changed* answer there (a new bug, or the known one fixed) is still seen.
The cases skipped are counted (``region_skipped``); the sampled ones are cases spent on known
ground (``known_region_cases`` in the report).
"""

import zlib

from layoutcheck.oracles.known import find_region
from layoutcheck.oracles.reference import case_key

__all__ = ["Steering", "RATE", "SKIP"]

RATE = 0.08
SKIP = object()  # the mark of a drawn case steered away from a known region


class Steering:
    def __init__(self, oracle_name, check, rate=RATE):
        self.oracle, self.check, self.rate = oracle_name, check, rate
        self.names = [check.name] + (["agreement"] if check.kind == "differential" else [])
        self.hit = []          # finding ids this pair has re-hit, in order
        self.skipped = 0       # drawn inside a hit region and not run

    @property
    def active(self):
        return bool(self.hit)

    def note(self, finding_id):
        if finding_id and finding_id not in self.hit:
            self.hit.append(finding_id)

    def region(self, args):
        """The id of a hit finding whose region covers ``args``, or None."""
        for name in self.names:
            try:
                rid = find_region(self.oracle, self.check.op, name, args)
            except Exception:  # noqa: BLE001 - a predicate that cannot judge these inputs
                rid = None
            if rid in self.hit:
                return rid
        return None

    def keep(self, args):
        """True for the deterministic RATE sample of the region's cases."""
        h = zlib.crc32(repr((self.check.name, case_key(args))).encode())
        return (h % 10000) < self.rate * 10000
