"""impl on its own: evaluation (values, out=, indices, blocks, dtypes, memory), the layout call,
static integers, and LayoutError on bad input.  Expected values come from the definitions
(colex split of the index, Def 2.1.2.18-19) computed independently in the test, never from
impl itself."""

import tracemalloc

import layoutcheck.impl as I
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from layoutcheck.impl import layout as impl_layout  # the module under test, for _TABLE

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C


def phi_by_definition(shape, stride, i):
    """Phi_L(i) = sum_k x_k d_k with x = colex^-1(i) (Construction 2.1.2.19)."""
    total = 0
    for s, d in zip(I.flatten(shape), I.flatten(stride)):
        total += (i % s) * d
        i //= s
    return total


@st.composite
def flat_layouts(draw, max_size=4096):
    shape = draw(st.lists(st.integers(1, 9), min_size=0, max_size=5))
    n = int(np.prod(shape)) if shape else 1
    if n > max_size:
        shape = shape[:1]
    stride = draw(st.lists(st.integers(0, 50), min_size=len(shape), max_size=len(shape)))
    return I.Layout(tuple(shape), tuple(stride))


@given(L=flat_layouts(), table=st.sampled_from([1, 2, 3, 8, 64, 1 << 21]))
def test_values_equal_definition_for_every_block_size(L, table):
    """Small tables force the blocked path (inner table, boundary mode in row blocks, outer
    modes one combination at a time)."""
    old, impl_layout._TABLE = impl_layout._TABLE, table
    try:
        expect = [phi_by_definition(L.shape, L.stride, i) for i in range(I.size(L))]
        assert I.values(L).tolist() == expect
        out = np.full(I.size(L), -1, dtype=np.int64)
        assert I.values(L, out=out) is out and out.tolist() == expect
    finally:
        impl_layout._TABLE = old


@given(L=flat_layouts(), data=st.data())
def test_values_at_indices(L, data):
    n = I.size(L)
    idx = np.array(data.draw(st.lists(st.integers(0, n - 1), max_size=50)), dtype=np.int64)
    got = I.values(L, idx)
    assert got.shape == idx.shape
    assert got.tolist() == [phi_by_definition(L.shape, L.stride, int(i)) for i in idx]
    grid = np.arange(n).reshape(-1, 1)  # a 2-D index array keeps its shape
    assert I.values(L, grid)[:, 0].tolist() == I.values(L).tolist()


def test_dtype_choice_and_overflow():
    assert I.values("(4,4):(1,4)").dtype == np.int32
    big = I.parse("(2,2):(1,2147483648)")  # cosize 2^31 + 2 does not fit int32
    v = I.values(big)
    assert v.dtype == np.int64 and v.tolist() == [0, 1, 1 << 31, (1 << 31) + 1]
    with pytest.raises(LayoutError, match="does not fit"):
        I.values(big, dtype=np.int32)
    with pytest.raises(LayoutError, match="integer dtype"):
        I.values("4:1", dtype=np.float64)
    with pytest.raises(LayoutError, match="out must be"):
        I.values("4:1", out=np.empty(3, dtype=np.int64))
    with pytest.raises(LayoutError, match="outside the domain"):
        I.values("4:1", [4])


def test_call_index_and_coordinates():
    L = I.parse("(2,(2,2)):(4,(2,1))")  # seed 000's worked example
    assert [L(i) for i in range(8)] == [phi_by_definition(L.shape, L.stride, i) for i in range(8)]
    assert L(7) == 7
    assert L((1, (1, 0))) == 4 + 2
    assert L((1, 3)) == 4 + 2 + 1      # an integer addresses a nested mode colexicographically
    assert L((1, 1, 0)) == 4 + 2       # a flat coordinate
    for bad in (8, -1, (2, 0), (0, (2, 0)), (0, 1, 2, 3), "x", 1.5):
        with pytest.raises(LayoutError):
            L(bad)


def test_static_integers_propagate():
    L = I.Layout((C(4), C(8)), (C(1), C(4)))
    assert str(I.coalesce(L)) == "_32:_1"
    assert str(I.size(L)) == "_32" and str(I.cosize(L)) == "_32"
    assert str(I.coalesce("(4,8):(1,4)")) == "32:1"          # dynamic stays dynamic
    assert str(I.coalesce("():()")) == "_1:_0"                 # CuTe's empty coalesce
    assert str(I.layout_right((2, 3, 4))) == "(2,3,4):(12,4,_1)"


def test_bad_input_raises_layout_error():
    cases = [lambda: I.parse("(2,3):(1)"), lambda: I.complement("4:1", 0),
             lambda: I.complement("4:1", sense="other"), lambda: I.composition("4:1", "x:1"),
             lambda: I.logical_divide("4:1", (2, 2)), lambda: I.slice_("(4,8):(1,4)", (I._, 9)),
             lambda: I.permute("(2,3):(1,2)", (0, 0)), lambda: I.coalesce("(2,3):(1,2)", (6, 1))]
    for case in cases:
        with pytest.raises(LayoutError) as e:
            case()
        assert str(e.value)


def test_failed_preconditions_name_the_predicate():
    with pytest.raises(LayoutError) as e:
        I.complement("(2,2):(1,1)")
    assert e.value.condition == "is_complementable"
    with pytest.raises(LayoutError) as e:
        I.composition("8:1", "4:4")            # image {0,4,8,12} leaves [0, 8)
    assert e.value.condition == "is_composable"
    assert I.composition("8:1", "4:4", "cute") == I.Layout(4, 4)  # CuTe runs on past A
    with pytest.raises(LayoutError) as e:
        I.left_inverse("(2,2):(1,1)")
    assert e.value.condition == "is_injective"
    with pytest.raises(LayoutError) as e:
        I.coalesce("(2,3):(1,2)", (3, 2))
    assert e.value.condition == "refines"


def test_values_memory_bound_with_out():
    """2^24 elements with out=: the working memory beyond the output stays below 64 MiB (the
    benchmark measures 2^30); here the bound scaled to the table size is checked."""
    L = I.parse("(2,3,5,7,4,1024,16):(1,2,6,30,210,840,860160)")
    out = np.empty(I.size(L), dtype=np.int32)
    tracemalloc.start()
    I.values(L, out=out)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 << 20
    step = 7919
    idx = np.arange(0, I.size(L), step)
    assert out[idx].tolist() == [phi_by_definition(L.shape, L.stride, int(i)) for i in idx]
