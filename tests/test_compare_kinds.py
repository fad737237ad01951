"""compare() on the answer kinds beyond layouts: ints, bools, IntTuples (structural), values,
(layout, offset) pairs, and the required level of every new op."""

from layoutcheck.oracles import OPS, REQUIRED, compare
from layoutcheck.oracles.protocol import ANSWERS, Outcome

from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, _


def test_inttuples_compare_structurally():
    assert compare("idx2crd", (5, (2, 3)), (1, 2), (1, 2)).level == "printed"
    assert compare("prefix_product", ((2, 3),), (C(1), 2), (1, 2)).level == "structure"
    c = compare("flatten", (3,), (3,), 3)                 # 3 is not (3)
    assert c.level == "none" and not c.ok and "nesting" in c.detail
    assert not compare("idx2crd", (5, (2, (3,))), (1, (2,)), (1, 2)).ok   # nesting differs
    assert not compare("shape_div", ((4, 6), 2), (2, 6), (2, 3)).ok
    assert compare("shape_div", ((), 2), (), ()).ok


def test_bools_and_ints():
    assert compare("congruent", ((1,), (2,)), True, True).level == "printed"
    assert not compare("congruent", ((1,), (2,)), True, False).ok
    assert not compare("compatible", (4, (2, 2)), True, 1).ok      # an int is no bool
    assert compare("rank", (LayoutBase(4, 1),), C(1), 1).level == "structure"
    assert not compare("crd2idx", ((1,), (4,)), 1, 2).ok


def test_slice_and_offset_pairs():
    L = LayoutBase.parse("(4,8):(1,4)")
    e = (LayoutBase((8,), (4,)), 1)
    assert compare("slice_and_offset", (L, (1, _)), e, e).level == "printed"
    assert not compare("slice_and_offset", (L, (1, _)), e, (e[0], 2)).ok          # offset
    assert not compare("slice_and_offset", (L, (1, _)), e, (LayoutBase(8, 4), 1)).ok  # (8) vs 8
    assert not compare("slice_and_offset", (L, (1, _)), e, LayoutBase(8, 4)).ok     # no pair
    assert compare("slice_and_offset", (L, (1, _)), e, (LayoutBase((8,), (C(4),)), 1)).level == "structure"


def test_values_stay_flat_tuples():
    L = LayoutBase.parse("(2,2):(2,1)")
    assert compare("values", (L,), (0, 2, 1, 3), (0, 2, 1, 3)).ok
    assert not compare("values", (L,), (0, 2, 1, 3), (0, 1, 2, 3)).ok
    assert str(Outcome.ok((0, 2, 1, 3))) == "[0 2 1 3]"


def test_every_op_has_an_answer_kind_and_a_required_level():
    assert set(ANSWERS) == set(OPS)
    for op in OPS:
        assert op in REQUIRED, op
    for op in ("eval_coord", "slice_", "dice", "crd2crd", "congruent", "layout_left"):
        assert REQUIRED[op] == "structure"


def test_layout_answers_of_slices_are_graded_by_structure():
    L = LayoutBase.parse("(4,8):(1,4)")
    ref = LayoutBase((4, 8), (1, 4))
    wrapped = LayoutBase(((4, 8),), ((1, 4),))   # pycute's slice at a bare _ (F-170)
    c = compare("slice_", (L, _), ref, wrapped)
    assert c.level == "function" and not c.ok
