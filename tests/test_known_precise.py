"""Answer-precise recognition of known findings (DESIGN.md "Answer-precise findings").

* The models of the implementations (oracles/pycute_wheel/model.py for pycute, oracles/cpp/model.py for
  CuTe C++, oracles/dsl/findings/algebra.py for the DSL) give the real answers: random cases and the
  register's cases are run through the real oracles and compared.
* Per finding: the answer the bug produces is known, a *different* wrong answer planted in the
  same region is new (no finding explains it).
* Laws: a law failure is known only when replacing every explained answer by the reference's
  makes the law pass (fuzz/campaign/recognise.py); an unexplained answer next to a known one is new.
* The gate: a copy of pycute (``module:NAME@pycute``) whose composition gives a different wrong
  answer in F-071's region fails ``layoutcheck fuzz``; the unpatched copy passes.
"""

import os
import re
import textwrap

import layoutcheck.oracles.cpp.model as models_cpp
import layoutcheck.oracles.dsl.findings.algebra as known_dsl
import layoutcheck.oracles.pycute_wheel.model as models
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hseed
from layoutcheck.fuzz.campaign.recognise import known_failure
from layoutcheck.fuzz.checks.algebra import STRATS
from layoutcheck.fuzz.checks.base import CheckFailed, static_args
from layoutcheck.fuzz.checks.catalogue import BY_NAME
from layoutcheck.oracles import get_oracle, parse_args
from layoutcheck.oracles.known import PREDICATES, explain, find_known, find_region
from layoutcheck.oracles.postconditions import is_left_inverse, is_quasi_inverse, is_weak_complement
from layoutcheck.oracles.protocol import OPS, Outcome
from layoutcheck.oracles.reference import reference_for
from layoutcheck.oracles.regions import cute_composition_check
from planted_support import MODEL, module_rows, split_top

from layoutcheck import spec
from layoutcheck.findings import load, match_tables
from layoutcheck.layout import LayoutBase

P = LayoutBase.parse


def _oracle(name):
    o = get_oracle(name)
    if o.unavailable_reason():
        pytest.skip(f"{name}: {o.unavailable_reason()}")
    return o


def _draw(ops, n, seed_value=5):
    cases = []
    for op in ops:
        @settings(max_examples=n, database=None, deadline=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))
        @hseed(seed_value)
        @given(STRATS[op]())
        def collect(args):
            cases.append((op, tuple(args)))
        collect()
    return cases


def _mismatches(name, cases, outs):
    model, same = MODEL[name]
    bad = []
    for (op, args), out in zip(cases, outs):
        m = model(op, *args)
        if m is None or out.kind == "unsupported":
            continue
        ok = same(out, m, op) if name == "cute-dsl" else same(out, m)
        if not ok:
            bad.append((op, [str(a) for a in args], str(out)[:120], str(m)[:120]))
    return bad


# --- the models give the real answers ----------------------------------------------------------

PY_OPS = ("coalesce", "filter", "composition", "complement", "right_inverse", "left_inverse",
          "logical_divide", "zipped_divide", "tiled_divide", "logical_product", "zipped_product",
          "tiled_product", "cosize")


def test_pycute_model_matches_pycute():
    py = _oracle("pycute")
    cases = _draw(PY_OPS, 120)
    cases += [(op, parse_args(op, t)) for op, t in (
        ("composition", ["4:1", "():()"]), ("logical_product", ["4:1", "():()"]), ("cosize", ["():()"]),
        ("left_inverse", ["(2,2):(1,3)"]), ("right_inverse", ["(2,2):(0,1)"]), ("logical_product", ["4:1", "3"]))]
    bad = _mismatches("pycute", cases, py.run_many(cases))
    assert not bad, bad[:5]


