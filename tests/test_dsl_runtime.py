"""The CuTe DSL's runtime path (oracles/dsl/runtime.py): plain ints run as runtime integers,
the answers read back exactly, crashes isolated; and the findings it exposes (F-243..F-253,
F-081's runtime tiler), each re-checked on the real DSL and against the DSL's model."""

import os

import pytest
from layoutcheck.fuzz.checks.base import OracleCrashed, has_runtime_ints, oracle_args
from layoutcheck.fuzz.checks.catalogue import BY_NAME
from layoutcheck.oracles import Outcome, compare, get_oracle, parse_args
from layoutcheck.oracles.dsl.model import answer as model_answer
from layoutcheck.oracles.dsl.model import matches
from layoutcheck.oracles.dsl.structures import integer_kind, split_case, trace_disagreement
from layoutcheck.oracles.implementations import takes_runtime_integers
from layoutcheck.oracles.known import find_known
from layoutcheck.oracles.reference import reference_for
from layoutcheck.reports.repro_code import python_source
from layoutcheck.reports.reproducers import Case

from layoutcheck import spec
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

ORACLE = get_oracle("cute-dsl")
REF = get_oracle("spec", sense="cute")
needs_dsl = pytest.mark.skipif(bool(ORACLE.unavailable_reason()),
                               reason=f"cute-dsl: {ORACLE.unavailable_reason()}")
P = LayoutBase.parse


def _run(cases):
    """[(op, args, dsl outcome, spec outcome)] for [(op, [texts])]: one DSL batch, as written
    (plain ints runtime, _N static)."""
    parsed = [(op, parse_args(op, texts)) for op, texts in cases]
    outs = ORACLE.run_many(parsed)
    return [(op, args, o, REF.run(op, *args)) for (op, args), o in zip(parsed, outs)]


def _fn(L):
    return spec.values(spec.Layout(L.shape, L.stride))


def _known(op, args, got, ref, fid):
    """The DSL's answer is its model's, the register names ``fid`` for it, and another
    wrong answer in the same region is new."""
    assert matches(got, model_answer(op, *args), op), (op, args, got, model_answer(op, *args))
    assert find_known("cute-dsl", op, f"diff.{op}", args, got, ref) == fid, (op, args, got)
    assert find_known("cute-dsl", op, f"diff.{op}", args, Outcome.ok(P("(3,5):(1,997)")), ref) is None
    assert find_known("cute-dsl", op, f"diff.{op}", args, Outcome.raised("MLIRError: planted"), ref) is None


# --- structures, values and the trace-time form (no DSL needed) ----------------------------------

def test_structure_key_keeps_static_values_and_orders_runtime_leaves():
    (key, vals) = split_case("composition", (P("(6,_8):(_1,6)"), P("(8):(_2)")))
    assert vals == [6, 6, 8]
    assert key == ("composition", (("L", ("t", ("d", ("s", 8))), ("t", (("s", 1), "d"))),
                                   ("L", ("t", ("d",)), ("t", (("s", 2),)))))
    assert split_case("composition", (P("(7,_8):(_1,9)"), P("(5):(_2)")))[0] == key  # new values, same code
    assert split_case("composition", (P("(6,_4):(_1,6)"), P("(8):(_2)")))[0] != key  # another static value
    assert split_case("get_mode", (P("(4,8):(1,4)"), 1))[1] == [4, 8, 1, 4]  # the mode index: trace time
    assert [integer_kind("coalesce", (P(t),)) for t in ("(4,8):(1,4)", "(_4,_8):(_1,_4)", "(_4,8):(_1,_4)")] \
        == ["runtime", "static", "mixed"]


def test_trace_time_form_is_checked_against_the_run_time_answer():
    R = LayoutBase((C(16), 4), (C(1), 16))
    assert trace_disagreement("(16,?):(1,?{div=8})", R) is None
    assert "no multiple of 8" in trace_disagreement("(16,?):(1,?{div=8})", LayoutBase((C(16), 4), (C(1), 12)))
    assert "static 16" in trace_disagreement("(?,?):(1,?)", R)
    assert "nesting" in trace_disagreement("((16,?)):((1,?))", R)
    assert trace_disagreement("(Int32(?), Int32(?))", (1, 3)) is None
    assert trace_disagreement("something else", R) is None  # a form it does not read: no verdict


