"""TiledCopy partitions (upstream #3160) and the F2 form of a swizzle.

Fast: the spec against CuTe's own printed answers (the 128x32 copy of #1545, #3160's 64x16
swizzled tile), impl against the spec, the answers cute-cpp and cute-dsl gave (recorded as
the oracles print them), the cover law with a planted wrong partition, the regions of F-240
and of F-207 inside partition_S / _D, and the F2 check that catches mutant M28.
``LAYOUTCHECK_SLOW=1``: both oracles live, the F-240 crash script, and #3160's configuration
in the DSL for every thread, with a trace-time and with a runtime thread index (host JIT, no
GPU).
"""

import os
import subprocess
import sys
import textwrap
from collections import Counter

import pytest
from layoutcheck.fuzz.checks.base import CheckFailed, static_args
from layoutcheck.fuzz.checks.swizzle import law_swizzle_as_f2
from layoutcheck.fuzz.checks.tiling import tiled_copy_covers
from layoutcheck.oracles import compare, get_oracle
from layoutcheck.oracles.compare import answer_values
from layoutcheck.oracles.dsl.calls import dsl_answer
from layoutcheck.oracles.known import find_known, find_region
from layoutcheck.oracles.protocol import Outcome, parse_args

from layoutcheck import impl, spec
from layoutcheck.composed import F2Layout, Swizzle, parse_value
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

SLOW = bool(os.environ.get("LAYOUTCHECK_SLOW"))
OP = "tiled_copy_partition_D"
# #3160: BM, BK = 64, 16; Sw<log2 BK, 0, log2 max(BK, Tm)> over a (16,16) row-major atom,
# tile_to_shape'd to (64,16); 8x8 threads (row-major), one value each: CPY_K = 16 / 8 = 2
SA_3160 = "Sw<4,0,4> o _0 o ((_16,_4),(_16,_1)):((_16,_256),(_1,_0))"
THR_3160, VAL_1 = "(_8,_8):(_8,_1)", "(_1,_1):(_0,_0)"
F240 = ["Sw<1,1,-4> o _0 o (_8,_6):(_1,_8)", "(_8,_2):(_1,_8)", "(_1,_1):(_1,_1)", "4"]
F207 = ["Sw<2,1,3> o _49 o (_2,_2):(_2,_1)", "(_2,_2):(_2,_1)", "(_1,_1):(_1,_1)", "3"]


def _args(texts, op=OP):
    return static_args(parse_args(op, texts))


def _values(pair):
    S, off = pair
    return [int(off) + int(v) for v in answer_values(S)]


def test_spec_gives_cutes_printed_partitions():
    """#1545 (a CUTLASS maintainer's print): make_tiled_copy(atom, Layout<Shape<_16,_16>>,
    Layout<Shape<_8,_1>>).get_slice(0).partition_D of a (128,32) column-major smem tensor is
    ((_1,_8),_1,_2):((_0,_1),_0,_2048); #3160's tile at thread 9 keeps the swizzle, the
    thread's offset 17 = (1,1) inside it, CPY_M = 8 rows apart (128), CPY_K = 2 (8 apart)."""
    S, off = spec.tiled_copy_partition_D(LayoutBase.parse("(_128,_32):(_1,_128)"),
                                         LayoutBase.parse("(_16,_16):(_1,_16)"),
                                         LayoutBase.parse("(_8,_1):(_1,_8)"), 0)
    assert str(S) == "((_1,_8),_1,_2):((_0,_1),_0,_2048)" and off == 0
    S, off = spec.tiled_copy_partition_S(*_args([SA_3160, THR_3160, VAL_1, "9"]))
    assert str(S) == "Sw<4,0,4> o _17 o ((_1,_1),_8,_2):((_0,_0),_128,_8)" and off == 0
    tv, tiler = spec.make_tiled_copy(LayoutBase.parse(THR_3160), LayoutBase.parse(VAL_1))
    assert str(tv) == "((_8,_8),_1):((_8,_1),_0)" and tiler == (8, 8)  # the DSL's print of it
    # a dynamic thread layout: CuTe C++ static_asserts ("Dynamic-stride composition"), the
    # spec and impl refuse (right_inverse's @pre is_static): both refusals, so they agree
    dyn = parse_args(OP, ["(1,1):(1,1)", "(1,1):(1,1)", "(1,1):(1,1)", "0"])
    for mod in (spec, impl):
        with pytest.raises(Exception, match="not static") as e:
            mod.tiled_copy_partition_D(*dyn)
        assert e.value.condition == "static"
    cpp = Outcome.raised("compile-time rejection: static assertion failed: Dynamic-stride composition")
    assert compare(OP, dyn, get_oracle("spec", sense="cute").run(OP, *dyn), cpp).ok


