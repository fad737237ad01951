"""Re-checks of issue 16's findings (F-200..F-225, block "swizzles, recast, tiling").

Fast tests: pycute and NVlabs PyCuTe run for real (pure Python); CuTe C++ and the DSL answers
are the ones the oracles gave (recorded below, as the oracles print them), each recognised by
the register as exactly its finding while another answer in the same region is not, and each
differing from the spec.  ``LAYOUTCHECK_SLOW=1`` also runs the real cute-cpp and cute-dsl on
every repro case and the crash reproducers of the DSL (#3454, #3255, F-204) in subprocesses.
"""

import os
import subprocess
import sys
import textwrap

import pytest

from layoutcheck.composed import Swizzle, parse_vocab
from layoutcheck.findings import find_known, find_region, load
from layoutcheck.oracles import compare, get_oracle
from layoutcheck.oracles.protocol import Outcome, decode_arg, parse_args

SLOW = bool(os.environ.get("LAYOUTCHECK_SLOW"))
BY_ID = {f["id"]: f for f in load()}


def _ref(op, args):
    return get_oracle("spec", sense="cute").run(op, *args)


def _value(op, text):
    """A recorded answer's text as the oracle's value."""
    from layoutcheck.oracles.protocol import ANSWERS
    kind = ANSWERS[op]
    if kind in ("composed_offset", "layout_offset"):
        layout, _, off = text.rpartition("|")
        return (parse_vocab(layout), decode_arg(off))
    if kind == "composed":
        return parse_vocab(text)
    return decode_arg(text)


def _known(fid, oracle, op, texts, answer, static=False):
    args = parse_args(op, texts)
    if static:
        from layoutcheck.fuzz.vocab_checks import static_args
        args = static_args(args)
    ref = _ref(op, args)
    got = find_known(oracle, op, f"diff.{op}", args, answer, ref)
    assert got == fid, (fid, oracle, op, texts, str(answer), got)
    assert not compare(op, args, ref, answer).ok, "the answer agrees with the spec: no finding"
    return args, ref


def _not_known(oracle, op, args, answer, ref):
    assert find_known(oracle, op, f"diff.{op}", args, answer, ref) is None, str(answer)


# --- pycute (real) ------------------------------------------------------------------------

def _pycute():
    o = get_oracle("pycute")
    if o.unavailable_reason():
        pytest.skip(o.unavailable_reason())
    return o


def test_pycute_swizzle_findings():
    py = _pycute()
    for op, texts in (("swizzle_apply", ["Sw<0,0,0>", "0"]), ("swizzle_values", ["Sw<0,1,0>"])):
        out = py.run(op, *parse_args(op, texts))
        assert out.kind == "raised" and "RecursionError" in out.message
        args, ref = _known("F-200", "pycute", op, texts, out)
        _not_known("pycute", op, args, Outcome.raised("ValueError: other"), ref)
    for texts, want in ((["Sw<3,3,3> o _0 o _4096:_1"], 512), (["Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"], 1024),
                        (["1:1 o 52 o (_1,_2):(_1,_1)"], 1)):
        out = py.run("composed_cosize", *parse_args("composed_cosize", texts))
        assert out.value == want
        args, ref = _known("F-201", "pycute", "composed_cosize", texts, out)
        _not_known("pycute", "composed_cosize", args, Outcome.ok(want + 1), ref)


# --- CuTe C++ and the DSL (recorded answers) -------------------------------------------------

