"""The oracle protocol, the Python oracles (spec, impl, pycute, module:NAME) and the
comparison levels."""

import textwrap

import pytest
from layoutcheck.oracles import (
    LEVELS,
    ORACLE_NAMES,
    REQUIRED,
    Outcome,
    available_oracles,
    compare,
    get_oracle,
    parse_args,
)
from layoutcheck.oracles.known import verdict
from layoutcheck.oracles.protocol import OPS, format_arg

from layoutcheck import LayoutError, spec
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

L = LayoutBase.parse


def values_of(layout):
    """The layout function of any neutral layout, on the spec's evaluator."""
    return spec.values(spec.Layout(layout.shape, layout.stride))


# --- protocol -----------------------------------------------------------------------------

def test_names_and_unknown_oracle():
    assert set(ORACLE_NAMES) == {"spec", "impl", "pycute", "nvlabs", "cute-cpp", "cute-dsl"}
    with pytest.raises(LayoutError, match="unknown oracle 'nope'"):
        get_oracle("nope")
    with pytest.raises(LayoutError, match="module:NAME"):
        get_oracle("module:")
    assert "spec" in available_oracles()


def test_unknown_op_and_arity_are_layout_errors():
    o = get_oracle("spec")
    with pytest.raises(LayoutError, match="unknown operation 'transpose'"):
        o.run("transpose", L("4:1"))
    with pytest.raises(LayoutError, match="composition takes 2 argument"):
        o.run("composition", L("4:1"))
    with pytest.raises(LayoutError, match="malformed notation"):
        parse_args("coalesce", ["(2,"])


def test_parse_args_keeps_staticness_and_tilers():
    A, T = parse_args("logical_divide", ["(_8,6):(_1,8)", "(2,(2,2):(1,4))"])
    assert isinstance(A.shape[0], C) and not isinstance(A.shape[1], C)
    assert T[0] == 2 and T[1] == L("(2,2):(1,4)")
    assert format_arg(T) == "(2,(2,2):(1,4))"
    (L1, N) = parse_args("complement", ["4:2", "_24"])
    assert isinstance(N, C) and N == 24


def test_missing_module_is_unavailable_with_the_reason():
    o = get_oracle("module:no_such_module")
    reason = o.unavailable_reason()
    assert "no_such_module" in reason and "not installed" in reason
    with pytest.raises(LayoutError, match="unavailable"):
        o.run("coalesce", L("4:1"))


# --- module:NAME --------------------------------------------------------------------------

