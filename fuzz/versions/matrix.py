"""The version matrix: every registered finding's cases on every version of its implementation.

``run_matrix(names)`` takes oracle names (``cute-cpp@3.3.0.0``, ..., ``cute-dsl@4.8.1``; ranges
expanded by the caller) and runs, on each, the cases of every finding registered for its
implementation (``oracles/finding_cases.py``), one batch per version (``run_version``: a unit a
Dask worker can run).  Each case on each version is one of ``STATUSES``:

- ``present``: the version's answer is the one the finding describes (the register's symptom
  recognises it; a finding whose symptom is the process dying is present when it dies);
- ``different``: the version disagrees with the spec on that case with another answer;
- ``absent``: the version agrees with the spec, a compile-time refusal included where the spec
  refuses too;
- ``cannot tell``: the version could not answer (unsupported, a toolchain or harness failure, a
  crash that is not the finding's).

The answer is judged against the spec in CuTe's sense (as the gate judges CuTe's
implementations); a finding that is a convention of CuTe (its symptom: agreeing with CuTe's
sense) shows in the paper's sense, so a case that agrees in CuTe's sense is judged there too.

A case that one version refuses as the finding says and another refuses with another message
(the spec accepting it) is present on both: the refusal's text changed, not the bug.  A finding
is present on a version when one of its cases is, else different when one is, else absent when
one is, else cannot tell; a finding present on no version is not *shown* by its registered cases
on that implementation (they show another finding there, or none).  ``lifespan(statuses)`` reads the releases it was
introduced and fixed in from one row (oldest first).
"""

from __future__ import annotations

import os
import re
import sys
import time

from layoutcheck.fuzz.campaign.cluster import engine_for, parse_cluster
from layoutcheck.oracles import compare, get_oracle
from layoutcheck.oracles.finding_cases import finding_cases, lineages_of
from layoutcheck.oracles.known import CHECK, explain, verdict
from layoutcheck.oracles.protocol import Outcome, format_value
from layoutcheck.oracles.reference import PackageOracle, reference_for
from layoutcheck.oracles.versions import version_label

from layoutcheck.findings import base_oracle, load

__all__ = ["STATUSES", "LETTER", "run_version", "run_matrix", "version_unit", "assemble", "classify",
           "finding_status", "lifespan", "cases_for", "answer_text"]

STATUSES = ("present", "different", "absent", "cannot tell")
# a refusal that says the function does not exist in this version (the DSL before it had it)
_MISSING = re.compile(r"AttributeError: module '[\w.]+' has no attribute")
LETTER = {"present": "P", "different": "D", "absent": "A", "cannot tell": "?"}


def cases_for(lineage: str, findings: list[str] | None = None) -> list:
    """Every case of every finding registered for ``lineage`` (or of ``findings`` only)."""
    out = []
    for f in load():
        if (findings is None or f["id"] in findings) and lineage in lineages_of(f):
            out += finding_cases(f, lineage)
    return out


def answer_text(op: str, out: Outcome) -> str:
    """An answer as one line: the value in CuTe notation, or ``KIND: message``."""
    if out.kind == "ok":
        try:
            return format_value(op, out.value)
        except Exception:  # noqa: BLE001 - a value the codec cannot print
            return repr(out.value)[:300]
    return f"{out.kind}: {(out.message or '').strip()}"[:300]


def classify(finding: str, oracle: str, op: str, args: tuple, out: Outcome,
             references: tuple) -> tuple[str, str]:
    """(status, detail) of one answer of one version to one case of ``finding``;
    ``references`` = (CuTe-sense reference, paper-sense reference) oracles."""
    cute, paper = references
    hit = explain(oracle, op, CHECK, args, out, cute.run(op, *args))
    if out.kind == "crashed":
        if hit is not None and hit[0]["id"] == finding:
            return "present", "the process dies, as the finding says"
        return "cannot tell", f"no answer: {out.message}"
    if out.kind == "unsupported":
        return "cannot tell", f"unsupported: {out.message}"
    if out.kind == "raised" and _MISSING.search(out.message or ""):
        return "cannot tell", f"this version lacks it: {out.message}"
    expected = cute.run(op, *args)
    if expected.kind in ("crashed", "unsupported"):
        return "cannot tell", f"no reference: {expected.message}"
    c = compare(op, args, expected, out)
    v, fid = verdict(oracle, op, args, c, out, expected)
    if v == "known" and fid == finding:
        return "present", ""
    if v == "no verdict":
        return "cannot tell", f"no verdict ({c.level})"
    if v != "agree":
        return "different", f"known as {fid}" if fid else (c.detail or "disagrees with the spec")
    expected = paper.run(op, *args)  # a convention of CuTe shows in the paper's sense only
    c = compare(op, args, expected, out)
    if verdict(oracle, op, args, c, out, expected) == ("known", finding):
        return "present", "in the paper's sense (a convention of CuTe)"
    return "absent", "agrees with the spec" + (" (both refuse)" if out.kind == "raised" else "")


