"""Section 4 of the paper: mutual refinements, the composition algorithm for tractable
layouts, and admissibility for composition (``layoutcheck.spec.mutual_refinement``).

The algorithm is built from the morphisms of section 3 only; here it is compared with the
brute-force layout function B(A(i)) always, and with ``layoutcheck.spec.composition`` (the
unique layout of Def 2.3.7.1) when that is available.
"""

import random
from fractions import Fraction
from itertools import product

import layoutcheck.spec as spec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from layoutcheck.spec import categories as K
from layoutcheck.spec import theorems as TH
from layoutcheck.spec.mutual_refinement import (
    compose_by_mutual_refinement,
    compose_general,
    general_weak_composite,
    is_admissible_for_composition,
    is_mutual_refinement,
    mutual_refinement,
    weak_composite,
)

from layoutcheck import LayoutError

P = spec.parse


def needs(*names):
    missing = [n for n in names if not hasattr(spec, n)]
    return pytest.mark.skipif(bool(missing), reason=f"layoutcheck.spec lacks {missing}")


def brute(B, A):
    """i -> B(A(i)) on [0, size A)."""
    return [B(A(i)) for i in range(spec.size(A))]


# --- Algorithm 4.1.1 on the examples of 4.1 and 4.1.1 -------------------------------------

@pytest.mark.parametrize("number, T, U, Tp, Up", [
    ("4.1 (motivating)", (6, 6), (12, 3, 6), (6, (2, 3)), ((6, 2), 3, 6)),
    ("4.1.1.2", (6, 6), (2, 6, 3), ((2, 3), (2, 3)), (2, (3, 2), 3)),
    ("4.1.1.3", (8, 8, 8), (2, 8, 8, 8), ((2, 4), (2, 4), (2, 4)), (2, (4, 2), (4, 2), (4, 2))),
    ("4.1.1.4", (4, 2, 2, 32), (32, 32), (4, 2, 2, (2, 16)), ((4, 2, 2, 2), (16, 2))),
])
def test_mutual_refinement_examples(number, T, U, Tp, Up):
    assert mutual_refinement(T, U) == (Tp, Up), number
    assert is_mutual_refinement(T, U, Tp, Up)


def test_example_4_1_1_5_has_no_mutual_refinement():
    assert mutual_refinement((8, 8), (3, 8, 8)) is None


def test_finding_F101_the_closing_loop_must_include_the_last_entry():
    """Printed `while j < len(Y)` would stop before the 6 of (12,3,6): U' = ((6,2),3) does
    not refine U (sizes 36 != 216)."""
    Tp, Up = mutual_refinement((6, 6), (12, 3, 6))
    assert spec.size(Up) == spec.size((12, 3, 6))
    assert not spec.refines(((6, 2), 3), (12, 3, 6))


def test_mutual_refinement_keeps_nesting_profiles():
    """Observation 4.1.1.7: nested T, U are refined through their flattenings."""
    Tp, Up = mutual_refinement((6, (6,)), ((12, 3), 6))
    assert is_mutual_refinement((6, (6,)), ((12, 3), 6), Tp, Up)
    assert Tp == (6, ((2, 3),)) and Up == (((6, 2), 3), 6)


