"""The oracles of a campaign: started (each unavailable one with its reason), the baseline
beside them, a trivial call to every worker before the pairs run, and why a pair cannot run."""

from __future__ import annotations

from typing import Any, Iterable

from layoutcheck.fuzz.campaign.batched import BATCHED
from layoutcheck.oracles import get_oracle

from layoutcheck.errors import LayoutError
from layoutcheck.findings import base_oracle
from layoutcheck.layout import LayoutBase

__all__ = ["skip_reason", "start_oracles", "oracles_for", "warm_up"]


def skip_reason(check: Any, oracle: Any, spec: Any, reasons: dict[str, str]) -> str | None:
    """Why the pair (check, oracle) cannot run (an oracle or the spec unavailable, the spec
    against itself), or None."""
    if reasons.get(oracle.name) != "available":
        return f"oracle unavailable: {reasons[oracle.name]}"
    if check.kind == "differential":
        if oracle.name == "spec":
            return "the spec against itself"
        if reasons.get("spec") != "available":
            return f"spec unavailable: {reasons['spec']}"
    return None


def start_oracles(names: Iterable[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """{name: Oracle}, {name: "available" | reason}; unknown names raise LayoutError."""
    objs, reasons = {}, {}
    for name in names:
        o = get_oracle(name)
        objs[name] = o
        reason = o.unavailable_reason()
        reasons[name] = "available" if reason is None else reason
    return objs, reasons


def oracles_for(names: list[str], baseline: str | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """The oracles of a run (``start_oracles``) with the spec and the baseline; a baseline that is
    also under test, or cannot run, is an error (LayoutError)."""
    if baseline is not None and baseline in names:
        raise LayoutError(f"--baseline {baseline} is also an oracle under test (--against)")
    objs, reasons = start_oracles(names + (["spec"] if "spec" not in names else [])
                             + ([baseline] if baseline else []))
    if baseline is not None and reasons[baseline] != "available":
        raise LayoutError(f"the baseline {baseline} is unavailable: {reasons[baseline]}")
    return objs, reasons


def warm_up(objs: dict[str, Any], names: Iterable[str], reasons: dict[str, str]) -> None:
    """One trivial call per available worker oracle before the pairs run (inside the budget):
    a worker's start-up is not charged to the first pair's rate, which would starve that
    pair in the adaptive rounds.  Batched oracles (a compile per batch) are left alone; the
    answer is ignored (a crash here shows again on the first real case)."""

    for name in names:
        if reasons.get(name) == "available" and name not in ("spec", "impl") \
                and base_oracle(name) not in BATCHED:
            try:
                objs[name].run_many([("size", (LayoutBase(1, 0),))])
            except Exception:  # noqa: BLE001 - only a warm-up
                pass