def test_runtime_integers_are_said_per_oracle_and_op():
    assert takes_runtime_integers("cute-dsl", "composition") and takes_runtime_integers("cute-dsl", "idx2crd")
    assert not takes_runtime_integers("cute-dsl", "values") and not takes_runtime_integers("cute-dsl", "upcast")
    assert takes_runtime_integers("cute-cpp", "values") and takes_runtime_integers("spec[cute]", "upcast")
    assert not takes_runtime_integers("pycute", "composition")
    assert not takes_runtime_integers("module:mine@cute-cpp", "composition")

    class Named:
        def __init__(self, name):
            self.name = name
    args = (P("(4,_8):(1,4)"),)
    assert oracle_args(Named("cute-dsl"), "coalesce", args) == args
    assert str(oracle_args(Named("cute-dsl"), "values", args)[0]) == "(_4,_8):(_1,_4)"
    assert str(oracle_args(Named("pycute"), "coalesce", args)[0]) == "(_4,_8):(_1,_4)"
    assert has_runtime_ints(Named("cute-cpp"), "values")


# --- the runtime path on the real DSL -----------------------------------------------------------

@needs_dsl
def test_answers_are_read_back_with_their_staticness_and_trace_form():
    res = _run([("coalesce", ["(_16,4):(_1,_16)"]), ("zipped_divide", ["(128,64):(_1,128)", "(_16,_8)"]),
                ("idx2crd", ["7", "(2,4)"]), ("slice_and_offset", ["(4,8):(1,4)", "(_,3)"]),
                ("size", ["(65536,65536):(1,65536)"]), ("get_mode", ["(4,8):(1,4)", "1"])])
    (_, _, co, _), (_, _, zd, zref), (_, _, ic, _), (_, _, so, _), (_, _, sz, _), (_, _, gm, _) = res
    assert co.value == P("(_16,4):(_1,_16)") and isinstance(co.value.shape[0], C)
    assert not isinstance(co.value.shape[1], C) and co.message == "trace-time form (16,?):(1,16)"
    assert zd.value == P("((_16,_8),(8,8)):((_1,128),(_16,1024))") and "?{div=8}" in zd.message
    assert compare("zipped_divide", res[1][1], zref, zd).ok
    assert ic.value == (1, 3) and so.value == (P("(4):(1)"), 12) and gm.value == P("8:4")
    assert sz.kind == "ok" and sz.value == 0  # Int32 arithmetic wraps at run time, as in a kernel


@needs_dsl
def test_a_batch_with_crashes_answers_every_case():
    """SIGFPE at run time and SIGABRT while tracing cost their own cases only: each answers
    crashed and names its case; the cases around them answer as usual, twice in a row."""
    cases = [("coalesce", ["(4,8):(1,4)"]), ("complement", ["4:0", "16"]),
             ("complement", ["((2,3)):((1,2))", "24"]), ("composition", ["(6,_8):(_1,6)", "(8):(_2)"]),
             ("complement", ["((2,3)):((1,2))", "48"]), ("values", ["(2,3):(3,1)"])]
    for _ in range(2):
        res = _run(cases)
        kinds = [o.kind for _, _, o, _ in res]
        assert kinds == ["ok", "crashed", "crashed", "ok", "crashed", "ok"], res
        assert "at run time: killed by SIGFPE (complement(4:0, 16))" in res[1][2].message
        assert "while tracing: killed by SIGABRT (complement(((2,3)):((1,2)), 24))" in res[2][2].message
        assert res[3][2].value == P("((3,2)):((_2,6))") and res[5][2].value == (0, 3, 1, 4, 2, 5)
    s = ORACLE.stats()
    assert s["crashed"] >= 6 and s["runtime_cases"] >= 4 and s["mixed_cases"] >= 2 and s["trace_time_cases"] >= 2