@pytest.mark.parametrize("texts", [
    [SA_3160, THR_3160, VAL_1, "9"], [SA_3160, "(_8,_16):(_1,_8)", VAL_1, "37"],
    ["(_64,_16):(_16,_1)", THR_3160, "(_2,_2):(_2,_1)", "5"], F240, F207,
    ["Sw<3,0,3> o _0 o (_8,_8):(_8,_1)", "(_2,_4):(_1,_2)", "(_1,_2):(_1,_1)", "1"],
])
def test_impl_agrees_with_the_spec(texts):
    for op in ("tiled_copy_partition_S", "tiled_copy_partition_D"):
        args = _args(texts, op)
        assert compare(op, args, Outcome.ok(getattr(spec, op)(*args)),
                       Outcome.ok(getattr(impl, op)(*args))).ok


# what the oracles printed for #3160's thread 9 (cute-cpp: lc_composed's tensor_op, the offset
# a MixedBits inside the composed layout; cute-dsl: layout|iterator of partition_D)
RECORDED_3160 = {
    "cute-cpp": "Sw<4,0,4> o 17 o ((_1,_1),_8,_2):((_0,_0),_128,_8)|0",
    "cute-dsl": "S<4,0,4> o 17 o ((1,1),8,2):((0,0),128,8)|0",
}
# the DSL with a runtime thread index (cute.compile, the host function run without a GPU):
# thread 9's 16 offsets, iterator 0 (/tmp script in the SLOW test below)
RUNTIME_3160_T9 = [16, 152, 272, 408, 528, 664, 784, 920, 24, 144, 280, 400, 536, 656, 792, 912]


def test_3160_recorded_answers_are_the_spec():
    """#3160 is not reproduced at the layout level: both oracles' thread-9 views of the
    swizzled tile are the spec's, and so are the DSL's runtime-index values."""
    args = _args([SA_3160, THR_3160, VAL_1, "9"])
    ref = spec.tiled_copy_partition_D(*args)
    for oracle, text in RECORDED_3160.items():
        if oracle == "cute-dsl":
            got = dsl_answer(OP, "composed_offset", text)
        else:
            layout, _, off = text.rpartition("|")
            got = (parse_value(layout), C(int(off)))
        assert compare(OP, args, Outcome.ok(ref), Outcome.ok(got)).ok, oracle
    assert _values(ref) == RUNTIME_3160_T9


class _Planted:
    """The spec, with the partition's offset dropped (a wrong per-thread view)."""
    name = "planted"

    def __init__(self, drop):
        self.spec, self.drop = get_oracle("spec", sense="cute"), drop

    def run_many(self, cases):
        outs = self.spec.run_many(cases)
        if not self.drop:
            return outs
        return [Outcome.ok((S.__class__(S.outer, C(0), S.inner) if hasattr(S, "outer") else S,
                            C(0))) for S, _off in (o.value for o in outs)]


class _Ctx:
    def __init__(self, oracle):
        self.oracle = oracle


def test_cover_law_holds_for_the_spec_and_fails_a_wrong_partition():
    args = _args([SA_3160, THR_3160, VAL_1, "0"])
    law = tiled_copy_covers(OP)
    law(_Ctx(_Planted(False)), args)
    with pytest.raises(CheckFailed, match="exactly once"):
        law(_Ctx(_Planted(True)), args)
    views = [_values(spec.tiled_copy_partition_D(*args[:3], t)) for t in range(64)]
    assert Counter(v for w in views for v in w) == Counter(range(1024))


