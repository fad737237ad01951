"""A campaign across versions: drawn cases on each pair of adjacent versions, every difference
shrunk and classified (``layoutcheck matrix --campaign``).

For each implementation, each pair of adjacent versions (older, newer) is fuzzed in both
directions, with the baseline of ``fuzz/campaign/baseline.py``: ``newer`` against the spec with
``older`` as its baseline finds what the newer version broke (**regression**) or answers
differently where both are wrong (**changed**), each shrunk to a minimal case; ``older`` with
``newer`` as its baseline finds, as its own regressions, what the newer version **fixed**, shrunk
the same way.  The budget is shared equally by the directions of every pair.  A pair whose
campaign cannot run (a version that cannot be fetched) is reported as an error, never as no
difference.
"""

from __future__ import annotations

import time

from layoutcheck.fuzz.campaign.runner import run_campaign

from layoutcheck.errors import LayoutError
from layoutcheck.findings import base_oracle

__all__ = ["run_across", "summary_lines", "adjacent_pairs"]


def adjacent_pairs(names: list[str]) -> list[tuple[str, str]]:
    """(older, newer) for each pair of adjacent versions of one implementation, in order."""
    by = {}
    for n in names:
        by.setdefault(base_oracle(n), []).append(n)
    return [(a, b) for group in by.values() for a, b in zip(group, group[1:])]


def _differences(report, older, newer, reverse):
    out = []
    for r in report["results"]:
        b = r.get("baseline") or {}
        if r["status"] == "fail" and b.get("verdict") in ("regression", "changed"):
            verdict = "fixed" if reverse and b["verdict"] == "regression" else b["verdict"]
            if reverse and verdict == "changed":
                continue  # found from the newer side too
            theirs = older if not reverse else newer
            out.append({"older": older, "newer": newer, "verdict": verdict, "check": r["check"],
                        "op": r["op"], "counterexample": r["counterexample"],
                        "answers": dict(r.get("answers") or {}),
                        "other": {theirs: b.get("detail")}, "finding": b.get("finding"),
                        "message": r["message"], "replay": r.get("replay")})
        elif r["status"] == "error":
            out.append({"older": older, "newer": newer, "verdict": "error", "check": r["check"],
                        "op": r["op"], "counterexample": r.get("counterexample"), "answers": r.get("answers"),
                        "other": {}, "finding": None, "message": r["message"], "replay": r.get("replay")})
    return out


def run_across(names: list[str], budget: float = 60.0, seed: int = 0, ops=None, checks=None,
               cluster=None, progress=None) -> dict:
    """``{"pairs": [{"older", "newer", "seconds", "exit_status", "baseline"...}], "differences":
    [...], "summary": {verdict: n}, "exit_status"}``: 1 when a regression or change was found,
    2 when a campaign errored (and nothing new was found), else 0."""
    pairs = adjacent_pairs(names)
    if not pairs:
        raise LayoutError(f"--campaign needs two versions of one implementation, got {', '.join(names)}")
    share = budget / (2 * len(pairs))
    out = {"budget_s": budget, "seed": seed, "pairs": [], "differences": []}
    for older, newer in pairs:
        for reverse in (False, True):
            mine, theirs = (older, newer) if reverse else (newer, older)
            t0 = time.monotonic()
            report = run_campaign(oracles=[mine], baseline=theirs, budget=share, seed=seed, ops=ops,
                                  checks=checks, use_db=False, cluster=cluster,
                                  command=f"layoutcheck fuzz --against {mine} --baseline {theirs}")
            found = _differences(report, older, newer, reverse)
            out["differences"] += found
            out["pairs"].append({"older": older, "newer": newer, "under_test": mine, "baseline": theirs,
                                 "seconds": round(time.monotonic() - t0, 1), "cases": report["summary"]["cases"],
                                 "exit_status": report["exit_status"], "counts": report.get("baseline")})
            if progress:
                progress(f"{mine} vs {theirs}: {len(found)} differences, {report['summary']['cases']} "
                         f"cases in {time.monotonic() - t0:.1f} s")
    verdicts = [d["verdict"] for d in out["differences"]]
    out["summary"] = {v: verdicts.count(v) for v in ("regression", "changed", "fixed", "error")}
    out["exit_status"] = 1 if out["summary"]["regression"] or out["summary"]["changed"] else (
        2 if out["summary"]["error"] or any(p["exit_status"] == 2 for p in out["pairs"]) else 0)
    return out


def summary_lines(result: dict) -> list[str]:
    """Every difference, then one line of counts."""
    lines = []
    for d in result["differences"]:
        lines.append(f"{d['verdict'].upper()} {d['older']} -> {d['newer']} {d['check']}: {d['message']}")
        if d["counterexample"]:
            lines.append(f"  counterexample: {' '.join(d['counterexample'])}")
        for side, ans in (d.get("answers") or {}).items():
            lines.append(f"  {side}: {ans}")
        for side, what in (d.get("other") or {}).items():
            if what:
                lines.append(f"  {side}: {what}")
        if d.get("finding"):
            lines.append(f"  the register knows it as {d['finding']}")
        if d.get("replay"):
            lines.append(f"  replay: {d['replay']}")
    s = result["summary"]
    cases = sum(p["cases"] for p in result["pairs"])
    lines.append(f"{len(result['pairs'])} campaigns over {len(result['pairs']) // 2} pairs of adjacent "
                 f"versions, {cases} cases: {s['regression']} regressions, {s['changed']} changed, "
                 f"{s['fixed']} fixed, {s['error']} errors")
    return lines
