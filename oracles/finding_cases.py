"""The cases of a registered finding, per implementation: what the version matrix runs on every
release and ``layoutcheck report`` reproduces.

A finding's ``repro`` entries name their oracle; without one for an implementation, the calls
of its ``case`` text (``composition((4,2):(1,8), 5:1); complement(4:0, 8)``: calls separated by
``; ``, each ``op(arg, ...)`` in CuTe notation) are its cases, for every implementation its
match tables name.  CuTe's overloaded names pick the operation from the arguments
(``slice_and_offset`` of a swizzled layout is ``composed_slice_and_offset``).  Prose cases give
none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from layoutcheck.oracles.protocol import OPS, operation_for, parse_args

from layoutcheck.errors import LayoutError
from layoutcheck.findings import match_tables

__all__ = ["FindingCase", "finding_cases", "lineages_of", "split_top", "IMPLEMENTATION_LINEAGES"]

IMPLEMENTATION_LINEAGES = ("cute-cpp", "pycute", "cute-dsl", "nvlabs")
_CALL = re.compile(r"([a-z_][a-z_0-9]*)\((.*)\)", re.S)


@dataclass(frozen=True)
class FindingCase:
    """One case of a finding on one implementation: the operation and its argument texts."""
    finding: str
    lineage: str
    op: str
    texts: tuple

    def args(self):
        """The arguments in the neutral form (``parse_args``)."""
        return parse_args(self.op, self.texts)

    def text(self) -> str:
        return f"{self.op}({', '.join(self.texts)})"


def split_top(text: str, sep: str) -> list[str]:
    """``text`` split at ``sep`` outside brackets (blank parts dropped)."""
    out, depth, cur, i = [], 0, [], 0
    while i < len(text):
        c = text[i]
        depth += c in "([{<"
        depth -= c in ")]}>" and not (c == ">" and i and text[i - 1] == "-")
        if depth == 0 and text.startswith(sep, i):
            out.append("".join(cur))
            cur, i = [], i + len(sep)
            continue
        cur.append(c)
        i += 1
    out.append("".join(cur))
    return [x.strip() for x in out if x.strip()]


def lineages_of(finding: dict) -> list[str]:
    """The implementations a finding's match tables name, in IMPLEMENTATION_LINEAGES order."""
    named = {o for m in match_tables(finding) for o in m.get("oracles", ())}
    return [x for x in IMPLEMENTATION_LINEAGES if x in named]


def _parsed(finding, lineage, name, texts):
    texts = tuple(str(t) for t in texts)
    try:
        op = operation_for(name, texts)
        if op not in OPS:
            return None
        parse_args(op, texts)
    except (LayoutError, ValueError, KeyError, TypeError):
        return None
    return FindingCase(finding["id"], lineage, op, texts)


def finding_cases(finding: dict, lineage: str, limit: int | None = None) -> list[FindingCase]:
    """The cases of ``finding`` on ``lineage`` (its repro entries for it, else its case text's
    calls), at most ``limit``."""
    rep = finding.get("repro")
    reps = rep if isinstance(rep, list) else ([rep] if rep else [])
    out = [c for c in (_parsed(finding, lineage, r["op"], r["args"]) for r in reps
                       if r.get("oracle") == lineage) if c is not None]
    if not out and lineage in lineages_of(finding):
        for part in split_top(str(finding.get("case", "")), ";"):
            m = _CALL.fullmatch(part.strip())
            if m:
                got = _parsed(finding, lineage, m.group(1), split_top(m.group(2), ","))
                if got is not None:
                    out.append(got)
    return out[:limit] if limit else out
