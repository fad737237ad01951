"""Staticness of the spec's algebra results (finding F-110; seeds 000, 003).

With every input integer static (``_N``), every integer of the result is static, as CuTe
C++ computes it; and the staticness of the inputs changes nothing else: the same inputs
made dynamic give a result that is equal (``==`` ignores staticness) and prints the same
up to the ``_`` marks (so the tuple structure, ``8:1`` vs ``(8):(1)``, is the same too).
Nothing here needs a compiler; the comparison with CuTe C++ itself is recorded in F-110.
"""

import layoutcheck.fuzz.strategies.algebra as lst
import pytest
from hypothesis import given
from hypothesis import strategies as st
from layoutcheck.spec import flat as F
from layoutcheck.spec.integers import is_static

from layoutcheck import spec as S
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore


def retype(x, kind):
    """x with every integer made ``kind`` (``C`` or ``int``); layouts, tilers, coordinates."""
    if isinstance(x, LayoutBase):
        return LayoutBase(retype(x.shape, kind), retype(x.stride, kind))
    if isinstance(x, tuple):
        return tuple(retype(e, kind) for e in x)
    if isinstance(x, Underscore) or x is None:
        return x
    return kind(int(x))


def bare(x):
    return str(x).replace("_", "")


def check_static_and_unchanged(op, *args, **kw):
    """op on all-static args is all-static, and equals op on the same args made dynamic
    (or both raise with the same precondition)."""
    f = getattr(S, op)
    try:
        dyn = f(*retype(args, int), **kw)
    except LayoutError as e:
        with pytest.raises(LayoutError) as got:
            f(*retype(args, C), **kw)
        assert got.value.condition == e.condition
        return None
    sta = f(*retype(args, C), **kw)
    assert is_static(sta), f"{op}{args} -> {sta} has dynamic integers"
    assert sta == dyn and bare(sta) == bare(dyn), f"{op}{args}: {sta} vs {dyn}"
    return sta


# --- the cases of F-110 (CuTe C++ results, cutlass 4.2 headers) ---------------------------

@pytest.mark.parametrize("op, args, cute", [
    ("composition", ("_2:_1", "_2:_1"), "_2:_1"),
    ("composition", ("_8:_13", "_2:_4"), "_2:_52"),
    ("logical_divide", ("_6:_52", "_2:_1"), "(_2,_3):(_52,_104)"),
])
def test_F110_cases_print_as_cute(op, args, cute):
    assert str(getattr(S, op)(*[S.parse(a) for a in args])) == cute


# --- every op, all-static inputs ---------------------------------------------------------

small = dict(max_size=32, max_leaves=4, max_stride=16)


@given(lst.layouts(**small))
def test_coalesce_filter_inverses(L):
    check_static_and_unchanged("coalesce", L)
    check_static_and_unchanged("filter", L)
    check_static_and_unchanged("right_inverse", L)
    check_static_and_unchanged("left_inverse", L)


@given(lst.layouts(max_size=32, max_leaves=4), st.sampled_from([None, "shape"]))
def test_coalesce_with_profile(L, which):
    prof = None if which is None else retype(L.shape, int)
    check_static_and_unchanged("coalesce", L, prof)
    check_static_and_unchanged("coalesce", L, prof, sense="cute")


@given(lst.complement_args(max_size=32, max_leaves=4), st.booleans())
def test_complement(args, with_n):
    L, N = args
    check_static_and_unchanged("complement", L, N if with_n else None)
    check_static_and_unchanged("complement", L, N if with_n else None, sense="cute")


@given(lst.composable_pairs(sense="cute", max_size=32, max_leaves=4))
def test_composition(pair):
    A, B = pair
    check_static_and_unchanged("composition", A, B)
    check_static_and_unchanged("composition", A, B, sense="cute")


@given(lst.divide_args(max_size=32, max_leaves=4))
def test_divides(args):
    for op in ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide"):
        check_static_and_unchanged(op, *args)


