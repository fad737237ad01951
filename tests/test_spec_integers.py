"""CuTe integers: seeds 000 and 003, and agreement of ``layoutcheck.integers.C`` with the
rule functions of ``layoutcheck.spec.integers``."""

import itertools
import operator

import pytest
from layoutcheck.spec import integers as I

from layoutcheck import LayoutError
from layoutcheck.integers import C, CBool


def kind(x):
    """The CuTe type class of a value: static bool, static int, bool, or int."""
    if isinstance(x, CBool):
        return "C<bool>"
    if isinstance(x, C):
        return "C"
    if isinstance(x, bool):
        return "bool"
    return "int"


# --- seed 003's table, row by row -------------------------------------------------------

def test_seed003_static_plus_static_is_static():
    r = I.int_add(C(2), C(3))           # Int<2>{} + Int<3>{} -> Int<5>
    assert kind(r) == "C" and r == 5 and str(r) == "_5"


def test_seed003_static_times_static_is_static():
    r = I.int_mul(C(2), C(3))           # _2{} * _3{} -> Int<6>
    assert kind(r) == "C" and r == 6


def test_seed003_static_plus_dynamic_is_dynamic():
    n = 5
    r = I.int_add(C(2), n)              # _2{} + n -> int, 7
    assert kind(r) == "int" and r == 7


def test_seed003_static_plus_literal_is_dynamic():
    r = I.int_add(C(2), 3)              # _2{} + 3 -> int, 5 (a literal is dynamic too)
    assert kind(r) == "int" and r == 5


def test_seed003_static_zero_times_dynamic_stays_static():
    n = 5
    r = I.int_mul(C(0), n)              # _0{} * n -> Int<0>
    assert kind(r) == "C" and r == 0
    assert kind(I.int_mul(n, C(0))) == "C"


def test_seed003_comparison_of_statics_is_static_bool():
    r = I.int_lt(C(2), C(3))            # _2{} < _3{} -> C<true>
    assert kind(r) == "C<bool>" and bool(r) is True and repr(r) == "C<true>"
    assert kind(I.int_lt(C(2), 3)) == "bool"


def test_seed003_print_program():
    # the seed's program prints: ordinary k=1, Int<k>, _2+_3, _2+3  ->  1 _1 _5 5
    k = 1
    printed = [I.cute_print(k), I.cute_print(C(k)), I.cute_print(C(2) + C(3)),
               I.cute_print(C(2) + 3)]
    assert printed == ["1", "_1", "_5", "5"]


def test_seed000_traits():
    # seed 000: is_integral<_3> true, is_std_integral<_3> false, is_static<_3> true,
    # is_static<int> false, is_integral<int> true; _3 + n(=4) = 7 dynamic; _2 * _3 = _6 static.
    assert I.is_integral(C(3)) and not I.is_std_integral(C(3)) and I.is_static(C(3))
    assert I.is_integral(4) and I.is_std_integral(4) and not I.is_static(4)
    n = 4
    assert kind(C(3) + n) == "int" and C(3) + n == 7
    assert kind(C(2) * C(3)) == "C" and C(2) * C(3) == 6


def test_is_constant_seed003():
    assert I.is_constant(5, C(5))
    assert not I.is_constant(5, C(4))
    assert not I.is_constant(5, 5)      # a dynamic 5 is not the constant 5


def test_is_static_of_tuples_and_layouts():
    from layoutcheck.spec import parse
    assert I.is_static((C(2), (C(3), C(4))))
    assert not I.is_static((C(2), (C(3), 4)))
    assert I.is_static(())
    assert I.is_static(parse("(_2,_3):(_1,_2)"))
    assert not I.is_static(parse("(_2,3):(_1,_2)"))


def test_static_bool_prints_like_cute():
    # cute::print(C<true>{}) prints "_1" (checked with g++ on the shipped CuTe headers)
    assert I.cute_print(C(2) < C(3)) == "_1"
    assert I.cute_print(C(3) < C(2)) == "_0"


def test_rule_functions_reject_non_integers():
    with pytest.raises(LayoutError, match="not a CuTe integer"):
        I.int_add(C(2), 1.5)
    with pytest.raises(LayoutError, match="division by zero"):
        I.int_div(4, 0)


# --- C's operators agree with the rule functions ---------------------------------------

OPERANDS = [C(0), C(1), C(2), C(3), C(7), 0, 1, 2, 3, 7]
ARITH = [(operator.add, I.int_add), (operator.sub, I.int_sub), (operator.mul, I.int_mul),
         (operator.floordiv, I.int_div), (operator.mod, I.int_mod)]
COMPARE = [(operator.lt, I.int_lt), (operator.le, I.int_le), (operator.gt, I.int_gt),
           (operator.ge, I.int_ge)]


@pytest.mark.parametrize("op,rule", ARITH, ids=lambda x: getattr(x, "__name__", ""))
def test_C_arithmetic_agrees_with_rules(op, rule):
    checked = 0
    for a, b in itertools.product(OPERANDS, repeat=2):
        if not isinstance(a, C) and not isinstance(b, C):
            continue
        if op in (operator.floordiv, operator.mod) and b == 0:
            continue
        got, want = op(a, b), rule(a, b)
        assert (got, kind(got)) == (want, kind(want)), (a, b, op)
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("op,rule", COMPARE, ids=lambda x: getattr(x, "__name__", ""))
def test_C_comparisons_agree_with_rules(op, rule):
    for a, b in itertools.product(OPERANDS, repeat=2):
        if isinstance(a, C) or isinstance(b, C):
            got, want = op(a, b), rule(a, b)
            assert (bool(got), kind(got)) == (bool(want), kind(want)), (a, b, op)


def test_C_equality_stays_plain_bool():
    # documented deviation: == keeps Python's bool so C is hashable/usable as a dict key;
    # the rule function gives CuTe's static form.
    assert kind(C(2) == C(2)) == "bool"
    assert kind(I.int_eq(C(2), C(2))) == "C<bool>"
    assert {C(2): "a"}[2] == "a"


def test_special_cases_beyond_seed():
    # CuTe's other mixed special cases: _0 / n, _0 % n, n % _1 are static _0
    assert kind(C(0) // 5) == "C" and kind(I.int_div(C(0), 5)) == "C"
    assert kind(C(0) % 5) == "C" and kind(I.int_mod(C(0), 5)) == "C"
    assert kind(5 % C(1)) == "C" and kind(I.int_mod(5, C(1))) == "C"
    assert kind(5 % C(2)) == "int"


def test_cpp_division_truncates():
    assert I.int_div(-7, 2) == -3 and I.int_mod(-7, 2) == -1   # C++, not Python's floor
