"""Hostile API calls: the notation raises only ``LayoutError`` (with the position
of the bad character), the spec refuses to enumerate past its limit with a ``LayoutError``
naming the size and the limit, and no public spec function hangs or blows up on huge
layouts.  Every case runs under ``hostile_support.capped`` (a timer and an address-space
limit above the current size)."""

import unicodedata

import pytest
from hostile_support import CaseTimeout, capped
from layoutcheck.spec.limits import (
    DEFAULT_LIMIT,
    ENUMERATION_CONDITION,
    enumeration_limit,
    set_enumeration_limit,
)

from layoutcheck import LayoutError, parse, spec
from layoutcheck.layout import LayoutBase
from layoutcheck.notation import MAX_DEPTH, MAX_DIGITS, MAX_TEXT, parse_tile_parts, parse_tuple

PARSERS = {"parse": parse, "parse_tuple": parse_tuple, "parse_tile_parts": parse_tile_parts,
           "LayoutBase.parse": LayoutBase.parse, "spec.parse_tiler": spec.parse_tiler}


def _digit_families():
    """One non-ASCII digit of every Unicode decimal-digit family, plus the other numerals
    (superscripts, subscripts, circled, fractions, Roman) that str.isdigit/isnumeric accept."""
    zeros, others = [], []
    for cp in range(0x80, 0x110000):
        ch = chr(cp)
        cat = unicodedata.category(ch)
        if cat == "Nd" and unicodedata.digit(ch) == 3 and len(zeros) < 80:
            zeros.append(ch)
        elif cat == "No" and ch.isdigit() and len(others) < 20:
            others.append(ch)
    return zeros + others + ["½", "Ⅷ", "٫", "\u2007", "\u00a0", "\u3000"]


HOSTILE_TEXTS = [f"{ch}:1" for ch in _digit_families()] + [
    "1" * (MAX_DIGITS + 1) + ":1", "1" * 4301 + ":1", "1" * 100000,
    "(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), "(" * 400 + "1" + ")" * 400 + ":1",
    "(" * 5000, ")" * 5000, "(" * 2000 + ":" + ")" * 2000,
    "x" * (MAX_TEXT + 1), "(2," * 3000 + "2" + ")" * 3000, "-" * 50, "_" * 50,
    "", " ", ":", "::", "(:)", "4:", ":4", "4:1:", "4.0:1", "4e3:1", "0x10:1", "1_000:1",
    "+4:1", "--4:1", "_-_4:1", "(2,3):(1,2);", "4:1\x00", "\x00", "\ufeff4:1", "4:1\u200b",
    "(2 3):(1 2)", "((2,3):(1,2))", "(2,3):((1,2))", "(2,(3)):(1,(2,3))", "inf:1", "nan:1",
    "True:1", "None", "[2,3]:[1,2]", "{2}:{1}", "(2,3):(1,2)" * 100, "4:1 4:1",
]


@pytest.mark.parametrize("text", HOSTILE_TEXTS, ids=[f"t{i}" for i in range(len(HOSTILE_TEXTS))])
def test_notation_raises_only_layout_error(text):
    for name, fn in PARSERS.items():
        with capped(5, 256 << 20):
            try:
                fn(text)
            except LayoutError as e:
                assert len(str(e)) < 600 and "\n" not in str(e), (name, str(e)[:200])
                continue
        # a few texts are valid for some parsers (a tile, an IntTuple): they must not be garbage
        assert name in ("parse_tuple", "parse_tile_parts", "spec.parse_tiler") or text.startswith("_"), \
            (name, text[:40])


@pytest.mark.parametrize("ch", ["²", "٣", "３", "𝟑", "⁴", "₅"])
def test_non_ascii_digit_is_named_with_its_position(ch):
    with pytest.raises(LayoutError) as e:
        parse(f"(2,{ch}):(1,2)")
    assert e.value.position == 3 and "ASCII" in str(e.value) and ch in str(e.value)


@pytest.mark.parametrize("value", [None, 3, 4.0, b"4:1", ["4:1"], ("4", "1"), object()])
def test_non_text_is_a_layout_error(value):
    with capped(2, 64 << 20), pytest.raises(LayoutError):
        parse(value)


def test_the_bounds_themselves_parse():
    deep = "(" * MAX_DEPTH + "1" + ")" * MAX_DEPTH
    assert parse(f"{deep}:{deep}").shape is not None
    assert int(parse("9" * MAX_DIGITS + ":1").shape) == 10 ** MAX_DIGITS - 1
    big = "(" + ",".join(["2"] * 2000) + ")"
    assert len(parse(big).shape) == 2000


# --- the spec's enumeration guard -------------------------------------------------------

HUGE = ["(1073741824):(1)", "2:4294967296", "(1099511627776,1099511627776):(1,1099511627776)",
        "(34359738368):(0)", "((34359738368,2)):((2,1))", "(_1073741824,_2):(_1,_1073741824)"]