RECORDED = [
    # finding, oracle, op, arguments, the oracle's answer (as it printed it), static inputs
    ("F-202", "cute-cpp", "composed_cosize", ["Sw<1,0,1> o _0 o _3:_1"], "_3", False),
    ("F-202", "cute-cpp", "composed_cosize", ["_16:_4 o _0 o _24:_1"], "_24", False),
    ("F-202", "cute-dsl", "composed_cosize", ["Sw<1,4,-3> o _0 o (_43,_2):(_1,_86)"], "_129", True),
    ("F-203", "cute-dsl", "composed_cosize", ["_16:_4 o _0 o _24:_1"],
     "raised: MLIRError: error: unknown: can't derive meaningful cosize of composed layout when inner is affine", True),
    ("F-205", "cute-cpp", "composed_slice_and_offset", ["Sw<3,4,3> o _0 o (_10,_2):(_2,_1)", "(_,0)"],
     "raised: compile-time rejection: static assertion failed: Shape Divisibility Condition", False),
    ("F-207", "cute-cpp", "composed_slice_and_offset", ["Sw<3,3,3> o _16 o (_8,_64):(_64,_1)", "(2,_)"],
     "((_8,_2,_2,_2)):((_1,8,-16,32))|128", False),
    ("F-207", "cute-dsl", "composed_slice_and_offset", ["Sw<3,3,3> o _16 o (_8,_64):(_64,_1)", "(2,_)"],
     "Sw<0,4,3> o _0 o ((_16,_2,_2)):((_1,-16,_32))|_128", True),
    ("F-208", "cute-cpp", "composed_slice_and_offset", ["Sw<3,3,3> o _16 o (_8,_64):(_64,_1)", "(2,3)"],
     "raised: compile-time rejection: no matching function for call to 'make_layout()'", False),
    ("F-208", "cute-dsl", "composed_slice_and_offset", ["Sw<3,3,3> o _16 o (_8,_64):(_64,_1)", "(2,3)"],
     "raised: unparseable output 'x:x o 0 o x:x|131'", True),
    ("F-209", "cute-dsl", "composed_slice_and_offset", ["_64:_1 o _5 o (_4,_8):(_1,_4)", "(2,_)"],
     "_64:_1 o _7 o (_8):(_4)|_7", True),
    ("F-209", "cute-dsl", "composed_slice_and_offset", ["Sw<2,1,4> o _0 o (8,64):(64,1)", "(5,_)"],
     "Sw<2,1,4> o _64 o (_64):(_1)|_324", True),
    ("F-216", "cute-dsl", "composed_composition", ["Sw<0,1,0> o _0 o (2,4):(4,1)", "(2)"],
     "Sw<0,4,3> o _0 o (_2):(_4)", True),
    ("F-230", "cute-dsl", "composed_upcast", ["Sw<1,1,5> o _0 o (4,64):(1,4)", "8"],
     "raised: unparseable output 'S<1,4294 o 0 o (1,32):(1,1)': malformed notation", True),
    ("F-210", "cute-dsl", "upcast", ["(_1,_58,_2):(_4,_58,_59)", "2"], "(_1,_58,_2):(_2,_29,_30)", True),
    ("F-210", "cute-dsl", "recast_layout", ["_16:_3", "8", "2"], "_16:_12", True),
    ("F-211", "cute-dsl", "tile_to_shape", ["_5:_2", "(_6,_3)"], "((_5,_2),(_1,_3)):((_2,_1),(_0,_10))", True),
    ("F-212", "cute-dsl", "nullspace", ["_8:_0"], "raised: TypeError: object of type 'int' has no len()", True),
    ("F-213", "cute-dsl", "product_each", ["_4"], "_4", True),
    ("F-214", "cute-dsl", "group_modes", ["_7:_64", "1", "1"], "raised: ValueError: Expected begin < end, but got 1 >= 1", True),
    ("F-215", "cute-dsl", "local_tile", ["(_4,_4):(_1,_4)", "(_2,_2)", "1"],
     "raised: MLIRError: error: unknown: expected a coordinate of rank 2 but got #cute.coord<\"1\">", True),
    ("F-216", "cute-dsl", "composed_composition", ["(1):(1) o 1 o (1,2):(1,1)", "(_1:_0)"],
     "(_1):(_1) o _1 o (_1):(_0)", True),
    ("F-217", "cute-dsl", "composed_zipped_divide", ["_8:_1 o _0 o _8:_1", "2"],
     "raised: ValueError: Operand 1 of operation \"cute.zipped_divide\" must be a Value (is not a Value)", True),
    ("F-222", "cute-cpp", "upcast", ["(8,64):(64,1)", "2"], "(8,64):(32,0)", False),
    ("F-223", "cute-cpp", "max_common_vector", ["(8,64):(64,1)", "(8,64):(64,1)"], "_1", False),
    ("F-224", "cute-cpp", "max_common_vector", ["((_35,_1),_1):((_0,_35),_36)", "((_50,_1)):((_1,_4))"],
     "raised: compile-time rejection: static assertion failed: Shape Divisibility Condition (config.hpp:126)", False),
    ("F-224", "cute-dsl", "max_common_layout", ["((35,1),1):((0,35),36)", "((_50,1)):((_1,4))"],
     "raised: MLIRError: error: unknown: unable to compute the following composition: '!cute.layout<\"((35,1),1):((0,35),36)\">' o '!cute.layout<\"50:1\">'", True),
    ("F-226", "cute-cpp", "composed_logical_divide", ["Sw<0,0,1> o _0 o 51:1", "(17,3):(3,1)"],
     "raised: compile-time rejection: static assertion failed: Dynamic-stride complement only for rank-1 layouts", False),
    ("F-226", "cute-cpp", "composed_tiled_divide", ["Sw<3,4,3> o _0 o (1,4):(4,1)", "2"],
     "Sw<3,4,3> o _0 o ((1,2),1,2):((4,1),8,2)", False),
    ("F-226", "cute-cpp", "composed_composition", ["(1):(1) o 1 o (1,2):(1,1)", "(_1:_0)"],
     "(1):(1) o 1 o (_1):(_0)", False),
    ("F-226", "cute-cpp", "composed_right_inverse", ["Sw<0,0,-1> o _0 o (4,8):(1,4)"], "_1:_0", False),
    ("F-227", "cute-cpp", "layout_swizzle_composition", ["(_16,_8):(_8,_1)", "Sw<1,4,3>"],
     "Sw<1,0,3> o _0 o (_16,_8):(_8,_1)", False),
    ("F-228", "cute-cpp", "composed_upcast", ["Sw<1,2,3> o 16 o (_8,_64):(_64,_1)", "2"],
     "raised: compile-time rejection: no matching function for call to 'upcast<2>(const int&)'", False),
    ("F-208", "cute-cpp", "composed_slice_and_offset", ["Sw<1,2,5> o _0 o (_4):(_4)", "(3)"],
     "raised: compile-time rejection: static assertion failed: Stride Divisibility Condition", False),
]