def _factorisations(n):
    """Ordered factorisations of n into factors > 1 (as tuples)."""
    if n == 1:
        return [()]
    return [(d,) + r for d in range(2, n + 1) if n % d == 0 for r in _factorisations(n // d)]


def _exists_mutual_refinement(T, U):
    """Brute force: some refinements T', U' (factors > 1) with T'^b a prefix of U'^b."""
    for ft in product(*[_factorisations(t) for t in T]):
        a = sum(ft, ())
        for fu in product(*[_factorisations(u) for u in U]):
            if sum(fu, ())[:len(a)] == a:
                return True
    return False


VALUES = (2, 3, 4, 6, 8, 12)


@given(st.lists(st.sampled_from(VALUES), max_size=3), st.lists(st.sampled_from(VALUES), max_size=3))
def test_algorithm_4_1_1_finds_one_exactly_when_one_exists(T, U):
    T, U = tuple(T), tuple(U)
    r = mutual_refinement(T, U)
    assert (r is not None) == _exists_mutual_refinement(T, U)
    if r is not None:
        assert is_mutual_refinement(T, U, *r)


@given(st.lists(st.sampled_from((1, 2, 4)), max_size=4),
       st.lists(st.sampled_from((1, 2, 4, 8)), max_size=3))
def test_mutual_refinement_with_entries_one(T, U):
    T, U = tuple(T), tuple(U)
    r = mutual_refinement(T, U)
    if spec.size(T) <= spec.size(U) and (U or not T):   # Example 4.1.1.6: powers of 2
        assert r is not None
    if r is not None:
        assert is_mutual_refinement(T, U, *r)


# --- Algorithm 4.1.2 on the examples of 4.1.4 ---------------------------------------------

EXAMPLES_4_1_4 = [
    ("4.1.4.1", "(4):(1)", "(2,2):(2,1)", "((2,2)):((2,1))"),
    ("4.1.4.2", "(6,6):(6,1)", "(12,3,6):(1,72,12)", "((2,3),6):((6,72),1)"),
    ("4.1.4.3", "(8,8):(8,1)", "(16,16):(16,1)", "((2,4),8):((128,1),16)"),
    ("4.1.4.4", "(16,16):(16,1)", "(8,8,8):(64,8,1)", "((4,4),(8,2)):((16,1),(64,8))"),
    ("4.1.4.5", "(6,6):(5,60)", "(10,360):(2,60)", "((2,3),6):((10,60),360)"),
]


@pytest.mark.parametrize("number, A, B, printed", EXAMPLES_4_1_4)
def test_composition_algorithm_examples(number, A, B, printed):
    A, B, printed = P(A), P(B), P(printed)
    assert weak_composite(B, A) == printed, number            # step 6: L_{g'∘f'}
    R = compose_by_mutual_refinement(B, A)                      # step 7: coal(C, shape A)
    assert R == printed, number
    assert spec.values(R) == brute(B, A)


@needs("composition")
@pytest.mark.parametrize("number, A, B, printed", EXAMPLES_4_1_4)
def test_composition_algorithm_examples_agree_with_spec_composition(number, A, B, printed):
    assert spec.composition(P(B), P(A)) == P(printed), number


def test_example_4_2_2_1_product_through_the_algorithm():
    A, B = P("(2,2):(1,2)"), P("(5,5):(5,1)")
    Ac = P("25:4")                    # printed: comp(A, 100) = (25):(4)
    assert sorted(spec.values(spec.Layout((A.shape, Ac.shape), (A.stride, Ac.stride)))) == \
        list(range(100))              # Ac is a 100-complement of A (brute force)
    assert compose_by_mutual_refinement(Ac, B) == P("(5,5):(20,4)")
    if hasattr(spec, "logical_product"):
        assert spec.logical_product(A, B) == P("((2,2),(5,5)):((1,2),(20,4))")


def test_example_4_2_1_1_division_disagrees_with_the_printed_value():
    """Finding F-031 (registered with the examples harness): the paper prints
    ((2,2),(2,2)):((8,32),(16,1)), of size 16; A ⊘ B has size(A) = 64 and its second mode is A ∘ comp(B, 64) = A ∘ (2,8):(2,8) = (2,8):(16,1)."""
    A, B = P("(8,8):(8,1)"), P("(2,2):(1,4)")
    Bc = P("(2,8):(2,8)")
    BBc = spec.Layout((B.shape, Bc.shape), (B.stride, Bc.stride))
    assert sorted(spec.values(BBc)) == list(range(64))          # Bc is the 64-complement
    R = compose_by_mutual_refinement(A, BBc)
    assert R == P("((2,2),(2,8)):((8,32),(16,1))")
    assert spec.values(R) == brute(A, BBc)
    assert spec.size(P("((2,2),(2,2)):((8,32),(16,1))")) == 16 != spec.size(A)
    if hasattr(spec, "logical_divide"):
        assert spec.logical_divide(A, B) == R


def test_section_4_1_5_non_tractable_B_is_refused_and_the_printed_value_is_right():
    A, B = P("(4,4):(4,1)"), P("(8,8):(3,7)")
    with pytest.raises(LayoutError) as e:
        compose_by_mutual_refinement(B, A)
    assert e.value.condition == "is_tractable"
    assert spec.values(P("((2,2),4):((12,7),3)")) == brute(B, A)   # 4.1.5's value


@needs("coalesce")
def test_section_4_1_5_general_composition_example():
    """4.1.5: A = (4,4):(4,1), B = (8,8):(3,7) (not tractable): the paper's diagram has the
    codomain (3, 8, 7/24, 8), and B ∘ A = ((2,2),4):((12,7),3)."""
    A, B = P("(4,4):(4,1)"), P("(8,8):(3,7)")
    assert K.representation(B, exact=False) == ((3, 8, Fraction(7, 24), 8), (2, 4))
    assert general_weak_composite(B, A) == P("((2,2),4):((12,7),3)")
    assert compose_general(B, A) == P("((2,2),4):((12,7),3)")


@needs("coalesce")
@pytest.mark.parametrize("number, A, B, printed", EXAMPLES_4_1_4)
def test_general_algorithm_on_the_tractable_examples(number, A, B, printed):
    assert compose_general(P(B), P(A)) == P(printed), number


def test_no_mutual_refinement_is_an_error_naming_it():
    with pytest.raises(LayoutError) as e:
        compose_by_mutual_refinement(P("(3,8):(1,3)"), P("(8,8):(1,8)"))
    assert e.value.condition == "has_mutual_refinement"


# --- agreement with the layout algebra on generated pairs ---------------------------------

@st.composite
def tractable_pairs(draw):
    """(B, A) with A, B encoded by random standard-form morphisms, entries powers of two or
    products of 2 and 3 (so that mutual refinements often exist)."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    entries = draw(st.sampled_from([(2, 4), (2, 4, 8), (2, 3, 6)]))
    A = K.encoded_layout(TH.random_standard_morphism(rng, entries=entries, max_size=256))
    B = K.encoded_layout(TH.random_standard_morphism(rng, entries=entries, max_size=256))
    return B, A


@given(tractable_pairs())
def test_algorithm_computes_the_composite(BA):
    B, A = BA
    try:
        R = compose_by_mutual_refinement(B, A)
    except LayoutError as e:
        assert e.condition == "has_mutual_refinement"
        return
    assert spec.values(R) == brute(B, A)                       # Theorem 4.1.3.1
    assert spec.values(weak_composite(B, A)) == brute(B, A)
    if hasattr(spec, "composition"):
        assert R == spec.composition(B, A)                      # same layout, Def 2.3.7.1


@needs("composition")
@given(tractable_pairs())
def test_when_the_algorithm_has_no_refinement_the_composite_may_still_exist(BA):
    """Not a failure of either side: Algorithm 4.1.2 is sufficient, not necessary.  Whenever
    spec.composition refuses, the algorithm refuses too (never a layout the spec rejects)."""
    B, A = BA
    try:
        spec.composition(B, A)
    except LayoutError:
        with pytest.raises(LayoutError):
            compose_by_mutual_refinement(B, A)


# --- Def 4.1.6.1 and Theorem 4.1.6.5 ------------------------------------------------------

def test_admissibility_examples():
    assert is_admissible_for_composition(P("(6,6):(6,1)"), P("(12,3,6):(1,72,12)"))
    assert not is_admissible_for_composition(P("(8,8):(1,8)"), P("(3,8,8):(1,3,24)"))


@pytest.mark.parametrize("A, B, condition", [
    ("(2,1):(1,2)", "8:1", "no_unit_shape_or_zero_stride"),
    ("(2,2):(0,1)", "8:1", "no_unit_shape_or_zero_stride"),
    ("((2,2),2):((1,2),4)", "8:1", "is_flat"),
])
def test_admissibility_domain(A, B, condition):
    with pytest.raises(LayoutError) as e:
        is_admissible_for_composition(P(A), P(B))
    assert e.value.condition == condition


@given(tractable_pairs())
def test_theorem_4_1_6_5_mutual_refinement_implies_admissible(BA):
    B, A = BA
    A = spec.Layout(spec.flatten(A.shape), spec.flatten(A.stride))
    B = spec.Layout(spec.flatten(B.shape), spec.flatten(B.stride))
    s, d = spec.flatten(A.shape), spec.flatten(A.stride)
    if any(x == 1 for x in s) or any(x == 0 for x in d):
        return
    f = K.standard_representation(A)
    g = K.standard_representation(K.encoded_layout(K.coalesce_morphism(
        K.standard_representation(B))))
    if mutual_refinement(f.codomain, K.flat_morphism(g).domain) is not None:
        assert is_admissible_for_composition(A, B)


@pytest.mark.parametrize("A, B", [
    ("(2,4):(2,1)", "4:2"),                         # Image(Phi_A) = [0,6) leaves [0, size B)
    ("(2,6,3):(3,4,1)", "(12,4,2):(3,16,7)"),        # even the intervals themselves are disjoint
])
def test_finding_F105_admissibility_is_not_sufficient(A, B):
    """Def 4.1.6.1 (called 'a sufficient condition for B ∘ A to exist'): admissible pairs
    whose composite does not exist.  Brute force: no layout with shape refining shape(A)
    has the function i -> B(A(i)) (first case: it is not even defined on all of [0,8))."""
    A, B = P(A), P(B)
    assert is_admissible_for_composition(A, B)
    if hasattr(spec, "composition"):
        with pytest.raises(LayoutError):
            spec.composition(B, A)
    if max(spec.values(A)) >= spec.size(B):          # Remark 2.3.7.2 fails
        return
    # a layout R whose shape refines shape(A) is additive over the modes of A:
    # R(x) = sum_i R(x_i e_i), so B(A(x)) must be; at x = (1,2,2) it is not
    d = spec.flatten(A.stride)
    x = (1, 2, 2)
    whole = B(sum(xi * di for xi, di in zip(x, d)))
    parts = sum(B(xi * di) for xi, di in zip(x, d))
    assert (whole, parts) == (B(13), B(3) + B(8) + B(2)) and whole != parts


@st.composite
def awkward_tractable_layouts(draw):
    """Tractable layouts with size-1 modes of non-zero stride, zero strides, nesting, and the
    empty layout."""
    from hypothesis import assume
    m = draw(st.integers(0, 3))
    s = draw(st.lists(st.sampled_from((1, 1, 2, 4)), min_size=m, max_size=m))
    d = draw(st.lists(st.sampled_from((0, 1, 2, 4, 8, 16)), min_size=m, max_size=m))
    shape = draw(st.sampled_from([tuple(s), (tuple(s),)] + ([(s[0], tuple(s[1:]))] if m > 1 else [])))
    L = spec.Layout(shape, spec.substitute(list(d), shape))
    assume(spec.is_tractable(L))
    return L


@needs("composition", "is_tractable")
@given(awkward_tractable_layouts(), awkward_tractable_layouts())
def test_algorithm_agrees_with_spec_composition_on_awkward_layouts(B, A):
    try:
        R = compose_by_mutual_refinement(B, A)
    except LayoutError as e:
        assert e.condition == "has_mutual_refinement"
        return
    assert spec.values(R) == brute(B, A)
    assert R == spec.composition(B, A)


@st.composite
def any_flat_layouts(draw):
    m = draw(st.integers(0, 3))
    s = draw(st.lists(st.integers(1, 6), min_size=m, max_size=m))
    d = draw(st.lists(st.integers(0, 13), min_size=m, max_size=m))
    return spec.Layout(tuple(s), tuple(d))


@needs("coalesce", "composition")
@given(tractable_pairs(), any_flat_layouts())
def test_general_algorithm_with_any_B(BA, B):
    """Section 4.1.5 with arbitrary (mostly non-tractable) B: when a mutual refinement
    exists the result has the function B(A(i)) and equals spec.composition(B, A)."""
    A = BA[1]
    try:
        R = compose_general(B, A)
    except LayoutError as e:
        assert e.condition == "has_mutual_refinement"
        return
    assert spec.values(R) == brute(B, A)
    assert R == spec.composition(B, A)
