"""Flat layouts, paper 2.1.4-2.1.8: the constructions and the characterisations the paper
proves, checked by enumeration on generated layouts (awkward ones included)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from layoutcheck.spec import division as DV
from layoutcheck.spec import flat as F
from layoutcheck.spec.basic import concat, sort, squeeze
from layoutcheck.spec.layout import Layout, parse, values

from layoutcheck.errors import LayoutError

SHAPES = st.sampled_from([1, 1, 2, 2, 3, 4])
STRIDES = st.sampled_from([0, 1, 1, 2, 3, 4, 6, 8, 12, 16])


@st.composite
def flat_layouts(draw, max_rank=4):
    """Flat layouts with size-1 modes (any stride), zero strides, the empty layout, and
    compact ones (a shuffled column-major layout, sometimes dilated)."""
    r = draw(st.integers(0, max_rank))
    shape = tuple(draw(SHAPES) for _ in range(r))
    if draw(st.booleans()):
        order = draw(st.permutations(range(r)))
        stride, p = [0] * r, 1
        for i in order:
            stride[i] = p
            p *= shape[i] * draw(st.sampled_from([1, 1, 1, 2, 3]))
        return Layout(shape, tuple(stride))
    return Layout(shape, tuple(draw(STRIDES) for _ in range(r)))


def cosize(L):
    return 1 + sum((s - 1) * d for s, d in F.flat_modes(L))


# --- 2.1.4 -------------------------------------------------------------------------------

@given(flat_layouts())
def test_flat_coalesce_keeps_function_and_is_coalesced_and_idempotent(L):
    c = F.flat_coalesce(L)
    assert values(c) == values(L)                      # Lemma 2.1.4.17
    assert F.is_flat_coalesced(c)                      # Lemma 2.1.4.15
    assert F.flat_coalesce(c) == c                     # Example 2.1.4.16


@given(flat_layouts(), flat_layouts())
def test_equal_functions_iff_equal_coalesced_forms(A, B):
    assert F.check_coalesce_characterisation(A, B)     # Prop 2.1.4.18
    # and on a pair that does share its function: B' = A with its modes split
    split = [m for s, d in F.flat_modes(A)
             for m in ([(2, d), (s // 2, 2 * d)] if s == 4 else [(s, d)])]
    assert F.check_coalesce_characterisation(A, F.flat_layout(split))
    assert values(F.flat_layout(split)) == values(A)


@given(flat_layouts(max_rank=3))
def test_coalesced_form_is_the_unique_minimal_rank_layout(L):
    assert F.check_coalesce_minimal(L)                 # Prop 2.1.4.19


def test_coalesce_minimal_predicate_can_fail():
    # the predicate is not vacuous: a non-coalesced layout is not the minimal one
    L = parse("(2,2):(1,2)")
    assert F.flat_coalesce(L) == parse("(4):(1)")
    assert not F.is_flat_coalesced(L)


# --- 2.1.5 -------------------------------------------------------------------------------

@given(flat_layouts())
def test_compact_iff_a_permutation_of_the_squeeze_is_column_major(L):
    assert F.check_compact_characterisation(L)         # Prop 2.1.5.6


@given(flat_layouts())
def test_compact_invariant_under_coalesce_squeeze_sort(L):
    c = F.is_flat_compact(L)                           # Prop 2.1.5.7
    assert c == F.is_flat_compact(F.flat_coalesce(L))
    assert c == F.is_flat_compact(squeeze(L))
    assert c == F.is_flat_compact(sort(L))
    assert c == (sorted(values(L)) == list(range(cosize(L))))


# --- 2.1.6 -------------------------------------------------------------------------------

@given(flat_layouts())
def test_complement_is_disjoint_sorted_coalesced(A):
    if not F.is_flat_complementable(A):
        with pytest.raises(LayoutError) as e:
            F.flat_complement(A)
        assert e.value.condition == "is_complementable"
        return
    c = F.flat_complement(A)
    assert F.is_disjoint(A, c)                         # Lemma 2.1.6.20
    assert F.is_flat_compact(concat(A, c))
    assert sort(c) == c and F.is_flat_coalesced(c)
    assert F.check_complement_uniqueness(A, c)         # Prop 2.1.6.23


@given(flat_layouts(), st.sampled_from([1, 2, 4, 6, 12, 24, 48, 96, 144]))
def test_N_complement(A, N):
    if not F.is_flat_complementable(A, N):
        with pytest.raises(LayoutError):
            F.flat_complement(A, N)
        return
    c = F.flat_complement(A, N)
    assert F.is_N_complement(A, c, N)                  # Lemma 2.1.6.31
    assert F.check_complement_uniqueness(A, c, N)      # Prop 2.1.6.33


@settings(max_examples=25)
@given(flat_layouts(max_rank=2))
def test_complementable_iff_some_complement_exists_small_search(A):
    """Prop 2.1.6.21, checked by searching every flat layout B with cosize(A ⋆ B) small:
    B's squeezed modes may be taken with distinct strides below 2*cosize(A)."""
    if any(d == 0 and s > 1 for s, d in F.flat_modes(A)) or len(set(values(A))) < len(values(A)):
        assert not F.is_flat_complementable(A)
        return
    found = F.is_flat_complementable(A)
    if found:
        assert F.is_disjoint(A, F.flat_complement(A))
    else:
        # no complement of rank <= 2 with shapes/strides up to cosize(A) + 1
        n = cosize(A) + 1
        cands = [F.flat_layout([])] + [F.flat_layout([(s, d)]) for s in range(2, n + 1)
                                         for d in range(1, n + 1)]
        cands += [F.flat_layout([(s, d), (t, e)]) for s in range(2, 5) for t in range(2, 5)
                  for d in range(1, n + 1) for e in range(1, n + 1)] if n <= 8 else []
        assert not any(F.is_disjoint(A, B) for B in cands)