@needs_dsl
def test_crashes_are_errors_at_the_gate():
    class Ctx:
        oracle, spec = ORACLE, reference_for("cute-dsl", get_oracle("spec"))
    with pytest.raises(OracleCrashed):
        BY_NAME["diff.complement"].run(Ctx(), (P("4:0"), 16))


@needs_dsl
def test_disk_cache_serves_a_new_process(tmp_path, monkeypatch):
    """A second oracle (a new worker) loads the packs the first compiled from the cache
    folder, compiles nothing, and answers the same."""
    monkeypatch.setenv("LAYOUTCHECK_DSL_CACHE", str(tmp_path))
    cases = [(op, parse_args(op, t)) for op, t in [
        ("composition", ["(5,_7):(_1,5)", "(3,2):(1,9)"]), ("coalesce", ["(_3,5,(2,2)):(_1,3,(15,30))"]),
        ("logical_divide", ["(9,_4):(_4,1)", "(_3):(2)"])]]
    first = get_oracle("cute-dsl")
    a = first.run_many(cases)
    s1 = first.stats()
    first.close()
    second = get_oracle("cute-dsl")
    b = second.run_many(cases)
    s2 = second.stats()
    second.close()
    assert a == b and s1["compiled"] == 3 and s2.get("compiled", 0) == 0 and s2["from_disk"] == 3
    assert list(tmp_path.rglob("*.o")) and list(tmp_path.rglob("*.pkl"))


@needs_dsl
def test_reuse_batches_retype_to_compiled_runtime_structures():
    ORACLE.run_many([("coalesce", parse_args("coalesce", ["(3,5):(1,3)"]))])
    picked = ORACLE.reusing("coalesce", [(P("(_7,9):(_1,7)"),), (P("((2,2),3):((1,2),4)"),)])
    assert picked[0] == (P("(7,9):(1,7)"),) and integer_kind("coalesce", picked[0]) == "runtime"
    assert picked[1] is None or integer_kind("coalesce", picked[1]) == "runtime"


# --- the findings ---------------------------------------------------------------------------

@needs_dsl
def test_F243_F245_coalesce_and_filter_keep_runtime_modes():
    res = _run([("coalesce", ["(4,8):(1,4)"]), ("coalesce", ["(_16,4):(_1,_16)"]), ("coalesce", ["1:1"]),
                ("filter", ["(_4,2):(_1,0)"]), ("filter", ["2:0"]), ("filter", ["(2,2,3):(11,5,0)"]),
                ("coalesce", ["(_4,_8):(_1,_4)"]), ("filter", ["(_4,_2):(_1,_0)"])])
    for op, args, got, ref in res[:3]:  # F-243: the function is the spec's, the modes are kept
        assert got.value == args[0] and _fn(got.value) == _fn(ref.value) and got.value != ref.value
        _known(op, args, got, ref, "F-243")
    for op, args, got, ref in res[3:6]:  # F-245: the runtime stride-0 mode stays: the size differs
        assert got.value == args[0] and spec.size(got.value) != spec.size(ref.value)
        _known(op, args, got, ref, "F-245")
    for op, args, got, ref in res[6:]:  # the same with static integers: the spec's answer
        assert compare(op, args, ref, got).ok, (op, got)


@needs_dsl
def test_F244_runtime_modes_only():
    res = _run([("tiled_divide", ["3:1", "3:1"]), ("zipped_divide", ["(32,3,2):(8,32,96)", "192:1"]),
                ("logical_divide", ["(2,2):(1,2)", "(_1):(1)"])])
    for op, args, got, ref in res[:2]:
        assert _fn(got.value) == _fn(ref.value) and not compare(op, args, ref, got).ok, (op, got)
        _known(op, args, got, ref, "F-244")
    op, args, got, ref = res[2]  # the complement keeps the runtime cotarget (2,2): (C++ merges it)
    assert got.value == P("((_1),((2,1),(1,2))):((2),((1,2),(2,2)))") and compare(op, args, ref, got).ok


