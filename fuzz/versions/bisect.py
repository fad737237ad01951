"""Which version changed an answer: ``layoutcheck bisect OP ARGS... --against cute-cpp@3.3..4.2``.

Over an ordered list of versions of one implementation, ``bisect_versions`` finds the first
version whose answer to one case differs from the answer of the version before it, by halving
the range: the oldest and the newest version are asked first, then the middle of the part where
the answer first changes, so that a range of n versions costs about log2(n) + 2 answers (a
compile each for CuTe C++).  Halving assumes the answer does not come back to the oldest one's
after it changed; ``every=True`` asks every version instead and reports every change.  Two
answers are the same as for a baseline (``fuzz/campaign/baseline.same_outcome``): the same kind,
the same printed value, the same refusal.  Each answer is judged against the spec (CuTe's sense)
too: agrees, disagrees, or a known finding.
"""

from __future__ import annotations

from layoutcheck.fuzz.campaign.baseline import same_outcome
from layoutcheck.fuzz.versions.matrix import answer_text
from layoutcheck.oracles import compare, get_oracle
from layoutcheck.oracles.known import CHECK, verdict
from layoutcheck.oracles.reference import PackageOracle, reference_for
from layoutcheck.oracles.versions import version_label

from layoutcheck.errors import LayoutError
from layoutcheck.findings import base_oracle

__all__ = ["bisect_versions"]


class _Asker:
    def __init__(self, names, op, args):
        self.names, self.op, self.args, self.got = names, op, args, {}
        self.reference = reference_for(base_oracle(names[0]), PackageOracle("spec")).run(op, *args)

    def __call__(self, i):
        if i not in self.got:
            oracle = get_oracle(self.names[i])
            reason = oracle.unavailable_reason()
            if reason:
                raise LayoutError(f"{self.names[i]} is unavailable: {reason}")
            self.got[i] = oracle.run_many([(self.op, self.args)])[0]
            close = getattr(oracle, "close", None)
            if callable(close):
                close()
        return self.got[i]

    def same(self, i, j):
        return same_outcome(self(i), self(j), op=self.op, args=self.args, check=CHECK,
                            names=(self.names[i], self.names[j]), reference=self.reference)

    def entry(self, i):
        out = self(i)
        c = compare(self.op, self.args, self.reference, out)
        v, fid = ("crashed", None) if out.kind == "crashed" else verdict(
            self.names[i], self.op, self.args, c, out, self.reference)
        return {"oracle": self.names[i], "version": version_label(self.names[i]), "kind": out.kind,
                "answer": answer_text(self.op, out), "verdict": v, "finding": fid}


def bisect_versions(op: str, args: tuple, names: list[str], every: bool = False) -> dict:
    """``{"op", "reference", "changes": [{"before": entry, "after": entry}], "tested": [entry],
    "versions": n}``: the first change (every change with ``every``), or none."""
    if len(names) < 2:
        raise LayoutError("bisect needs at least two versions (e.g. --against cute-cpp@3.3..4.2)")
    if len({base_oracle(n) for n in names}) != 1:
        raise LayoutError(f"bisect compares versions of one implementation, got {', '.join(names)}")
    ask = _Asker(names, op, args)
    changes = []
    if every:
        changes = [(i - 1, i) for i in range(1, len(names)) if not ask.same(i - 1, i)]
    elif not ask.same(0, len(names) - 1):
        lo, hi = 0, len(names) - 1  # the answer at lo is the oldest one's, at hi it is not
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if ask.same(0, mid):
                lo = mid
            else:
                hi = mid
        changes = [(lo, hi)]
    return {"op": op, "reference": answer_text(op, ask.reference), "versions": len(names),
            "changes": [{"before": ask.entry(a), "after": ask.entry(b)} for a, b in changes],
            "tested": [ask.entry(i) for i in sorted(ask.got)]}