GUARDED = [  # (function, args) that must refuse by size, naming it and the limit
    ("values", ("(1073741824):(1)",)), ("image", ("(1073741824):(1)",)),
    ("is_injective", ("(1073741824):(1)",)), ("is_surjective", ("2:4294967296",)),
    ("is_compact", ("(1073741824):(1)",)), ("Phi_N", ("(1073741824):(1)",)),
    ("phi_N", ("(1073741824):(1)",)), ("domain", ((1073741824,),)),
    ("left_inverse", ("(1099511627776,1099511627776):(1,1099511627776)",)),
    ("right_inverse", ("(1073741824):(1)",)),
    ("composition", ("(1073741824):(1)", "(1073741824):(1)")),
    ("logical_divide", ("(1073741824):(1)", "2:1")),
    ("image", ("(34359738368):(0)",)),
]


@pytest.mark.parametrize("fn, args", GUARDED, ids=[g[0] for g in GUARDED])
def test_spec_refuses_by_size_naming_it(fn, args):
    args = tuple(spec.parse(a) if isinstance(a, str) else a for a in args)
    with capped(10, 512 << 20), pytest.raises(LayoutError) as e:
        getattr(spec, fn)(*args)
    assert e.value.condition == ENUMERATION_CONDITION
    assert str(enumeration_limit()) in str(e.value) and "exceed" in str(e.value)


def _public_functions():
    out = []
    for name in sorted(dir(spec)):
        f = getattr(spec, name)
        if name.startswith("_") or isinstance(f, type) or not callable(f):
            continue
        out.append(name)
    return out


@pytest.mark.parametrize("name", _public_functions())
def test_no_spec_function_hangs_on_huge_layouts(name):
    """Every public spec function, on huge layouts and argument shapes it may or may not
    accept: it answers or raises, within seconds and bounded memory (wrong argument types
    are fine here; hanging, MemoryError and RecursionError are not)."""
    fn = getattr(spec, name)
    small = spec.parse("(2,2):(1,2)")
    for text in HUGE:
        L = spec.parse(text)
        for args in ((L,), (L, 1 << 40), (L, small), (small, L), (L, L), (L, 2)):
            try:
                with capped(8, 1 << 30):
                    fn(*args)
            except CaseTimeout:
                pytest.fail(f"spec.{name}{tuple(map(str, args))} did not finish within 8 s")
            except (MemoryError, RecursionError) as e:
                pytest.fail(f"spec.{name}{tuple(map(str, args))}: {type(e).__name__}")
            except Exception:  # noqa: BLE001 - refusals and wrong argument kinds
                pass


def test_limit_is_configurable_and_restorable(monkeypatch):
    L = spec.parse("(64,64):(1,64)")
    assert len(spec.values(L)) == 4096
    previous = set_enumeration_limit(100)
    try:
        with pytest.raises(LayoutError, match="4096 points exceed its limit of 100"):
            spec.values(L)
    finally:
        set_enumeration_limit(previous)
    assert enumeration_limit() == DEFAULT_LIMIT
    monkeypatch.setenv("LAYOUTCHECK_SPEC_LIMIT", "10")
    with pytest.raises(LayoutError, match="limit of 10"):
        spec.is_injective(spec.parse("(4,4):(1,4)"))
    for bad in ("x", "0", "-5", str(1 << 41)):
        monkeypatch.setenv("LAYOUTCHECK_SPEC_LIMIT", bad)
        with pytest.raises(LayoutError, match="LAYOUTCHECK_SPEC_LIMIT"):
            enumeration_limit()
    for bad in (0, -1, 2.5, "10", True):
        with pytest.raises(LayoutError):
            set_enumeration_limit(bad)


# --- the strategies keep the README's promises ------------------------------------------

def test_default_strategies_yield_what_the_ops_accept():
    import layoutcheck.fuzz.strategies.algebra as lst
    from hypothesis import given, settings

    @settings(max_examples=40, deadline=None)
    @given(lst.composable_pairs())
    def compose(pair):
        spec.composition(*pair)  # the paper's sense, composition's default

    @settings(max_examples=40, deadline=None)
    @given(lst.product_args())
    def multiply(pair):
        spec.logical_product(*pair)

    compose()
    multiply()


def test_cute_dsl_refuses_integers_it_cannot_represent():
    from layoutcheck.oracles.dsl.oracle import runtime_outcome
    from layoutcheck.oracles.dsl.runtime import RuntimePath
    cases = [("coalesce", (LayoutBase.parse("(4294967296):(1)"),)),
             ("complement", (LayoutBase.parse("4:1"), 1 << 31))]
    got = {}
    for frame in RuntimePath().answers(cases):  # no DSL needed: the check comes first
        got.update(frame)
    for n, (op, args) in enumerate(cases):
        out = runtime_outcome(op, args, got[n])
        assert out.kind == "unsupported" and "32-bit" in out.message
