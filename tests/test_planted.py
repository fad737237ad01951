"""Planted answers (tests/planted_support.py).

* The family modules' ``PLANTED`` rows: for each row the oracle's recorded answer is
  recognised as exactly its finding, and every other wrong answer in the same region
  (another value, another refusal, a near miss, another crash) is new.
* Every finding's own cases (``op(args)`` in its ``case``): with the answer its oracle gives
  (the real pycute and NVlabs PyCuTe, the models of CuTe C++ and the DSL) the case is that
  finding, and every planted answer in its region is not.
"""

import fnmatch

import pytest
from layoutcheck.oracles import compare, get_oracle, parse_args
from layoutcheck.oracles.known import answer_checked, explain, find_known, find_region
from planted_support import answer_source, module_rows, own_cases, planted, row_case

from layoutcheck.findings import load, match_tables

ROWS = module_rows()


def test_every_family_module_row_is_collected():
    families = {name for name, _ in ROWS}
    assert {"coordinates", "composed"} <= families, families
    assert len(ROWS) >= 40


@pytest.mark.parametrize("family, row", ROWS, ids=[f"{r[0]}:{r[1]}:{r[2]}:{i}" for i, (_, r) in enumerate(ROWS)])
def test_row_is_its_finding_and_other_answers_are_new(family, row):
    fid, oracle, op, args, answer = row_case(row)
    ref = get_oracle("spec", sense="cute").run(op, *args)
    assert not compare(op, args, ref, answer).ok, f"{fid}: the recorded answer agrees with the spec"
    got = find_known(oracle, op, f"diff.{op}", args, answer, ref)
    assert got == fid, (fid, oracle, op, str(answer), got)
    others = planted(op, answer, ref)
    assert others, "nothing planted"
    for other in others:
        assert find_known(oracle, op, f"diff.{op}", args, other, ref) is None, (fid, str(other))


OWN = own_cases(load())


_SEEN = {}


def _recognised_once(f, op, texts):
    key = (f["id"], op, tuple(texts))
    if key not in _SEEN:
        _SEEN[key] = _recognised(f, op, parse_args(op, texts))
    return _SEEN[key]


def _recognised(f, op, args):
    """(oracle, the oracle's answer, the reference's) for the first table of ``f`` whose
    region holds and whose oracle's answer here is ``f``'s (or a see_also's); else None."""
    ref = get_oracle("spec", sense="cute").run(op, *args)
    for m in match_tables(f):
        if not (m.get("when") and fnmatch.fnmatchcase(op, m.get("op", "*"))):
            continue
        for oracle in m["oracles"]:
            run = answer_source(oracle)
            if run is None or find_region(oracle, op, "agreement", args) is None:
                continue
            answer = run(op, *args)
            if answer is None or answer.kind == "unsupported":
                continue
            if find_known(oracle, op, "agreement", args, answer, ref) in [f["id"], *f.get("see_also", [])]:
                return oracle, answer, ref
    return None


@pytest.mark.parametrize("f, op, texts", [pytest.param(*c, id=f"{c[0]['id']}:{c[1]}({','.join(c[2])})")
                                          for c in OWN])
def test_a_different_answer_in_every_findings_region_is_new(f, op, texts):
    args = parse_args(op, texts)
    hit = _recognised_once(f, op, texts)
    if hit is None:
        pytest.skip("no oracle answer for this case here (tests/test_findings.py says why)")
    oracle, answer, ref = hit
    others = planted(op, answer, ref)
    assert others, "nothing planted"
    for other in others:
        got = explain(oracle, op, "agreement", args, other, ref)
        assert got is None or got[0]["id"] != f["id"], (f["id"], oracle, str(answer), "planted:", str(other))


def test_every_finding_is_planted_on():
    """Every finding with an oracle table gets a different wrong answer planted in its region:
    through its own case (above) or a family module's row.  Findings of an oracle that is not
    here (pycute, an NVlabs snapshot) are left to the machines that have it."""
    here = {o for o in ("pycute", "nvlabs", "cute-cpp", "cute-dsl") if answer_source(o) is not None}
    reached = {row[0] for _, row in ROWS}
    reached |= {f["id"] for f, op, texts in OWN if _recognised_once(f, op, texts)}
    want = {f["id"] for f in load() if any(m.get("answer") and set(m["oracles"]) & here for m in match_tables(f))}
    assert not want - reached, sorted(want - reached)


def test_unchecked_symptoms_are_listed_with_their_reason():
    """A symptom that does not check the answer, or not every answer (it returns UNCHECKED
    for some), says why, and docs/findings.md lists it: its failures are counted apart as
    "known region, answer not checked"."""
    from pathlib import Path

    from layoutcheck.oracles.known import SYMPTOMS, unchecked_tables
    doc = (Path(__file__).resolve().parents[1] / "docs" / "findings.md").read_text()
    loose = {name: fn for name, fn in SYMPTOMS.items() if getattr(fn, "unchecked_reason", "")}
    assert {"cpp_answer", "dsl_answer"} <= set(loose)
    for name in loose:
        assert f"`{name}`" in doc, name
    for f, m in unchecked_tables():
        assert not answer_checked(m) and m["answer"] in loose and f["id"] in doc, f["id"]