def _answer(op, text):
    if text.startswith("raised: "):
        return Outcome.raised(text[len("raised: "):])
    return Outcome.ok(_value(op, text))


def _perturbed(op, out):
    if out.kind == "raised":
        return Outcome.raised("AssertionError: another failure")
    v = out.value
    if isinstance(v, tuple) and len(v) == 2:
        return Outcome.ok((v[0], int(v[1]) + 1))
    if isinstance(v, int):
        return Outcome.ok(int(v) + 3)
    return Outcome.ok(parse_vocab("(_99):(_1)"))


@pytest.mark.parametrize("fid, oracle, op, texts, text, static", RECORDED,
                         ids=[f"{r[0]}:{r[1]}:{r[2]}" for r in RECORDED])
def test_recorded_answers_are_their_findings(fid, oracle, op, texts, text, static):
    out = _answer(op, text)
    args, ref = _known(fid, oracle, op, texts, out, static)
    _not_known(oracle, op, args, _perturbed(op, out), ref)


def test_cute_cosize_findings_recorded():
    """F-202/F-203: the spec's cosize is the codomain the function reaches."""
    from layoutcheck import spec
    Cl = parse_vocab("Sw<1,0,1> o _0 o _3:_1")
    assert spec.composed_values(Cl) == (0, 1, 3) and spec.composed_cosize(Cl) == 4
    assert spec.cosize(Cl.inner) == 3  # what CuTe answers
    ids = {r[0] for r in RECORDED}
    assert {"F-202", "F-203"} <= ids


def test_swizzle_slice_findings_recorded():
    """F-205/F-207/F-208/F-209: the model of CuTe's decay gives CuTe's answers, and is right
    when the offset has no field bits; the region predicates draw the lines."""
    from layoutcheck import spec
    from layoutcheck.oracles.known_vocab import cute_swizzle_slice
    from layoutcheck.oracles.vocab_compare import answer_values
    ok = parse_vocab("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")
    for c in ((2, spec._), (spec._, 3)):
        S, off = spec.composed_slice_and_offset(ok, c)
        assert cute_swizzle_slice(ok, c) == [int(v) for v in answer_values(S)]
    bad = parse_vocab("Sw<3,3,3> o _16 o (_8,_64):(_64,_1)")
    assert cute_swizzle_slice(bad, (2, spec._))[16] == 112 != spec.composed_eval(bad, (2, 16)) == 176
    assert find_region("cute-cpp", "composed_slice_and_offset", "x",
                       (parse_vocab("Sw<3,4,3> o _0 o (_10,_2):(_2,_1)"), (spec._, 0))) == "F-205"
    assert find_region("cute-cpp", "composed_slice_and_offset", "x",
                       (parse_vocab("Sw<3,4,3> o _0 o (_8,_2):(_2,_1)"), (spec._, 0))) is None


def test_dsl_vocab_findings_recorded():
    ids = {r[0] for r in RECORDED if r[1] == "cute-dsl"}
    assert {"F-209", "F-210", "F-211", "F-212", "F-213", "F-214", "F-215", "F-216", "F-217", "F-230"} <= ids


