"""Basic definitions and operations, paper 2.1.2-2.1.3 (spec/basic.py), the two errata of
the translator's notes (findings F-001, F-002), and hypothesis tests of the 2.1.3 laws."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from layoutcheck.spec import tuples as T

from layoutcheck import LayoutError
from layoutcheck import spec as S

P = S.parse


def text(L):
    return str(L)


# --- LayoutLeft / LayoutRight, column/row-major, non-degenerate --------------------------

def test_seed000_layout_left_right():
    assert S.stride(S.layout_left((2, 3, 4))) == (1, 2, 6)
    assert S.stride(S.layout_right((2, 3, 4))) == (12, 4, 1)
    assert text(S.layout_left((2, 3, 4))) == "(2,3,4):(_1,2,6)"     # first stride is _1
    assert text(S.layout_right((2, (3, 4)))) == "(2,(3,4)):(12,(4,_1))"
    assert text(S.layout_left(())) == "():()"


@pytest.mark.parametrize("t,col,row", [
    ("(3,4):(1,3)", True, False), ("(3,4):(4,1)", False, True),            # 2.1.2.7
    ("(2,2,2,2,2):(1,2,4,8,16)", True, False),                             # 2.1.2.8 L1
    ("(3,128,128):(1,3,384)", True, False),                                # L2
    ("(64):(1)", True, True),                                              # L3 = L6
    ("(2,2,2,2,2):(16,8,4,2,1)", False, True),                             # L4
    ("(3,128,128):(16384,128,1)", False, True),                            # L5
    ("(4,1):(1,0)", False, False), ("():()", True, True),
])
def test_column_row_major_examples(t, col, row):
    assert (S.is_column_major(t), S.is_row_major(t)) == (col, row)


def test_layout_left_right_are_column_row_major():
    for shape in itertools.product(range(1, 4), repeat=3):
        assert S.is_column_major(S.layout_left(shape))
        assert S.is_row_major(S.layout_right(shape))


@pytest.mark.parametrize("t,nd", [
    ("(4,1):(1,0)", True), ("(8,1,8,1):(2,0,16,0)", True),                 # 2.1.2.28
    ("(4,1):(1,4)", False), ("(8,1,8,1):(2,16,16,256)", False),
    ("(2,(1,3)):(1,(5,2))", False),
])
def test_non_degenerate_example_2_1_2_28(t, nd):
    assert S.is_non_degenerate(t) == nd


# --- restriction (2.1.3.1) ----------------------------------------------------------

def test_restriction_examples():
    # 2.1.3.2: the 3x6 picture 0 5 10 ... / 10 15 ... is (3,6):(10,5); I = {2} (1-based)
    L = P("(3,6):(10,5)")
    assert [[L((i, j)) for j in range(6)] for i in range(3)][1] == [10, 15, 20, 25, 30, 35]
    assert text(S.restrict(L, {1})) == "(6):(5)"
    L = P("(3,8,8,8):(1,3,24,192)")                                          # 2.1.3.3
    assert text(S.restrict(L, {0, 1, 2})) == "(3,8,8):(1,3,24)"
    assert S.restrict(L, range(4)) == L                                      # 2.1.3.4
    assert text(S.restrict(L, set())) == "():()"                             # 2.1.3.5
    assert text(S.restrict(L, [2, 0])) == "(3,8):(1,24)"                     # I is a set
    assert text(S.restrict("(2,(3,4)):(1,(2,6))", {1})) == "((3,4)):((2,6))"  # mode-wise


def test_restriction_errors():
    with pytest.raises(LayoutError, match="0-based"):
        S.restrict("(2,3):(1,2)", {2})
    with pytest.raises(LayoutError, match="repeat"):
        S.restrict("(2,3):(1,2)", [0, 0])


# --- squeeze, filter zeros ------------------------------------------------------------

def test_squeeze_examples():
    assert text(S.squeeze("(64,64,1):(1,64,0)")) == "(64,64):(1,64)"             # 2.1.3.7
    assert text(S.squeeze("(64,64,1,32,1):(2048,32,0,1,0)")) == "(64,64,32):(2048,32,1)"
    assert text(S.squeeze("(1,1):(3,0)")) == "():()"                              # 2.1.3.10
    assert text(S.squeeze("(2,(1,3)):(1,(7,2))")) == "(2,3):(1,2)"               # flattening


def test_filter_zeros_examples():
    assert text(S.filter_zeros("(64,8,8,128):(8,1,0,512)")) == "(64,8,128):(8,1,512)"
    assert text(S.filter_zeros("(3,2):(12,0)")) == "(3):(12)"                     # 2.1.3.14
    assert S.values("(3,2):(12,0)") == [0, 12, 24, 0, 12, 24]
    assert text(S.filter_zeros("(3,8,8,8):(16,0,0,0)")) == "(3):(16)"            # 2.1.3.15
    assert text(S.filter_zeros("(4,4):(0,0)")) == "():()"                         # 2.1.3.17
    assert text(S.filter_zeros("(1,2):(5,0)")) == "(1):(5)"   # shape-1 modes stay (not CuTe's)


def test_examples_2_1_3_9_and_16_by_enumeration():
    for sh in itertools.product(range(1, 3), repeat=3):
        for sd in itertools.product(range(0, 2), repeat=3):
            L = S.Layout(sh, sd)
            assert (S.squeeze(L) == L) == (1 not in sh)
            assert (S.filter_zeros(L) == L) == (0 not in sd)
            assert (S.squeeze(L) == P("():()")) == all(s == 1 for s in sh)


# --- permute ------------------------------------------------------------------------

def test_permute_examples():
    L = P("(4,2):(12,2)")                                                        # 2.1.3.19
    assert [[L((i, j)) for j in range(2)] for i in range(4)] == \
        [[0, 2], [12, 14], [24, 26], [36, 38]]
    Lt = S.permute(L, (1, 0))
    assert text(Lt) == "(2,4):(2,12)"
    assert [[Lt((i, j)) for j in range(4)] for i in range(2)] == \
        [[0, 12, 24, 36], [2, 14, 26, 38]]
    assert text(S.permute("(15,12,10):(240,1,24)", (1, 0, 2))) == "(12,15,10):(1,240,24)"
    # 2.1.3.21: sigma = (1 5)(3 2 4): sigma(1)=5, sigma(2)=4, sigma(3)=2, sigma(4)=3, sigma(5)=1
    sigma = tuple(x - 1 for x in (5, 4, 2, 3, 1))
    assert text(S.permute("(2,2,2,2,2):(1,2,4,8,16)", sigma)) == "(2,2,2,2,2):(16,8,2,4,1)"
    for sigma in itertools.permutations(range(3)):                               # 2.1.3.22
        assert S.permute("(3,3,3):(2,2,2)", sigma) == P("(3,3,3):(2,2,2)")
    assert text(S.permute("(2,(3,4)):(1,(2,6))", (1, 0))) == "((3,4),2):((2,6),1)"
    with pytest.raises(LayoutError, match="not a permutation"):
        S.permute("(2,3):(1,2)", (0, 2))


# --- order, sorted, sort --------------------------------------------------------------

def test_order_example_2_1_3_24():
    assert S.mode_precedes("5:8", "4:12") and S.mode_precedes("4:12", "5:12")
    assert not S.mode_precedes("4:12", "5:8") and not S.mode_precedes("5:12", "4:12")
    assert S.mode_precedes((5, 8), (5, 8))


@pytest.mark.parametrize("t,is_sorted", [
    ("(128,64,2,2):(1,128,8192,16384)", True), ("(2,2,2):(1,1,1)", True),     # 2.1.3.26
    ("(2,4,8,16):(64,1,2,4)", False), ("(5,32,16):(1,5,5)", False),
    ("():()", True),                                                           # 2.1.3.27
])
def test_sorted_examples(t, is_sorted):
    assert S.is_sorted(t) == is_sorted


def test_example_2_1_3_28_zero_strides():
    for sh in itertools.product(range(1, 4), repeat=3):
        L = S.Layout(sh, (0, 0, 0))
        assert S.is_sorted(L) == (sh[0] <= sh[1] <= sh[2])


def test_remark_2_1_3_30_converse_is_false():
    """The claim holds; the paper's worked values are off by one index (finding F-003):
    it writes Phi_L(7) = (0,2,0).(1,1,1) = 2 and Phi_L(16) = (0,0,1).(1,1,1) = 1, but
    colex^{-1}(7) = (1,2,0) and colex^{-1}(16) = (1,0,1), so Phi_L(7) = 3 > Phi_L(16) = 2."""
    L = P("(3,5,7):(1,1,1)")
    assert S.is_sorted(L)
    assert S.colex_inv(L.shape, 7) == (1, 2, 0) and L(7) == 3
    assert S.colex_inv(L.shape, 16) == (1, 0, 1) and L(16) == 2
    assert L(7) > L(16)                                       # the remark's conclusion
    assert S.colex((3, 5, 7), (0, 2, 0)) == 6 and S.colex((3, 5, 7), (0, 0, 1)) == 15
    assert (L(6), L(15)) == (2, 1)                            # the paper's values


def test_sort_examples():
    assert text(S.sort("(2,4,8,16):(64,1,2,4)")) == "(4,8,16,2):(1,2,4,64)"    # 2.1.3.32
    assert text(S.sort("(5,32,16):(1,5,5)")) == "(5,16,32):(1,5,5)"            # 2.1.3.33
    L = P("(128,64,2,2):(1,128,8192,16384)")
    assert S.sort(L) == L                                                       # 2.1.3.34


# --- concatenation and make_layout -------------------------------------------------------

def test_concat_examples():
    L1, L2 = P("(7,2):(2,1)"), P("(3,3,3):(0,10,30)")
    assert text(S.concat(L1, L2)) == "(7,2,3,3,3):(2,1,0,10,30)"                # 2.1.3.37
    E = P("():()")
    assert S.concat(L1, E) == L1 == S.concat(E, L1)                            # 2.1.3.38
    L = P("(3,5,7):(1,3,15)")                                                   # 2.1.3.39
    assert S.concat(*[S.Layout((s,), (d,)) for s, d in zip(L.shape, L.stride)]) == L
    assert S.concat() == E
    assert text(S.concat("(2,(3,4)):(1,(2,6))", "5:24")) == "(2,3,4,5):(1,2,6,24)"


def test_make_layout():
    assert text(S.make_layout(P("2:1"), P("(2,2):(2,4)"))) == "(2,(2,2)):(1,(2,4))"
    assert text(S.make_layout(P("8:1"))) == "(8):(1)"
    assert S.flatten(S.make_layout("2:1", "(3,4):(2,6)")) == S.concat("2:1", "(3,4):(2,6)")
    assert S.values(S.make_layout("2:1", "(3,4):(2,6)")) == S.values("(2,3,4):(1,2,6)")


# --- injective, surjective, compact ---------------------------------------------------

@pytest.mark.parametrize("t,inj,sur,comp", [
    ("(2,3):(1,2)", True, True, True),      # column-major: compact
    ("(2,3):(1,4)", True, False, False),    # seed 000's picture: holes
    ("(2,2):(1,3)", True, False, False),    # Observation 2.1.6.7
    ("(3,2):(12,0)", False, False, False),  # stride 0 repeats
    ("(2,3):(3,1)", True, True, True),      # row-major
    ("(2,2):(0,1)", False, True, False),    # onto [0,2) but not injective
    ("(3,5):(5,1)", True, True, True),      # Example 2.1.6.2's A * B
    ("():()", True, True, True),
])
def test_injective_surjective_compact(t, inj, sur, comp):
    assert (S.is_injective(t), S.is_surjective(t), S.is_compact(t)) == (inj, sur, comp)


# --- findings F-001 and F-002 (the translator's notes) ----------------------------------

def _non_decreasing(L):
    v = S.values(L)
    return all(a <= b for a, b in zip(v, v[1:]))


def _all_layouts(max_rank, shapes, strides):
    for r in range(max_rank + 1):
        for sh in itertools.product(shapes, repeat=r):
            for sd in itertools.product(strides, repeat=r):
                yield S.Layout(sh, sd)


def _minimal(layouts):
    return min(layouts, key=lambda L: (S.size(L), S.rank(L), sum(L.stride), L.shape, L.stride))


def test_F001_lemma_2_1_3_29_as_printed_is_false():
    """Lemma 2.1.3.29: 'if Phi_L is non-decreasing then L is sorted' -- false as printed."""
    cex = [L for L in _all_layouts(2, range(1, 4), range(0, 6))
           if _non_decreasing(L) and not S.is_sorted(L)]
    assert P("(1,2):(5,1)") in cex                           # the translator's example
    assert text(_minimal(cex)) == "(1,1):(1,0)"              # minimal overall
    # the translator's repair ("exclude degenerate layouts") is not enough:
    assert text(_minimal([L for L in cex if S.is_non_degenerate(L)])) == "(2,1):(0,0)"
    # nor is "all shapes >= 2": ties between stride-0 modes break it
    assert text(_minimal([L for L in cex if 1 not in L.shape])) == "(3,2):(0,0)"


def test_F001_corrected_lemma_holds_by_enumeration():
    """Corrected: if every s_i >= 2 and Phi_L is non-decreasing, then d_1 <= ... <= d_m and
    mode_i ⪯ mode_{i+1} whenever d_{i+1} > 0 (only stride-0 modes may be out of order);
    in particular L is sorted when also every d_i > 0.  Exhaustive: rank <= 3, shapes
    2..4, strides 0..4 (the slow variant widens this)."""
    checked = hits = 0
    for L in _all_layouts(3, range(2, 5), range(0, 5)):
        if not _non_decreasing(L):
            continue
        checked += 1
        sh, sd = L.shape, L.stride
        assert all(sd[i] <= sd[i + 1] for i in range(len(sd) - 1)), L
        assert all(S.mode_precedes((sh[i], sd[i]), (sh[i + 1], sd[i + 1]))
                   for i in range(len(sd) - 1) if sd[i + 1] > 0), L
        if all(d > 0 for d in sd):
            assert S.is_sorted(L), L
            hits += 1
    assert checked > 200 and hits > 50


@pytest.mark.slow
def test_F001_corrected_lemma_wider():
    for L in _all_layouts(4, range(2, 5), range(0, 5)):
        if _non_decreasing(L):
            sh, sd = L.shape, L.stride
            assert all(sd[i] <= sd[i + 1] for i in range(len(sd) - 1)), L
            assert all(S.mode_precedes((sh[i], sd[i]), (sh[i + 1], sd[i + 1]))
                       for i in range(len(sd) - 1) if sd[i + 1] > 0), L


def _sort_permutation(L):
    p = list(zip(L.shape, L.stride))
    return tuple(sorted(range(len(p)), key=lambda i: (p[i][1], p[i][0], i)))


def test_F002_observation_2_1_3_35_direction():
    """Observation 2.1.3.35's argument maps a witness x of n in Image(Phi_L) to x^sigma, a
    witness in sort(L)'s domain: it proves Image(Phi_L) ⊆ Image(Phi_sort(L)), the reverse
    of what the paper writes.  The images are equal all the same."""
    for L in _all_layouts(3, range(1, 4), range(0, 4)):
        sigma = _sort_permutation(L)
        Ls = S.sort(L)
        assert S.permute(L, sigma) == Ls
        for x in T.domain(L.shape):
            xs = T.permute_tuple(x, sigma)
            assert xs in set(T.domain(Ls.shape))                 # x^sigma in [0, S^sigma)
            assert S.phi(Ls, xs) == S.phi(L, x)                  # same value n
        assert S.image(Ls) == S.image(L)                         # equality still holds


# --- hypothesis: the laws of 2.1.3 ---------------------------------------------------

@st.composite
def flat_layouts(draw, max_rank=4):
    r = draw(st.integers(0, max_rank))
    sh = draw(st.lists(st.integers(1, 4), min_size=r, max_size=r))
    sd = draw(st.lists(st.sampled_from([0, 1, 2, 3, 4, 6, 8, 12]), min_size=r, max_size=r))
    return S.Layout(tuple(sh), tuple(sd))


@st.composite
def nested_layouts(draw):
    parts = draw(st.lists(flat_layouts(max_rank=2), max_size=3))
    return S.make_layout(*parts) if draw(st.booleans()) else S.concat(*parts)


@given(nested_layouts())
def test_lemma_2_1_3_11_squeeze_keeps_size_cosize_Phi(L):
    Q = S.squeeze(L)
    assert S.size(Q) == S.size(L) and S.cosize(Q) == S.cosize(L)
    assert S.values(Q) == S.values(L)
    assert 1 not in T.flatten(Q.shape)


@given(nested_layouts())
def test_filter_zeros_keeps_image_and_cosize(L):
    F = S.filter_zeros(L)
    assert S.image(F) == S.image(L) and S.cosize(F) == S.cosize(L)
    assert 0 not in T.flatten(F.stride)


@given(nested_layouts())
def test_sort_is_idempotent_sorted_and_keeps_image(L):
    Ls = S.sort(L)
    assert S.is_sorted(Ls) and S.sort(Ls) == Ls
    assert S.image(Ls) == S.image(L)
    assert sorted(zip(Ls.shape, Ls.stride)) == sorted(zip(T.flatten(L.shape), T.flatten(L.stride)))


@given(flat_layouts(), st.randoms(use_true_random=False))
def test_permute_keeps_image_size_cosize(L, rnd):
    sigma = list(range(S.rank(L)))
    rnd.shuffle(sigma)
    Lp = S.permute(L, sigma)
    assert S.image(Lp) == S.image(L)
    assert (S.size(Lp), S.cosize(Lp)) == (S.size(L), S.cosize(L))
    assert S.sort(Lp) == S.sort(L)                     # used in the proof of Lemma 2.1.6.9


@given(flat_layouts(3), flat_layouts(3), flat_layouts(3))
def test_concatenation_is_associative(A, B, C_):
    assert S.concat(S.concat(A, B), C_) == S.concat(A, S.concat(B, C_)) == S.concat(A, B, C_)


@given(st.lists(nested_layouts(), min_size=1, max_size=3))
def test_proposition_2_1_3_40_and_41(Ls):
    cat = S.concat(*Ls)
    Ns = [S.size(L) for L in Ls]
    # Phi of the concatenation = (Phi_L1 + ... + Phi_Lk) ∘ colex^{-1}_(N1..Nk)
    assert S.values(cat) == [sum(S.Phi(L, xi) for L, xi in zip(Ls, S.colex_inv(tuple(Ns), n)))
                             for n in range(S.size(cat))]
    # phi of the concatenation = phi_L1 + ... + phi_Lk on split coordinates
    for X in T.domain(cat.shape)[:50]:
        parts, k = [], 0
        for L in Ls:
            m = T.length(L.shape)
            parts.append(X[k:k + m])
            k += m
        assert S.phi(cat, X) == sum(S.phi(L, x) for L, x in zip(Ls, parts))
    # 2.1.3.41: rank adds, size multiplies, cosize = 1 - k + sum cosize
    assert S.rank(cat) == sum(T.length(L.shape) for L in Ls)
    assert S.size(cat) == S.size(S.concat(*Ls))
    assert S.cosize(cat) == 1 - len(Ls) + sum(S.cosize(L) for L in Ls)


@given(nested_layouts())
def test_compact_iff_sorted_squeeze_is_column_major(L):
    # Proposition 2.1.5.6 (via 2.1.5.7): compact iff sort(squeeze(L)) is column-major
    assert S.is_compact(L) == S.is_column_major(S.sort(S.squeeze(L)))
