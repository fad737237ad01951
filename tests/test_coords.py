"""spec/coords.py and impl/coords.py: worked values from the seeds and CuTe's
documentation, the refusals (LayoutError conditions), spec == impl on generated inputs, and
the text codec of the new argument kinds."""

import layoutcheck.fuzz.strategies.coordinates as CS
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from layoutcheck.oracles.protocol import decode_arg, format_arg, parse_args

from layoutcheck import LayoutError
from layoutcheck import impl as I
from layoutcheck import spec as S
from layoutcheck.layout import LayoutBase, _

BOTH = pytest.mark.parametrize("M", [S, I], ids=["spec", "impl"])


@BOTH
def test_seed_000_coordinate_to_index(M):
    # seed 000: shape (2,(3,4)), coordinate (i,(j,k)), stride (1,(2,3)) -> i*1 + j*2 + k*3
    for i, j, k in [(0, 0, 0), (1, 2, 3), (1, 0, 2), (0, 1, 1)]:
        assert M.crd2idx((i, (j, k)), (2, (3, 4)), (1, (2, 3))) == i + 2 * j + 3 * k
    L = M.parse("(2,(3,4)):(1,(2,3))")
    assert M.eval_coord(L, (1, (2, 3))) == 1 + 4 + 9
    # LayoutLeft = exclusive prefix product: (2,3,4) -> (1,2,6) (seed 000)
    assert M.prefix_product((2, 3, 4)) == (1, 2, 6)
    assert M.layout_left((2, 3, 4)).stride == (1, 2, 6)


@BOTH
def test_integer_and_hierarchical_coordinates(M):
    L = M.parse("(4,(8,3)):(1,(4,32))")
    assert M.eval_coord(L, (1, (2, 1))) == 1 + 8 + 32
    assert M.eval_coord(L, (1, 5)) == 1 + 5 * 4          # 5 is mode 1's colex index: (5, 0)
    assert M.eval_coord(L, 13) == M.eval_coord(L, (1, (3, 0)))
    assert M.eval_coord(L, 4 * 24 + 1) == 1 + 24 * 4      # past the end: the last mode runs on
    assert M.crd2idx((1, (_, 2)), (4, (8, 3))) == 1 + 2 * 32  # _ counts as 0, LayoutLeft strides
    assert M.idx2crd(13, (4, (8, 3))) == (1, (3, 0))
    assert M.idx2crd(13, (4, 8), (1, 4)) == (1, 3)       # (13 / d) mod s per leaf
    with pytest.raises(LayoutError) as e:
        M.idx2crd(96, (4, (8, 3)))
    assert e.value.condition == "in_domain"
    with pytest.raises(LayoutError) as e:
        M.idx2crd(3, (4, 2), (1, 0))
    assert e.value.condition == "nonzero_stride"
    with pytest.raises(LayoutError) as e:
        M.crd2idx((1, 2), 8)
    assert e.value.condition == "congruent"
    with pytest.raises(LayoutError) as e:
        M.eval_coord(L, (1, _))
    assert e.value.condition == "no_underscore"


@BOTH
def test_crd2crd(M):
    assert M.crd2crd(((1, 1), 2), (4, 3), ((2, 2), 3)) == (3, 2)  # pycute asserts here: F-172
    assert M.crd2crd(5, (2, 3)) == (1, 2)
    assert M.crd2crd((1, 2), 6, (2, 3)) == 5
    with pytest.raises(LayoutError) as e:
        M.crd2crd((1, 2), 6)
    assert e.value.condition == "src_shape"


@BOTH
def test_slice_dice_offset(M):
    L = M.parse("(4,(8,3)):(1,(4,32))")
    assert M.slice_(L, (_, (3, _))) == LayoutBase((4, 3), (1, 32))
    assert M.dice(L, (1, _)) == LayoutBase((4,), (1,))
    assert M.dice(L, (1, (_, 2))) == LayoutBase((4, 3), (1, 32))
    assert M.dice(L, 5) == L and M.dice(L, _) == LayoutBase((), ())
    S_, k = M.slice_and_offset(L, (1, (_, 2)))
    assert S_ == LayoutBase((8,), (4,)) and k == 1 + 64
    assert M.slice_and_offset(L, (1, (2, 0))) == (LayoutBase((), ()), 9)
    assert M.slice_and_offset(L, _) == (L, 0)
    with pytest.raises(LayoutError) as e:
        M.dice(L, (4, _))
    assert e.value.condition == "in_domain"