@needs_dsl
def test_F246_runtime_composition_is_wrong():
    res = _run([("composition", ["(6,_8):(_1,6)", "(8):(_2)"]), ("composition", ["(2,2):(1,0)", "3:1"]),
                ("logical_divide", ["(_6,_3):(_1,6)", "_4:_4"]), ("composition", ["(_6,_8):(_1,_6)", "(_8):(_2)"])])
    (op, (A, B), got, ref) = res[0]
    assert got.value == P("((3,2)):((_2,6))") and _fn(got.value) != [_fn(A)[b] for b in _fn(B)]
    assert spec.size(got.value) == 6 != spec.size(B)
    for op, args, got, ref in res[:3]:
        _known(op, args, got, ref, "F-246")
    assert res[1][3].kind == "raised" and spec.size(res[2][2].value) == 16 != spec.size(res[2][3].value)
    op, args, got, ref = res[3]  # all static: the DSL computes A∘B
    assert compare(op, args, ref, got).ok and all(isinstance(x, C) for x in leaves(got.value.stride))


@needs_dsl
def test_F247_F248_crashes_are_crashed_outcomes():
    res = _run([("complement", ["4:0", "16"]), ("composition", ["(2,3):(1,2)", "2:0"]),
                ("logical_divide", ["8:1", "2:0"]), ("complement", ["((2,3)):((1,2))", "24"]),
                ("complement", ["((_4,_2)):((_1,8))", "_64"]), ("logical_divide", ["_8:_1", "((_2,_4)):((1,_2))"]),
                ("complement", ["_4:_0", "_16"]), ("complement", ["((_2,_3)):((_1,_2))", "_24"])])
    for k, (op, args, got, ref) in enumerate(res[:6]):
        how = "at run time: killed by SIGFPE" if k < 3 else "while tracing: killed by SIGABRT"
        assert got.kind == "crashed" and how in got.message and ref.kind == "ok", (op, got)
        assert matches(got, model_answer(op, *args), op)
        assert find_known("cute-dsl", op, f"diff.{op}", args, got) == ("F-247" if k < 3 else "F-248")
    for op, args, got, ref in res[6:]:  # the same with static integers: answered
        assert compare(op, args, ref, got).ok, (op, got)


@needs_dsl
def test_F249_F253_refusals_of_runtime_integers():
    res = _run([("complement", ["(2,2):(1,6)", "24"]), ("complement", ["(_1,8):(_8,1)", "96"]),
                ("logical_divide", ["(8,6):(1,8)", "(2:1,(3,1):(2,1))"]),
                ("right_inverse", ["(_16,8):(_1,16)"]), ("right_inverse", ["(_4,_2):(_2,1)"]),
                ("left_inverse", ["4:1"]), ("left_inverse", ["(8):(_1)"]),
                ("logical_product", ["(2,2):(1,2)", "_3:_1"]), ("blocked_product", ["(2,2):(1,2)", "_3:_1"]),
                ("logical_product", ["(_2,_2):(_1,_2)", "3:1"])])
    want = ["F-249", "F-249", "F-249", "F-250", "F-251", "F-252", "F-252", "F-253", "F-253"]
    for (op, args, got, ref), fid in zip(res, want):
        assert ref.kind == "ok", (op, ref)
        if fid == "F-251":  # a shorter right inverse: _1:_0
            assert got.value == P("_1:_0") and spec.size(ref.value) == 8
        else:
            assert got.kind == "raised", (op, got)
        _known(op, args, got, ref, fid)
    op, args, got, ref = res[-1]  # a runtime tiler is fine: the block is static
    assert compare(op, args, ref, got).ok


@needs_dsl
def test_F081_runtime_int_tiler():
    res = _run([("composition", ["(_8,_3):(_1,_8)", "2"]), ("logical_divide", ["(_8,_3):(_1,_8)", "2"]),
                ("composition", ["(_8,_3):(_1,_8)", "_2"]), ("logical_divide", ["(_8,_3):(_1,_8)", "(2)"])])
    for op, args, got, ref in res[:2]:
        assert got.kind == "raised" and "must be a Value" in got.message
        _known(op, args, got, ref, "F-081")
    for op, args, got, ref in res[2:]:  # static, or wrapped in a tuple: the spec's function
        assert got.kind == "ok" and _fn(got.value) == _fn(ref.value), (op, got)


