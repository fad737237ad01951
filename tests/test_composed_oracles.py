"""The plumbing of swizzles, composed layouts, recast and tiling: notation through the protocol, the comparison of composed answers,
the adapters (pycute / NVlabs / DSL text / C++ program text), the fuzz catalogue, and the GPU
kernels on the host shim."""

import shutil

import pytest
from layoutcheck.fuzz.checks.base import static_args
from layoutcheck.fuzz.checks.catalogue import BY_NAME, CHECKS
from layoutcheck.fuzz.checks.recast import RECAST_CHECKS
from layoutcheck.fuzz.checks.swizzle import SWIZZLE_CHECKS
from layoutcheck.fuzz.checks.tiling import TILING_CHECKS

COMPOSED_CHECKS = SWIZZLE_CHECKS + RECAST_CHECKS + TILING_CHECKS
from layoutcheck.oracles import compare, get_oracle
from layoutcheck.oracles.operations import OPERATIONS
from layoutcheck.oracles.protocol import ANSWERS, OPS, Outcome, decode_arg, format_arg, parse_args
from layoutcheck.oracles.pyapi import PYCUTE_CALLS

from layoutcheck.composed import ComposedLayoutBase, SignedLayout, Swizzle, parse_value
from layoutcheck.integers import C

COMPOSED_OPS = [op.name for op in OPERATIONS if op.family in ("swizzle", "recast", "tiling")]


def test_every_new_op_has_a_kind_a_level_a_pycute_entry_and_a_check():
    assert len(COMPOSED_OPS) == 36  # + tiled_copy_partition_S / _D, swizzle_as_f2
    for op in COMPOSED_OPS:
        assert op in ANSWERS and op in PYCUTE_CALLS, op
        assert f"diff.{op}" in BY_NAME, op
    assert len(COMPOSED_CHECKS) == 59 and all(c in CHECKS for c in COMPOSED_CHECKS)


def test_arguments_round_trip_through_the_text_codec():
    for op, texts in (("composed_values", ["Sw<3,4,3> o _0 o (8,64):(64,1)"]),
                      ("bank_conflicts", ["Sw<3,3,3> o _0 o (_8,_64):(_64,_1)", "32:1", "2"]),
                      ("f2_values", ["(2,2):(F1,F3)"]), ("swizzle_apply", ["SW_1_0_-2", "5"]),
                      ("composed_slice_and_offset", ["(4):(2) o 3 o (4,2):(1,4)", "(_,1)"])):
        args = parse_args(op, texts)
        assert tuple(decode_arg(format_arg(a)) for a in args) == args
    assert format_arg(SignedLayout(((C(16), C(2)),), ((C(1), -16),))) == "((_16,_2)):((_1,-16))"


def _cmp(op, inputs, e, a):
    return compare(op, inputs, Outcome.ok(e), Outcome.ok(a))


def test_composed_answers_compare_as_functions_and_structure():
    C1 = parse_value("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")
    args = (C1, (2, decode_arg("_")))
    spec_answer = (parse_value("Sw<3,4,3> o 128 o (_64):(_1)"), C(0))
    cute_answer = (parse_value("((_16,_2,_2)):((_1,-16,32))"), 144)
    r = _cmp("composed_slice_and_offset", args, spec_answer, cute_answer)
    assert r.level == "function" and r.ok
    wrong = (parse_value("((_16,_2,_2)):((_1,16,32))"), 144)
    assert not _cmp("composed_slice_and_offset", args, spec_answer, wrong).ok
    D = parse_value("Sw<3,4,3> o _0 o ((_2,_4),(_8,_8)):((_64,_128),(_1,_8))")
    assert _cmp("composed_logical_divide", (C1, (C(2), C(8))), D, D).level == "printed"
    same = parse_value("Sw<3,4,3> o 0 o ((2,4),(8,8)):((64,128),(1,8))")
    assert _cmp("composed_logical_divide", (C1, (C(2), C(8))), D, same).level == "structure"


def test_max_common_layout_is_graded_by_its_post_condition():
    A = decode_arg("(8,64):(64,1)")
    ref, other = decode_arg("(64,8):(8,1)"), decode_arg("(64,8):(8,_1)")
    r = _cmp("max_common_layout", (A, A), ref, other)
    assert r.ok and r.level in ("structure", "function", "property")
    assert not _cmp("max_common_layout", (A, A), ref, decode_arg("64:1")).ok


