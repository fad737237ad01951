"""layout_add (NVlabs PyCuTe's pointwise sum R(i) = A(i) + B(i)): the spec against NVlabs'
documented examples and against impl, its strategy (both outcomes drawn), its place in the
operations table, the NVlabs adapter, and the checks on real mutants of the NVlabs snapshot
(NV29: the precondition relaxed, NV30: greatest_common_domain's prefix not advanced).

The snapshot is found as tests/conftest.py finds it; the tests that need it skip without it.
"""

import itertools
from collections import Counter

import layoutcheck.oracles.nvlabs.oracle as NV
import pytest
from hypothesis import given, settings
from layoutcheck.fuzz.checks.algebra import law_layout_add
from layoutcheck.fuzz.checks.base import CheckFailed, differential
from layoutcheck.fuzz.mutation.nvlabs import MUTANTS, make_mutant
from layoutcheck.fuzz.strategies.addition import ADD_KINDS, layout_add_args
from layoutcheck.oracles import get_oracle
from layoutcheck.oracles.cpp.composed import handles
from layoutcheck.oracles.dsl.calls import UNSUPPORTED_DSL
from layoutcheck.oracles.operations import BY_NAME
from layoutcheck.oracles.reference import reference_for

from layoutcheck import LayoutError, impl, spec
from layoutcheck.layout import LayoutBase

P = LayoutBase.parse
PKG, HOW = NV.locate()
needs_snapshot = pytest.mark.skipif(PKG is None, reason=f"NVlabs PyCuTe not here: {HOW}")

# the Examples of layout_add's docstring in NVlabs PyCuTe's pycute/algebra.py
DOCSTRING = [("12:1", "12:1", "12:2"),
             ("5:0", "5:1", "5:1"),
             ("(4,3):(1,4)", "(4,3):(3,1)", "(4,3):(4,5)"),
             ("(5,3,4):(1,5,15)", "(10,6):(1,10)", "60:2")]


def _outcome(fn, A, B):
    try:
        return str(fn(A, B))
    except LayoutError as e:
        return f"refused [{e.condition}]"


@pytest.mark.parametrize("A, B, R", DOCSTRING)
def test_the_docstring_examples_in_spec_and_impl(A, B, R):
    for pkg in (spec, impl):
        assert str(pkg.layout_add(A, B)) == R
        assert str(pkg.layout_add(B, A)) == R  # symmetric (a documented post-condition)


def test_hand_computed_sums_and_refusals():
    # the same grid: strides add mode by mode, then coalesce ((2,2):(1,2) is 4:1)
    assert str(spec.layout_add("(2,2):(1,0)", "(2,2):(0,2)")) == "4:1"
    # a broadcast B and a size-1 result (A(0) + B(0) = 0)
    assert str(spec.layout_add("(2,3):(1,2)", "6:0")) == "6:1"
    assert str(spec.layout_add("1:3", "1:5")) == "1:0"
    # i // 2 + i // 3 takes 0 0 1 2 3 3: no layout (strides forced by 6:d, (2,3), (3,2) all fail)
    for pkg in (spec, impl):
        assert _outcome(pkg.layout_add, "(2,3):(0,1)", "(3,2):(0,1)") == "refused [layout_sum]"
        assert _outcome(pkg.layout_add, "4:1", "(2,3):(1,2)") == "refused [equal_size]"
    # nested shapes are their flattening
    assert str(spec.layout_add("((2,2),3):((1,2),4)", "(4,3):(4,1)")) == "(4,3):(5,5)"


def _flat_layouts(n, strides):
    for fac in spec.ordered_factorisations(n):
        for shape in set(itertools.permutations(fac)):
            for ds in itertools.product(strides, repeat=len(shape)):
                yield LayoutBase(shape, ds)


def test_spec_and_impl_agree_on_every_pair_of_flat_layouts_of_size_6_and_8():
    seen = Counter()
    for n in (6, 8):
        Ls = list(_flat_layouts(n, (0, 1, 2, 3)))
        for A, B in itertools.product(Ls, Ls):
            e, a = _outcome(spec.layout_add, A, B), _outcome(impl.layout_add, A, B)
            assert e == a, (A, B, e, a)
            seen[e.startswith("refused")] += 1
    assert seen[True] > 1000 and seen[False] > 1000


