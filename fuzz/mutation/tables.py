"""What the mutation tables of NVIDIA's new PyCuTe (``nvlabs.py``) and CuTe C++ (``cpp.py``)
share: the one-place patch, the gate run in a subprocess, the reading of its report, and the
markdown table with the mutants the gate cannot observe listed apart.

A mutant is a tuple ``(id, file, old text, new text, operation, the bug in words)``: ``old``
must occur exactly once in ``file`` (relative to the copied tree), and is replaced by ``new``.
A mutant is *caught* when the gate exits 1 on a new failure whose case the unpatched copy does
not fail (``attributable``); an exit 1 with no new failure (a known region whose answer was not
checked) is no catch.  The time to catch is the campaign's time to its first new failure.
"""

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from layoutcheck.errors import LayoutError

__all__ = ["patch", "GateRun", "run_gate", "first_new", "row", "table", "rate"]


def patch(path: Path, old: str, new: str, mid: str) -> None:
    """Replace the one occurrence of ``old`` in ``path`` by ``new``."""
    text = Path(path).read_text()
    count = text.count(old)
    if count != 1:
        raise LayoutError(f"mutant {mid}: the patched text occurs {count} times in {path}")
    Path(path).write_text(text.replace(old, new))


@dataclass
class GateRun:
    """One ``layoutcheck fuzz`` run in a subprocess: its exit status, report and wall time."""
    command: list
    exit: int
    report: dict | None
    wall_s: float
    stderr: str


def run_gate(args: list, report: Path, env: dict, cwd: Path) -> GateRun:
    """``python -m layoutcheck fuzz ARGS --report REPORT`` with ``env``."""
    cmd = [sys.executable, "-m", "layoutcheck", "fuzz", *args, "--report", str(report)]
    t0 = time.monotonic()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=cwd)
    wall = time.monotonic() - t0
    try:
        rep = json.loads(Path(report).read_text())
    except (OSError, ValueError):
        rep = None
    return GateRun(cmd, proc.returncode, rep, wall, proc.stderr)


def first_new(report: dict | None) -> dict | None:
    """The report's first new failure (a row), or None."""
    return next((r for r in (report or {}).get("results", [])
                 if r["status"] in ("fail", "error") and not r["known_finding"]), None)


def row(mutant, run: GateRun, attributable: bool) -> dict:
    """A table row of one mutant's run (``attributable``: its first new failure is its own)."""
    first = first_new(run.report)
    summary = (run.report or {}).get("summary", {})
    results = (run.report or {}).get("results", [])
    # a pair reached judged a case (or failed on one); with --fail-fast the pairs after the
    # first new failure are not run, so a caught mutant's run reaches fewer
    reached = sum(1 for r in results if r.get("cases") or r["status"] in ("fail", "error"))
    # exit 1 with no new failure is a known region whose answer was not checked: no catch
    return {"id": mutant[0], "op": mutant[4], "bug": mutant[5], "exit": run.exit,
            "caught": run.exit == 1 and first is not None and attributable,
            "baseline_fails": bool(first) and not attributable,
            "wall_s": round(run.wall_s, 1), "catch_s": summary.get("first_failure_s"),
            "cases": summary.get("cases"), "not_reached": summary.get("not_reached"),
            "reached": f"{reached}/{len(results)}" if results else None,
            "check": first["check"] if first else None,
            "case": " ".join(first["counterexample"] or [])
            if first and first.get("counterexample") else None,
            "stderr": run.stderr.strip().splitlines()[-1:] if run.exit == 2 else []}


def rate(rows: list, apart: dict) -> tuple:
    """(caught, observable): the mutants listed apart (not observable by design) and the
    unpatched copy (id ending in 00) are not counted."""
    counted = [r for r in rows if not r["id"].endswith("00") and r["id"] not in apart]
    return sum(bool(r["caught"]) for r in counted), len(counted)


def table(rows: list, apart: dict, reach: bool = False) -> str:
    """The markdown table, its catch rate, and the mutants listed apart with the reason;
    ``reach``: also the cases each run judged, the pairs it reached (judged a case) of all,
    and those its budget did not reach."""
    out = ["| mutant | operation | injected bug | caught | time to catch (s) | check | counterexample |"
           + (" cases | pairs reached | pairs not reached |" if reach else ""),
           "|---|---|---|---|---|---|---|" + ("---|---|---|" if reach else "")]
    for r in rows:
        caught = "yes" if r["caught"] else ("error" if r.get("exit") == 2 else
                                            "no (case fails on the unpatched copy too)"
                                            if r.get("baseline_fails") else "no")
        if r["id"] in apart:
            caught += " (not observable)"
        bug = r["bug"].replace("|", "\\|")
        case = f"`{r['case']}`" if r.get("case") else "-"
        out.append(f"| {r['id']} | {r['op']} | {bug} | {caught} | "
                   f"{r['catch_s'] if r.get('catch_s') is not None else '-'} | "
                   f"{r.get('check') or '-'} | {case} |"
                   + (f" {r.get('cases', '-')} | {r.get('reached') or '-'} | {r.get('not_reached', '-')} |"
                      if reach else ""))
    n, total = rate(rows, apart)
    out += ["", f"caught {n}/{total} observable mutants ({100 * n / max(1, total):.0f}%)"]
    shown = [r["id"] for r in rows if r["id"] in apart]
    if shown:
        out += ["", "Not observable by the gate, by design (not counted):", ""]
        out += [f"- {mid}: {apart[mid]}" for mid in shown]
    return "\n".join(out)