def _references(oracle):
    spec = PackageOracle("spec")
    return reference_for(oracle, spec), PackageOracle("spec")


def run_version(name: str, findings: list[str] | None = None) -> dict:
    """Every finding's cases on one version (``name``: an oracle name): ``{"oracle",
    "lineage", "loaded", "seconds", "rows": [{"finding", "case", "status", "answer",
    "detail"}]}``.  Nothing raises: a version that cannot run gives ``cannot tell`` rows."""
    t0 = time.monotonic()
    lineage = base_oracle(name)
    cases = cases_for(lineage, findings)
    out = {"oracle": name, "lineage": lineage, "label": _label(name), "loaded": None, "rows": []}
    try:
        oracle = get_oracle(name)
        reason = oracle.unavailable_reason()
    except Exception as e:  # noqa: BLE001 - a version that cannot be fetched or started
        oracle, reason = None, f"{type(e).__name__}: {e}"
    if reason:
        out["rows"] = [_row(c, "cannot tell", "", f"{name} is unavailable: {reason}") for c in cases]
        out["seconds"] = round(time.monotonic() - t0, 2)
        return out
    describe = getattr(oracle, "describe", None)
    answers = _answers(oracle, [(c.op, c.args()) for c in cases])
    refs = _references(name)
    for c, got in zip(cases, answers):
        if isinstance(got, Exception):
            out["rows"].append(_row(c, "cannot tell", "", f"harness: {type(got).__name__}: {got}"[:300]))
            continue
        status, detail = classify(c.finding, name, c.op, c.args(), got, refs)
        out["rows"].append(_row(c, status, answer_text(c.op, got), detail))
    try:
        out["loaded"] = describe() if callable(describe) else None
    except Exception:  # noqa: BLE001 - a description is optional
        pass
    close = getattr(oracle, "close", None)
    if callable(close):
        close()
    out["seconds"] = round(time.monotonic() - t0, 2)
    return out


def _answers(oracle, calls):
    """One batch; where the batch fails (a harness error), each case alone, so that the case to
    blame is known: an Outcome, or the exception, per call."""
    try:
        return list(oracle.run_many(calls))
    except Exception:  # noqa: BLE001 - isolate the case that breaks it
        pass
    got = []
    for call in calls:
        try:
            got.append(oracle.run_many([call])[0])
        except Exception as e:  # noqa: BLE001 - this case cannot be answered here
            got.append(e)
    return got


def _row(case, status, answer, detail):
    return {"finding": case.finding, "case": case.text(), "status": status, "answer": answer,
            "detail": detail}


def finding_status(statuses: list[str]) -> str:
    """A finding's status on one version from its cases': present if one is, else different,
    else absent, else cannot tell."""
    for s in STATUSES:
        if s in statuses:
            return s
    return "cannot tell"


def lifespan(row: list[tuple[str, str]]) -> dict:
    """From [(version, status)] oldest first: ``introduced_in`` (the first version of the run
    of ``present`` that reaches the newest version, or of the newest such run when it was
    fixed; ``<= V`` when it starts at the oldest version tested or after one that cannot tell),
    ``fixed_in`` (the first version after the last present one where it is absent), and
    ``seen_on`` (the versions where it is present)."""
    seen = [v for v, s in row if s == "present"]
    out = {"introduced_in": None, "fixed_in": None, "seen_on": seen}
    if not seen:
        return out
    last = max(i for i, (_, s) in enumerate(row) if s == "present")
    first = last
    while first > 0 and row[first - 1][1] == "present":
        first -= 1
    before = row[first - 1][1] if first > 0 else None
    out["introduced_in"] = row[first][0] if before in ("absent", "different") else f"<= {row[first][0]}"
    after = [v for v, s in row[last + 1:] if s == "absent"]
    if after and all(s in ("absent", "cannot tell") for _, s in row[last + 1:]):
        out["fixed_in"] = after[0]
    return out


