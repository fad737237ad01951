"""oracles/postconditions.py: the spec keeps every post-condition; an answer with
the right layout function but a broken structure grades ``none`` in ``compare``."""

import pytest
from hypothesis import given, settings
from layoutcheck.fuzz.checks.catalogue import BY_NAME
from layoutcheck.oracles import compare
from layoutcheck.oracles.postconditions import POSTCONDITIONS, compatible_shapes, violation

from layoutcheck import LayoutError
from layoutcheck import spec as S
from layoutcheck.layout import LayoutBase, _


def P(text):
    return LayoutBase.parse(text)


@pytest.mark.parametrize("op", sorted(POSTCONDITIONS))
@pytest.mark.parametrize("sense", ["paper", "cute"])
def test_the_spec_keeps_every_postcondition(op, sense):
    check = BY_NAME[f"diff.{op}"]
    fn = getattr(S, op)

    @settings(max_examples=40, deadline=None, database=None)
    @given(check.strategy())
    def keeps(args):
        kw = {"sense": sense} if sense == "cute" and op not in (
            "coalesce", "filter", "right_inverse", "left_inverse") else {}
        if op in ("coalesce", "filter") and len(args) == 2:
            from layoutcheck.oracles.pyapi import package_function
            call = package_function(S, op, args)
        else:
            call = lambda *a: fn(*a, **kw)  # noqa: E731
        try:
            R = call(*args)
        except LayoutError:
            return
        assert violation(op, args, R) is None, (op, args, R)
    keeps()


# --- right function, broken structure: rejected at the function / coalesced / property level ----

BROKEN = [
    # composition: a rank-1 B cannot give an integral (rank-0) result (compatible(B, R))
    ("composition", (P("8:1"), P("(4):(2)")), "4:2"),
    ("composition", (P("(4,2):(1,4)"), P("((2,2)):((1,4))")), "(2,2):(1,4)"),
    # by-mode: a _ mode must come back as it was, not wrapped
    ("composition", (P("(4,8):(1,4)"), (_, P("4:2"))), "((4),4):((1),8)"),
    # divide: the tile mode must stay compatible with the tiler
    ("logical_divide", (P("8:1"), P("(2):(1)")), "(2,4):(1,2)"),
    # product: mode 0 is A itself
    ("logical_product", (P("(2,2):(1,2)"), P("3:1")), "(4,3):(1,4)"),
    # zipped / tiled with a Tile of 2 entries: 2 tiles, then 2 rests
    ("zipped_divide", (P("(8,4):(1,8)"), (2, 2)), "((2,2,4),(2)):((1,8,2),(16))"),
    ("tiled_divide", (P("(8,4):(1,8)"), (2, 2)), "((2,2,4),2):((1,8,2),16)"),
    # blocked product: rank max(rank A, rank B)
    ("blocked_product", (P("(2,2):(1,2)"), P("3:1")), "(2,3,2):(1,4,2)"),
    # complement and inverses are flat (CuTe builds them with coalesce)
    ("complement", (P("4:1"), 24), "((2,3)):((4,8))"),
    ("right_inverse", (P("(2,2):(2,1)"),), "((2,2)):((2,1))"),
]


@pytest.mark.parametrize("op,inputs,answer", BROKEN, ids=[f"{b[0]}-{i}" for i, b in enumerate(BROKEN)])
def test_a_broken_structure_is_no_agreement(op, inputs, answer):
    fn = getattr(S, op)
    ref = fn(*inputs, sense="cute") if op not in ("right_inverse",) else fn(*inputs)
    bad = P(answer)
    assert violation(op, inputs, bad) is not None
    c = compare(op, inputs, ref, bad)
    assert c.level == "none" and c.ok is False and "post-condition" in c.detail, c
    assert compare(op, inputs, ref, ref).ok  # the reference itself passes


def test_compatible_shapes_is_cutes_partial_order():
    assert compatible_shapes(4, (2, 2)) and not compatible_shapes((2, 2), 4)
    assert compatible_shapes((2, 6), (2, (3, 2))) and not compatible_shapes((4,), 4)
    assert not compatible_shapes((2, 2), (2, 2, 1))


def test_coalesce_profile_keeps_the_profiles_structure():
    L = P("(2,(2,2),3):(1,(2,4),8)")
    assert violation("coalesce", (L, (1, 1)), P("(2,4,3):(1,2,8)")) is None
    assert "past the profile" in violation("coalesce", (L, (1, 1)), P("(2,4,(3,1)):(1,2,(8,0))"))
    assert violation("coalesce", (L, (1, 1)), P("(2,(2,2),3):(1,(2,4),8)")) is not None  # mode 1 not coalesced
    assert violation("coalesce", (L, (1, 1)), P("(8,3):(1,8)")) is not None              # rank lost
