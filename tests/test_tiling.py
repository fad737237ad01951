"""make_ordered_layout, make_layout_like, tile_to_shape, local_tile / local_partition /
inner / outer_partition, product_each, zip and group: CuTe's documented examples,
impl against the spec, and the covering laws."""

from collections import Counter

import layoutcheck.fuzz.strategies as V
import pytest
from hypothesis import given, settings

from layoutcheck import LayoutError, impl, spec
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase

BOTH = pytest.mark.parametrize("m", [spec, impl], ids=["spec", "impl"])
S2 = (C(2), C(2), C(2), C(2))


@BOTH
def test_documented_examples(m):
    # layout.hpp's doc comments
    assert _is(m, m.make_ordered_layout(S2, (C(0), C(2), C(3), C(1))), "(_2,_2,_2,_2):(_1,_4,_8,_2)")
    assert _is(m, m.make_ordered_layout((2, 3, 4, 5), (C(2), 67, 42, C(50))), "(2,3,4,5):(_1,10,30,2)")
    assert _is(m, m.make_layout_like("(_2,_2,_2,_2):(_0,_2,_4,_1)"), "(_2,_2,_2,_2):(_0,_2,_4,_1)")
    assert _is(m, m.make_layout_like("(2,3,4,5):(_0,42,_1,_0)"), "(2,3,4,5):(_0,4,_1,_0)")
    assert m.product_each(((2, 3), 4)) == (6, 4) and m.product_each(5) == (5,)
    # printed by CuTe C++ (4.2 headers)
    assert _is(m, m.tile_to_shape("(_2,_4):(_1,_2)", (C(8), C(8))), "((_2,_4),(_4,_2)):((_1,_8),(_2,_32))")
    L, off = m.local_tile("(_8,_8):(_1,_8)", (C(2), C(4)), (1, 1))
    assert _is(m, L, "(_2,_4):(_1,_8)") and off == 34
    L, off = m.local_partition("(_8,_8):(_1,_8)", "(_2,_4):(_1,_2)", 3)
    assert _is(m, L, "(_4,_2):(_2,_32)") and off == 9
    assert _is(m, m.zip_layout("((2,3),(4,5)):((1,2),(6,24))"), "((2,4),(3,5)):((1,6),(2,24))")
    assert _is(m, m.group_modes("(2,3,4):(1,2,6)", 1, 3), "(2,(3,4)):(1,(2,6))")


@BOTH
def test_tied_orders_start_together_as_in_cute(m):
    # CuTe C++ and the DSL print (2,3,4,2):(_1,4,12,_1): tied modes share a start (not compact)
    L = m.make_ordered_layout((2, 3, 4, 2), (C(0), C(2), C(3), C(0)))
    assert L.stride[0] == L.stride[3] == 1
    with pytest.raises(LayoutError) as e:
        m.tile_to_shape("(_3):(_1)", (C(8),))
    assert e.value.condition == "divisibility"


@settings(max_examples=50, deadline=None)
@given(args=V.ordered_layout_args())
def test_make_ordered_layout_spec_equals_impl(args):
    assert _outcome(spec.make_ordered_layout, args) == _outcome(impl.make_ordered_layout, args)


@settings(max_examples=40, deadline=None)
@given(args=V.tile_to_shape_args())
def test_tile_to_shape_spec_equals_impl_as_functions(args):
    a, b = _outcome(spec.tile_to_shape, args), _outcome(impl.tile_to_shape, args)
    assert a[0] == b[0] and (a[0] != "ok" or spec.values(a[1]) == list(impl.values(b[1])))


@settings(max_examples=40, deadline=None)
@given(args=V.local_partition_args())
def test_local_partition_covers_the_tile_once(args):
    L, thr, _i = args
    seen = Counter()
    for i in range(spec.size(thr)):
        S, off = spec.local_partition(L, thr, i)
        assert (S, off) == impl.local_partition(L, thr, i)
        seen.update(off + v for v in spec.values(S))
    assert seen == Counter(spec.values(L))


@settings(max_examples=40, deadline=None)
@given(args=V.partition_args())
def test_local_tile_spec_equals_impl(args):
    for op in ("local_tile", "inner_partition", "outer_partition"):
        assert _outcome(getattr(spec, op), args) == _outcome(getattr(impl, op), args)


def _is(m, L, text):
    """L is CuTe's printed answer: exactly for the spec, by value for impl (whose divides do
    not carry CuTe's staticness everywhere)."""
    return L == LayoutBase.parse(text) and (m is impl or str(L) == text)


def _outcome(fn, args):
    try:
        r = fn(*args)
    except LayoutError as e:
        return ("raised", e.condition)
    if isinstance(r, LayoutBase):
        return ("ok", r)
    return ("ok", r)
