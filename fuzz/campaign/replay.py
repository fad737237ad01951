"""Re-running explicit cases: ``layoutcheck fuzz --case CHECK ARG...`` and ``--replay FILE``
(the counterexamples of a saved report), optionally against other oracles and a baseline.
Each case is one ``run_check`` with no new draw; the report has run_campaign's schema."""

from __future__ import annotations

import os
import time
from typing import Any, Iterable, Sequence

from layoutcheck.fuzz.campaign.report import baseline_summary, exit_status, result_row, summary
from layoutcheck.fuzz.campaign.runner import run_check
from layoutcheck.fuzz.campaign.startup import oracles_for, skip_reason
from layoutcheck.fuzz.checks.catalogue import BY_NAME
from layoutcheck.fuzz.checks.targets import decode, encode

from layoutcheck.errors import LayoutError
from layoutcheck.files import read_json

__all__ = ["replay_cases", "replay_report"]


def replay_cases(cases: Sequence[tuple[str, str, Sequence[str]]], oracles: Iterable[str] | None,
                 command: str | None = None, baseline: str | None = None,
                 findings: bool = True) -> dict[str, Any]:
    """Re-run explicit cases [(check name, oracle name, inputs)]; a report like run_campaign's
    (``baseline``: compared with that oracle, as in run_campaign; ``findings=False``: the
    register off)."""
    t0 = time.monotonic()
    names = list(dict.fromkeys(o for _, o, _ in cases))
    objs, reasons = oracles_for(names, baseline)
    results = []
    for check_name, oname, inputs in cases:
        check = BY_NAME.get(check_name)
        if check is None:
            raise LayoutError(f"unknown check {check_name!r}; known: {', '.join(BY_NAME)}")
        reason = skip_reason(check, objs[oname], objs["spec"], reasons)
        if reason:
            results.append(result_row(check, oname, "skipped", message=reason))
            continue
        args = decode(inputs)
        results.append(run_check(check, objs[oname], objs["spec"], max_examples=0,
                                 replays=[encode(args)], baseline=objs.get(baseline),
                                 findings=findings))
    report = {"command": command or "replay", "seed": None, "budget_s": None,
              "max_examples": None, "jobs": 1, "oracles": {n: reasons[n] for n in names},
              "results": results, "summary": summary(results, time.monotonic() - t0)}
    if baseline is not None:
        report["baseline"] = baseline_summary(baseline, objs[baseline], results)
    report["exit_status"] = exit_status(report)
    return report


def replay_report(path: str | os.PathLike[str], oracles: Sequence[str] | None = None,
                  command: str | None = None, baseline: str | None = None,
                  findings: bool = True) -> dict[str, Any]:
    """``--replay FILE``: rerun the counterexamples of a saved report (optionally against
    other oracles)."""
    old = read_json(path, "report")  # bounded: at most 16 MiB, one line per problem
    results = old.get("results") if isinstance(old, dict) else None
    if not isinstance(results, list):
        raise LayoutError(f"report {path} is not a layoutcheck fuzz report (no \"results\" list)")
    rows = []
    for k, r in enumerate(results):
        ce = r.get("counterexample") if isinstance(r, dict) else None
        if not ce:
            continue
        if not (isinstance(r.get("check"), str) and isinstance(r.get("oracle"), str)
                and isinstance(ce, list) and all(isinstance(x, str) for x in ce)):
            raise LayoutError(f"report {path}: results[{k}] needs a check and an oracle name and a "
                              "counterexample list of CuTe strings")
        rows.append(r)
    cases = [(r["check"], o, r["counterexample"]) for r in rows
             for o in (oracles or [r["oracle"]])]
    if not cases:
        raise LayoutError(f"report {path} holds no counterexample to replay")
    return replay_cases(cases, oracles, command, baseline, findings)
