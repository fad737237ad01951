"""CuTe's notation, in and out: ``(2,(3,_4)):(1,(2,6))``.

Grammar (spaces allowed between tokens)::

    layout  := inttuple ':' inttuple
    inttuple:= integer | '(' [ inttuple (',' inttuple)* ] ')'
    integer := ['_'] ['-'] digits          -- '_' marks a static integer C<v>
    tile    := layout | integer | '_' | '(' [ tile (',' tile)* ] ')'   -- CuTe's Tile

Printing follows CuTe's ``print``: no spaces, statics as ``_N``, rank-1 tuples keep
their parentheses (``(8):(1)`` is not ``8:1``).
"""

from __future__ import annotations

from typing import Any, NoReturn, TypeAlias, cast

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C, IntTuple

__all__ = ["format_tuple", "parse_tuple", "parse_layout_parts", "parse_tile_parts", "TileNode"]

# A node of ``parse_tile_parts``' tree: ("layout", shape, stride), ("int", n), ("underscore",)
# or ("tuple", (node, ...)).
TileNode: TypeAlias = tuple[Any, ...]
# A parsed IntTuple's text positions, parallel to it: a leaf's offset (an int), or (offset of
# '(', [children]) for a tuple.
_Where: TypeAlias = Any


def format_tuple(t: IntTuple) -> str:
    """Print a nested integer tuple as CuTe does."""
    if isinstance(t, tuple):
        return "(" + ",".join(format_tuple(x) for x in t) + ")"
    return str(t) if isinstance(t, C) else str(int(t))


# Bounds of the notation (parse raises only LayoutError): CuTe's digits are ASCII,
# so other Unicode digits ('٣', '３', '𝟑', '²') are refused with their position.
MAX_TEXT = 10_000   # characters in one text
MAX_DIGITS = 40     # digits in one integer (about 2^132)
MAX_DEPTH = 64      # nesting depth of parentheses
_SPACE = " \t\r\n\f\v"


def _is_digit(ch: str) -> bool:
    return "0" <= ch <= "9"