def test_static_args_for_oracles_without_runtime_integers():
    (C1, n) = static_args(parse_args("composed_upcast", ["Sw<1,2,3> o 16 o (8,64):(64,1)", "2"]))
    assert str(C1) == "Sw<1,2,3> o _16 o (_8,_64):(_64,_1)" and str(n) == "_2"


def test_pycute_runs_its_swizzle_and_composed_layout():
    py = get_oracle("pycute")
    if py.unavailable_reason():
        pytest.skip(py.unavailable_reason())
    out = py.run("composed_values", *parse_args("composed_values", ["Sw<1,0,2> o 0 o 8:1"]))
    assert out.value == (0, 1, 2, 3, 5, 4, 7, 6)
    assert py.run("upcast", *parse_args("upcast", ["8:1", "2"])).kind == "unsupported"


def test_nvlabs_f2_strides_and_swizzle():
    nv = get_oracle("nvlabs")
    if nv.unavailable_reason():
        pytest.skip(nv.unavailable_reason())
    got = nv.run_many([("f2_values", parse_args("f2_values", ["(2,2,2):(F1,F2,F5)"])),
                       ("swizzle_values", (Swizzle(1, 0, 2),))])
    assert got[0].value == got[1].value == (0, 1, 2, 3, 5, 4, 7, 6)


def test_dsl_text_is_read_back():
    from layoutcheck.oracles.dsl.calls import dsl_answer
    v = dsl_answer("composed_logical_divide", "composed", "S<1,1,-5 o 0 o (((4,2,8)),1):(((1,32,4)),0)")
    assert str(v) == "Sw<1,1,-5> o _0 o (((_4,_2,_8)),_1):(((_1,_32,_4)),_0)"  # the DSL drops '>'
    L, off = dsl_answer("local_tile", "layout_offset", "tensor<34 o (2,4):(1,8)>")
    assert str(L) == "(_2,_4):(_1,_8)" and off == 34
    S, off = dsl_answer("composed_slice_and_offset", "composed_offset",
                        "S<0,4,3> o 0 o ((16,2,2)):((1,-16,32))|144")
    assert isinstance(S, ComposedLayoutBase) and isinstance(S.inner, SignedLayout) and off == 144


def test_cpp_program_text():
    from layoutcheck.oracles.cpp.composed import case_program
    cases = [("composed_slice_and_offset", parse_args("composed_slice_and_offset",
                                                      ["Sw<3,4,3> o _0 o (_8,_64):(_64,4)", "(2,_)"])),
             ("local_tile", parse_args("local_tile", ["(8,8):(1,8)", "(_2,_4)", "(1,1)"]))]
    src, owner = case_program(cases, lambda op: OPS[op])
    assert "cute::Swizzle<3,4,3>{}" in src and "cute::make_composed_layout(" in src
    assert "int(4)" in src and "cute::Int<64>{}" in src  # runtime vs static integers
    assert "cute::slice_and_offset(cute::make_coord(int(2), cute::_)" in src
    assert "lcv::tensor_op(1" in src and sorted(owner.values()) == [0, 1]


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ for the host shim")
def test_swizzle_kernels_on_the_host_shim():
    from layoutcheck.gpu_checks.execute import HostModule
    from layoutcheck.gpu_checks.swizzle_gpu import bank_cases, check_addr, check_bank_addresses, swizzle_cases
    for res in (check_addr(HostModule, swizzle_cases(1, 8)), check_bank_addresses(HostModule, bank_cases())):
        assert res.ok and res.checked >= 8, res.mismatches
    from layoutcheck.gpu_checks.swizzle_gpu import bank_source
    assert "lc_ld16" in bank_source(bank_cases()).text
    waves = dict(check_bank_addresses(HostModule, bank_cases()).metrics["wavefronts"])
    assert waves["bank_conflicts((_8,_64):(_64,_1), _32:_1, 2)"] == [8]
    assert waves["bank_conflicts(Sw<3,3,3> o _0 o (_8,_64):(_64,_1), _32:_1, 2)"] == [1]
    assert waves["bank_conflicts((_8,_8):(_8,_1), (_8,_4):(_1,_8), 16)"] == [8, 8, 8, 8]
    assert waves["bank_conflicts(Sw<3,0,3> o _0 o (_8,_8):(_8,_1), (_8,_4):(_1,_8), 16)"] == [1, 1, 1, 1]
