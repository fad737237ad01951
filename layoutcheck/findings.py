"""The findings register (``findings.toml``): every disagreement found between the documents,
the spec and the implementations that is real, as data.

``load()`` reads it (a tuple of dicts, in file order); ``match_tables(finding)`` lists the
tables that recognise a finding at a gate and ``lineage(oracle)`` the name an oracle's
findings are registered under.  Recognising a failure as a finding needs the
implementations' models: ``layoutcheck.oracles.known``.
"""

from __future__ import annotations

import fnmatch
import os
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

__all__ = ["load", "match_tables", "lineage", "base_oracle", "paper_finding", "versions_data",
           "lifespans_by_finding", "REGISTER_PATH", "VERSIONS_PATH", "STATUSES"]

REGISTER_PATH = Path(__file__).with_name("findings.toml")
VERSIONS_PATH = Path(__file__).with_name("versions.toml")
STATUSES = ("confirmed-bug", "convention", "upstream-reported", "fixed", "erratum")


@lru_cache(maxsize=1)
def load() -> tuple[dict[str, Any], ...]:
    """All findings, as a tuple of dicts, in file order, with what the version matrix found
    (``versions.toml``): ``versions`` ({implementation: {"introduced_in", "fixed_in",
    "seen_on", "tested"}}), ``introduced_in`` / ``fixed_in`` (one line over the
    implementations) and ``seen_on`` (the written entries, then one per implementation)."""
    with open(REGISTER_PATH, "rb") as f:
        data = tomllib.load(f)
    findings = tuple(data.get("finding", ()))
    ids = [x["id"] for x in findings]
    if len(ids) != len(set(ids)):
        raise ValueError(f"duplicate finding ids in {REGISTER_PATH}")
    lifespans = lifespans_by_finding(versions_data())
    for f in findings:
        spans = lifespans.get(f["id"], {})
        f["versions"] = spans
        f["introduced_in"] = "; ".join(f"{k} {v['introduced_in']}" for k, v in spans.items()
                                       if v["introduced_in"]) or None
        f["fixed_in"] = f.get("fixed_in") or "; ".join(
            f"{k} {v['fixed_in']}" for k, v in spans.items() if v["fixed_in"]) or None
        f["seen_on"] = list(f.get("seen_on", ())) + [
            f"{k} {_runs(v['seen_on'], v['tested'])} ({len(v['seen_on'])} of the {len(v['tested'])} "
            f"versions {v['tested'][0]} to {v['tested'][-1]} tested)" for k, v in spans.items() if v["seen_on"]]
    return findings


def _runs(seen: Sequence[str], tested: Sequence[str]) -> str:
    """``3.9.0 to main`` (runs of consecutive tested versions, comma-separated)."""
    runs: list[list[str]] = []
    cur: list[str] = []
    for v in tested:
        if v in seen:
            cur.append(v)
        elif cur:
            runs.append(cur)
            cur = []
    runs += [cur] if cur else []
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]} to {r[-1]}" for r in runs)


def versions_data(path: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """``versions.toml`` as written by ``layoutcheck matrix --write`` ({} when absent)."""
    path = Path(path) if path else VERSIONS_PATH
    if not path.is_file():
        return {}
    with open(path, "rb") as f:
        return tomllib.load(f)


def lifespans_by_finding(data: dict[str, Any]) -> dict[str, Any]:
    """{finding id: {implementation: {"introduced_in", "fixed_in", "seen_on", "tested",
    "statuses"}}} from ``versions_data()``."""
    tested = {i["name"]: list(i["versions"]) for i in data.get("implementation", ())}
    out: dict[str, Any] = {}
    for f in data.get("finding", ()):
        versions = tested.get(f["implementation"], [])
        seen = [v for v, s in zip(versions, f["statuses"]) if s == "P"]
        out.setdefault(f["id"], {})[f["implementation"]] = {
            "introduced_in": f.get("introduced_in") or None, "fixed_in": f.get("fixed_in") or None,
            "seen_on": seen, "tested": versions, "statuses": f["statuses"]}
    return out


def match_tables(finding: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A finding's ``match`` as a list of tables: one table, or an array of them when the
    same finding shows under several oracles or checks (any one table recognises it)."""
    m = finding.get("match")
    return [] if not m else (list(m) if isinstance(m, list) else [m])


def base_oracle(oracle: object) -> str:
    """The unversioned oracle a name belongs to: ``cute-cpp@3.8``, ``pycute@3.5.1``,
    ``cute-dsl@4.4.0`` and ``cute-cpp@DIR`` -> ``cute-cpp``, ``pycute``, ``cute-dsl``; every
    other name is itself (``module:NAME@LINEAGE`` and ``nvlabs:PATH`` included)."""
    oracle = str(oracle)
    if oracle.startswith(("module:", "nvlabs:")) or "@" not in oracle:
        return oracle
    return oracle.split("@", 1)[0]


def lineage(oracle: object) -> str | None:
    """The name findings are registered under: ``module:NAME@LINEAGE`` -> LINEAGE (a patched
    copy of an implementation inherits its findings); a plain ``module:NAME`` has none
    (nothing matches by a substring of a name); another version of an implementation
    (``cute-cpp@3.8``) is that implementation's; any other oracle is its own lineage."""
    oracle = str(oracle)
    if oracle.startswith("module:"):
        return oracle.rsplit("@", 1)[1] if "@" in oracle else None
    if oracle.startswith("nvlabs:"):  # another copy of NVlabs PyCuTe (nvlabs:PATH)
        return "nvlabs"
    return base_oracle(oracle)


def paper_finding(check: str, op: str = "examples") -> str | None:
    """The id of the finding about a printed statement of the paper (a table with ``oracles =
    ["paper"]``) whose ``op`` and ``check`` patterns match, or None: paper findings judge no
    implementation's answer, so the register's data alone recognises them."""
    for f in load():
        for m in match_tables(f):
            if m.get("oracles") == ["paper"] and fnmatch.fnmatchcase(op, m.get("op", "*")) \
                    and fnmatch.fnmatchcase(check, m.get("check", "*")):
                return f["id"]
    return None
