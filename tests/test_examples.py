"""The paper's numbered examples (spec/examples.py) and `layoutcheck examples`."""

import json

import pytest
from layoutcheck.spec import algebra as A
from layoutcheck.spec import division as DV
from layoutcheck.spec import flat as F
from layoutcheck.spec.basic import concat
from layoutcheck.spec.examples import EXAMPLES, run_examples
from layoutcheck.spec.layout import parse, values

from layoutcheck.cli import main
from layoutcheck.findings import load


@pytest.fixture(scope="module")
def results():
    return run_examples()


def test_catalogue_size_and_numbers(results):
    numbers = [r["example"] for r in results]
    assert len(numbers) == len(set(numbers)) >= 40
    assert all(n.startswith(("2.1.", "2.2.", "2.3.", "3.", "4.")) for n in numbers)
    assert {r["status"] for r in results} <= {"agrees", "disagrees"}


def test_every_disagreement_is_a_registered_finding(results):
    ids = {f["id"] for f in load()}
    for r in results:
        if r["status"] == "disagrees":
            assert r["finding"] in ids, r["example"]
        else:
            assert r["finding"] is None


def test_expected_values_are_the_papers_and_agreements_are_exact(results):
    by = {r["example"]: r for r in results}
    # a few agreements recomputed independently of the runner
    assert by["2.3.7.6"]["computed"] == "((2,2)):((6,1))"
    assert by["2.3.8.2"]["paper"] == "((2,2),(2,4)):((1,4),(2,8))"
    assert by["2.3.3.8"]["computed"] == "1:0"
    # a disagreement keeps the paper's value
    assert by["2.2.2.7"]["paper"].endswith("(3,6,3,3096),(2,3,3,50)]")


def test_registered_disagreements_are_confirmed_by_brute_force():
    # F-010: the printed division is B ⋆ B^c itself, not A ∘ (B ⋆ B^c)
    a, b = parse("(2,2,2,2):(1,4,2,8)"), parse("(2,2):(4,2)")
    bb = concat(b, F.flat_complement(b, 16))
    printed = parse("(2,2,2,2):(4,2,1,8)")
    assert values(printed) == values(bb) != [a(x) for x in values(bb)]
    # F-020: the printed composite's function is not B ∘ A
    B, Al = parse("(4,4,4,4):(2,4,8,16)"), parse("((2,4),8):((4,8),8)")
    printed = parse("((2,(2,2)),(2,4)):((4,(8,8)),(8,8))")
    assert printed(10) == 16 and B(Al(10)) == 8
    assert not A.is_composable(B, Al)
    # F-016: (10,2):(80,4) has a complement
    assert F.is_disjoint(parse("(10,2):(80,4)"), parse("(4,10):(1,8)"))
    # F-018: L1 of Example 2.3.5.3 misses 2
    assert 2 not in values(parse("(2,(2,2)):(8,(1,4))"))
    # F-021: A of Example 2.3.9.6 misses 2, so (A, B) is never compact
    assert 2 not in values(parse("(4,(2,2)):(9,(1,3))")) and not A.is_complementable(
        parse("(4,(2,2)):(9,(1,3))"))
    # F-023: with 9 (Example 2.1.8.5) instead of 8 the layout is compact and tractable
    good = parse("((3,3),(1,3),(3,1,3)):((81,1),(0,9),(3,0,27))")
    assert F.is_flat_compact(good) and A.is_tractable(good)
    # F-031: a logical division takes every value of A once, so its size is size(A) = 64
    D = DV.logical_divide(parse("(8,8):(8,1)"), parse("(2,2):(1,4)"))
    assert sorted(values(D)) == sorted(values(parse("(8,8):(8,1)")))
    assert len(values(parse("((2,2),(2,2)):((8,32),(16,1))"))) == 16
    # F-032: the flat complement is (25):(4), its coalesced form 25:4
    assert F.flat_complement(parse("(2,2):(1,2)"), 100) == parse("(25):(4)")
    assert A.complement(parse("(2,2):(1,2)"), 100) == parse("25:4")


def test_cli_json(capsys):
    rc = main(["examples", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0
    assert len(out) == len(EXAMPLES)
    assert {"example", "status", "paper", "computed", "op"} <= set(out[0])


def test_cli_table_and_filter(capsys):
    assert main(["examples", "--only", "2.3.7"]) == 0
    text = capsys.readouterr().out
    assert "2.3.7.8" in text and "F-020" in text and "2.1.4" not in text
    assert main(["examples", "--only", "9.9"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