CPP_CASES = [  # the register's C++ cases (static and runtime integers), and the upstream ones
    ("composition", ["(_3,_4):(_1,_10)", "_4:_2"]),                        # F-030
    ("composition", ["(_4,_6,_8):(_2,_3,_5)", "_6:_3"]),                   # F-030, CUTLASS #3177
    ("composition", ["(_2,_3,_2):(_1,_2,_8)", "(_2,_3):(_3,_2)"]),         # F-088
    ("composition", ["(_6,_2):(_1,_7)", "(_3,_2):(_2,_3)"]),               # F-088, CUTLASS #2955
    ("composition", ["(2,3):(_1,2)", "(2,3):(3,1)"]),                      # F-047, CUTLASS #1353
    ("composition", ["(2,3):(1,2)", "(3):(5)"]),                           # F-047
    ("composition", ["(2,3):(1,2)", "2:0"]),                               # F-046
    ("composition", ["(_21,_1,_1):(_2,_42,_4)", "_1:_22"]),                # F-058
    ("composition", ["(_4,_8):(_1,_4)", "(_2:_2)"]),                       # F-120
    ("composition", ["(_4,_1,_1):(_1,_4,_1)", "_4:_12"]),                  # F-048
    ("composition", ["4:1", "():()"]), ("logical_product", ["4:1", "():()"]),   # F-049
    ("coalesce", ["():()"]), ("coalesce", ["(_2,4):(_1,2)"]), ("coalesce", ["(1):(1)"]),  # F-040
    ("filter", ["(2,2,3):(11,5,0)"]),                                      # F-041
    ("right_inverse", ["4:1"]), ("left_inverse", ["4:1"]),                 # F-042, F-043
    ("left_inverse", ["(_2,_2):(_1,_1)"]), ("left_inverse", ["(_2,_8):(_13,_0)"]),  # F-053
    ("complement", ["4:0"]), ("logical_divide", ["8:1", "2:0"]),           # F-044
    ("complement", ["(2,2):(1,6)", "24"]), ("complement", ["1:6"]),        # F-122
    ("logical_product", ["(2,2):(1,2)", "(3):(1)"]),                       # F-045
    ("logical_divide", ["(8,6):(1,8)", "(2:1,(3,1):(2,1))"]),              # F-052
    ("logical_divide", ["(5,_51,1):(2,_6,0)", "(_255):(2)"]), ("logical_product", ["_2:_2", "3"]),  # F-054
    ("tiled_divide", ["3:1", "3:1"]), ("flat_divide", ["(6,6):(2,7)", "2"]),  # F-055
    ("zipped_product", ["((_19,_2)):((_3,_228))", "(_3,_1):(_4,_4)"]),     # F-056
    ("raked_product", ["_4:_4", "_8:_1"]), ("blocked_product", ["(_4):(_1)", "_3:_1"]),  # F-057
    ("zipped_product", ["(_50):(_3)", "(_4):(_2)"]),                       # F-059
    ("blocked_product", ["_4:_1", "(_3):(_1)"]),                           # F-121
    ("complement", ["(_2,_2):(_1,_3)", "_8"]),                             # F-075
    ("left_inverse", ["(_2,_3):(_2,_1)"]),                                 # F-124
    ("composition", ["((_1,_3),_1,_1,1):((_0,_2),_0,_3,0)", "(_3):(_2)"]),  # F-058, a runtime 1
    ("composition", ["(_27,_6):(_2,_28)", "(_3,_3):(_55,_162)"]),          # F-025 past the end
    ("composition", ["(_6,1,_1):(_2,6,_16)", "(6,(5,_1)):(0,(13,_16))"]),  # F-058 (static_assert before SIGFPE)
]
CPP_KNOWN = {0: "F-030", 1: "F-030", 2: "F-088", 3: "F-088", 4: "F-047", 5: "F-047", 6: "F-046",
             7: "F-058", 8: "F-120", 9: "F-048", 10: "F-049", 11: "F-049", 12: "F-049", 13: "F-040",
             14: "F-040", 15: "F-041", 16: "F-042", 17: "F-043", 18: "F-053", 19: "F-053",
             20: "F-044", 21: "F-044", 22: "F-122", 23: "F-122", 24: "F-045", 25: "F-052",
             26: "F-054", 27: "F-054", 28: "F-055", 29: "F-055", 30: "F-056", 31: "F-057",
             32: "F-057", 33: "F-059", 34: "F-121", 35: "F-075", 36: "F-124", 37: "F-058", 38: "F-025", 39: "F-058"}


