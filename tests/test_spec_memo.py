"""The spec's memos (spec/memo.py and the tables of spec/layout.py) change no answer:
static and dynamic integers are kept apart, a kept refusal is raised again as it was, the
enumeration limit is part of the key, and a table read equals the point-by-point Phi."""

import layoutcheck.spec as S
import pytest
from layoutcheck.spec import algebra as A
from layoutcheck.spec import layout as LY
from layoutcheck.spec import memo
from layoutcheck.spec.limits import set_enumeration_limit

from layoutcheck.errors import LayoutError


@pytest.fixture(autouse=True)
def cold():
    LY.clear_memos()
    yield
    LY.clear_memos()


def test_static_and_dynamic_inputs_are_kept_apart():
    dyn = A.memo_composition(S.parse("(4,8):(1,4)"), S.parse("4:2"))
    sta = A.memo_composition(S.parse("(_4,_8):(_1,_4)"), S.parse("_4:_2"))
    assert dyn == sta  # the same values ...
    assert str(dyn) != str(sta)  # ... with their own integer types (_2 vs 2)
    assert str(A.memo_composition(S.parse("(4,8):(1,4)"), S.parse("4:2"))) == str(dyn)
    assert str(A.memo_composition(S.parse("(_4,_8):(_1,_4)"), S.parse("_4:_2"))) == str(sta)
    assert str(sta) == str(S.composition(S.parse("(_4,_8):(_1,_4)"), S.parse("_4:_2")))


def test_a_kept_refusal_is_raised_again_with_its_message_and_condition():
    args = (S.parse("(4,4):(1,16)"), 16)
    with pytest.raises(LayoutError) as first:
        A.memo_complement(*args)
    with pytest.raises(LayoutError) as again:
        A.memo_complement(*args)
    assert str(again.value) == str(first.value)
    assert again.value.condition == first.value.condition == "is_complementable"
    assert len(A.memo_complement.memo) == 1


def test_the_enumeration_limit_is_part_of_the_key():
    L, T = S.parse("(16,16):(1,16)"), (S.parse("(4,4):(1,4)"),)
    expected = str(S.logical_divide(L, T))
    previous = set_enumeration_limit(8)
    try:
        with pytest.raises(LayoutError) as e:
            S.logical_divide(L, T)
        assert e.value.condition == "enumeration_limit"
    finally:
        set_enumeration_limit(previous)
    assert str(S.logical_divide(L, T)) == expected  # the refusal was not kept


def test_unkeyable_arguments_are_not_memoised():
    calls = []

    @memo.memoised
    def f(x):
        calls.append(x)
        return len(x)

    assert f([1, 2]) == f([1, 2]) == 2 and len(calls) == 2  # a list has no key
    assert f((1, 2)) == f((1, 2)) == 2 and len(calls) == 3


@pytest.mark.parametrize("text", ["(2,(3,2)):(12,(1,6))", "((2,2),3):((0,7),1)", "1:0", "():()",
                                  "(_4,3):(_3,1)"])
def test_tables_and_images_equal_phi_point_by_point(text):
    L = S.parse(text)
    n = int(S.size(L))
    assert S.values(L) == [LY._Phi(LY._flattening(L), i) for i in range(n)] == [L(i) for i in range(n)]
    assert LY.images(L, list(range(n))[::-1]) == [L(i) for i in reversed(range(n))]
    with pytest.raises(LayoutError, match="outside the domain"):
        LY.images(L, [0, n])  # past the domain: L(n) raises, as it always did
