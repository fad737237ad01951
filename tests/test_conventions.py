"""The declared conventions of each oracle (oracles/conventions.py) and the register agree both
ways: every convention-kind finding an oracle's match tables name is declared in that
oracle's table, and every declared convention names an existing finding of kind convention
whose tables cover that oracle and those ops.  A convention is never reported as a bug, and a
bug is never declared a convention."""

import fnmatch

import pytest
from layoutcheck.oracles.conventions import Convention
from layoutcheck.oracles.implementations import CONVENTIONS, conventions_for
from layoutcheck.oracles.protocol import OPS

from layoutcheck.findings import load, match_tables

BY_ID = {f["id"]: f for f in load()}
ORACLES = sorted(CONVENTIONS)


def _convention_findings(oracle):
    return {f["id"] for f in load() if f["kind"] == "convention"
            for m in match_tables(f) if oracle in m.get("oracles", ())}


def test_the_cute_oracles_have_tables():
    assert {"pycute", "cute-cpp", "cute-dsl"} <= set(CONVENTIONS)


@pytest.mark.parametrize("oracle", ORACLES)
def test_every_convention_finding_is_declared(oracle):
    declared = {c.finding for c in CONVENTIONS[oracle]}
    missing = sorted(_convention_findings(oracle) - declared)
    assert not missing, f"{oracle}: convention findings without a declared convention: {missing}"


@pytest.mark.parametrize("oracle", ORACLES)
def test_every_declared_convention_is_a_convention_finding(oracle):
    for c in CONVENTIONS[oracle]:
        assert isinstance(c, Convention) and c.id and c.what and c.cite, c
        f = BY_ID.get(c.finding)
        assert f is not None, f"{oracle}/{c.id}: no finding {c.finding}"
        assert f["kind"] == "convention" and f["status"] == "convention", (c.id, f["kind"])
        tables = [m for m in match_tables(f) if oracle in m.get("oracles", ())]
        assert tables, f"{oracle}/{c.id}: {c.finding} has no match table for {oracle}"
        assert c.ops and set(c.ops) <= set(OPS), c.ops
        covered = {op for op in c.ops for m in tables if fnmatch.fnmatchcase(op, m.get("op", "*"))}
        assert covered, f"{oracle}/{c.id}: none of {c.ops} is in {c.finding}'s tables"


@pytest.mark.parametrize("oracle", ORACLES)
def test_ids_are_unique_per_oracle(oracle):
    ids = [c.id for c in CONVENTIONS[oracle]]
    assert len(ids) == len(set(ids)), ids


def test_lineage_gets_its_conventions():
    assert conventions_for("module:pycute_m05@pycute") == CONVENTIONS["pycute"]
    assert conventions_for("module:mine") == []