def _include_dirs():
    """The wheel's headers, plus any in LAYOUTCHECK_EXTRA_CUTE_INCLUDES (os.pathsep separated:
    e.g. an include/ of CUTLASS 4.7.0, where the same findings reproduce)."""
    extra = [d for d in os.environ.get("LAYOUTCHECK_EXTRA_CUTE_INCLUDES", "").split(os.pathsep) if d]
    return [None] + extra


@pytest.mark.parametrize("include", _include_dirs())
def test_cpp_register_cases_match_the_model(include):
    """Each case through the real headers (one batch, cached): CuTe's answer is the model's,
    and the register names the finding the case belongs to (with CuTe's answer)."""
    o = get_oracle("cute-cpp", **({"include_dir": include} if include else {}))
    if o.unavailable_reason():
        pytest.skip(o.unavailable_reason())
    cases = [(op, parse_args(op, t)) for op, t in CPP_CASES]
    outs = o.run_many(cases)
    assert not _mismatches("cute-cpp", cases, outs)
    ref = reference_for("cute-cpp", get_oracle("spec"))
    got = {k: find_known("cute-cpp", op, "agreement", a, out, ref.run(op, *a))
           for k, ((op, a), out) in enumerate(zip(cases, outs))}
    assert got == CPP_KNOWN, {k: (CPP_CASES[k], v) for k, v in got.items() if CPP_KNOWN.get(k) != v}


def test_cpp_model_matches_random_cases():
    o = _oracle("cute-cpp")
    cases = [(op, a) for op, a in _draw(("coalesce", "composition", "complement", "left_inverse",
                                         "right_inverse", "logical_divide", "logical_product",
                                         "zipped_divide", "blocked_product", "raked_product"), 8, 11)
             if "_" not in re.split(r"[^_\w]", " ".join(map(str, a)))]  # no `_` tilers here
    assert not _mismatches("cute-cpp", cases, o.run_many(cases))


DSL_CASES = [("composition", ["(_3,_4):(_1,_10)", "_4:_2"]), ("composition", ["(5,2):(1,10)", "4:3"]),
             ("composition", ["(_2,_3,_2):(_1,_2,_8)", "(_2,_3):(_3,_2)"]),
             ("left_inverse", ["3:0"]), ("left_inverse", ["(2,3):(0,1)"]),
             ("complement", ["(2,2):(1,3)", "8"]), ("zipped_divide", ["14:4", "2"]),
             ("zipped_product", ["4:1", "2"]), ("tiled_product", ["(_4,_6):(_1,_4)", "(_2,_3)"]),
             ("raked_product", ["12:3", "12:1"]), ("raked_product", ["(_63,1):(_2,7)", "6:1"]),
             ("blocked_product", ["_2:_2", "_2:_3"]), ("coalesce", ["():()"]),
             ("tiled_divide", ["(41):(1)", "(41)"]), ("logical_product", ["_2:_2", "1"]),
             ("left_inverse", ["(_2,_3):(_2,_1)"]), ("left_inverse", ["(23,4,_2,(1,1)):(1,1,_53,(368,185))"])]


def test_dsl_model_matches_the_dsl():
    o = _oracle("cute-dsl")
    cases = [(op, parse_args(op, t)) for op, t in DSL_CASES]
    cases += [(op, a) for op, a in _draw(("composition", "complement", "left_inverse", "right_inverse",
                                          "logical_product", "blocked_product", "raked_product",
                                          "tiled_divide"), 15, 3)
              if "_" not in re.split(r"[^_\w]", " ".join(map(str, a)))]
    assert not _mismatches("cute-dsl", cases, o.run_many(cases))


# --- per finding: the bug's answer is known, a different one in its region is new ---------------

def _family_cases():
    """(finding, oracle, op, args) for each op(args) of a case of a finding whose region
    holds for an oracle that has a model here."""
    out = []
    for f in load():
        for case in split_top(f["case"], ";"):
            m = re.fullmatch(r"(\w+)\((.*)\)", case)
            if not (m and m.group(1) in OPS):
                continue
            op, args = m.group(1), parse_args(m.group(1), split_top(m.group(2), ","))
            for t in match_tables(f):
                oracle = next((o for o in t.get("oracles", ()) if o in MODEL), None)
                if oracle and find_region(oracle, op, "agreement", args) and MODEL[oracle][0](op, *args):
                    out.append(pytest.param(f["id"], oracle, op, args, id=f"{f['id']}:{oracle}:{case}"))
                    break
    return out