def test_definition_2_1_6_11_misses_lone_zero_stride():
    # finding F-012: (4):(0) satisfies Def 2.1.6.11 literally but has no complement
    A = parse("(4):(0)")
    assert not F.is_flat_complementable(A)
    assert len(set(values(A))) == 1  # not injective: no complement (Observation 2.1.6.7)


# --- 2.1.7 -------------------------------------------------------------------------------

@given(flat_layouts(max_rank=3), flat_layouts(max_rank=3))
def test_flat_composition(A, B):
    va, vb = values(A), values(B)
    if F.is_flat_composable(B, A):
        R = F.flat_composition(B, A)
        assert R.shape == A.shape                      # Def 2.1.7.1 condition 2
        assert values(R) == [vb[v] for v in va]        # condition 3
        assert all(d == 0 for s, d in F.flat_modes(R) if s == 1)  # condition 1
    else:
        with pytest.raises(LayoutError) as e:
            F.flat_composition(B, A)
        assert e.value.condition == "is_composable"


@given(flat_layouts(max_rank=3), flat_layouts(max_rank=2))
def test_flat_divide_and_product_functions(A, B):
    n = len(values(A))
    if F.is_flat_complementable(B, n):
        from layoutcheck.spec.algebra import is_composable
        BB = concat(B, F.flat_complement(B, n))
        if is_composable(A, BB):
            D = DV.flat_divide_paper(A, B)
            vb = values(BB)
            assert values(D) == [values(A)[v] for v in vb]  # Def 2.1.7.9
    N = n * cosize(B)
    if F.is_flat_complementable(A, N):
        Ac = F.flat_complement(A, N)
        P = DV.flat_product_paper(A, B)
        k = len(values(A))
        vP, vAc, vB = values(P), values(Ac), values(B)
        # A ⋆ (A^c ∘ B): index i + k*j -> A(i) + A^c(B(j))   (Def 2.1.7.13)
        assert vP == [values(A)[i] + vAc[vB[j]] for j in range(len(vB)) for i in range(k)]


# --- 2.1.8 -------------------------------------------------------------------------------

@given(flat_layouts())
def test_tractable_equivalences(L):
    t = F.is_flat_tractable(L)
    nz = F.flat_layout((s, d) for s, d in F.flat_modes(L) if d != 0)  # the paper's filter
    assert t == F.is_flat_tractable(sort(L))   # Prop 2.1.8.11
    assert t == F.is_flat_tractable(nz)
    # 3 <=> 4 holds for squeezed layouts; size-1 modes break it (finding F-019)
    sq = squeeze(nz)
    assert F.is_flat_tractable(sq) == F.is_flat_complementable(sq)
    if F.is_flat_complementable(L) or F.is_flat_compact(L):
        assert F.is_flat_tractable(squeeze(L))  # Examples 2.1.8.5, 2.1.8.7


def test_size_one_modes_break_proposition_2_1_8_11():
    """Finding F-019: Def 2.1.8.1 does not squeeze, Def 2.1.6.11 does."""
    L = parse("(1,1):(2,3)")
    assert F.is_flat_complementable(L)                 # squeeze(L) = ():()
    assert not F.is_flat_tractable(L)                  # 1*2 does not divide 3
    assert F.is_disjoint(L, F.flat_complement(L))      # and it really has a complement


def test_tractable_example_concatenation():
    assert F.is_flat_tractable(parse("(4):(3)")) and F.is_flat_tractable(parse("(8):(3)"))
    assert not F.is_flat_tractable(parse("(4,8):(3,3)"))  # Example 2.1.8.9