@settings(max_examples=200)
@given(layout_add_args())
def test_spec_and_impl_agree_on_the_strategy(args):
    assert _outcome(spec.layout_add, *args) == _outcome(impl.layout_add, *args)


@pytest.mark.parametrize("kind", ADD_KINDS)
def test_each_kind_of_draw_is_what_it_says(kind):
    outcomes = Counter()

    @settings(max_examples=60)
    @given(layout_add_args(kind=kind))
    def draw(args):
        outcomes[_outcome(spec.layout_add, *args).split(" [")[-1]] += 1
    draw()
    if kind == "sizes_differ":
        assert set(outcomes) == {"equal_size]"}
    elif kind in ("reordered", "regrouped"):  # mostly no sum, some sums (coalescing helps)
        assert outcomes["layout_sum]"] > 0
    else:  # a common refinement: the sum exists
        assert not any(k.endswith("]") for k in outcomes), outcomes


def test_the_strategy_draws_sums_and_refusals_in_steady_shares():
    outcomes = Counter()

    @settings(max_examples=300)
    @given(layout_add_args())
    def draw(args):
        out = _outcome(spec.layout_add, *args)
        outcomes[out.split(" [")[-1] if out.startswith("refused") else "ok"] += 1
    draw()
    assert outcomes["ok"] > 150 and outcomes["layout_sum]"] > 15 and outcomes["equal_size]"] > 5


def test_the_spec_refuses_past_its_enumeration_limit():
    previous = spec.set_enumeration_limit(1000)
    try:
        assert _outcome(spec.layout_add, "64:1", "64:1") == "refused [enumeration_limit]"
        assert str(impl.layout_add("64:1", "64:1")) == "64:2"
    finally:
        spec.set_enumeration_limit(previous)


def test_the_operations_table_and_who_answers():
    op = BY_NAME["layout_add"]
    assert (op.arguments, op.answer, op.level, op.family) == (("layout", "layout"), "layout",
                                                              "structure", "algebra")
    pycute = get_oracle("pycute")
    if pycute.unavailable_reason() is None:
        assert pycute.run("layout_add", P("4:1"), P("4:1")).kind == "unsupported"
    assert handles("layout_add") and "layout_add" in UNSUPPORTED_DSL


# --- NVlabs PyCuTe ----------------------------------------------------------------------------

class _Ctx:
    def __init__(self, oracle):
        self.oracle = oracle
        self.spec = reference_for(oracle.name, get_oracle("spec"))


@needs_snapshot
@pytest.mark.parametrize("A, B, R", DOCSTRING)
def test_the_snapshot_answers_its_docstring(A, B, R):
    out = NV.NvlabsAdapter().run("layout_add", P(A), P(B))
    assert out.kind == "ok" and str(out.value) == R


@needs_snapshot
def test_the_checks_catch_the_mutants_of_layout_add_and_greatest_common_domain(tmp_path):
    snapshot = PKG.parent
    good = _Ctx(NV.NvlabsAdapter(str(snapshot)))
    diff = differential("layout_add")
    refused = (P("(2,3):(0,1)"), P("(3,2):(0,1)"))     # no sum: NVlabs raises ValueError
    two_factors = (P("(4,3):(1,4)"), P("(4,3):(3,1)"))  # a common domain of two modes
    diff(good, refused)
    diff(good, two_factors)
    law_layout_add(good, two_factors)
    mutants = {m[0]: m for m in MUTANTS}
    nv29 = _Ctx(NV.NvlabsAdapter(str(make_mutant(tmp_path, mutants["NV29"], snapshot))))
    with pytest.raises(CheckFailed, match="accepts an input the spec rejects"):
        diff(nv29, refused)
    nv30 = _Ctx(NV.NvlabsAdapter(str(make_mutant(tmp_path, mutants["NV30"], snapshot))))
    with pytest.raises(CheckFailed, match="results disagree"):
        diff(nv30, two_factors)
    with pytest.raises(CheckFailed, match=r"layout_add\(A, B\)\(\d+\) = "):
        law_layout_add(nv30, two_factors)