def test_reproducer_of_a_runtime_finding_passes_runtime_integers():
    text = python_source(Case("cute-dsl", "composition", ("(6,_8):(_1,6)", "(8):(_2)")), [],
                         ["header"], "cute-dsl")
    assert "VALUES = [6, 6, 8]" in text and "cute.make_layout((v[0], 8), stride=(1, v[1]))" in text
    assert "cute.compile(traced" in text and os.path.basename(__file__) not in text


@needs_dsl
def test_F254_F255_runtime_coordinates():
    res = _run([("shape_div", ["(3,8)", "8"]), ("dice", ["(3,4):(0,1)", "(_,3)"]),
                ("shape_div", ["(_3,_8)", "_8"]), ("dice", ["(3,4):(0,1)", "(_,_3)"]),
                ("shape_div", ["5", "2"]), ("shape_div", ["(4,5,1)", "3"])])
    (op, args, got, ref) = res[0]  # F-255: no divisibility check with runtime integers, a truncation
    assert ref.kind == "raised" and got.value == (1, 4)
    assert find_known("cute-dsl", op, "diff.shape_div", args, got, ref) == "F-255"
    assert find_known("cute-dsl", op, "diff.shape_div", args, Outcome.ok((1, 3)), ref) is None  # C++'s
    assert res[4][2].value == 2 and res[5][2].value == (1, 5, 1)
    (op, args, got, ref) = res[1]  # F-254: a runtime integer in the dicer is refused
    assert got.kind == "raised" and "expects dicer to be static" in got.message and ref.kind == "ok"
    assert find_known("cute-dsl", op, "diff.dice", args, got, ref) == "F-254"
    assert find_known("cute-dsl", op, "diff.dice", args, Outcome.raised("ValueError: other"), ref) is None
    assert res[2][2].kind == "raised"  # static: the DSL checks divisibility
    assert compare("dice", res[3][1], res[3][3], res[3][2]).ok


@needs_dsl
def test_F256_shape_div_of_a_tuple_mode_by_an_integer():
    res = _run([("shape_div", ["(_4,(_2,_2))", "(_2,_2)"]), ("shape_div", ["(32,(1,2))", "(2,4)"]),
                ("shape_div", ["((_2,_2),_4)", "(_2,_2)"]), ("shape_div", ["(_2,_2)", "_2"]),
                ("shape_div", ["(_4,_8)", "(_2,_2)"])])
    for op, args, got, ref in res[:3]:
        assert ref.kind == "ok" and got.kind == "raised" and "unable to compute shape_div" in got.message
        assert find_known("cute-dsl", op, "diff.shape_div", args, got, ref) == "F-256"
        assert find_known("cute-dsl", op, "diff.shape_div", args, Outcome.ok((1, 1)), ref) is None
    for op, args, got, ref in res[3:]:  # a tuple by an integer, or two flat tuples: computed
        assert compare(op, args, ref, got).ok, (op, got)


@needs_dsl
def test_F231_tile_to_shape_of_an_injective_block_with_no_room():
    """tile_to_shape runs at trace time (every integer static); the worker's death on it is
    this case's crash, and the next case runs on a fresh worker."""
    res = _run([("tile_to_shape", ["(_2,_3):(_5,_2)", "(_4,_3,_1)"]), ("tile_to_shape", ["(_2,_4):(_1,_2)", "(_4,_8)"])])
    (op, args, got, ref), (_, args2, fine, ref2) = res
    assert got.kind == "crashed" and "SIGFPE" in got.message and ref.kind == "raised"  # a refusal is due
    assert spec.is_injective(args[0]) and find_known("cute-dsl", op, f"diff.{op}", args, got) == "F-231"
    assert compare(op, args2, ref2, fine).ok