def test_f240_region_and_answers():
    """F-240: a 6-row swizzled tensor's thread slice fails the swizzle projection: CuTe C++'s
    static_assert and the DSL's abort are F-240; #3160's power-of-two tile is outside it."""
    args = _args(F240)
    ref = get_oracle("spec", sense="cute").run(OP, *args)
    assert ref.kind == "ok" and str(ref.value[0]) == "Sw<1,1,-4> o _4 o ((_1,_1),_1,_3):((_0,_0),_0,_16)"
    cpp = Outcome.raised("compile-time rejection: static assertion failed: Shape Divisibility "
                         "Condition (config.hpp:126)")
    assert find_known("cute-cpp", OP, f"diff.{OP}", args, cpp, ref) == "F-240"
    assert find_known("cute-dsl", OP, f"diff.{OP}", args, Outcome.crashed("killed by SIGABRT"),
                      ref) == "F-240"
    assert find_known("cute-cpp", OP, f"diff.{OP}", args, Outcome.raised("other"), ref) is None
    for texts in ([SA_3160, THR_3160, VAL_1, "9"],
                  ["Sw<1,1,5> o _0 o (_8,_32):(_32,_1)", "(_2,_8):(_1,_2)", "(_1,_2):(_1,_1)", "1"]):
        good = _args(texts)
        assert find_region("cute-dsl", OP, "x", good) != "F-240"
        assert find_known("cute-dsl", OP, f"diff.{OP}", good, Outcome.crashed("killed by SIGABRT"),
                          get_oracle("spec", sense="cute").run(OP, *good)) is None


def test_f207_inside_partition():
    """An offset setting the swizzle's field bits: the DSL's answer (54) is F-207's decay of
    the thread's slice, another answer is not; the spec says Sw<2,1,3>(49 + 3) = 50."""
    args = _args(F207)
    ref = get_oracle("spec", sense="cute").run(OP, *args)
    assert _values(ref.value) == [50]
    dsl = Outcome.ok((parse_value("((_1,_1),_1,_1):((_0,_0),_0,_0)"), C(54)))
    assert find_known("cute-dsl", OP, f"diff.{OP}", args, dsl, ref) == "F-207"
    other = Outcome.ok((parse_value("((_1,_1),_1,_1):((_0,_0),_0,_0)"), C(53)))
    assert find_known("cute-dsl", OP, f"diff.{OP}", args, other, ref) is None


def test_swizzle_as_f2_is_compared_as_a_function():
    """diff.swizzle_as_f2 / law.swizzle_as_f2.function: impl's per-field F2 form and the spec's
    per-bit one agree as functions; M28's form (the YYY field's stride without its ZZZ bit)
    does not, and the law rejects it."""
    sw = Swizzle(3, 4, 3)
    e, a = spec.swizzle_as_f2(sw), impl.swizzle_as_f2(sw)
    assert str(e) != str(a) and compare("swizzle_as_f2", (sw,), Outcome.ok(e), Outcome.ok(a)).ok
    m28 = F2Layout((C(16), C(8), C(1), C(8)), (C(1), C(16), C(128), C(128)))
    assert not compare("swizzle_as_f2", (sw,), Outcome.ok(e), Outcome.ok(m28)).ok

    class Oracle:
        name = "m28"

        def run(self, op, *args):
            return Outcome.ok(m28)
    law_swizzle_as_f2(_Ctx(get_oracle("spec")), (sw,))
    with pytest.raises(CheckFailed, match="differs from the swizzle"):
        law_swizzle_as_f2(_Ctx(Oracle()), (sw,))


# --- live (LAYOUTCHECK_SLOW=1) ------------------------------------------------------------------

def _run_script(folder, code):
    """A DSL script run from a file (the DSL reads a jit function's source)."""
    path = folder / "script.py"
    path.write_text(textwrap.dedent(code))
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=600)


F240_DSL = """
import cutlass, cutlass.cute as cute
@cute.jit
def f():
    L = cute.make_composed_layout(cute.make_swizzle(1, 1, -4), 0, cute.make_layout((8, 6), stride=(1, 8)))
    copy = cute.make_tiled_copy_tv(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Int32),
                                   cute.make_layout((8, 2), stride=(1, 8)), cute.make_layout((1, 1)))
    copy.get_slice(4).partition_D(cute.make_tensor(0, L))
f()
"""