@given(lst.product_args(max_size=16))
def test_products(args):
    for op in ("logical_product", "zipped_product", "tiled_product", "flat_product",
               "blocked_product", "raked_product"):
        if op in ("blocked_product", "raked_product") and not isinstance(args[1], LayoutBase):
            continue
        check_static_and_unchanged(op, *args)


@given(lst.layouts(max_size=32, max_leaves=4).flatmap(
    lambda L: st.tuples(st.just(L), st.tuples(*[
        st.one_of(st.just(S._), st.integers(0, S.size(m) - 1)) for m in S.modes(L)]))))
def test_slice(args):
    L, coord = args
    if not isinstance(L.shape, tuple):
        coord = coord[0]
    r = check_static_and_unchanged("slice_", L, coord)
    if isinstance(r, int):  # no `_`: the coordinate function, a static integer
        assert isinstance(r, C)


@given(lst.composable_pairs(sense="paper", max_size=16, max_leaves=3, flat=True))
def test_flat_paper_ops(pair):
    A, B = pair
    check_static_and_unchanged("flat_complement", B)
    if S.is_flat_composable(A, B):
        check_static_and_unchanged("flat_composition", A, B)
    if S.is_flat_complementable(B, S.size(A)):
        check_static_and_unchanged("flat_divide_paper", A, B)


# --- the two typing helpers ---------------------------------------------------------------

@given(lst.layouts(max_size=32, max_leaves=4))
def test_evaluate_matches_phi_and_types_like_seed_003(L):
    vals = S.values(L)
    for x in range(len(vals)):
        v = F.evaluate(L, C(x))
        assert v == vals[x] and F.evaluate(L, x) == vals[x]
        if is_static(L):
            assert isinstance(v, C)
        if x and not any(isinstance(e, C) for e in F._leaves(L)):
            assert type(F.evaluate(L, x)) is int  # all dynamic: nothing is static
    # seed 003: _0 * n -> _0, so a static zero index stays static whatever L is
    assert isinstance(F.evaluate(L, C(0)), C)
    with pytest.raises(LayoutError, match="outside the domain"):
        F.evaluate(L, len(vals))


def test_from_sources_rule():
    L_static, L_mixed = S.parse("(_2,_4):(_1,_2)"), S.parse("(_2,4):(_1,_2)")
    assert type(F.from_sources(6, C(2), L_static)) is C
    assert type(F.from_sources(6, C(2), L_mixed)) is int
    assert type(F.from_sources(6, 2, L_static)) is int
    assert type(F.from_sources(6, (C(2), (C(3),)))) is C


def test_mixed_inputs_keep_the_static_parts_that_arithmetic_keeps():
    """Expected texts are CuTe C++'s (cute-cpp oracle, cutlass 4.2 headers, checked for F-110)."""
    # composition(A, B) with A dynamic and B's leaf _2:_0: A(_0 * i) is _0 (seed 003)
    r = S.composition(S.parse("(4,2):(1,4)"), S.parse("_2:_0"))
    assert str(r) == "_2:_0"
    # a dynamic N makes the last mode of the complement dynamic, the rest stays static
    assert str(S.complement(S.parse("(_2,_2):(_1,_8)"), 32)) == "(_4,2):(_2,_16)"
    # a dynamic shape alone does not make B's unit stride dynamic: A(_1) = _1, and the last
    # mode's dynamic shape 8 is never used to compute A(_4) = _4 (no % on the last mode)
    r = S.composition(S.parse("(_4,8):(_1,_4)"), S.parse("(_2,_4):(_1,_4)"))
    assert str(r) == "(_2,_4):(_1,_4)"
    assert str(S.composition(S.parse("8:1"), S.parse("_2:_1"))) == "_2:1"
    # a size-1 leaf of B: s:0, the 0 static only when B's stride is _0 or all is static
    assert str(S.composition(S.parse("(1):(1)"), S.parse("_1:_0"))) == "_1:_0"
    assert str(S.composition(S.parse("2:0"), S.parse("((2,1)):((1,5))"))) == "((2,1)):((0,0))"