def version_unit(kw: dict) -> dict:
    """One version as a cluster unit (``fuzz/campaign/cluster.py``: ``execute`` calls it with the
    unit's ``kw``)."""
    return {"rows": [run_version(kw["name"], kw.get("findings"))]}


def run_matrix(names: list[str], findings: list[str] | None = None, cluster: str | None = None,
               progress=None) -> dict:
    """The matrix of ``names`` (oracle versions, oldest first within each implementation; see
    ``assemble``), one version after the other, or one version per unit on the Dask cluster of
    ``cluster`` (``local:N``, ``tcp://HOST:PORT``, ``processes:N``; a unit that is lost gives
    ``cannot tell`` rows).  ``progress(result)`` is called as each version ends."""
    names = list(names)
    if not cluster:
        results = []
        for n in names:
            results.append(run_version(n, findings))
            if progress:
                progress(results[-1])
        return assemble(results)
    units = [{"index": i, "kw": {"name": n, "findings": findings},
              "path": [p for p in sys.path if p],
              "env": {k: v for k, v in os.environ.items() if k.startswith("LAYOUTCHECK_")}}
             for i, n in enumerate(names)]
    got = {}

    def done(unit, outcome):
        kind, value = outcome
        name = unit["kw"]["name"]
        if kind == "ok":
            got[unit["index"]] = value["rows"][0]
        else:
            got[unit["index"]] = _lost(name, findings, value)
        if progress:
            progress(got[unit["index"]])

    with engine_for(parse_cluster(cluster)) as engine:
        engine.run(units, version_unit, done)
    return assemble([got.get(i) or _lost(n, findings, "no result") for i, n in enumerate(names)])


def _lost(name, findings, why):
    lineage = base_oracle(name)
    return {"oracle": name, "lineage": lineage, "label": _label(name), "loaded": None, "seconds": None,
            "rows": [_row(c, "cannot tell", "", f"the unit was lost: {why}") for c in cases_for(lineage, findings)]}


def _label(name):
    try:
        return version_label(name)
    except Exception:  # noqa: BLE001 - a name that does not resolve is shown as written
        return name


def assemble(results: list[dict]) -> dict:
    """The matrix dict of ``run_matrix`` from ``run_version`` results, in version order."""
    out = {"versions": {}, "labels": {}, "loaded": {}, "seconds": {}, "cases": {}, "findings": {}}
    for res in results:
        lineage, name = res["lineage"], res["oracle"]
        out["versions"].setdefault(lineage, []).append(name)
        out["labels"][name] = res.get("label") or name
        out["loaded"][name] = res.get("loaded")
        out["seconds"][name] = res.get("seconds")
        out["cases"][name] = res["rows"]
    for lineage, names in out["versions"].items():
        _same_refusal(out, names)
        table = out["findings"].setdefault(lineage, {})
        for name in names:
            for r in out["cases"][name]:
                entry = table.setdefault(r["finding"], {"statuses": {}})
                entry.setdefault("cases", {}).setdefault(name, []).append(r["status"])
        for fid, entry in table.items():
            entry["statuses"] = {n: finding_status(entry["cases"].get(n, [])) for n in names}
            del entry["cases"]
            entry.update(lifespan([(out["labels"][n], entry["statuses"][n]) for n in names]))
            entry["shown"] = bool(entry["seen_on"])
    return out


def _refusal(answer):
    """A refusal (not an answer the adapter could not read, which it reports as raised)."""
    return answer.startswith("raised:") and not answer.startswith(("raised: returned ", "raised: unparseable"))


def _same_refusal(out, names):
    """A case some version refuses as the finding says (present) and another version refuses
    with another message (different: the spec accepts it there too) shows the same bug on both:
    the refusal of an input the spec accepts; its text changed between versions (CUTLASS 3.x
    says "Static shape_div failure" where 3.9 says "Stride Divisibility Condition")."""
    by = {}
    for n in names:
        for r in out["cases"][n]:
            by.setdefault((r["finding"], r["case"]), []).append(r)
    for rows in by.values():
        refused = [r for r in rows if r["status"] == "present" and _refusal(r["answer"])]
        if not refused:
            continue
        for r in rows:
            if r["status"] == "different" and _refusal(r["answer"]):
                r["status"] = "present"
                r["detail"] = "refused as the finding says, with another message"
