"""Swizzles, composed layouts, F2 strides and bank conflicts: spec and impl.

Worked values come from CuTe itself (printed by the CuTe C++ headers of the nvidia-cutlass
4.2 wheel and the DSL 4.8.1: ``Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`` at (1,2) is 66, its slice
at (2,_) is ``((_16,_2,_2)):((_1,-16,32))`` + 144), the rest are properties checked by
enumeration on small swizzles.
"""

import itertools

import layoutcheck.fuzz.strategies as V
import pytest
from hypothesis import given, settings

from layoutcheck import LayoutError, impl, spec
from layoutcheck.composed import (
    ComposedLayoutBase,
    F2Layout,
    SignedLayout,
    Swizzle,
    parse_composed,
    parse_f2,
    parse_swizzle,
    parse_value,
)
from layoutcheck.integers import C

BOTH = pytest.mark.parametrize("m", [spec, impl], ids=["spec", "impl"])
SMALL = [Swizzle(b, m, s) for b in range(3) for m in range(3) for s in range(-5, 6)
         if abs(s) >= b and (s != 0 or b == 0)]


def test_swizzle_notation_round_trips_and_checks_cute_rules():
    sw = parse_swizzle("Sw<3,4,3>")
    assert sw.params == (3, 4, 3) and str(sw) == "Sw<3,4,3>" and sw.span == 10
    assert parse_swizzle("S<3,4,3>") == sw == parse_swizzle("SW_3_4_3") == parse_swizzle("Swizzle<3, 4, 3>")
    with pytest.raises(LayoutError) as e:
        Swizzle(3, 0, 1)  # overlapping fields: CuTe's static_assert
    assert e.value.condition == "swizzle_params"
    with pytest.raises(LayoutError):
        Swizzle(-1, 0, 1)
    with pytest.raises(LayoutError):
        parse_swizzle("Sw<3,4>")


def test_composed_notation_as_cute_prints_it():
    C1 = parse_composed("Sw<3,4,3> o _0 o (8,64):(64,1)")
    assert str(C1) == "Sw<3,4,3> o _0 o (8,64):(64,1)" and C1.shape == (8, 64)
    assert parse_value(str(C1)) == C1
    assert str(parse_composed("(4):(2) o 3 o 4:1")) == "(4):(2) o 3 o 4:1"
    # equality is printed (staticness counts), same_values is structural
    assert C1 != parse_composed("Sw<3,4,3> o 0 o (8,64):(64,1)")
    assert C1.same_values(parse_composed("Sw<3,4,3> o 0 o (_8,_64):(_64,_1)"))
    assert str(parse_value("((_16,_2,_2)):((_1,-16,32))")) == "((_16,_2,_2)):((_1,-16,32))"
    assert isinstance(parse_value("(2,2):(F1,F3)"), F2Layout)
    with pytest.raises(LayoutError):
        parse_composed("Sw<3,4,3> o (8,64):(64,1)")


@BOTH
def test_cute_worked_values(m):
    sw = Swizzle(3, 4, 3)
    assert m.swizzle_apply(sw, 128) == 144   # CuTe C++: Sw<3,4,3>{}(128)
    Cl = m.make_composed_layout(sw, C(0), "(_8,_64):(_64,_1)")
    assert m.composed_eval(Cl, (1, 2)) == 66 and m.composed_size(Cl) == 512
    assert m.composed_values(Cl)[:8] == (0, 64, 144, 208, 288, 352, 432, 496)
    assert m.composed_cosize(Cl) == 512
    # a swizzle that moves offsets up: the composed function reaches 3 on 3:1
    assert m.composed_values(m.make_composed_layout(Swizzle(1, 0, 1), C(0), "3:1")) == (0, 1, 3)
    assert m.composed_cosize(m.make_composed_layout(Swizzle(1, 0, 1), C(0), "3:1")) == 4


@BOTH
@pytest.mark.parametrize("sw", SMALL, ids=str)
def test_swizzle_bijection_involution_f2(m, sw):
    v = m.swizzle_values(sw)
    n = 1 << sw.span
    assert sorted(v) == list(range(n)) and all(v[v[x]] == x for x in range(n))
    assert m.is_involution(sw)
    assert m.f2_values(m.swizzle_as_f2(sw)) == v  # the F2 correspondence
    for k in range(sw.span + 2):  # closed on [0, 2^k) exactly where enumeration says
        closed = all(spec.swizzle_apply(sw, x) < (1 << k) for x in range(1 << k))
        assert m.is_bijection_on(sw, k) == closed, (sw, k)


def test_spec_and_impl_f2_forms_differ_but_agree():
    sw = Swizzle(2, 1, -3)
    a, b = spec.swizzle_as_f2(sw), impl.swizzle_as_f2(sw)
    assert a != b and spec.f2_values(a) == impl.f2_values(b) == spec.swizzle_values(sw)
    F = parse_f2("(2,2,2):(F1,F2,F5)")  # NVlabs' F2 example: 2 ^ 8 at (2,1) of (4,8):(F1,F8)
    assert spec.f2_values(F) == impl.f2_values(F) == (0, 1, 2, 3, 5, 4, 7, 6)
    assert spec.f2_eval(parse_f2("(4,8):(F1,F8)"), 2 + 4 * 1) == 2 ^ 8
    assert spec.clmul(3, 3) == 5 and impl.clmul(0b11, 0b1010) == 0b11110