class _Reader:
    def __init__(self, text: object) -> None:
        if not isinstance(text, str):
            raise LayoutError(f"expected a string in CuTe notation, got {type(text).__name__}")
        if len(text) > MAX_TEXT:
            raise LayoutError(f"malformed notation: the text has {len(text)} characters, more "
                              f"than the {MAX_TEXT} allowed")
        self.text = text
        self.pos = 0
        self.depth = 0

    def open(self, pos: int) -> None:
        """Enter a '(' at ``pos`` (bounded nesting)."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise LayoutError(f"malformed notation: nesting deeper than {MAX_DEPTH} levels",
                              position=pos, text=_clip(self.text))

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in _SPACE:
            self.pos += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def fail(self, what: str, pos: int | None = None) -> NoReturn:
        pos = self.pos if pos is None else pos
        found = self.text[pos] if pos < len(self.text) else "end of text"
        found = found if found == "end of text" else repr(found)
        raise LayoutError(f"malformed notation: {what}, found {found}", position=pos,
                          text=_clip(self.text, pos))

    def expect(self, ch: str) -> None:
        if self.peek() != ch:
            self.fail(f"expected {ch!r}")
        self.pos += 1

    def integer(self) -> int:
        self.skip()
        start = self.pos
        static = False
        if self.peek() == "_":
            static = True
            self.pos += 1
        neg = False
        if self.pos < len(self.text) and self.text[self.pos] == "-":
            neg = True
            self.pos += 1
        digits_start = self.pos
        while self.pos < len(self.text) and _is_digit(self.text[self.pos]):
            self.pos += 1
        if self.pos == digits_start:
            if self.pos < len(self.text) and self.text[self.pos].isdigit():
                self.fail("only the ASCII digits 0-9 are allowed")
            self.fail("expected an integer", start if not static and not neg else self.pos)
        nxt = self.text[self.pos] if self.pos < len(self.text) else ""
        if nxt == "." or nxt.isalpha():
            raise LayoutError("malformed notation: non-integer entry starting "
                              f"{self.text[start:self.pos + 1]!r} (entries must be integers)",
                              position=start, text=_clip(self.text, start))
        if nxt.isdigit():  # a Unicode digit after ASCII ones ('1٣', '2²')
            self.fail("only the ASCII digits 0-9 are allowed")
        if self.pos - digits_start > MAX_DIGITS:
            raise LayoutError(f"malformed notation: an integer of {self.pos - digits_start} digits "
                              f"(at most {MAX_DIGITS})", position=digits_start,
                              text=_clip(self.text, digits_start))
        value = int(self.text[digits_start:self.pos]) * (-1 if neg else 1)
        return C(value) if static else value

    def inttuple(self) -> IntTuple:
        return self.inttuple_pos()[0]

    def inttuple_pos(self) -> tuple[IntTuple, _Where]:
        """Parse an IntTuple; return it with a parallel tree of text positions (a leaf's
        position, or ``(position of '(', [children])`` for a tuple)."""
        if self.peek() == "(":
            open_pos = self.pos
            self.open(open_pos)
            self.pos += 1
            items, where = [], []
            if self.peek() == ")":
                self.pos += 1
                self.depth -= 1
                return (), (open_pos, [])
            while True:
                item, pos = self.inttuple_pos()
                items.append(item)
                where.append(pos)
                ch = self.peek()
                if ch == ",":
                    self.pos += 1
                    continue
                if ch == ")":
                    self.pos += 1
                    self.depth -= 1
                    return tuple(items), (open_pos, where)
                if ch == "":
                    raise LayoutError(
                        "malformed notation: unbalanced parentheses, '(' is never closed",
                        position=open_pos, text=_clip(self.text, open_pos))
                self.fail("expected ',' or ')'")
        if self.peek() == ")":
            self.fail("unbalanced parentheses: unexpected ')'")
        self.skip()
        start = self.pos
        return self.integer(), start

    def tile_item(self) -> TileNode:
        """A layout, an integer, or a parenthesised tuple of tile items."""
        start = self.pos
        if self.peek() == "(":
            # Either a layout whose shape is a tuple, or a tuple of tile items.
            saved, saved_depth = self.pos, self.depth
            try:
                shape = self.inttuple()
                if self.peek() == ":":
                    self.pos += 1
                    return ("layout", shape, self.inttuple())
            except LayoutError:
                pass
            self.pos, self.depth = saved, saved_depth
            self.open(self.pos)
            self.pos += 1
            items = []
            if self.peek() == ")":
                self.pos += 1
                self.depth -= 1
                return ("tuple", ())
            while True:
                items.append(self.tile_item())
                ch = self.peek()
                if ch == ",":
                    self.pos += 1
                    continue
                if ch == ")":
                    self.pos += 1
                    self.depth -= 1
                    return ("tuple", tuple(items))
                if ch == "":
                    raise LayoutError("malformed tile: '(' is never closed", position=start,
                                      text=_clip(self.text, start))
                self.fail("expected ',' or ')' in tile")
        if self.peek() == "_" and not self._static_integer_follows():
            self.pos += 1
            return ("underscore",)  # CuTe's _ (Underscore): leave this mode alone
        value = self.integer()
        if self.peek() == ":":
            self.pos += 1
            return ("layout", value, self.inttuple())
        return ("int", value)

    def _static_integer_follows(self) -> bool:
        """At a '_': True when it starts a static integer (``_4``, ``_-1``), not ``_``."""
        nxt = self.text[self.pos + 1:self.pos + 2]
        return _is_digit(nxt) or nxt == "-"

    def end(self) -> None:
        if self.peek() == ")":
            self.fail("unbalanced parentheses: unexpected ')'")
        if self.peek() != "":
            self.fail("unexpected text after the end")


def _clip(text: str, pos: int | None = None, width: int = 60) -> str:
    """The text for an error message: whole when short, else a window around ``pos``."""
    if len(text) <= 2 * width:
        return text
    pos = 0 if pos is None else pos
    lo, hi = max(0, pos - width), min(len(text), pos + width)
    return ("..." if lo else "") + text[lo:hi] + ("..." if hi < len(text) else "")


def parse_tuple(text: str) -> IntTuple:
    """Parse a nested integer tuple such as ``(2,(3,_4))`` or ``8``."""
    r = _Reader(text)
    t = r.inttuple()
    r.end()
    return t


def parse_layout_parts(text: str) -> tuple[IntTuple, IntTuple | None]:
    """Parse ``shape:stride`` and return ``(shape, stride)`` as nested tuples.

    A bare shape without ``:stride`` is accepted and returns ``(shape, None)``; the caller
    supplies CuTe's default (LayoutLeft) stride.
    """
    r = _Reader(text)
    if r.peek() == "":
        r.fail("expected a layout such as (2,3):(1,2)")
    shape, spos = r.inttuple_pos()
    if r.peek() == "":
        _locate(r, shape, spos, "shape", 1)
        return shape, None
    if r.peek() == ")":
        r.fail("unbalanced parentheses: unexpected ')'")
    if r.peek() != ":":
        r.fail("expected ':' between shape and stride")
    r.pos += 1
    stride, dpos = r.inttuple_pos()
    r.end()
    _locate(r, shape, spos, "shape", 1)
    _locate(r, stride, dpos, "stride", 0)
    _congruent_at(r, shape, stride, dpos)
    return shape, stride


def _locate(r: _Reader, t: IntTuple, pos: _Where, what: str, minimum: int) -> None:
    """Report the first entry below ``minimum`` with its position in the text."""
    if isinstance(t, tuple):
        for x, p in zip(t, pos[1]):
            _locate(r, x, p, what, minimum)
    elif t < minimum:
        rule = "positive" if minimum == 1 else "non-negative"
        raise LayoutError(f"{what} entry {t} is not allowed: {what} entries must be {rule} "
                          "integers", position=pos, text=_clip(r.text, pos))


def _congruent_at(r: _Reader, shape: IntTuple, stride: IntTuple, dpos: _Where) -> None:
    """Report the first place where the stride's profile differs from the shape's."""
    where = dpos[0] if isinstance(dpos, tuple) else dpos
    if isinstance(shape, tuple) != isinstance(stride, tuple) or (
            isinstance(shape, tuple) and len(shape) != len(cast(tuple, stride))):
        raise LayoutError(f"shape {_clip(format_tuple(shape))} and stride "
                          f"{_clip(format_tuple(stride))} have different profiles (they must be "
                          "congruent)", position=where, text=_clip(r.text, where))
    if isinstance(shape, tuple):
        for a, b, p in zip(shape, cast(tuple, stride), dpos[1]):
            _congruent_at(r, a, b, p)


def parse_tile_parts(text: str) -> TileNode:
    """Parse a layout or a CuTe Tile: ``(2:1,(4,2):(1,8))`` or ``(2,4)``.

    Returns a tree of ``("layout", shape, stride)``, ``("int", n)``, ``("underscore",)``
    (CuTe's ``_``) and ``("tuple", items)`` nodes.
    """
    r = _Reader(text)
    if r.peek() == "":
        r.fail("expected a layout or a tile")
    item = r.tile_item()
    r.end()
    return item