@pytest.mark.skipif(not SLOW, reason="runs cute-cpp and the CuTe DSL: LAYOUTCHECK_SLOW=1")
def test_f240_live(tmp_path):
    pytest.importorskip("cutlass.cute")
    r = _run_script(tmp_path, F240_DSL)
    assert r.returncode == -6 or r.returncode == 134, (r.returncode, r.stderr[-400:])
    args = _args(F240)
    ref = get_oracle("spec", sense="cute").run(OP, *args)
    for name in ("cute-cpp", "cute-dsl"):
        o = get_oracle(name)
        if o.unavailable_reason():
            pytest.skip(o.unavailable_reason())
        assert find_known(name, OP, f"diff.{OP}", args, o.run(OP, *args), ref) == "F-240", name
        good = _args([SA_3160, THR_3160, VAL_1, "9"])
        assert compare(OP, good, Outcome.ok(spec.tiled_copy_partition_D(*good)), o.run(OP, *good)).ok


DSL_3160 = """
import cutlass, cutlass.cute as cute
def build(Tn, row_major):
    atom = cute.make_composed_layout(cute.make_swizzle(4, 0, 4), 0, cute.make_layout((16, 16), stride=(16, 1)))
    sA = cute.tile_to_shape(atom, (64, 16), (0, 1))
    thr = cute.make_layout((8, Tn), stride=(Tn, 1) if row_major else (1, 8))
    return sA, cute.make_tiled_copy_tv(cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cutlass.Float32),
                                       thr, cute.make_layout((1, 1)))
for Tn in (8, 16):
    for row_major in (True, False):
        for which in ("partition_S", "partition_D"):
            print("@key", Tn, int(row_major), which, flush=True)
            @cute.jit
            def static_views():
                sA, copy = build(Tn, row_major)
                for t in cutlass.range_constexpr(8 * Tn):  # a Python loop: t stays static
                    print("@static", t, getattr(copy.get_slice(t), which)(cute.make_tensor(0, sA)))
            static_views()
            @cute.jit
            def runtime_view(tid: cutlass.Int32):
                sA, copy = build(Tn, row_major)
                p = getattr(copy.get_slice(tid), which)(cute.make_tensor(0, sA))
                cute.printf("@runtime {} {}", tid, p.iterator)
                for i in cutlass.range_constexpr(cute.size(p.layout)):
                    cute.printf("@v {}", p.layout(i))
            fn = cute.compile(runtime_view, cutlass.Int32(0))
            for t in range(8 * Tn):
                fn(cutlass.Int32(t))
"""


def _parse_3160(text):
    import re
    views, key, cur, base = {}, None, None, 0
    for line in text.splitlines():
        f = line.split(" ", 1)
        if f[0] == "@key":
            key = tuple(f[1].split())
            views[key] = {"static": {}, "runtime": {}}
        elif f[0] == "@static":
            t, view = f[1].split(" ", 1)
            m = re.fullmatch(r"tensor<(\d+) o (.*)>", view.strip())
            views[key]["static"][int(t)] = _values(dsl_answer(OP, "composed_offset",
                                                              f"{m.group(2)}|{m.group(1)}"))
        elif f[0] == "@runtime":
            t, it = f[1].split()
            base, cur = int(it), views[key]["runtime"].setdefault(int(t), [])
        elif f[0] == "@v":
            cur.append(base + int(f[1]))  # the iterator plus the layout's value
    return views


@pytest.mark.skipif(not SLOW, reason="traces and JIT-compiles #3160's copy 8 times: LAYOUTCHECK_SLOW=1")
def test_3160_every_thread_in_the_dsl(tmp_path):
    """Every thread's partition_S / partition_D of #3160's tile (8x8 and 8x16 threads, either
    major), at trace time and with a runtime thread index run on the host, is the spec's
    view; together the views cover the tile exactly once."""
    pytest.importorskip("cutlass.cute")
    r = _run_script(tmp_path, DSL_3160)
    assert r.returncode == 0, r.stderr[-600:]
    views = _parse_3160(r.stdout)
    assert len(views) == 8
    sA = parse_value(SA_3160)
    for (tn, row, _which), d in views.items():
        tn = int(tn)
        thr = LayoutBase.parse(f"(_8,_{tn}):(_{tn},_1)" if row == "1" else f"(_8,_{tn}):(_1,_8)")
        cover = Counter()
        for t in range(8 * tn):
            want = _values(spec.tiled_copy_partition_D(sA, thr, LayoutBase.parse(VAL_1), t))
            assert d["static"][t] == want and d["runtime"][t] == want, (tn, row, t)
            cover.update(want)
        assert cover == Counter(range(1024))
