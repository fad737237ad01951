"""upcast / downcast / recast_layout / max_common_vector / max_common_layout / nullspace (issue
16): the spec against CuTe's documented and printed values, impl against the spec, and the
laws of the vectorization helpers by enumeration."""

import layoutcheck.fuzz.strategies as V
import pytest
from hypothesis import given, settings

from layoutcheck import LayoutError, impl, spec
from layoutcheck.layout import LayoutBase

BOTH = pytest.mark.parametrize("m", [spec, impl], ids=["spec", "impl"])
ROW = "(_8,_64):(_64,_1)"


@BOTH
def test_values_cute_prints(m):
    # printed by the CuTe C++ headers (nvidia-cutlass 4.2.0.0 wheel)
    assert str(m.upcast(ROW, 2)) == "(_8,_32):(_32,_1)"
    assert str(m.downcast(ROW, 2)) == "(_8,_128):(_128,_1)"
    assert str(m.recast_layout(ROW, 16, 32)) == "(_8,_32):(_32,_1)"
    assert str(m.recast_layout(ROW, 4, 128)) == "(_8,_2):(_2,_1)"
    assert str(m.nullspace("(_2,_4,_6):(_1,_2,_0)")) == "_6:_8"   # layout.hpp's @post example
    assert str(m.nullspace("(_2,_4):(_1,_2)")) == "_1:_0"
    assert int(m.max_common_vector(ROW, ROW)) == 512
    assert int(m.max_common_vector(ROW, "(_8,_64):(_1,_8)")) == 1


@BOTH
def test_preconditions(m):
    for bad in (lambda: m.upcast("(_8,_64):(_64,_3)", 2), lambda: m.upcast("(8,64):(64,1)", 2)):
        with pytest.raises(LayoutError) as e:
            bad()
        assert e.value.condition == "divisibility"  # static rule / dynamic assumption
    with pytest.raises(LayoutError) as e:
        m.downcast("(_8,_64):(_64,_2)", 2)
    assert e.value.condition == "has_int1"          # "Downcast requires adjacent elements"
    with pytest.raises(LayoutError):
        m.downcast("(8,64):(64,1)", 2)              # a dynamic 1 is not CuTe's Int<1>


@settings(max_examples=60, deadline=None)
@pytest.mark.parametrize("op", ["upcast", "downcast"])
@given(args=V.recast_args())
def test_cast_spec_equals_impl(op, args):
    _same(lambda m: getattr(m, op)(*args))


@settings(max_examples=60, deadline=None)
@given(args=V.vector_pairs())
def test_max_common_vector_spec_equals_impl_and_its_laws(args):
    A, B = args
    _same(lambda m: int(m.max_common_vector(A, B)))
    N = int(spec.max_common_vector(A, B))
    R = spec.max_common_layout(A, B)
    ra, rb = spec.values(A), spec.values(B)
    assert spec.size(R) == N
    for i in range(N):
        assert ra[R(i)] == i and rb[R(i)] == i
    if len(set(rb)) == len(rb) and N in rb:  # maximal
        assert ra[rb.index(N)] != N
    RI = impl.max_common_layout(A, B)
    assert [ra[x] for x in impl.values(RI)] == list(range(N))


@settings(max_examples=60, deadline=None)
@given(args=V.nullspace_args())
def test_nullspace_kernel(args):
    (L,) = args
    K = spec.nullspace(L)
    assert K == impl.nullspace(L)
    vals = spec.values(L)
    assert all(vals[k] == 0 for k in spec.values(K))


def _same(fn):
    outs = []
    for m in (spec, impl):
        try:
            r = fn(m)
            outs.append(("ok", r if not isinstance(r, LayoutBase) else (r.shape, r.stride)))
        except LayoutError as e:
            outs.append(("raised", e.condition))
    assert outs[0] == outs[1], outs