@BOTH
def test_inttuple_helpers(M):
    assert M.shape_div((4, 5, 6), 40) == (1, 1, 3)        # CuTe int_tuple.hpp's example
    assert M.shape_div((4, 6), (2, 3)) == (2, 2)
    assert M.shape_div(2, 4) == 1 and M.shape_div(6, (2, 3)) == 1
    with pytest.raises(LayoutError) as e:
        M.shape_div(6, 4)
    assert e.value.condition == "divisibility"
    assert M.prefix_product((2, 3), (5, 7)) == (5, 7) and M.prefix_product((2, (3, 4)), 2) == (2, (4, 12))
    assert M.product(()) == 1 and M.product((2, (3, 4))) == 24
    assert M.inner_product((1, (2, 3)), (4, (5, 6))) == 32
    assert M.elem_scale((2, 3), (4, (1, 2))) == (8, 6) and M.elem_scale(3, (2, 2)) == 12
    assert M.congruent((1, (2,)), (3, (4,))) and not M.congruent((1, 2), (1, (2,)))
    assert M.compatible(4, (2, 2)) and not M.compatible((2, 2), 4)
    assert M.compatible((2, 6), (2, (3, 2))) and not M.compatible((2, 6), (2, 3, 2))
    assert M.flatten((1, (2, 3))) == (1, 2, 3) and M.flatten(3) == (3,)  # seed 001: X^b of 3 is (3)
    for bad in [lambda: M.inner_product((1, 2), 3), lambda: M.elem_scale((1, 2), 3),
                lambda: M.prefix_product(2, (1, 2))]:
        with pytest.raises(LayoutError) as e:
            bad()
        assert e.value.condition == "congruent"


@BOTH
def test_profile_walk(M):
    L = M.parse("(2,(1,2)):(0,(4,8))")
    assert M.filter_profile(L, (1, 1)) == LayoutBase((1, 2), (0, 8))
    assert M.coalesce(M.parse("(2,(2,2)):(1,(2,4))"), (1, 1), sense="cute") == LayoutBase((2, 4), (1, 2))
    with pytest.raises(LayoutError) as e:
        M.filter_profile(L, (1, 1, 1))
    assert e.value.condition == "rank"


def test_staticness_follows_cute():
    # static op static stays static (seed 003); a prefix product starts at _1
    assert repr(S.prefix_product((S.C(2), S.C(3)))[1]) == "_2"
    assert repr(I.prefix_product((I.C(2), I.C(3)))[1]) == "_2"
    assert repr(S.crd2idx((S.C(1),), (S.C(4),), (S.C(2),))) == "_2"


# --- spec == impl on every new op ------------------------------------------------------------

OPS = {
    "crd2idx": CS.crd2idx_args, "idx2crd": CS.idx2crd_args, "crd2crd": CS.crd2crd_args,
    "eval_coord": CS.eval_coord_args, "get_mode": CS.get_mode_args,
    "dice": lambda: CS.slice_args(need_underscore=False),
    "slice_and_offset": lambda: CS.slice_args(need_underscore=False),
    "shape_div": CS.shape_div_args, "prefix_product": CS.prefix_product_args,
    "product": CS.inttuple_args, "inner_product": CS.inner_product_args,
    "elem_scale": CS.elem_scale_args, "congruent": CS.shape_pair_args,
    "compatible": CS.shape_pair_args, "filter_profile": CS.profile_args,
}


def _answer(fn, args):
    try:
        r = fn(*args)
    except LayoutError as e:
        return ("raised", e.condition)
    return ("ok", format_arg(r) if not isinstance(r, bool) else r)


@pytest.mark.parametrize("op", sorted(OPS))
def test_impl_agrees_with_spec(op):
    @settings(max_examples=60, deadline=None, database=None)
    @given(OPS[op]())
    def agree(args):
        assert _answer(getattr(I, op), args) == _answer(getattr(S, op), args), (op, args)
    agree()


# --- the text codec of the new kinds ------------------------------------------------------------

@given(st.one_of(CS.slice_args(), CS.crd2idx_args(), CS.underscore_tiler_args(), CS.profile_args(),
                 CS.shape_div_args()))
@settings(max_examples=80, deadline=None, database=None)
def test_format_and_decode_round_trip(args):
    texts = [format_arg(a) for a in args]
    assert tuple(decode_arg(t) for t in texts) == args
    assert [format_arg(decode_arg(t)) for t in texts] == texts


def test_parse_args_kinds():
    L, c = parse_args("slice_", ["(4,8):(1,4)", "(1,_)"])
    assert c == (1, _) and isinstance(L, LayoutBase)
    assert parse_args("crd2idx", ["(0,(1,_))", "(2,(3,4))"]) == ((0, (1, _)), (2, (3, 4)))
    A, T = parse_args("logical_divide", ["(8,8):(1,8)", "(2:1,_)"])
    assert T == (LayoutBase(2, 1), _)
    assert repr(parse_args("idx2crd", ["_5", "(2,3)"])[0]) == "_5"      # static stays static
    assert parse_args("coalesce", ["(2,(2,2)):(1,(2,4))", "(1,(1,1))"])[1] == (1, (1, 1))
    with pytest.raises(LayoutError):
        parse_args("crd2idx", ["(1,2):(1,2)", "(2,3)"])   # a layout is no coordinate
    assert format_arg(True) == "true" and format_arg((LayoutBase(2, 1), 3)) == "(2:1,3)"