def test_cpp_vocab_findings_recorded():
    ids = {r[0] for r in RECORDED if r[1] == "cute-cpp"}
    assert {"F-202", "F-205", "F-207", "F-208", "F-222", "F-223", "F-224", "F-226", "F-227", "F-228"} <= ids


# --- NVlabs PyCuTe (real) -------------------------------------------------------------------

def test_nvlabs_vocab_findings():
    nv = get_oracle("nvlabs")
    if nv.unavailable_reason():
        pytest.skip(nv.unavailable_reason())
    from layoutcheck.fuzz.vocab_checks import static_args
    for fid, op, texts in (("F-220", "recast_layout", ["_56:_2", "16", "1"]),
                           ("F-220", "downcast", ["_16:_0", "2"]),
                           ("F-221", "product_each", ["1"]),
                           ("F-225", "make_ordered_layout", ["(_2,_3,_4,_2)", "(_0,_2,_3,_0)"]),
                           ("F-225", "make_layout_like", ["(2,2):(4,4)"]),
                           ("F-229", "make_ordered_layout", ["((_29,_2))", "(_3)"])):
        args = static_args(parse_args(op, texts))
        out = nv.run(op, *args)
        got = find_known("nvlabs", op, f"diff.{op}", args, out, _ref(op, args))
        assert got == fid, (fid, op, str(out), got)
    # F-219: parameters CuTe rejects, accepted by the snapshot (direct, not through the oracle)
    code = textwrap.dedent("""
        import pycute as p
        s = p.Swizzle(3, 0, 1); t = p.Swizzle(1, 0, 0)
        print(str(s), t(0), t(1))
    """)
    env = dict(os.environ, PYTHONPATH="/work/shared/vendor/nvlabs-pycute")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and r.stdout.split() == ["SW_3_0_1", "0", "0"], r.stderr
    with pytest.raises(Exception):
        Swizzle(3, 0, 1)  # layoutcheck (and CuTe) refuse it


# --- live (LAYOUTCHECK_SLOW=1) ----------------------------------------------------------------

@pytest.mark.skipif(not SLOW, reason="runs cute-cpp and cute-dsl: LAYOUTCHECK_SLOW=1")
def test_vocab_findings_live():
    from layoutcheck.fuzz.vocab_checks import static_args
    for oracle in ("cute-cpp", "cute-dsl"):
        o = get_oracle(oracle)
        if o.unavailable_reason():
            continue
        rows = [r for r in RECORDED if r[1] == oracle]
        cases = [(r[2], static_args(parse_args(r[2], r[3])) if r[5] else parse_args(r[2], r[3])) for r in rows]
        outs = o.run_many(cases)
        for r, (op, args), out in zip(rows, cases, outs):
            got = find_known(oracle, op, f"diff.{op}", args, out, _ref(op, args))
            assert got == r[0], (r, str(out), got)


DSL_SCRIPTS = {
    "F-205": ("""
        import cutlass.cute as cute
        @cute.jit
        def f():
            L = cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, cute.make_layout((10, 2), stride=(2, 1)))
            cute.slice_(L, (None, 0))
        cute.compile(f)
    """, -6),
    "F-206": ("""
        import cutlass, cutlass.cute as cute
        @cute.jit
        def f(n: cutlass.Int32):
            L = cute.make_composed_layout(cute.make_swizzle(3, 3, 3), 0, cute.make_layout((8, 64), stride=(n, 1)))
            t = cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.gmem, assumed_align=16), L)
            print(t[(2, None)], flush=True)
        cute.compile(f, cutlass.Int32(64))
    """, -11),
    "F-231": ("""
        import cutlass.cute as cute
        @cute.jit
        def f():
            print(cute.tile_to_shape(cute.make_layout((8, 2), stride=(1, 2)), (16, 6), order=(1, 0)))
        f()
    """, -8),
    "F-204": ("""
        import cutlass.cute as cute
        @cute.jit
        def f():
            print(cute.composition(cute.make_layout((8, 64), stride=(64, 1)), cute.make_swizzle(3, 4, 3)))
        f()
    """, -11),
}


@pytest.mark.skipif(not SLOW, reason="starts the CuTe DSL three times: LAYOUTCHECK_SLOW=1")
@pytest.mark.parametrize("fid", sorted(DSL_SCRIPTS))
def test_dsl_crash_reports_reproduce(fid):
    try:
        import cutlass.cute  # noqa: F401
    except ImportError as e:
        pytest.skip(f"nvidia-cutlass-dsl not installed: {e}")
    code, signal = DSL_SCRIPTS[fid]
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == signal, (fid, r.returncode, r.stderr[-500:])
    assert BY_ID[fid]["kind"] == "implementation-bug"
