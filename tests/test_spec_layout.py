"""Layouts, observers, coordinate and layout functions: seed 000 and paper 2.1.2
(spec/layout.py)."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from layoutcheck.spec import tuples as T

from layoutcheck import C, LayoutError
from layoutcheck import spec as S

s2xh4 = S.parse("(2,(2,2)):(4,(2,1))")


# --- seed 000: the observer list on s2xh4 -------------------------------------------

def test_seed000_observers():
    L = s2xh4
    assert (S.rank(L), S.depth(L), S.size(L), S.cosize(L)) == (2, 2, 8, 8)
    assert S.shape(L) == (2, (2, 2)) and S.stride(L) == (4, (2, 1))
    assert str(S.get(L, 0)) == "2:4"
    assert str(S.get(L, 1)) == "(2,2):(2,1)"
    assert L(S.size(L) - 1) == 7 and L(S.size(L) - 1) + 1 == S.cosize(L)


def test_seed000_hierarchical_access():
    L = s2xh4
    assert str(S.get(L, 1, 0)) == "2:2" and str(S.get(L, 1, 1)) == "2:1"
    assert S.rank(L, 1) == 2 and S.depth(L, 1) == 1
    assert S.shape(L, 0) == 2 and S.shape(L, 1) == (2, 2)
    assert S.size(L, 0) == 2 and S.size(L, 1) == 4 and S.size(L, 1, 0) == 2


def test_seed000_cosize_picture():
    # (2,3):(1,4): rows i0,i1 hold 0 4 8 / 1 5 9; 6 positions used, addresses 0..9 spanned
    L = S.parse("(2,3):(1,4)")
    assert [[L((i, j)) for j in range(3)] for i in range(2)] == [[0, 4, 8], [1, 5, 9]]
    assert S.size(L) == 6 and S.cosize(L) == 10
    assert S.cosize(L) == L(S.size(L) - 1) + 1
    assert sorted(S.image(L)) == [0, 1, 4, 5, 8, 9]


def test_seed000_index_of_nested_coordinate():
    # Shape (2,(3,4)), Stride (1,(2,3)): index = i*1 + j*2 + k*3
    L = S.parse("(2,(3,4)):(1,(2,3))")
    for i, j, k in itertools.product(range(2), range(3), range(4)):
        assert L((i, (j, k))) == i + 2 * j + 3 * k
        assert L((i, j, k)) == i + 2 * j + 3 * k                 # flat coordinate
        assert L((i, j + 3 * k)) == i + 2 * j + 3 * k            # mode 1 by its colex index


def test_static_layout_gives_static_size_and_cosize():
    L = S.parse("(_2,_3):(_1,_4)")
    assert str(S.size(L)) == "_6" and str(S.cosize(L)) == "_10"
    assert not isinstance(S.size(S.parse("(_2,3):(_1,_4)")), C)


# --- paper 2.1.2 examples -----------------------------------------------------------

def test_example_2_1_2_10():
    L = S.parse("(64,32):(1,128)")
    assert (S.rank(L), S.size(L), S.cosize(L)) == (2, 2048, 4032)
    assert [str(m) for m in S.modes(L)] == ["64:1", "32:128"]


def test_example_2_1_2_11():
    L = S.parse("(3,8,8,8):(1,3,24,192)")
    assert (S.rank(L), S.size(L), S.cosize(L)) == (4, 1536, 1536)
    assert str(S.modes(L)[2]) == "8:24"                          # mode_3, 0-based index 2


def test_example_2_1_2_12():
    L = S.parse("(2,2,2,2,2):(160,80,40,20,10)")
    assert (S.rank(L), S.size(L), S.cosize(L)) == (5, 32, 311)
    assert str(S.modes(L)[4]) == "2:10"                          # mode_5


def test_example_2_1_2_5_and_remark_2_1_2_17_pictures():
    assert S.values("(8):(5)") == [0, 5, 10, 15, 20, 25, 30, 35]
    L = S.parse("(3,5):(2,10)")
    grid = [[L((i, j)) for j in range(5)] for i in range(3)]
    assert grid == [[0, 10, 20, 30, 40], [2, 12, 22, 32, 42], [4, 14, 24, 34, 44]]
    assert all(grid[i][j] == 2 * i + 10 * j for i in range(3) for j in range(5))


def test_example_2_1_2_7_pictures():
    col = S.parse("(3,4):(1,3)")
    row = S.parse("(3,4):(4,1)")
    assert [[col((i, j)) for j in range(4)] for i in range(3)] == \
        [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11]]
    assert [[row((i, j)) for j in range(4)] for i in range(3)] == \
        [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]


def test_examples_2_1_2_14_15_coordinate_functions():
    L = S.parse("(2,3):(1,5)")
    assert {x: S.phi(L, x) for x in T.domain(L.shape)} == {
        (0, 0): 0, (1, 0): 1, (0, 1): 5, (1, 1): 6, (0, 2): 10, (1, 2): 11}
    L = S.parse("(2,2):(64,2)")
    assert {x: S.phi(L, x) for x in T.domain(L.shape)} == {
        (0, 0): 0, (1, 0): 64, (0, 1): 2, (1, 1): 66}


def test_examples_2_1_2_16_23_empty_layout():
    E = S.parse("():()")
    assert T.domain(E.shape) == [()] and S.phi(E, ()) == 0
    assert S.values(E) == [0] and (S.size(E), S.cosize(E), S.rank(E)) == (1, 1, 0)


def test_examples_2_1_2_20_21_22_layout_functions():
    assert S.values("(2,3):(1,5)") == [0, 1, 5, 6, 10, 11]
    assert S.values("(2,2):(64,2)") == [0, 64, 2, 66]
    L = S.parse("(4,2,2):(3,3,100)")
    assert S.colex_inv(L.shape, 7) == (3, 1, 0) and L(7) == 12
    assert S.colex_inv(L.shape, 9) == (1, 0, 1) and L(9) == 103


def test_remark_2_1_2_25_colex_is_column_major_coordinate_function():
    for shape in [(3, 2), (2, 3, 4), (5,), ()]:
        L = S.layout_left(shape)
        assert all(S.colex(shape, x) == S.phi(L, x) for x in T.domain(shape))
        assert S.values(L) == list(range(S.size(L)))          # Phi = identity


def test_remark_2_1_2_26_distinct_layouts_same_function():
    A, B = S.parse("(7,7):(1,7)"), S.parse("(49):(1)")
    assert A != B and S.values(A) == S.values(B)


def test_colex_and_inverse_are_inverse():
    S_ = (3, (2, 4))
    for k in range(24):
        assert S.colex(S_, S.colex_inv(S_, k)) == k
    with pytest.raises(LayoutError, match="outside the domain"):
        S.colex_inv(S_, 24)
    with pytest.raises(LayoutError, match="outside"):
        S.colex((3, 2), (3, 0))


# --- factored maps Phi^N, phi^N ---------------------------------------------------------

def test_factored_maps():
    L = S.parse("(2,3):(1,4)")
    F = S.Phi_N(L, 10)
    assert F.codomain == 10 and F.table == tuple(S.values(L)) and F(3) == 5
    assert F.is_injective() and not F.is_surjective()
    assert S.Phi_N(L).codomain == S.cosize(L) == 10
    G = S.phi_N(L, 12)
    assert G((1, 2)) == 9 and G.codomain == 12
    assert S.Phi_N("(2,2):(1,2)").is_isomorphism()
    for f in (S.Phi_N, S.phi_N):
        with pytest.raises(LayoutError, match="below cosize") as e:
            f(L, 9)
        assert e.value.condition == "N_at_least_cosize"


# --- polymorphic observers, flatten, modes, errors ---------------------------------------

def test_observers_take_text_layouts_and_tuples():
    assert S.size("(2,(2,2)):(4,(2,1))", 1) == 4
    assert S.rank((2, (2, 2)), 1) == S.rank(s2xh4, 1) == 2
    assert S.depth(s2xh4, 1, 0) == 0
    assert S.get((2, (2, 2)), 1, 1) == 2


def test_flatten_of_layouts():
    assert str(S.flatten(s2xh4)) == "(2,2,2):(4,2,1)"
    assert str(S.flatten("8:1")) == "(8):(1)"
    assert str(S.flatten("():()")) == "():()"
    assert S.flatten((2, (3, (4,)))) == (2, 3, 4)


def test_modes():
    assert [str(m) for m in S.modes(s2xh4)] == ["2:4", "(2,2):(2,1)"]
    assert [str(m) for m in S.modes("8:1")] == ["8:1"]
    assert S.modes("():()") == ()


def test_coordinate_errors():
    with pytest.raises(LayoutError, match="does not match"):
        s2xh4((1, (1, 1, 1)))
    with pytest.raises(LayoutError, match="outside"):
        s2xh4((2, 0))
    with pytest.raises(LayoutError, match="outside the domain"):
        s2xh4(8)


def test_as_layout_rejects_junk():
    with pytest.raises(LayoutError, match="expected a layout"):
        S.as_layout(3.5)


# --- laws -------------------------------------------------------------------------------

@st.composite
def layouts(draw, max_rank=4):
    r = draw(st.integers(0, max_rank))
    sh = draw(st.lists(st.integers(1, 5), min_size=r, max_size=r))
    sd = draw(st.lists(st.integers(0, 12), min_size=r, max_size=r))
    return S.Layout(tuple(sh), tuple(sd))


@given(layouts())
def test_cosize_is_one_plus_max(L):
    assert S.cosize(L) == 1 + max(S.values(L))
    assert S.values(L)[0] == 0                                  # Example 2.1.2.24


@given(layouts())
def test_observation_2_1_2_29_degenerate_strides_do_not_matter(L):
    Lp = S.Layout(L.shape, tuple(0 if s == 1 else d for s, d in zip(L.shape, L.stride)))
    assert S.values(Lp) == S.values(L)
    assert all(S.phi(L, x) == S.phi(Lp, x) for x in T.domain(L.shape))


def test_numpy_and_list_arguments():
    import numpy as np
    L = S.parse("(2,3):(1,4)")
    assert L(np.int64(3)) == 5 and L([1, 2]) == 9
    with pytest.raises(LayoutError, match="not an integer"):
        L(2.0)


def test_F004_layout_function_factored_is_Phi_not_phi():
    """Construction 2.1.2.19 names the factored layout function 'phi_L^N' (lower case); the
    map it constructs is Phi_L^N on [0, size), not the coordinate function phi_L^N on
    [0, shape) (finding F-004, the translator's third note)."""
    L = S.parse("(2,3):(1,5)")
    F, G = S.Phi_N(L, 12), S.phi_N(L, 12)
    assert F.domain == tuple(range(6)) and G.domain == tuple(T.domain(L.shape))
    assert F.domain != G.domain
    assert all(F(n) == G(S.colex_inv(L.shape, n)) for n in range(6))   # Phi = phi ∘ colex^-1
