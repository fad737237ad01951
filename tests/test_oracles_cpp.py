"""The cute-cpp oracle: real CuTe C++ headers compiled with g++.

One module-scoped batch holds good cases, static and dynamic, a case CuTe rejects at
compile time, cases that abort at run time, the cases of the findings F-040..F-049 and the
ops beyond the algebra.  Kernels live in the persistent library (``$LAYOUTCHECK_CACHE``):
the first run compiles a few units, later runs compile nothing.  The tests marked "no
compile" exercise the parsers and the classification on text alone.
"""

import os

import layoutcheck.oracles.cpp.codegen as cpp_codegen
import layoutcheck.oracles.cpp.driver as cpp_driver
import layoutcheck.oracles.cpp.oracle as cute_cpp
import layoutcheck.oracles.cpp.toolchain as cpp_toolchain
import pytest
from layoutcheck.oracles import compare, get_oracle, parse_args
from layoutcheck.oracles.known import verdict

from layoutcheck import LayoutError, spec
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves

ORACLE = get_oracle("cute-cpp")
needs_cpp = pytest.mark.skipif(bool(ORACLE.unavailable_reason()),
                               reason=str(ORACLE.unavailable_reason()))

CASES = [
    ("composition", "(_6,_2):(_8,_2)", "(_4,_3):(_3,_1)"),
    ("composition", "(6,2):(8,2)", "(4,3):(3,1)"),
    ("coalesce", "(_2,_4):(_1,_2)"),
    ("complement", "(_2,_2):(_1,_6)", "_24"),
    ("logical_divide", "(_8,_6)", "(_2,_3:_2)"),
    ("size", "(_8,_6)"),
    ("size", "(_8,6)"),
    ("values", "(2,(3,2)):(3,(1,6))"),
    ("left_inverse", "4:1"),                 # static_assert: Left inverse requires static strides
    ("complement", "4:0"),                   # dynamic stride 0: SIGFPE at run time
    ("cosize", "(_2,_3):(_3,_1)"),
    ("complement", "8:1"),                   # same kernel as complement 4:0: runs after the abort
    # the findings' cases
    ("coalesce", "(_2,4):(_1,2)"),           # F-040
    ("filter", "4:0"),                       # F-041
    ("right_inverse", "4:1"),                # F-042
    ("complement", "1:6"),                   # F-044
    ("logical_product", "(2,2):(1,2)", "(3):(1)"),  # F-045
    ("composition", "(2,3):(1,2)", "2:0"),   # F-046
    ("composition", "(2,3):(1,2)", "(3):(5)"),  # F-047
    ("composition", "(_4,_1,_1):(_1,_4,_1)", "_4:_12"),  # F-048
    ("coalesce", "():()"),                   # F-049
    ("composition", "(_3,_4):(_1,_10)", "_4:_2"),  # F-030
]

# ops beyond the algebra (DESIGN.md table) -> CuTe's answer, written out by hand
NEW_OPS = {
    ("crd2idx", "(1,2)", "(3,4)"): "7",
    ("crd2idx", "(_1,_2)", "(_3,_4)", "(_1,_3)"): "_7",
    ("idx2crd", "5", "(3,4)", "(1,3)"): "(2,1)",
    ("eval_coord", "(_4,_8):(_1,_4)", "(_1,_2)"): "_9",
    ("eval_coord", "(4,8):(1,4)", "(1,2)"): "9",
    ("get_mode", "(4,(8,2)):(1,(4,32))", "1"): "(8,2):(4,32)",
    ("rank", "(4,8,2):(1,4,32)"): "_3",
    ("slice_", "(_4,_8):(_1,_4)", "(_1,_)"): "(_8):(_4)",
    ("dice", "(4,8):(1,4)", "(1,_)"): "(4):(1)",
    ("slice_and_offset", "(4,8):(1,4)", "(1,_)"): "((8):(4),1)",
    ("layout_left", "(2,_3)"): "(2,_3):(_1,2)",
    ("coalesce", "((_2,_2),_4):((_1,_2),_4)", "(_1,_1)"): "(_4,_4):(_1,_4)",
    ("shape_div", "(_4,_6)", "_8"): "(_1,_3)",
    ("prefix_product", "(2,3,4)"): "(_1,2,6)",
    ("product", "(_2,(_3,_4))"): "_24",
    ("inner_product", "(2,3)", "(4,5)"): "23",
    ("elem_scale", "(2,3)", "(4,5)"): "(8,15)",
    ("congruent", "(_1,_2)", "(_3,(_4,_5))"): "false",
    ("compatible", "12", "(3,4)"): "true",
    ("flatten", "((2,_3),4)"): "(2,_3,4)",
}