def _planted(answer):
    """Wrong answers that are *not* the bug's: another layout, another refusal, a refusal
    where the bug answers, an answer where the bug refuses."""
    if answer.kind == "ok" and isinstance(answer.value, LayoutBase):
        L = answer.value
        bigger = LayoutBase((L.shape, 2), (L.stride, 997))
        return [Outcome.ok(bigger), Outcome.raised("AssertionError (no message)")
                if "AssertionError" not in str(answer) else Outcome.raised("ValueError: planted")]
    return [Outcome.ok(LayoutBase((3, 5), (1, 997))), Outcome.raised("ZeroDivisionError: planted")]


@pytest.mark.parametrize("fid, oracle, op, args", _family_cases())
def test_planted_answer_in_the_region_is_new(fid, oracle, op, args):
    answer = MODEL[oracle][0](op, *args)
    ref = reference_for(oracle, get_oracle("spec")).run(op, *args)
    got = find_known(oracle, op, "agreement", args, answer, ref)
    assert got is not None, f"the bug's own answer {answer} is not known"
    for planted in _planted(answer):
        assert find_known(oracle, op, "agreement", args, planted, ref) is None, (planted, fid)


def test_planted_families_cover_the_register():
    """Every finding with an oracle table of pycute, cute-cpp or cute-dsl and an op(args) case
    has a planted-answer test above or a row in its family module (tests/test_planted.py)."""
    covered = {p.values[0] for p in _family_cases()} | {row[0] for _, row in module_rows()}
    want = {f["id"] for f in load() for t in match_tables(f)
            if set(t.get("oracles", ())) & set(MODEL) and re.search(r"\w+\(", f["case"])}
    assert len(covered) >= 0.85 * len(want), sorted(want - covered)


# --- laws: the counterfactual re-run -----------------------------------------------------------

class _Model:
    """An in-process oracle answering from a model, with planted answers for some calls."""

    def __init__(self, name, planted=None):
        self.name, self.planted, self.calls = name, dict(planted or {}), []

    def run(self, op, *args):
        self.calls.append(op)
        key = (op, tuple(map(str, args)))
        if key in self.planted:
            return self.planted[key]
        out = MODEL[self.name][0](op, *args)
        return out if out is not None else Outcome.unsupported("not modelled")


class _Ctx:
    def __init__(self, oracle):
        self.oracle, self.spec = oracle, reference_for(oracle.name, get_oracle("spec"))


def _fails(check, ctx, args):
    with pytest.raises(CheckFailed):
        BY_NAME[check].run(ctx, args)


def test_law_failure_known_only_with_every_answer_explained():
    args = (P("4:1"), 3)  # F-076: pycute's logical_product(A, int) is logical_divide
    ctx = _Ctx(_Model("pycute"))
    _fails("law.logical_product.modes", ctx, args)
    assert known_failure(BY_NAME["law.logical_product.modes"], ctx, args).finding == "F-076"
    # pycute reads every integer as static: the gate gives it (and its reference) all-static inputs
    planted = _Ctx(_Model("pycute", {("logical_product", ("_4:_1", "_3")): Outcome.ok(P("(3,2):(1,4)"))}))
    _fails("law.logical_product.modes", planted, args)
    assert known_failure(BY_NAME["law.logical_product.modes"], planted, args).finding is None


def _pair_check(calls):
    """A law-style check over several oracle calls: each answer must be the reference's."""
    from layoutcheck.fuzz.checks.base import Check

    def run(ctx, args):
        for op, a in calls:
            out, ref = ctx.oracle.run(op, *a), ctx.spec.run(op, *a)
            if (out.kind, out.value) != (ref.kind, ref.value):
                raise CheckFailed(f"{op} differs", {"oracle": str(out), "reference": str(ref)})
    return Check("law.test.calls", calls[0][0], "law", None, run)


