"""Planted answers from the family modules' ``PLANTED`` rows (tests/planted_support.py): for
each row the oracle's recorded answer is recognised as exactly its finding, and every other
wrong answer in the same region (another value, another refusal) is new."""

import pytest
from layoutcheck.oracles import compare, get_oracle
from layoutcheck.oracles.known import find_known
from planted_support import module_rows, planted, row_case

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