@pytest.fixture
def user_module(tmp_path, monkeypatch):
    """A user's module with pycute's API: a Layout class, a wrong coalesce, a raising
    complement, and no composition at all."""
    (tmp_path / "my_cute_impl.py").write_text(textwrap.dedent("""
        class Layout:
            def __init__(self, shape, stride):
                self.shape, self.stride = shape, stride
            def __call__(self, i):
                s = self.shape if isinstance(self.shape, tuple) else (self.shape,)
                d = self.stride if isinstance(self.stride, tuple) else (self.stride,)
                out = 0
                for si, di in zip(s, d):
                    out += (i % si) * di
                    i //= si
                return out
        def size(L):
            n = 1
            for s in (L.shape if isinstance(L.shape, tuple) else (L.shape,)):
                n *= s
            return n
        def coalesce(L):
            return Layout(size(L), 1)          # wrong unless L is compact column-major
        def complement(L, N=None):
            raise ValueError("not today")
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    return get_oracle("module:my_cute_impl")


def test_user_module_ok_raised_unsupported(user_module):
    assert user_module.unavailable_reason() is None
    A = L("(2,4):(1,2)")
    ok, raised, unsupported, vals = user_module.run_many(
        [("coalesce", (A,)), ("complement", (A,)), ("composition", (A, A)), ("values", (A,))])
    assert ok.kind == "ok" and ok.value == L("8:1")
    assert raised.kind == "raised" and "ValueError: not today" in raised.message
    assert unsupported.kind == "unsupported" and "composition" in unsupported.message
    assert vals.value == tuple(values_of(A))


def test_user_module_wrong_answer_is_a_disagreement(user_module):
    A = L("(2,4):(4,1)")  # not column-major: coalesce cannot be 8:1
    got = user_module.run("coalesce", A)
    ref = get_oracle("spec").run("coalesce", A)
    c = compare("coalesce", (A,), ref, got)
    assert c.ok is False and c.level == "none"
    assert verdict("module:my_cute_impl", "coalesce", (A,), c) == ("disagree", None)


# --- pycute and spec through the protocol -------------------------------------------------

pycute_missing = get_oracle("pycute").unavailable_reason()


@pytest.mark.skipif(bool(pycute_missing), reason=str(pycute_missing))
def test_pycute_adapter_results_are_neutral_and_correct():
    pc = get_oracle("pycute")
    A, B = L("(6,2):(8,2)"), L("(4,3):(3,1)")
    comp, size, vals, unsup = pc.run_many([("composition", (A, B)), ("size", (A,)),
                                           ("values", (B,)), ("blocked_product", (A, B))])
    R = comp.value
    assert type(R) is LayoutBase  # converted back to the neutral form, all ints dynamic
    assert not any(isinstance(x, C) for x in (R.shape, R.stride))
    fa = spec.Layout(A.shape, A.stride)
    assert values_of(R) == [fa(b) for b in values_of(B)]  # the defining property A(B(i))
    assert size.value == 12 and vals.value == tuple(values_of(B))
    assert unsup.kind == "unsupported"  # pycute has no blocked_product


def test_spec_oracle_reports_precondition_failures_as_raised():
    out = get_oracle("spec").run("complement", L("(2,2):(1,3)"))
    assert out.kind == "raised" and "is_complementable" in out.message


def test_spec_sense_cute_is_passed_through():
    A, B = L("(4):(1)"), L("(4):(5)")  # Image(B) leaves [0, size A): only CuTe's sense composes
    assert get_oracle("spec").run("composition", A, B).kind == "raised"
    got = get_oracle("spec", sense="cute").run("composition", A, B)
    assert got.kind == "ok" and values_of(got.value) == [0, 5, 10, 15]


def test_impl_oracle_agrees_with_spec_when_available():
    impl = get_oracle("impl")
    if impl.unavailable_reason():
        pytest.skip(impl.unavailable_reason())
    A = L("(2,(3,4)):(12,(1,3))")
    assert impl.run("values", A).value == tuple(values_of(A))


# --- comparison levels ----------------------------------------------------------------------

def level(op, e, a, inputs=()):
    return compare(op, inputs, Outcome.ok(e), Outcome.ok(a))


def test_levels_strictest_first():
    assert LEVELS[0] == "printed" and LEVELS[-1] == "none"
    assert level("coalesce", L("_8:_1"), L("_8:_1")).level == "printed"
    c = level("coalesce", L("_8:_1"), L("8:1"))
    assert (c.level, c.ok) == ("structure", True)
    # rank-1 tuple vs integer shape: same function, same modes up to unwrapping
    c = level("coalesce", L("8:1"), L("(8):(1)"))
    assert (c.level, c.ok) == ("function", False)  # coalesce requires structure
    # refined modes with the same function: function level, enough for composition
    c = level("composition", L("((2,2),3):((24,2),8)"), L("((2,2),(3,1)):((24,2),(8,2))"))
    assert (c.level, c.ok) == ("function", True) and "structure differs" in c.detail
    # same 1-D function, different top-level modes
    c = level("composition", L("(2,4):(1,2)"), L("(4,2):(1,4)"))
    assert (c.level, c.ok) == ("coalesced", False)
    assert level("complement", L("(2,4):(1,2)"), L("(4,2):(1,4)")).ok is True
    c = level("composition", L("(2,4):(1,2)"), L("(2,4):(2,1)"))
    assert (c.level, c.ok) == ("none", False) and "differ" in c.detail


def test_inverse_property_level():
    Lx = L("(2,2):(1,6)")
    ref, other = L("(6,2):(1,2)"), L("(2,3,2):(1,4,2)")  # two left inverses that differ off the image
    fr, fo, fl = (spec.Layout(x.shape, x.stride) for x in (ref, other, Lx))
    assert all(fr(fl(i)) == i == fo(fl(i)) for i in range(4))  # both really are left inverses
    assert values_of(ref) != values_of(other)
    c = level("left_inverse", ref, other, (Lx,))
    assert (c.level, c.ok) == ("property", True)
    c = level("left_inverse", ref, L("(6,2):(2,1)"), (Lx,))
    assert (c.level, c.ok) == ("none", False)
    # right inverse: property plus the reference's size
    c = level("right_inverse", L("4:1"), L("_1:_0"), (L("4:1"),))
    assert c.ok is False and "size" in c.detail


def test_outcome_kinds():
    A = (L("4:1"),)
    r, ok, uns = Outcome.raised("x"), Outcome.ok(L("4:1")), Outcome.unsupported("no")
    assert compare("coalesce", A, r, r).level == "both-raised"
    assert compare("coalesce", A, r, r).ok is True
    assert compare("coalesce", A, r, ok).ok is False
    assert compare("coalesce", A, ok, r).ok is False
    assert compare("coalesce", A, ok, uns).ok is None
    assert compare("coalesce", A, uns, ok).level == "no-reference"
    assert compare("size", A, Outcome.ok(C(8)), Outcome.ok(8)).level == "structure"
    assert compare("size", A, Outcome.ok(8), Outcome.ok(9)).ok is False
    assert compare("values", A, Outcome.ok((0, 1)), Outcome.ok((0, 2))).ok is False


def test_every_op_has_a_required_level():
    assert set(REQUIRED) == set(OPS)
    assert all(r in LEVELS for r in REQUIRED.values())


def test_large_layouts_are_compared_on_a_sample():
    big = L("(512,512):(1,512)")
    c = level("composition", big, L("(512,512):(1,513)"))
    assert c.ok is False
    c = level("composition", big, L("((512),(512)):((1),(512))"))
    assert c.level == "function" and "sampled" in c.detail
