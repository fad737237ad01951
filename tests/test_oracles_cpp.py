"""The cute-cpp oracle: real CuTe C++ headers compiled with g++ (issue 5).

One batch (one translation unit, cached by hash) holds good cases, static and dynamic, a
case CuTe rejects at compile time, a case that aborts at run time, and the cases of the
findings F-040..F-049.  The first run compiles a few programs (1-6 s each); later runs
hit the cache.
"""

import pytest

from layoutcheck import LayoutError, spec
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves
from layoutcheck.oracles import compare, get_oracle, parse_args, verdict
from layoutcheck.oracles import cute_cpp

ORACLE = get_oracle("cute-cpp")
pytestmark = pytest.mark.skipif(bool(ORACLE.unavailable_reason()),
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
    ("cosize", "(_2,_3):(_3,_1)"),           # runs after the abort: the program is restarted
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
]


def _cases():
    return [(c[0], parse_args(c[0], list(c[1:]))) for c in CASES]


@pytest.fixture(scope="module")
def batch():
    cases = _cases()
    out = ORACLE.run_many(cases)
    return {c: (args, o) for c, (op, args), o in zip(CASES, cases, out)}


def fn(L):
    return spec.Layout(L.shape, L.stride)


def test_static_and_dynamic_results_are_parsed_with_their_staticness(batch):
    (A, B), out = batch[CASES[0]]
    R = out.value
    assert out.kind == "ok" and all(isinstance(x, C) for x in leaves(R.shape) + leaves(R.stride))
    assert spec.values(fn(R)) == [fn(A)(b) for b in spec.values(fn(B))]  # A(B(i))
    (A, B), out = batch[CASES[1]]  # the same composition with runtime ints
    assert not any(isinstance(x, C) for x in leaves(out.value.shape))
    assert spec.values(fn(out.value)) == [fn(A)(b) for b in spec.values(fn(B))]
    assert str(batch[CASES[2]][1].value) == "_8:_1"
    assert batch[CASES[5]][1].value == 48 and isinstance(batch[CASES[5]][1].value, C)
    assert batch[CASES[6]][1].value == 48 and not isinstance(batch[CASES[6]][1].value, C)
    args, out = batch[CASES[7]]
    assert out.value == tuple(spec.values(args[0]))


def test_results_agree_with_spec_at_the_required_level(batch):
    ref = get_oracle("spec")
    for case in CASES[:8]:
        args, out = batch[case]
        c = compare(case[0], args, ref.run(case[0], *args), out)
        assert c.ok, (case, out, c)


def test_static_assert_is_isolated_in_a_batch(batch):
    _, out = batch[("left_inverse", "4:1")]
    assert out.kind == "raised"
    assert "compile-time rejection" in out.message and "Left inverse requires static strides" in out.message
    # the good cases of the same batch still ran
    assert batch[CASES[0]][1].kind == "ok" and batch[CASES[10]][1].kind == "ok"


def test_runtime_abort_is_reported_and_the_rest_runs(batch):
    _, out = batch[("complement", "4:0")]
    assert out.kind == "raised" and "runtime abort" in out.message
    args, after = batch[CASES[10]]
    assert after.value == spec.cosize(args[0])


def test_binaries_are_cached_by_source_hash(batch):
    again = get_oracle("cute-cpp")
    out = again.run_many(_cases())
    assert again.compiles == 0
    assert [str(o) for o in out] == [str(batch[c][1]) for c in CASES]


def test_bisect_when_diagnostics_point_nowhere(monkeypatch):
    monkeypatch.setattr(cute_cpp, "_blame", lambda *a: {})
    o = get_oracle("cute-cpp")
    good, bad = parse_args("size", ["(3,5)"]), parse_args("left_inverse", ["(2,2):(1,2)"])
    r = o.run_many([("size", good), ("left_inverse", bad)])
    assert r[0].value == 15
    assert r[1].kind == "raised" and "Left inverse requires static strides" in r[1].message


def test_findings_reproduce(batch):
    """F-040..F-049: the oracle's answers are the ones registered, and the verdict knows them."""
    ref = get_oracle("spec")

    def check(case, observed):
        args, out = batch[case]
        assert observed(out), (case, out)
        c = compare(case[0], args, ref.run(case[0], *args), out)
        assert c.ok is False
        assert verdict("cute-cpp", case[0], args, c)[0] == "known", (case, c)
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


def test_missing_headers_or_compiler_make_it_unavailable(tmp_path):
    o = get_oracle("cute-cpp", include_dir=tmp_path / "missing")
    assert "CuTe headers missing" in o.unavailable_reason()
    with pytest.raises(LayoutError, match="unavailable"):
        o.run("size", LayoutBase.parse("4:1"))
    o = get_oracle("cute-cpp", cxx="no-such-compiler-xyz")
    assert "not found" in o.unavailable_reason()


def test_case_source_follows_staticness():
    A, B = parse_args("composition", ["(_4,3):(_1,4)", "(2,_2)"])
    src = cute_cpp.case_source("composition", (A, B))
    assert "Int<4>{}" in src and "int(3)" in src and "make_tile(int(2), Int<2>{})" in src
    assert cute_cpp.type_key("size", (A,)) == cute_cpp.type_key(
        "size", parse_args("size", ["(_4,5):(_1,9)"]))
