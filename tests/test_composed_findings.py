"""Re-checks of the findings on swizzles, composed layouts, recast and tiling (F-200..F-231, block "swizzles, recast, tiling").

Fast tests: pycute and NVlabs PyCuTe run for real (pure Python); CuTe C++ and the DSL answers
are the ones the oracles gave (recorded below, as the oracles print them), each recognised by
the register as exactly its finding while another answer in the same region is not, and each
differing from the spec.  ``LAYOUTCHECK_SLOW=1`` also runs the real cute-cpp and cute-dsl on
every repro case and the crash reproducers of the DSL (#3454, #3255, F-204, F-231) in subprocesses.
"""

import os
import subprocess
import sys
import textwrap

import pytest
from layoutcheck.oracles import compare, get_oracle
from layoutcheck.oracles.cpp.findings.composed import PLANTED
from layoutcheck.oracles.known import find_known, find_region
from layoutcheck.oracles.protocol import Outcome, decode_arg, parse_args

from layoutcheck.composed import Swizzle, parse_value
from layoutcheck.findings import load

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
        return (parse_value(layout), decode_arg(off))
    if kind == "composed":
        return parse_value(text)
    return decode_arg(text)


def _known(fid, oracle, op, texts, answer, static=False):
    args = parse_args(op, texts)
    if static:
        from layoutcheck.fuzz.checks.base import static_args
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

RECORDED = [r for r in PLANTED if len(r) > 5]  # the rows of oracles/cpp/findings/composed.py


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
    return Outcome.ok(parse_value("(_99):(_1)"))


@pytest.mark.parametrize("fid, oracle, op, texts, text, static", RECORDED,
                         ids=[f"{r[0]}:{r[1]}:{r[2]}" for r in RECORDED])
def test_recorded_answers_are_their_findings(fid, oracle, op, texts, text, static):
    out = _answer(op, text)
    args, ref = _known(fid, oracle, op, texts, out, static)
    _not_known(oracle, op, args, _perturbed(op, out), ref)


def test_cute_cosize_findings_recorded():
    """F-202/F-203: the spec's cosize is the codomain the function reaches."""
    from layoutcheck import spec
    Cl = parse_value("Sw<1,0,1> o _0 o _3:_1")
    assert spec.composed_values(Cl) == (0, 1, 3) and spec.composed_cosize(Cl) == 4
    assert spec.cosize(Cl.inner) == 3  # what CuTe answers
    ids = {r[0] for r in RECORDED}
    assert {"F-202", "F-203"} <= ids


def test_swizzle_slice_findings_recorded():
    """F-205/F-207/F-208/F-209: the model of CuTe's decay gives CuTe's answers, and is right
    when the offset has no field bits; the region predicates draw the lines."""
    from layoutcheck.oracles.compare import answer_values
    from layoutcheck.oracles.cpp.findings.composed import cute_swizzle_slice

    from layoutcheck import spec
    ok = parse_value("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")
    for c in ((2, spec._), (spec._, 3)):
        S, off = spec.composed_slice_and_offset(ok, c)
        assert cute_swizzle_slice(ok, c) == [int(v) for v in answer_values(S)]
    bad = parse_value("Sw<3,3,3> o _16 o (_8,_64):(_64,_1)")
    assert cute_swizzle_slice(bad, (2, spec._))[16] == 112 != spec.composed_eval(bad, (2, 16)) == 176
    assert find_region("cute-cpp", "composed_slice_and_offset", "x",
                       (parse_value("Sw<3,4,3> o _0 o (_10,_2):(_2,_1)"), (spec._, 0))) == "F-205"
    assert find_region("cute-cpp", "composed_slice_and_offset", "x",
                       (parse_value("Sw<3,4,3> o _0 o (_8,_2):(_2,_1)"), (spec._, 0))) is None


def test_dsl_composed_findings_recorded():
    ids = {r[0] for r in RECORDED if r[1] == "cute-dsl"}
    assert {"F-209", "F-210", "F-211", "F-212", "F-213", "F-214", "F-215", "F-216", "F-217", "F-230"} <= ids


def test_cpp_composed_findings_recorded():
    ids = {r[0] for r in RECORDED if r[1] == "cute-cpp"}
    assert {"F-202", "F-205", "F-207", "F-208", "F-222", "F-223", "F-224", "F-226", "F-227", "F-228"} <= ids


# --- NVlabs PyCuTe (real) -------------------------------------------------------------------

def test_nvlabs_composed_findings():
    nv = get_oracle("nvlabs")
    if nv.unavailable_reason():
        pytest.skip(nv.unavailable_reason())
    from layoutcheck.fuzz.checks.base import static_args
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
    env = dict(os.environ, PYTHONPATH=os.environ.get("LAYOUTCHECK_NVLABS_PATH", ""))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and r.stdout.split() == ["SW_3_0_1", "0", "0"], r.stderr
    with pytest.raises(Exception):
        Swizzle(3, 0, 1)  # layoutcheck (and CuTe) refuse it


# --- live (LAYOUTCHECK_SLOW=1) ----------------------------------------------------------------

@pytest.mark.skipif(not SLOW, reason="runs cute-cpp and cute-dsl: LAYOUTCHECK_SLOW=1")
def test_composed_findings_live():
    from layoutcheck.fuzz.checks.base import static_args
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


@pytest.mark.skipif(not SLOW, reason="starts the CuTe DSL once per crash script: LAYOUTCHECK_SLOW=1")
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