def _cases():
    return [(c[0], parse_args(c[0], list(c[1:]))) for c in list(CASES) + list(NEW_OPS)]


@pytest.fixture(scope="module")
def batch():
    cases = _cases()
    o = get_oracle("cute-cpp")
    out = o.run_many(cases)
    keys = list(CASES) + list(NEW_OPS)
    return {c: (args, r) for c, (op, args), r in zip(keys, cases, out)}, o


def fn(L):
    return spec.Layout(L.shape, L.stride)


@needs_cpp
def test_static_and_dynamic_results_are_parsed_with_their_staticness(batch):
    b, _ = batch
    (A, B), out = b[CASES[0]]
    R = out.value
    assert out.kind == "ok" and all(isinstance(x, C) for x in leaves(R.shape) + leaves(R.stride))
    assert spec.values(fn(R)) == [fn(A)(x) for x in spec.values(fn(B))]  # A(B(i))
    (A, B), out = b[CASES[1]]  # the same composition with runtime ints
    assert not any(isinstance(x, C) for x in leaves(out.value.shape))
    assert spec.values(fn(out.value)) == [fn(A)(x) for x in spec.values(fn(B))]
    assert str(b[CASES[2]][1].value) == "_8:_1"
    assert b[CASES[5]][1].value == 48 and isinstance(b[CASES[5]][1].value, C)
    assert b[CASES[6]][1].value == 48 and not isinstance(b[CASES[6]][1].value, C)
    args, out = b[CASES[7]]
    assert out.value == tuple(spec.values(args[0]))


@needs_cpp
def test_results_agree_with_spec_at_the_required_level(batch):
    b, _ = batch
    ref = get_oracle("spec")
    for case in CASES[:8]:
        args, out = b[case]
        c = compare(case[0], args, ref.run(case[0], *args), out)
        assert c.ok, (case, out, c)


@needs_cpp
def test_static_assert_is_isolated_in_a_batch(batch):
    b, _ = batch
    _, out = b[("left_inverse", "4:1")]
    assert out.kind == "raised"
    assert "compile-time rejection" in out.message and "Left inverse requires static strides" in out.message
    assert b[CASES[0]][1].kind == "ok" and b[CASES[10]][1].kind == "ok"


@needs_cpp
def test_runtime_abort_is_reported_and_the_driver_restarts_after_it(batch):
    b, o = batch
    _, out = b[("complement", "4:0")]
    assert out.kind == "raised" and "runtime abort (signal 8)" in out.message
    # the same kernel, later in the same driver run: answered after the abort (caught inside
    # the driver, which goes on in the same process)
    assert cute_cpp.type_key("complement", parse_args("complement", ["4:0"])) == \
        cute_cpp.type_key("complement", parse_args("complement", ["8:1"]))
    args, after = b[("complement", "8:1")]
    assert after.kind == "ok"
    assert compare("complement", args, get_oracle("spec").run("complement", *args), after).ok
    assert o.stats()["aborts_caught"] >= 1


@needs_cpp
def test_kernels_are_cached_in_the_persistent_library(batch):
    b, _ = batch
    again = get_oracle("cute-cpp")
    out = again.run_many(_cases())
    assert again.compiles == 0
    assert [str(o) for o in out] == [str(b[c][1]) for c in list(CASES) + list(NEW_OPS)]
    s = again.stats()
    assert s["cases_total"] == len(out) and s["kernels_compiled"] == 0
    assert s["cases"]["static"] > 0 and s["cases"]["driver"] > 0 and s["cases"]["rejected"] > 0
    assert s["cutlass_version"] == cpp_toolchain.cutlass_version(ORACLE.include_dir)