@BOTH
def test_composed_algebra_acts_on_the_inner_layout(m):
    Cl = m.make_composed_layout(Swizzle(3, 4, 3), C(0), "(_8,_64):(_64,_1)")
    D = m.composed_logical_divide(Cl, (C(2), C(8)))
    cpp = parse_composed("Sw<3,4,3> o _0 o ((_2,_4),(_8,_8)):((_64,_128),(_1,_8))")  # CuTe C++
    assert D.same_values(cpp) and (m is impl or str(D) == str(cpp))
    assert str(m.composed_upcast(Cl, 2)) == "Sw<3,3,3> o _0 o (_8,_32):(_32,_1)"
    sliced, off = m.composed_slice_and_offset(Cl, (2, spec._))
    assert off == 0 and int(sliced.offset) == 128
    # CuTe's decay, ((_16,_2,_2)):((_1,-16,32)) + 144, is the same function
    decay = [v + 144 for v in impl.composed_values(ComposedLayoutBase(Swizzle(0, 0, 0), C(0), spec.Layout(16)))]
    assert len(decay) == 16
    S = SignedLayout(((C(16), C(2), C(2)),), ((C(1), -16, 32),))
    from layoutcheck.oracles.compare import answer_values
    assert list(answer_values(S) + 144) == list(m.composed_values(sliced))


@BOTH
def test_layout_swizzle_composition_and_right_inverse(m):
    L = spec.parse("(_8,_64):(_64,_1)")
    R = m.layout_swizzle_composition(L, Swizzle(3, 3, 3))
    assert str(R) == "Sw<3,0,3> o _0 o (_8,_64):(_64,_1)"  # CuTe C++ prints this
    Cl = m.make_composed_layout(Swizzle(3, 3, 3), C(0), L)
    Ri = m.composed_right_inverse(Cl)
    vals = m.composed_values(Ri)
    assert all(m.composed_eval(Cl, r) == i for i, r in enumerate(vals))
    with pytest.raises(LayoutError) as e:  # CuTe's construction is no inverse here
        m.composed_right_inverse(m.make_composed_layout(Swizzle(1, 3, -4), C(0), "(8,2):(2,1)"))
    assert e.value.condition == "right_inverse"
    with pytest.raises(LayoutError) as e:  # CuTe C++ also rejects (its make_swizzle asserts)
        m.composed_right_inverse(m.make_composed_layout(Swizzle(3, 4, 3), C(0), L))
    assert e.value.condition == "make_swizzle"


@BOTH
def test_bank_conflicts_of_the_classic_patterns(m):
    tile = "(_8,_64):(_64,_1)"
    swz = m.make_composed_layout(Swizzle(3, 3, 3), C(0), tile)
    col, row, ldm = "32:1", "32:8", "(8,4):(1,64)"
    assert m.bank_conflicts(tile, col, 2) == (8,)          # a column of fp16: 8-way
    assert m.bank_conflicts(swz, col, 2) == (1,)           # swizzled: conflict-free
    assert m.bank_conflicts(tile, row, 2) == (1,)
    v16p, v16s = m.upcast(tile, 8), m.composed_upcast(swz, 8)  # 16-byte vectors (ldmatrix rows)
    assert str(v16s) == "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)"
    assert m.bank_conflicts(v16p, "(8,4):(1,8)", 16) == (8, 8, 8, 8)  # quarter-warps, 8-way
    assert m.bank_conflicts(v16s, "(8,4):(1,8)", 16) == (1, 1, 1, 1)
    assert m.bank_conflicts("(_32,_32):(_32,_1)", col, 4) == (32,)
    assert m.bank_conflicts(m.make_composed_layout(Swizzle(5, 0, 5), C(0), "(_32,_32):(_32,_1)"), col, 4) == (1,)
    with pytest.raises(LayoutError) as e:
        m.bank_conflicts(tile, "16:1", 2)
    assert e.value.condition == "warp_size"
    with pytest.raises(LayoutError):
        m.bank_conflicts(tile, col, 3)


@settings(max_examples=40, deadline=None)
@given(V.bank_args())
def test_bank_conflicts_spec_equals_impl(args):
    assert spec.bank_conflicts(*args) == impl.bank_conflicts(*args)


@settings(max_examples=40, deadline=None)
@given(V.composed_layouts())
def test_composed_values_and_cosize_spec_equals_impl(Cl):
    assert spec.composed_values(Cl) == impl.composed_values(Cl)
    assert spec.composed_cosize(Cl) == impl.composed_cosize(Cl) == max(spec.composed_values(Cl)) + 1


def test_bank_grid_is_the_picture():
    swz = spec.make_composed_layout(Swizzle(3, 3, 3), C(0), "(_8,_64):(_64,_1)")
    g, h = spec.bank_grid(swz, 2), impl.bank_grid(swz, 2)
    assert g == h and len(g) == 8 and len(g[0]) == 64
    # each 8-element (16-byte) chunk of a row lands on 4 banks; column 0 of the 8 rows hits
    # 8 different 4-bank groups
    assert sorted(g[r][0] for r in range(8)) == [0, 4, 8, 12, 16, 20, 24, 28]


def test_make_swizzle_rebuilds_from_masks():
    for sw in SMALL:
        if sw.bits:
            B, M, S = sw.params
            y = ((1 << B) - 1) << (M + max(0, S))
            z = ((1 << B) - 1) << (M - min(0, S))
            assert spec.make_swizzle(y, z) == impl.make_swizzle(y, z) == sw
    with pytest.raises(LayoutError):
        spec.make_swizzle(0b110, 0b1)


def test_small_composed_slices_spec_equals_impl():
    inner = spec.parse("(4,(2,2)):(1,(8,4))")
    for b, mm, s in itertools.product(range(2), range(2), (1, 2, -2)):
        if abs(s) < b:
            continue
        Cl = spec.make_composed_layout(Swizzle(b, mm, s), 3, inner)
        for c in ((spec._, 1), (2, spec._), (spec._, (1, spec._)), 5):
            assert spec.composed_slice_and_offset(Cl, c) == impl.composed_slice_and_offset(Cl, c)
