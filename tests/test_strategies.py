"""The public strategies produce what they promise (checked with the spec on drawn values)."""

from collections import Counter

import layoutcheck.fuzz.strategies.algebra as S
import layoutcheck.spec as spec
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st
from layoutcheck.fuzz.checks.targets import table

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, leaves


def _size(L):
    n = 1
    for s in leaves(L.shape):
        n *= int(s)
    return n


def _depth(t):
    return 1 + max((_depth(x) for x in t), default=0) if isinstance(t, tuple) else 0


@given(S.layouts(max_size=64, max_depth=3, max_rank=3))
def test_layouts_respect_bounds(L):
    assert isinstance(L, LayoutBase)
    assert _size(L) <= 64
    assert _depth(L.shape) <= 3
    assert not isinstance(L.shape, tuple) or len(L.shape) <= 3


@given(S.layouts(degenerate=False, zero_strides=False, static=True))
def test_no_degenerate_no_zero_static(L):
    assert all(int(s) >= 2 for s in leaves(L.shape))
    assert all(int(d) >= 1 for d in leaves(L.stride))
    assert all(isinstance(x, C) for x in leaves(L.shape) + leaves(L.stride))


@given(S.layouts(static=False))
def test_dynamic_only(L):
    assert not any(isinstance(x, C) for x in leaves(L.shape) + leaves(L.stride))


@given(S.layouts(injective=True))
def test_injective(L):
    v = table(L)
    assert len(set(v)) == len(v)
    assert spec.is_injective(L)


@given(S.layouts(compact=True))
def test_compact(L):
    assert sorted(table(L)) == list(range(_size(L)))  # Def 2.1.5.1
    assert spec.is_compact(L)


@given(S.layouts(complementable=True))
def test_complementable(L):
    assert spec.is_complementable(L)  # Def 2.1.6.11


@given(S.layouts(sorted=True, flat=True))
def test_sorted(L):
    modes = list(zip(leaves(L.stride), leaves(L.shape)))
    assert modes == sorted(modes, key=lambda m: (int(m[0]), int(m[1])))  # Def 2.1.3.23
    assert spec.is_sorted(L)


@given(S.layouts(coalesced=True))
def test_coalesced(L):
    assert spec.coalesce(L) == L  # CuTe's coalesced form is a fixed point


@given(S.layouts(flat=True))
def test_flat(L):
    assert not isinstance(L.shape, tuple) or all(not isinstance(s, tuple) for s in L.shape)


@given(S.layouts(tractable=True))
def test_tractable(L):
    assert spec.is_tractable(L) if hasattr(spec, "is_tractable") else spec.is_flat_tractable(
        LayoutBase(tuple(leaves(L.shape)), tuple(leaves(L.stride))))


@given(S.composable_pairs(sense="paper"))
def test_composable_pairs_paper(pair):
    A, B = pair
    assert spec.is_composable(A, B)  # paper's sense: Image(B) within [0, size A), Def 2.3.7.1
    assert max(table(B)) < _size(A)


@given(S.composable_pairs(sense="cute"))
def test_composable_pairs_cute(pair):
    assert spec.is_composable(*pair, sense="cute")


@given(S.divide_args())
def test_divide_args_are_valid(args):
    A, T = args
    D = spec.logical_divide(A, T)
    assert _size(D) == _size(A)


@given(S.complement_args())
def test_complement_args(args):
    L, N = args
    assert spec.is_complementable(L)
    assert isinstance(N, int) and N >= 1


@given(S.profiles())
def test_profiles_are_star_trees(p):
    assert all(x == "*" for x in leaves(p))


@given(S.shapes(max_size=32))
def test_shapes(s):
    assert all(int(x) >= 1 for x in leaves(s))
    assert _size(LayoutBase(s)) <= 32


@given(st.data())
def test_coordinates_are_in_the_domain(data):
    L = data.draw(S.layouts(max_size=64))
    c = data.draw(S.coordinates_of(L))
    assert spec.Layout(L.shape, L.stride)(c) in set(table(L))


def _draws(strategy, n=300):
    out = []

    @settings(max_examples=n, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def go(x):
        out.append(x)
    go()
    return out


def test_awkward_cases_are_generated():
    """Size-1 modes with non-zero strides, zero strides, nesting, empty tuples, mixed
    staticness and near-miss pairs all show up in a few hundred draws."""
    Ls = _draws(S.layouts(empty=True), 300)
    seen = Counter()
    for L in Ls:
        sd = list(zip(leaves(L.shape), leaves(L.stride)))
        seen["size1_nonzero"] += any(int(s) == 1 and int(d) != 0 for s, d in sd)
        seen["zero_stride"] += any(int(s) > 1 and int(d) == 0 for s, d in sd)
        seen["nested"] += _depth(L.shape) >= 2
        seen["empty_tuple"] += "()" in str(L)
        seen["static"] += any(isinstance(x, C) for x in leaves(L.shape))
        seen["dynamic"] += any(not isinstance(x, C) for x in leaves(L.shape))
        seen["bare_leaf"] += not isinstance(L.shape, tuple)
    assert all(seen[k] > 0 for k in ("size1_nonzero", "zero_stride", "nested", "empty_tuple",
                                     "static", "dynamic", "bare_leaf")), seen
    near = _draws(S.composable_pairs(near_miss=True), 150)
    assert any(not spec.is_composable(A, B, sense="cute") for A, B in near)


def test_shrinks_toward_small_layouts():
    """The minimal layout of size >= 6 is a single small mode with stride 0 or 1."""
    L = find(S.layouts(), lambda L: _size(L) >= 6,
             settings=settings(database=None, max_examples=500, derandomize=True))
    assert len(leaves(L.shape)) == 1 and int(leaves(L.shape)[0]) == 6
    assert int(leaves(L.stride)[0]) in (0, 1)


def test_shrinks_pairs():
    A, B = find(S.composable_pairs(), lambda p: _size(p[1]) >= 4,
                settings=settings(database=None, max_examples=500, derandomize=True))
    assert 4 <= _size(B) <= 6 and len(leaves(A.shape)) <= 2 and len(leaves(B.shape)) <= 2


@pytest.mark.parametrize("kw", [{"max_leaves": 0}, {"max_size": 0}, {"max_stride": -1},
                                {"degenerate": False, "max_size": 1}])
def test_bad_bounds_are_refused(kw):
    with pytest.raises(LayoutError, match="max_"):
        S.layouts(**kw)


def test_the_rank_fold_keeps_the_depth_bound():
    """_group folds modes past max_rank into one nested mode; that fold once added a level
    past max_depth (found by test_layouts_respect_bounds: (3,16,(1,((1,1))))) and, in a
    group at its last level, nested one level too deep ((((33,1,(1,1)))))."""
    from layoutcheck.fuzz.campaign.batched import draw_cases
    for seed in range(3):
        for L in draw_cases(S.layouts(max_size=64, max_depth=3, max_rank=3), 1500, seed):
            assert _depth(L.shape) <= 3, L
            assert not isinstance(L.shape, tuple) or len(L.shape) <= 3, L
    for L in draw_cases(S.layouts(max_depth=2, max_rank=2, max_leaves=5), 1500, 9):
        assert _depth(L.shape) <= 2 and (not isinstance(L.shape, tuple) or len(L.shape) <= 2), L