@needs_cpp
def test_bisect_when_diagnostics_point_nowhere(monkeypatch):
    """Forces a compile (the library answers nothing and keeps nothing) with blame off."""
    monkeypatch.setattr(cpp_driver, "blame", lambda *a: {})
    o = get_oracle("cute-cpp")
    monkeypatch.setattr(o.library, "lookup", lambda keys, count=True: [k for k in dict.fromkeys(keys)])
    monkeypatch.setattr(o.library, "_record", lambda rows: o.library.memo.update(rows))
    good, bad = parse_args("size", ["(3,5)"]), parse_args("left_inverse", ["(2,2):(1,2)"])
    r = o.run_many([("size", good), ("left_inverse", bad)])
    assert r[0].value == 15 and o.compiles >= 2
    assert r[1].kind == "raised" and "Left inverse requires static strides" in r[1].message


@needs_cpp
def test_a_rejection_is_what_g_plus_plus_says_of_the_kernel_alone(tmp_path):
    """F-045: logical_product and tiled_product of the same runtime-stride operands fail in the
    same complement instantiation, which g++ reports once, for the first kernel of the unit;
    the second reads "no matching function for call to 'repeat<R1>(...)'" there.  That kernel
    is compiled again alone, so both answers are the static_assert, whatever the unit."""
    o = cute_cpp.CuteCppOracle(cache_dir=tmp_path, jobs=1)
    args = parse_args("logical_product", ["(2,2):(1,2)", "(3):(1)"])
    out = o.run_many([("logical_product", args), ("tiled_product", args)])
    for r in out:
        assert r.kind == "raised", r
        assert "static assertion failed: Dynamic-stride complement only for rank-1 layouts" in r.message
    ref = get_oracle("spec").run("tiled_product", *args)
    c = compare("tiled_product", args, ref, out[1])
    assert verdict("cute-cpp", "tiled_product", args, c, out[1], ref) == ("known", "F-045")


def test_own_diagnostic_no_compile():
    assert cpp_driver.own_diagnostic(["a.hpp:3:5: error: static assertion failed: X"])
    assert not cpp_driver.own_diagnostic(
        ["u.cpp:9:1: error: no matching function for call to 'repeat<R1>(const cute::Underscore&)'"])


@needs_cpp
def test_findings_reproduce(batch):
    """F-040..F-049, F-030: the oracle's answers are the ones registered, and the verdict knows them."""
    b, _ = batch
    ref = get_oracle("spec")

    def check(case, observed):
        args, out = b[case]
        assert observed(out), (case, out)
        want = ref.run(case[0], *args)
        c = compare(case[0], args, want, out)
        assert c.ok is False
        assert verdict("cute-cpp", case[0], args, c, out, want)[0] == "known", (case, c)
        return args, out

    check(("coalesce", "(_2,4):(_1,2)"), lambda o: str(o.value) == "(_2,4):(_1,2)")
    check(("filter", "4:0"), lambda o: str(o.value) == "4:0")
    check(("right_inverse", "4:1"), lambda o: str(o.value) == "_1:_0")
    check(("complement", "1:6"), lambda o: str(o.value) == "(6,1):(_1,6)")
    check(("logical_product", "(2,2):(1,2)", "(3):(1)"),
          lambda o: o.kind == "raised" and "Dynamic-stride complement" in o.message)
    check(("composition", "(2,3):(1,2)", "2:0"),
          lambda o: o.kind == "raised" and "signal 8" in o.message)
    (A, B), out = check(("composition", "(2,3):(1,2)", "(3):(5)"), lambda o: o.kind == "ok")
    assert fn(out.value)(1) == 6 != fn(A)(fn(B)(1)) == 5  # not A(B(i)) inside A's domain
    check(("composition", "(_4,_1,_1):(_1,_4,_1)", "_4:_12"), lambda o: str(o.value) == "_4:_3")
    check(("coalesce", "():()"), lambda o: o.kind == "raised" and "compile-time rejection" in o.message)
    assert str(b[("composition", "(_3,_4):(_1,_10)", "_4:_2")][1].value) == "(_2,_2):(_2,_10)"