def test_law_with_two_calls_needs_both_explained():
    """Two calls, each in a known region (F-071 composition, F-075 complement): with both
    answers the bugs' own the case is known; with the second answer planted (a new bug next
    to a known one) the counterfactual run still fails: new."""
    calls = [("composition", (P("(4,2):(1,8)"), P("5:1"))), ("complement", (P("(2,2):(1,3)"), 8))]
    check = _pair_check(calls)
    ctx = _Ctx(_Model("pycute"))
    _fails_check = pytest.raises(CheckFailed)
    with _fails_check:
        check.run(ctx, ())
    rec = known_failure(check, ctx, ())
    assert rec.finding == "F-071" and [c[3] for c in rec.calls] == ["F-071", "F-075"], rec
    planted = _Ctx(_Model("pycute", {("complement", ("(2,2):(1,3)", "8")): Outcome.ok(P("2:5"))}))
    rec = known_failure(check, planted, ())
    assert rec.finding is None and [c[3] for c in rec.calls] == ["F-071", None], rec


def test_law_outside_its_domain_after_substitution_is_known_and_the_diff_check_sees_more():
    """law.zipped_divide.derived calls zipped_divide, then tiled_divide.  With the divisor not
    complementable (F-075) the reference refuses, so once the first answer is replaced the law
    does not apply: the failure is F-075's.  A wrong tiled_divide there is still new to
    diff.tiled_divide, which judges that answer alone."""
    args = (P("(4):(3)"), P("(6,2):(3,1)"))
    ctx = _Ctx(_Model("pycute"))
    _fails("law.zipped_divide.derived", ctx, args)
    assert known_failure(BY_NAME["law.zipped_divide.derived"], ctx, args).finding == "F-075"
    wrong = Outcome.ok(P("((6,2),1):((9,3),1)"))  # not pycute's ((6,2),1):((9,3),0)
    planted = _Ctx(_Model("pycute", {("tiled_divide", tuple(map(str, static_args(args)))): wrong}))
    _fails("diff.tiled_divide", planted, args)
    assert known_failure(BY_NAME["diff.tiled_divide"], planted, args).finding is None
    assert known_failure(BY_NAME["diff.tiled_divide"], ctx, args).finding == "F-075"


def test_differential_failure_needs_its_answer_explained():
    args = (P("(4,2):(1,8)"), P("5:1"))  # F-071
    check = BY_NAME["diff.composition"]
    ctx = _Ctx(_Model("pycute"))
    _fails("diff.composition", ctx, args)
    assert known_failure(check, ctx, args).finding == "F-071"
    planted = _Ctx(_Model("pycute", {("composition", ("(_4,_2):(_1,_8)", "_5:_1")): Outcome.ok(P("5:2"))}))
    assert known_failure(check, planted, args).finding is None


# --- the gate: a copy of pycute with a different wrong answer in a known region -----------------

MUTANT = '''
import pycute as _p
from pycute import *  # noqa: F401,F403

def composition(A, B):
    R = _p.composition(A, B)
    # inside F-071's region (pycute_composition_wrong_size) give another wrong answer
    if not isinstance(B, (int, tuple)) and B is not None and _p.size(R) != _p.size(B):
        return _p.Layout(_p.size(B), 1)
    return R
'''


@pytest.mark.parametrize("patched", [False, True])
def test_gate_fails_on_a_different_answer_in_a_known_region(tmp_path, monkeypatch, patched):
    """F-071's own case replayed through the gate (``layoutcheck fuzz --case``): known for a
    copy of pycute, new for the copy whose composition answers differently there (the
    mutation table of fuzz/mutation/pycute.py runs the same through whole fuzz campaigns)."""
    if get_oracle("pycute").unavailable_reason():
        pytest.skip("pycute is not installed")
    from layoutcheck.fuzz.campaign.replay import replay_cases
    name = f"lc_gate_copy_{int(patched)}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(MUTANT if patched else "from pycute import *\n"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    oracle = f"module:{name}@pycute"
    rep = replay_cases([("diff.composition", oracle, ["(4,2):(1,8)", "5:1"])], None)
    [r] = rep["results"]
    assert r["status"] == "fail" and r["known_finding"] == (None if patched else "F-071"), r
    assert rep["summary"]["new_failures"] == int(patched)


