"""IntTuples and nested tuples: seeds 000 and 001, paper 2.1.1 (spec/tuples.py and the
polymorphic observers of spec/layout.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from layoutcheck.spec import tuples as T

from layoutcheck import C, LayoutError
from layoutcheck import spec as S

# --- seed 000: the rank / depth / size table --------------------------------------------

@pytest.mark.parametrize("x,rank,depth,size", [
    (5, 1, 0, 5),
    ((3, 4), 2, 1, 12),
    ((3, 4, 5), 3, 1, 60),
    ((3, (4, 5)), 2, 2, 60),
])
def test_seed000_table(x, rank, depth, size):
    assert (S.rank(x), S.depth(x), S.size(x)) == (rank, depth, size)


def test_seed000_t1_to_t4():
    t1 = 2                                   # int{2}
    assert (S.rank(t1), S.depth(t1), S.size(t1), S.get(t1, 0)) == (1, 0, 2, 2)
    t2 = C(3)                                # Int<3>{}
    assert (S.rank(t2), S.depth(t2), S.size(t2), S.get(t2, 0)) == (1, 0, 3, 3)
    t3 = (2, C(3))                           # make_tuple(int{2}, Int<3>{})
    assert (S.rank(t3), S.depth(t3), S.size(t3)) == (2, 1, 6)
    assert (S.get(t3, 0), S.get(t3, 1)) == (2, 3)
    t4 = (42, (C(1), 3), C(17))              # make_tuple(uint16_t{42}, (Int<1>, 3), Int<17>)
    assert (S.rank(t4), S.depth(t4), S.size(t4)) == (3, 2, 2142)
    assert S.get(t4, 0) == 42
    assert (S.rank(S.get(t4, 1)), S.depth(S.get(t4, 1))) == (2, 1)
    assert (S.get(t4, 1, 0), S.get(t4, 1, 1), S.get(t4, 2)) == (1, 3, 17)


def test_seed000_a_to_d():
    a, b, c, d = 6, (2,), (4, 3), (3, (6, 2), 8)
    assert (S.rank(a), S.depth(a), S.size(a)) == (1, 0, 6)
    assert (S.rank(b), S.depth(b), S.size(b)) == (1, 1, 2)   # (2) is a subtree: depth 1
    assert (S.rank(c), S.depth(c), S.size(c)) == (2, 1, 12)
    assert (S.rank(d), S.depth(d), S.size(d)) == (3, 2, 288)
    assert S.get(d, 0) == 3 and S.get(d, 2) == 8
    assert (S.rank(d, 1), S.depth(d, 1), S.size(d, 1)) == (2, 1, 12)
    assert (S.get(d, 1, 0), S.get(d, 1, 1)) == (6, 2)


def test_rank_and_depth_are_static_size_follows_leaves():
    assert isinstance(S.rank((3, 4)), C) and isinstance(S.depth(5), C)
    assert isinstance(S.size((C(2), C(3))), C) and str(S.size((C(2), C(3)))) == "_6"
    assert not isinstance(S.size((C(2), 3)), C)


def test_get_path_errors():
    with pytest.raises(LayoutError, match="mode 3 does not exist"):
        S.get((1, 2, 3), 3)
    with pytest.raises(LayoutError, match="mode 1 of the integer"):
        S.get(5, 1)
    with pytest.raises(LayoutError, match="not an integer"):
        S.get((1, 2), "a")


# --- seed 001 / paper 2.1.1 ----------------------------------------------------------

@pytest.mark.parametrize("x,length,size", [
    ((3, 2, 1), 3, 6), ((32,), 1, 32), ((), 0, 1),                    # seed 001
    ((3, 128, 128), 3, 49152), ((512,), 1, 512),                      # Example 2.1.1.2
])
def test_len_and_size_of_tuples(x, length, size):
    assert T.length(x) == length and S.size(x) == size


def test_concatenation_examples():
    assert T.concat_tuples((2, 3), (1, 4)) == (2, 3, 1, 4)                    # seed 001
    assert T.concat_tuples((64, 32), (8, 8, 8)) == (64, 32, 8, 8, 8)          # 2.1.1.4
    assert T.concat_tuples() == () and T.concat_tuples((), (1,)) == (1,)


def test_divides_example_2_1_1_7():
    assert T.divides((81, 9), (81, 9, 64, 8))
    assert T.concat_tuples((81, 9), (64, 8)) == (81, 9, 64, 8)
    assert not T.divides((9, 81), (81, 9, 64, 8))
    assert not T.divides((81, 9, 64, 8, 1), (81, 9, 64, 8))
    assert T.divides((), (5,))


def test_permute_example_2_1_1_9():
    # sigma = (1 2)(3 4) in 1-based cycle notation is (1, 0, 3, 2) 0-based
    assert T.permute_tuple((8, 16, 32, 64), (1, 0, 3, 2)) == (16, 8, 64, 32)
    with pytest.raises(LayoutError, match="not a permutation") as e:
        T.permute_tuple((8, 16), (0, 0))
    assert e.value.condition == "is_permutation"


def test_domain_example_2_1_1_11_and_seed001():
    dom = T.domain((3, 2))
    # the paper lists [0,(3,2)) in colexicographic order (Example 2.1.1.11)
    assert dom == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)]
    # seed 001 lists the same set in another order
    assert set(dom) == {(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)}
    assert T.domain(()) == [()]                     # [0, ()) = {()}
    assert all(S.colex_inv((3, 2), k) == x for k, x in enumerate(dom))


PROFILES = {  # seed 001's profiles and their rank / len / depth
    "P=*": ("*", 1, 1, 0),
    "P=(*,*)": (("*", "*"), 2, 2, 1),
    "P=(*,(*,*))": (("*", ("*", "*")), 2, 3, 2),
    "P=((*,*),(*,*))": ((("*", "*"), ("*", "*")), 2, 4, 2),
}


@pytest.mark.parametrize("name", PROFILES)
def test_seed001_profile_rank_len_depth(name):
    p, rank, length, depth = PROFILES[name]
    assert (T.rank(p), T.length(p), T.depth(p)) == (rank, length, depth)


def test_seed001_profiles_and_flattenings():
    assert T.profile(()) == () and T.profile(7) == "*"
    assert (T.flatten(3), T.profile(3)) == ((3,), "*")
    assert (T.flatten((2, 2)), T.profile((2, 2))) == ((2, 2), ("*", "*"))
    assert (T.flatten((2, (3, 4))), T.profile((2, (3, 4)))) == ((2, 3, 4), ("*", ("*", "*")))


def test_seed001_modes():
    P = ("*", ("*", "*"))
    assert T.mode(P, 0) == "*" and T.mode(P, 1) == ("*", "*")   # mode_1, mode_2 (1-based)
    assert T.mode("*", 0) == "*"                                 # depth 0: the profile itself


def test_seed001_cute_example():
    n = 5
    x = (C(2), (C(3), n))
    assert S.get(x, 0) == 2 and isinstance(S.get(x, 0), C)
    assert S.get(x, 1) == (3, 5)
    assert S.get(x, 1, 1) == 5 and not isinstance(S.get(x, 1, 1), C)


# --- laws ----------------------------------------------------------------------------

def nested(lo=1, hi=6):
    return st.recursive(st.integers(lo, hi), lambda t: st.lists(t, max_size=3).map(tuple),
                        max_leaves=8)


@given(nested(), nested())
def test_size_and_len_of_concatenation(x, y):
    fx, fy = T.flatten(x), T.flatten(y)
    xy = T.concat_tuples(fx, fy)
    assert S.size(xy) == S.size(x) * S.size(y)
    assert T.length(xy) == T.length(x) + T.length(y)
    assert T.divides(fx, xy)


@given(nested())
def test_flatten_keeps_size_and_length(x):
    assert S.size(T.flatten(x)) == S.size(x)
    assert T.length(T.flatten(x)) == T.length(x) == len(T.flatten(x))
    assert T.depth(T.flatten(x)) <= 1


@given(st.lists(st.integers(1, 9), max_size=6), st.randoms(use_true_random=False))
def test_permutations_act_on_the_right(x, rnd):
    # X^(sigma tau) = (X^sigma)^tau for the right action of Def 2.1.1.8
    m = len(x)
    sigma, tau = list(range(m)), list(range(m))
    rnd.shuffle(sigma)
    rnd.shuffle(tau)
    composite = [sigma[tau[i]] for i in range(m)]   # (sigma tau)(i) = sigma(tau(i))
    assert T.permute_tuple(T.permute_tuple(x, sigma), tau) == T.permute_tuple(x, composite)