@needs_cpp
def test_ops_beyond_the_algebra(batch):
    b, _ = batch
    ref = get_oracle("spec")
    for case, want in NEW_OPS.items():
        args, out = b[case]
        assert out.kind == "ok", (case, out)
        assert cute_cpp.format_arg(out.value) == want, (case, out)
        c = compare(case[0], args, ref.run(case[0], *args), out)
        assert c.ok, (case, out, c)
    assert b[("congruent", "(_1,_2)", "(_3,(_4,_5))")][1].value is False  # C<false>: a bool
    assert b[("compatible", "12", "(3,4)")][1].value is True  # a runtime bool


def test_unsupported_arities_and_functions_no_compile():
    o = get_oracle("cute-cpp")
    if o.unavailable_reason():
        pytest.skip(o.unavailable_reason())
    out = o.run("crd2crd", *parse_args("crd2crd", ["1", "(3,4)"]))
    assert out.kind == "unsupported" and "source shape" in out.message
    assert o.compiles == 0
    lines = ["unit.cpp:5:9: error: 'dice' is not a member of 'cute'"]
    assert cpp_driver._classify(lines) == ("unsupported", "this CuTe tree has no cute::dice")


def test_classification_of_compile_errors_no_compile():
    sa = ["/x/include/cute/config.hpp:126:64: error: static assertion failed: Stride Divisibility Condition"]
    state, text = cpp_driver._classify(sa)
    assert state == "rejected" and text.startswith("compile-time rejection: static assertion failed: "
                                                   "Stride Divisibility Condition (config.hpp:126)")
    overload = ["unit.cpp:7:3: error: no matching function for call to 'cute::layout<3>(cute::Layout<int>)'"]
    assert cpp_driver._classify(overload)[0] == "rejected"
    ours = ["/c/lc_prelude.hpp:64:60: error: 'value' is not a member of 'cute::tuple<int, int>'"]
    assert cpp_driver._classify(ours)[0] == "harness"
    syntax = ["unit.cpp:9:12: error: expected ';' before '}' token"]
    assert cpp_driver._classify(syntax)[0] == "harness"


def test_answers_are_parsed_exactly_no_compile():
    pa = cpp_codegen.parse_answer
    assert str(pa("L ((_2,4),1):((_1,2),_0)")) == "((_2,4),1):((_1,2),_0)"
    assert pa("T (_1,(2,_3))") == (C(1), (2, C(3))) and isinstance(pa("T _5"), C)
    assert pa("B true") is True and pa("B _false") is False
    lay, off = pa("P (8):(4) 1")
    assert str(lay) == "(8):(4)" and off == 1
    assert pa("V 0 3 1") == (0, 3, 1) and pa("V") == ()
    for bad in ("L (2,3):(1)", "?cute::ScaledBasis", "T (2,", "L 4:1 junk", "X 1"):
        with pytest.raises(LayoutError):
            pa(bad)
    pt = cpp_codegen.parse_static_type
    t = "cute::Layout<cute::tuple<cute::C<2>, cute::C<2> >, cute::tuple<cute::C<2>, cute::C<10> > >"
    assert str(pt(t)) == "(_2,_2):(_2,_10)"
    assert pt("cute::C<true>") is True and pt("cute::tuple<>") == ()
    assert pt("cute::integral_constant<int, 7>") == C(7)
    assert pt("cute::ScaledBasis<cute::C<1>, 0>") is None  # unknown: run as a driver kernel


def test_garbage_output_is_a_crash_not_a_refusal_no_compile():
    case = ("size", parse_args("size", ["4:1"]))
    out = cute_cpp.outcome(case, "L garbage")
    assert out.kind == "crashed" and "cannot read" in out.message