# --- re-checks the register review cites ---------------------------------------------------------

def test_issue_2955_is_a_carry_between_modes():
    """CUTLASS #2955: (6,2):(1,7) ∘ (3,2):(2,3).  Each mode of B composes with A on its own (so
    a per-mode check, as in PR #3181, accepts the pair), CuTe's checks pass, but no layout has
    A∘B's function: CuTe C++ and pycute return the by-mode (3,2):(2,3) (F-088)."""
    A, B = P("(6,2):(1,7)"), P("(3,2):(2,3)")
    for s, d in zip(B.shape, B.stride):
        assert spec.is_composable(A, LayoutBase(s, d), sense="cute")
    assert not spec.is_composable(A, B, sense="cute")
    assert cute_composition_check(A, B) is None
    R = P("(3,2):(2,3)")
    assert models.answer("composition", A, B).value == R
    assert models_cpp.answer("composition", P("(_6,_2):(_1,_7)"), P("(_3,_2):(_2,_3)")).value == R
    fA, fR, fB = spec.Layout(A.shape, A.stride), spec.Layout(R.shape, R.stride), spec.values(B)
    assert [fR(i) for i in range(6)] != [fA(b) for b in fB]  # B(2,1) = 7 crosses A's mode of size 6
    assert PREDICATES["pycute_accepts_non_additive"](A, B)
    assert PREDICATES["cpp_static_non_additive"](P("(_6,_2):(_1,_7)"), P("(_3,_2):(_2,_3)"))


def test_F075_breaks_the_documented_post_condition():
    """CuTe documents complement's result (layout.hpp: size(R) >= cotarget / size(filter(L)),
    increasing, disjoint from L's image); on non-complementable input pycute's answer can
    break it, so F-075 is a bug, not a convention."""
    L = P("(16,4):(2,48)")
    R = models.answer("complement", L, 293).value
    assert R == P("(2,2):(1,192)") and spec.size(R) * spec.size(spec.filter(L)) < 293
    assert not is_weak_complement(L, R, 293)
    py = get_oracle("pycute")
    if not py.unavailable_reason():
        assert py.run("complement", L, 293).value == R


def test_left_inverse_conventions_are_quasi_inverses():
    """F-053 (C++), F-083 (DSL), F-123 (pycute) are CuTe's documented quasi-inverse:
    L(R(L(i))) == L(i); F-074 (pycute) breaks it (or the left inverse of an injective L)."""
    for text in ("(_2,_2):(_1,_1)", "(_2,_8):(_13,_0)"):
        L = P(text)
        assert is_quasi_inverse(L, models_cpp.answer("left_inverse", L).value)
        assert PREDICATES["cpp_left_inverse_quasi"](L)
    for text in ("_3:_0", "(_2,_3):(_0,_1)", "(_5,_16,_1):(_2,_0,_40)"):  # the DSL's static path
        L = P(text)
        assert is_quasi_inverse(L, known_dsl.answer("left_inverse", L).value)
    L = P("3:0")
    assert is_quasi_inverse(L, models.answer("left_inverse", L).value) and PREDICATES["pycute_left_inverse_quasi"](L)
    L = P("(2,3):(0,1)")
    assert not is_quasi_inverse(L, models.answer("left_inverse", L).value) and PREDICATES["pycute_left_inverse_wrong"](L)
    L = P("(2,2):(1,3)")
    assert spec.is_injective(L) and not is_left_inverse(L, models.answer("left_inverse", L).value)
    L = P("(_2,_3):(_2,_1)")  # F-124: CuTe C++ and the DSL break the quasi-inverse property
    for R in (models_cpp.answer("left_inverse", L).value, known_dsl.answer("left_inverse", L).value):
        assert R == P("(_2,_2):(_2,_1)") and not is_quasi_inverse(L, R)
    assert PREDICATES["cpp_left_inverse_not_quasi"](L) and PREDICATES["dsl_left_inverse_not_quasi"](L)
    assert is_quasi_inverse(L, models.answer("left_inverse", L).value)  # pycute's 3:2 is one (F-123)


