"""The cute-cpp case mix in the fuzz campaign: the campaign's batches for cute-cpp go
through ``CuteCppOracle.case_mix`` (``oracles/cpp/cases.py``), set by $LAYOUTCHECK_CPP_MIX.
No compile: the campaign test runs the impl oracle under cute-cpp's (batched) name."""

import pytest
from layoutcheck.oracles import get_oracle, parse_args
from layoutcheck.oracles.cpp.cases import MIX_ENV, campaign_mix, mix_setting, retype, staticness

from layoutcheck import LayoutError


def test_mix_setting_parses_the_variable(monkeypatch):
    monkeypatch.delenv(MIX_ENV, raising=False)
    assert mix_setting() == (0.05, 0.10)
    assert mix_setting("0.2,0.3") == (0.2, 0.3)
    assert mix_setting("off") is None
    for bad in ("0.5", "a,b", "0.7,0.6", "-1,0"):
        with pytest.raises(LayoutError, match=MIX_ENV):
            mix_setting(bad)


def _text(cases):  # staticness shows in the text only (C(4) == 4)
    return [repr(a) for a in cases]


def test_campaign_mix_keeps_uniform_cases_and_retypes_mixed_ones(monkeypatch):
    uniform = [parse_args("composition", ["(_4,_3):(_1,_4)", "(_2,_2)"]),
               parse_args("composition", ["(4,3):(1,4)", "(2,2)"])]
    mixed = [parse_args("composition", [f"(_4,{n}):(_1,4)", "(2,_2)"]) for n in range(1, 201)]
    monkeypatch.setenv(MIX_ENV, "off")
    assert _text(campaign_mix("composition", uniform + mixed, 7)) == _text(uniform + mixed)
    monkeypatch.setenv(MIX_ENV, "0.1,0.2")
    out = campaign_mix("composition", uniform + mixed, 7)
    assert _text(out[:2]) == _text(uniform)
    assert _text(out) == _text(campaign_mix("composition", uniform + mixed, 7))
    kinds = [staticness(a) for a in out[2:]]
    assert 5 < kinds.count("mixed") < 40 and 15 < kinds.count("static") < 70, kinds
    for a, b in zip(mixed, out[2:]):  # the values stay; only the staticness changes
        assert repr(retype(a, False)) == repr(retype(b, False))
    assert _text(campaign_mix("composition", mixed, 8)) != _text(out[2:])  # another seed


def test_campaign_batches_go_through_the_oracles_case_mix():
    from layoutcheck.fuzz.campaign.runner import run_check
    from layoutcheck.fuzz.checks.catalogue import BY_NAME
    oracle = get_oracle("impl", sense="cute")  # CuTe's sense, as cute-cpp's reference reads it
    oracle.name = "cute-cpp"  # a batched oracle's path (fuzz/campaign/batched.py), answered by impl
    seen, calls, real = [], [], oracle.run_many

    def run_many(cases):
        seen.extend(cases)
        return real(cases)

    def case_mix(op, cases, seed):
        calls.append((op, len(cases), seed))
        return [retype(a, False) for a in cases]

    oracle.run_many, oracle.case_mix = run_many, case_mix
    row = run_check(BY_NAME["diff.composition"], oracle, get_oracle("spec"), max_examples=40, seed=3)
    assert calls and calls[0][0] == "composition" and calls[0][2] == 3
    assert row["cases"] > 0 and seen
    assert all(staticness(args) == "dynamic" for _, args in seen), seen[:3]


def test_an_oracle_can_ask_for_smaller_batches_of_a_costly_op():
    """``batch_cases(op)`` (cute-cpp: TiledCopy) caps the cases of one batch: a batch in
    flight cannot be interrupted by the budget (fuzz/campaign/pairs.py Pair._batch_size)."""
    from layoutcheck.fuzz.campaign.runner import run_check
    from layoutcheck.fuzz.checks.catalogue import BY_NAME
    from layoutcheck.oracles.cpp.composed import HEAVY, HEAVY_BATCH
    from layoutcheck.oracles.cpp.oracle import CuteCppOracle
    oracle = get_oracle("impl")
    oracle.name = "cute-cpp"  # a batched oracle's path (fuzz/campaign/batched.py), answered by impl
    sizes, real = [], oracle.run_many

    def run_many(cases):
        sizes.append(len(cases))
        return real(cases)

    oracle.run_many = run_many
    row = run_check(BY_NAME["diff.composition"], oracle, get_oracle("spec"), max_examples=40, seed=3)
    # the default: larger batches (impl is no CuTe: a convention difference may end the row early)
    assert row["cases"] >= 1 and max(sizes) > 5, sizes
    sizes.clear()
    oracle.batch_cases = lambda op: 5 if op == "composition" else None
    row = run_check(BY_NAME["diff.composition"], oracle, get_oracle("spec"), max_examples=40, seed=3)
    assert row["cases"] >= 1 and sizes and max(sizes) <= 5, sizes
    # the real oracle's table: the TiledCopy ops small, everything else the default (None)
    assert {"tiled_copy_partition_S", "tiled_copy_partition_D"} <= HEAVY and HEAVY_BATCH < 64
    assert CuteCppOracle.batch_cases(None, "tiled_copy_partition_S") == HEAVY_BATCH
    assert CuteCppOracle.batch_cases(None, "composition") is None