def test_kernel_text_follows_staticness_no_compile():
    A, B = parse_args("composition", ["(_4,3):(_1,4)", "(2,_2)"])
    src = cute_cpp.case_source("composition", (A, B))
    assert "cute::Int<4>{}" in src and "v0" in src and "cute::make_tile(v" in src and "cute::Int<2>{}" in src
    same = parse_args("composition", ["(_4,7):(_1,9)", "(5,_2)"])
    assert cute_cpp.type_key("composition", (A, B)) == cute_cpp.type_key("composition", same)
    other = parse_args("composition", ["(_4,_3):(_1,4)", "(2,_2)"])  # a static 3: another type
    assert cute_cpp.type_key("composition", (A, B)) != cute_cpp.type_key("composition", other)
    k, values = cpp_codegen.kernel("composition", (A, B), ("layout", "tiler"))
    assert values == [3, 4, 2] and not k.static
    k, values = cpp_codegen.kernel("size", parse_args("size", ["(_4,_3)"]), ("layout",))
    assert k.static and values == [] and "lc::show" in k.body
    with pytest.raises(cpp_codegen.Unsupported, match="32-bit"):
        cpp_codegen.kernel("size", parse_args("size", [str(2 ** 31)]), ("layout",))


def test_missing_headers_or_compiler_make_it_unavailable(tmp_path):
    o = get_oracle("cute-cpp", include_dir=tmp_path / "missing")
    assert "CuTe headers missing" in o.unavailable_reason()
    with pytest.raises(LayoutError, match="unavailable"):
        o.run("size", LayoutBase.parse("4:1"))
    o = get_oracle("cute-cpp", cxx="no-such-compiler-xyz")
    assert "not found" in o.unavailable_reason()


def test_toolchain_version_key_and_flag(tmp_path, monkeypatch):
    inc = tmp_path / "include"
    (inc / "cutlass").mkdir(parents=True)
    (inc / "cute").mkdir()
    (inc / "cute" / "layout.hpp").write_text("// empty\n")
    (inc / "cutlass" / "version.h").write_text(
        "#define CUTLASS_MAJOR 9\n#define CUTLASS_MINOR 8\n#define CUTLASS_PATCH 7\n")
    assert cpp_toolchain.cutlass_version(inc) == "9.8.7"
    assert cpp_toolchain.cutlass_version(tmp_path) is None
    tc = cpp_toolchain.Toolchain(include_dir=inc, cache_dir=tmp_path / "cache")
    assert tc.describe() == f"CUTLASS 9.8.7 headers at {inc.resolve()}"
    if ORACLE.unavailable_reason() is None:  # the key needs the compiler's --version
        assert tc.key != ORACLE.toolchain.key and tc.folder.parent == tmp_path / "cache"

    class Args:
        cute_include = str(tmp_path / "nowhere")
    with pytest.raises(LayoutError, match="no cute/layout.hpp"):
        cpp_toolchain.apply_cute_include(Args())
    Args.cute_include = str(inc)
    monkeypatch.setenv(cpp_toolchain.ENV_INCLUDE, "")  # restored after the test, set or not
    cpp_toolchain.apply_cute_include(Args())
    assert os.environ[cpp_toolchain.ENV_INCLUDE] == str(inc.resolve())
    assert get_oracle("cute-cpp").include_dir == inc.resolve()


@pytest.mark.skipif(not os.environ.get("LAYOUTCHECK_EXTRA_CUTE_INCLUDES"),
                    reason="LAYOUTCHECK_EXTRA_CUTE_INCLUDES (colon-separated include dirs of "
                           "other CUTLASS versions) is not set")
def test_F030_on_other_cutlass_versions():
    case = parse_args("composition", ["(_3,_4):(_1,_10)", "_4:_2"])
    for inc in os.environ["LAYOUTCHECK_EXTRA_CUTE_INCLUDES"].split(":"):
        o = get_oracle("cute-cpp", include_dir=inc)
        assert o.unavailable_reason() is None, o.unavailable_reason()
        assert o.provenance().startswith("CUTLASS ")
        assert str(o.run("composition", *case).value) == "(_2,_2):(_2,_10)"