def test_module_lineage_oracle_names():
    o = get_oracle("module:pycute@pycute")
    assert o.name == "module:pycute@pycute" and o.lineage == "pycute"
    assert get_oracle("module:pycute").lineage is None
    from layoutcheck.errors import LayoutError
    with pytest.raises(LayoutError):
        get_oracle("module:pycute@")
    hit = explain("module:x@cute-cpp", "composition", "agreement", (P("(_3,_4):(_1,_10)"), P("_4:_2")),
                  Outcome.ok(P("(_2,_2):(_2,_10)")))
    assert hit is not None and hit[0]["id"] == "F-030"


def test_F125_dsl_dies_on_a_zero_size_complement():
    """The inner complement of logical_product((_2,_2):(_1,_1), _2:_1) has a zero-size mode:
    CuTe C++ refuses (static_assert), the DSL's worker dies with SIGFPE; a layout from the DSL
    there would be new."""
    args = (P("(_2,_2):(_1,_1)"), P("_2:_1"))
    assert PREDICATES["dsl_zero_size_complement"](*args, op="logical_product")
    assert not PREDICATES["dsl_zero_size_complement"](P("(_2,_2):(_1,_2)"), P("_2:_1"), op="logical_product")
    assert "Non-injective" in models_cpp.answer("logical_product", *args).message
    crash = Outcome("crashed", message="killed by SIGFPE on this case")
    assert find_known("cute-dsl", "logical_product", "diff.logical_product", args, crash) == "F-125"
    assert find_known("cute-dsl", "logical_product", "diff.logical_product", args,
                      Outcome.ok(P("((_2,_2),_2):((_1,_1),_4)"))) is None
    dsl = get_oracle("cute-dsl")
    if not dsl.unavailable_reason():
        out = dsl.run("logical_product", *args)
        assert out.kind == "crashed" and "SIGFPE" in out.message, out


def test_F058_rejected_as_written():
    """F-058: CuTe refuses (a divisibility check on A as written: coalesce_x keeps a trailing
    size-1 mode), accepts A written coalesced, and the spec gives a result."""
    cases = [("cute-cpp", "composition", (P("(_21,_1,_1):(_2,_42,_4)"), P("_1:_22"))),
             ("cute-cpp", "composition", (P("((_1,_3),_1,_1,1):((_0,_2),_0,_3,0)"), P("(_3):(_2)"))),
             ("cute-dsl", "composition", (P("(_19,(_1,_1)):(_4,(_19,_19))"), P("(_19,(_1,_1)):(_1,(_21,_0))"))),
             ("cute-dsl", "logical_divide", (P("(_5,_1):(_4,_52)"), P("(_5):(_2)")))]  # the DSL: static
    for oracle, op, args in cases:
        model = MODEL[oracle][0]
        out = model(op, *args)
        assert out.kind == "raised", (op, args, out)
        assert model(op, spec.coalesce(args[0]), *args[1:]).kind == "ok"
        assert find_known(oracle, op, f"diff.{op}", args, out) == "F-058", (oracle, op, args)
        assert find_known(oracle, op, f"diff.{op}", args, Outcome.ok(P("3:3"))) is None


def test_F048_past_the_end_as_written():
    """Past the end of A CuTe extends A's last mode as written: the answer differs from the
    spec's (coalesce(A)'s last mode) and equals it once A is written coalesced."""
    cases = [("composition", (P("(_4,_1,_1):(_1,_4,_1)"), P("_4:_12"))),
             ("logical_divide", (P("(_1,_1):(_0,_1)"), P("_2:_1")))]
    for op, args in cases:
        for oracle in ("cute-cpp", "cute-dsl"):
            out = MODEL[oracle][0](op, *args)
            assert find_known(oracle, op, f"diff.{op}", args, out) == "F-048", (oracle, op, out)
            assert find_known(oracle, op, f"diff.{op}", args, Outcome.ok(P("(_7,_1):(_1,_0)"))) is None
