"""CuTe notation in and out (layoutcheck/notation.py, layoutcheck/layout.py): round trips,
CuTe's printing, and every error class with its position in the text."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from layoutcheck import C, LayoutError, parse
from layoutcheck.layout import LayoutBase
from layoutcheck.notation import format_tuple, parse_tuple


@pytest.mark.parametrize("text", [
    "(2,(2,2)):(4,(2,1))",   # seed 000's s2xh4
    "_3:_1",                 # static integers print with '_'
    "():()",                 # the empty layout E (Example 2.1.2.16)
    "8:1",                   # rank-1 integral layout
    "(8):(1)",               # rank-1 tuple layout: keeps its parentheses
    "(_2,(3,_4)):(_1,(2,6))",
    "((2,2),(2,2)):((1,4),(2,8))",
    "(1,(),2):(0,(),1)",
])
def test_round_trip_is_exact(text):
    assert str(parse(text)) == text
    assert parse(str(parse(text))) == parse(text)


def test_integral_and_tuple_rank1_differ():
    assert parse("8:1") != parse("(8):(1)")
    assert parse("8:1").shape == 8 and parse("(8):(1)").shape == (8,)


def test_spaces_are_allowed_and_dropped():
    assert str(parse("  ( 2 , ( 2 , 2 ) ) : ( 4 , ( 2 , 1 ) ) ")) == "(2,(2,2)):(4,(2,1))"
    assert str(parse("_3 : _1")) == "_3:_1"


def test_static_entries_are_C():
    L = parse("(_2,3):(_1,2)")
    assert isinstance(L.shape[0], C) and not isinstance(L.shape[1], C)
    assert parse("(_2,3):(_1,2)") == parse("(2,3):(1,2)")      # == compares values
    assert str(parse("(_2,3):(_1,2)")) != str(parse("(2,3):(1,2)"))


def test_bare_shape_gets_layout_left():
    # CuTe: make_layout(shape) uses LayoutLeft, the first stride is _1 (seed 000)
    assert str(parse("(2,3,4)")) == "(2,3,4):(_1,2,6)"


def test_format_tuple():
    assert format_tuple((C(2), (3, C(4)))) == "(_2,(3,_4))"
    assert format_tuple(()) == "()"
    assert parse_tuple("(2,(3,_4))") == (2, (3, 4))


# --- errors: (text, position, words the message must contain) --------------------------

ERRORS = [
    ("(2,3", 0, "unbalanced parentheses"),
    ("(2,3):(1,2", 6, "unbalanced parentheses"),
    ("(2,3)):(1,2)", 5, "unbalanced parentheses"),
    ("(2,3):(1,2))", 11, "unbalanced parentheses"),
    ("(2,3):(1,(2,3))", 9, "different profiles"),
    ("(2,(3,4)):(1,5)", 13, "different profiles"),
    ("(2,3):(1,2,3)", 6, "different profiles"),
    ("(0,3):(1,2)", 1, "shape entries must be positive"),
    ("(2,-3):(1,2)", 3, "shape entries must be positive"),
    ("(2,3):(1,-2)", 9, "stride entries must be non-negative"),
    ("(2,3):(1,2.5)", 9, "non-integer entry"),
    ("(2,x):(1,2)", 3, "expected an integer"),
    ("(2,,3):(1,2)", 3, "expected an integer"),
    ("", 0, "expected a layout"),
    ("(2,3):", 6, "expected an integer"),
    ("2:1 junk", 4, "unexpected text"),
    ("(2,3)(1,2)", 5, "expected ':'"),
]


@pytest.mark.parametrize("text,pos,words", ERRORS)
def test_error_names_problem_and_position(text, pos, words):
    with pytest.raises(LayoutError) as e:
        LayoutBase.parse(text)  # layoutcheck.parse also reads signed layouts (negative strides)
    assert e.value.position == pos
    assert words in str(e.value) and f"at position {pos}" in str(e.value)
    assert isinstance(e.value, ValueError)


def test_errors_from_python_values():
    from layoutcheck.spec import Layout
    with pytest.raises(LayoutError, match="not an integer"):
        Layout((2, 2.5), (1, 2))
    with pytest.raises(LayoutError, match="positive"):
        Layout((2, 0), (1, 2))
    with pytest.raises(LayoutError, match="congruent"):
        Layout((2, (2, 2)), (1, 2))
    with pytest.raises(LayoutError, match="string"):
        parse(42)


# --- round trip of generated layouts ----------------------------------------------------

def _leaf(lo):
    return st.builds(lambda v, s: C(v) if s else v, st.integers(lo, 40), st.booleans())


@st.composite
def layouts_text(draw):
    def tree(depth):
        if depth == 0 or draw(st.booleans()):
            return "leaf"
        return [tree(depth - 1) for _ in range(draw(st.integers(0, 3)))]

    prof = tree(3)

    def fill(p, lo):
        return draw(_leaf(lo)) if p == "leaf" else tuple(fill(x, lo) for x in p)

    return f"{format_tuple(fill(prof, 1))}:{format_tuple(fill(prof, 0))}"


@given(layouts_text())
def test_round_trip_generated(text):
    L = parse(text)
    assert str(L) == text
    spaced = text
    for ch in "(),:":                 # spaces around every punctuation mark still parse
        spaced = spaced.replace(ch, f" {ch} ")
    assert str(parse(spaced)) == text