def test_a_hanging_case_is_a_crash_and_the_run_goes_on_no_compile(tmp_path):
    """A stand-in driver (a shell script) that hangs on one input line."""
    tc = cpp_toolchain.Toolchain(cache_dir=tmp_path)
    if tc.unavailable_reason():
        pytest.skip(tc.unavailable_reason())
    script = tc.folder / "fake.bin"
    script.write_text("#!/bin/sh\nwhile read a b; do\n  [ \"$b\" = 99 ] && sleep 60\n"
                      "  printf 'T %s\\n@@e\\n' \"$b\"\ndone\n")
    script.chmod(0o755)
    lib = cpp_driver.Library(tc, jobs=1, timeout=2)
    out = lib.run("fake.bin", ["0 1", "0 99", "0 3"])
    assert out == [("T 1", None), (None, cpp_driver.HANG), ("T 3", None)]
    case = ("size", parse_args("size", ["4:1"]))
    assert cute_cpp._crashed("x").kind == "crashed" and cute_cpp.outcome(case, "T 4").value == 4


@pytest.mark.skipif(not os.environ.get("LAYOUTCHECK_EXTRA_CUTE_INCLUDES"),
                    reason="LAYOUTCHECK_EXTRA_CUTE_INCLUDES is not set")
def test_gpu_cute_kernels_follow_cute_include(monkeypatch):
    """The GPU CuTe kernels (through the host shim) on another tree: it is named, and F-030
    shows there too."""
    from layoutcheck.gpu_checks import checks as K
    from layoutcheck.gpu_checks import toolchain as T
    from layoutcheck.gpu_checks.execute import HostModule
    from layoutcheck.gpu_checks.kernels import CuteCase
    for inc in os.environ["LAYOUTCHECK_EXTRA_CUTE_INCLUDES"].split(":"):
        monkeypatch.setenv(cpp_toolchain.ENV_INCLUDE, inc)
        version = cpp_toolchain.cutlass_version(inc)
        assert T.cute_description() == f"CUTLASS {version} headers at {os.path.realpath(inc)}"
        case = CuteCase("composition", LayoutBase.parse("(_3,_4):(_1,_10)"), LayoutBase.parse("_4:_2"))
        res = K.check_cute(HostModule, [case])
        assert any("R = (_2,_2):(_2,_10)" in m for m in res.mismatches + res.notes), res


def test_case_mix_for_cute_cpp_no_compile():
    from layoutcheck.oracles.cpp.cases import CaseMix, retype, staticness
    mixed = parse_args("composition", ["(_4,3):(_1,4)", "(2,_2)"])
    assert staticness(mixed) == "mixed"
    assert staticness(retype(mixed, True)) == "static" and staticness(retype(mixed, False)) == "dynamic"
    assert str(retype(mixed, True)[0]) == "(_4,_3):(_1,_4)" and str(retype(mixed, False)[0]) == "(4,3):(1,4)"
    mix = CaseMix(None, mixed=0.2, static=0.3, seed=1)
    for args in (retype(mixed, True), retype(mixed, False)):  # kept as drawn
        assert mix.apply("composition", args) == args and staticness(mix.apply("composition", args)) == staticness(args)
    kinds = {"static": 0, "dynamic": 0, "mixed": 0}
    for n in range(1, 401):
        case = parse_args("composition", [f"(_4,{n}):(_1,4)", "(2,_2)"])
        out = mix.apply("composition", case)
        assert out == mix.apply("composition", case)  # a function of the case and the seed
        assert [leaves(a.shape) if isinstance(a, LayoutBase) else a for a in out][0][1] == n
        kinds[staticness(out)] += 1
    assert 40 < kinds["mixed"] < 120 and 80 < kinds["static"] < 160 and 160 < kinds["dynamic"] < 280, kinds
