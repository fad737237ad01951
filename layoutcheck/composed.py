"""CuTe's vocabulary beyond plain layouts, as neutral values: ``Swizzle``,
``ComposedLayoutBase``, ``SignedLayout`` and ``F2Layout``, with CuTe's notation in and out.

Like ``layoutcheck.layout.LayoutBase`` these values check, print, parse, compare and hash,
and do *not* evaluate: ``layoutcheck.spec`` and ``layoutcheck.impl`` each bring their own
functions (spec/swizzle.py, impl/swizzle.py), so the two stay independent witnesses.

- ``Swizzle(B, M, S)`` is CuTe's ``Swizzle<B,M,S>`` (cute/swizzle.hpp): printed ``Sw<3,4,3>``;
  parsed from ``Sw<3,4,3>``, ``S<3,4,3>`` (the CuTe DSL's print) or ``Swizzle<3,4,3>``.
  CuTe's parameter checks hold: ``B >= 0``, ``M >= 0``, ``|S| >= B`` (its static_asserts),
  else ``LayoutError(condition="swizzle_params")``.
- ``ComposedLayoutBase(outer, offset, inner)`` is CuTe's ``ComposedLayout<A,O,B>``
  (cute/layout_composed.hpp), the function ``c -> outer(offset + inner(c))``: ``outer`` a
  ``Swizzle`` or a layout, ``offset`` an integer >= 0 (static ``_0`` as CuTe writes it),
  ``inner`` a layout (it gives the domain: shape, size, rank).  Printed as CuTe prints it,
  ``Sw<3,4,3> o _0 o (8,64):(64,1)``.
- ``SignedLayout(shape, stride)``: a layout whose strides may be negative.  CuTe's slices of
  a swizzled layout decay to such layouts (``((_16,_2,_2)):((_1,-16,32))``); the neutral
  ``LayoutBase`` keeps strides >= 0, so answers of this kind use this class.
- ``F2Layout(shape, stride)``: NVlabs PyCuTe's layouts with F2 ("XOR") strides
  (pycute/swizzle.py ``F2``): ``L(c) = XOR_i (c_i (x) d_i)`` with (x) the carry-less product.
  Printed with PyCuTe's ``F`` marks, ``(2,2,2):(F1,F2,F5)``.

``parse_value(text)`` reads any of them (and plain layouts); ``parse_swizzle``,
``parse_composed`` and ``parse_f2`` read one kind.
"""

from __future__ import annotations

import re
from typing import TypeAlias, TypeGuard, cast

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C, IntTuple
from layoutcheck.layout import LayoutBase, check_inttuple, congruent, leaves
from layoutcheck.notation import format_tuple, parse_layout_parts, parse_tuple

__all__ = ["Swizzle", "ComposedLayoutBase", "SignedLayout", "F2Layout", "parse_swizzle", "parse_smem",
           "looks_composed",
           "parse_composed", "parse_signed", "parse_f2", "parse_value", "is_composed_value",
           "SWIZZLE_BITS_LIMIT", "ComposedValue"]

# CuTe's swizzle masks are 32-bit ints (swizzle.hpp: ``cute::constant<int, ...>``): the top
# field must end below bit 31.  The values themselves allow more; adapters check this.
SWIZZLE_BITS_LIMIT = 31

_SW = re.compile(r"^\s*(?:(?:Sw|S|Swizzle)\s*<\s*(-?\d+)\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*>"
                 r"|SW_(\d+)_(\d+)_(-?\d+))\s*$")  # CuTe's and the DSL's print; pycute's SW_B_M_S


def _int(x: object, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise LayoutError(f"{what} is {x!r}, not an integer", condition="swizzle_params")
    return int(x)


class Swizzle:
    """CuTe's ``Swizzle<B,M,S>``: keep the low M bits, xor the B bits at M + max(0,S) into the
    B bits at M - min(0,S) (cute/swizzle.hpp).  Immutable and hashable."""

    __slots__ = ("_b", "_m", "_s")

    _b: int
    _m: int
    _s: int

    def __init__(self, bits: int, base: int, shift: int) -> None:
        b, m, s = _int(bits, "BBits"), _int(base, "MBase"), _int(shift, "SShift")
        if b < 0 or m < 0:
            raise LayoutError(f"Swizzle<{b},{m},{s}>: BBits and MBase must be >= 0 "
                              "(cute/swizzle.hpp static_assert)", condition="swizzle_params")
        if abs(s) < b:
            raise LayoutError(f"Swizzle<{b},{m},{s}>: |SShift| must be >= BBits, else the two bit "
                              "fields overlap (cute/swizzle.hpp static_assert)",
                              condition="swizzle_params")
        object.__setattr__(self, "_b", b)
        object.__setattr__(self, "_m", m)
        object.__setattr__(self, "_s", s)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("swizzles are immutable")

    @property
    def bits(self) -> int:
        return self._b

    @property
    def base(self) -> int:
        return self._m

    @property
    def shift(self) -> int:
        return self._s

    @property
    def params(self) -> tuple[int, int, int]:
        return (self._b, self._m, self._s)

    @property
    def span(self) -> int:
        """B + M + |S|: the swizzle only touches bits below this (pycute's ``size()`` is
        2^span)."""
        return self._b + self._m + abs(self._s)

    def __str__(self) -> str:
        return f"Sw<{self._b},{self._m},{self._s}>"

    def __repr__(self) -> str:
        return f"Swizzle({self._b},{self._m},{self._s})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Swizzle) and self.params == other.params

    def __hash__(self) -> int:
        return hash(("Swizzle",) + self.params)

    def __reduce__(self) -> tuple[type[Swizzle], tuple[int, int, int]]:
        return (Swizzle, self.params)

    @classmethod
    def parse(cls, text: str) -> Swizzle:
        return parse_swizzle(text)


class SignedLayout:
    """``shape:stride`` with strides of any sign (CuTe's decayed swizzle slices)."""

    __slots__ = ("_shape", "_stride")

    _shape: IntTuple
    _stride: IntTuple

    def __init__(self, shape: LayoutBase | IntTuple, stride: IntTuple | None) -> None:
        if isinstance(shape, LayoutBase):
            stride, shape = shape.stride, shape.shape
        shape = check_inttuple(shape, "shape", 1)
        stride = _signed(stride)
        if not congruent(shape, stride):
            raise LayoutError(f"shape {format_tuple(shape)} and stride {format_tuple(stride)} have "
                              "different profiles (they must be congruent)")
        object.__setattr__(self, "_shape", shape)
        object.__setattr__(self, "_stride", stride)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("layouts are immutable")

    @property
    def shape(self) -> IntTuple:
        return self._shape

    @property
    def stride(self) -> IntTuple:
        return self._stride

    def as_layout(self) -> LayoutBase | None:
        """The same layout as a ``LayoutBase`` when every stride is >= 0, else None."""
        if all(int(d) >= 0 for d in leaves(self._stride)):
            return LayoutBase(self._shape, self._stride)
        return None

    def __str__(self) -> str:
        return f"{format_tuple(self._shape)}:{format_tuple(self._stride)}"

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (SignedLayout, LayoutBase)):
            return self._shape == other.shape and self._stride == other.stride
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._shape, self._stride))

    def __reduce__(self) -> tuple[type[SignedLayout], tuple[IntTuple, IntTuple]]:
        return (SignedLayout, (self._shape, self._stride))


def _signed(t: object) -> IntTuple:
    if isinstance(t, (tuple, list)):
        return tuple(_signed(x) for x in t)
    if isinstance(t, bool) or not isinstance(t, int):
        raise LayoutError(f"stride entry {t!r} is not an integer")
    return t if isinstance(t, C) else int(t)


class F2Layout:
    """A layout with F2 strides (NVlabs PyCuTe pycute/swizzle.py): each stride is a bit vector,
    ``+`` is XOR and ``*`` the carry-less product.  Shapes >= 1, strides >= 0."""

    __slots__ = ("_shape", "_stride")

    _shape: IntTuple
    _stride: IntTuple

    def __init__(self, shape: IntTuple, stride: IntTuple) -> None:
        shape = check_inttuple(shape, "shape", 1)
        stride = check_inttuple(stride, "F2 stride", 0)
        if not congruent(shape, stride):
            raise LayoutError(f"shape {format_tuple(shape)} and F2 stride {format_tuple(stride)} "
                              "have different profiles (they must be congruent)")
        object.__setattr__(self, "_shape", shape)
        object.__setattr__(self, "_stride", stride)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("layouts are immutable")

    @property
    def shape(self) -> IntTuple:
        return self._shape

    @property
    def stride(self) -> IntTuple:
        return self._stride

    def __str__(self) -> str:
        return f"{format_tuple(self._shape)}:{_f_marks(self._stride)}"

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, F2Layout):
            return NotImplemented
        return self._shape == other._shape and self._stride == other._stride

    def __hash__(self) -> int:
        return hash(("F2", self._shape, self._stride))

    def __reduce__(self) -> tuple[type[F2Layout], tuple[IntTuple, IntTuple]]:
        return (F2Layout, (self._shape, self._stride))


def _f_marks(t: IntTuple) -> str:
    if isinstance(t, tuple):
        return "(" + ",".join(_f_marks(x) for x in t) + ")"
    return f"F{int(t)}"


def _check_outer(outer: object) -> Swizzle | LayoutBase:
    if isinstance(outer, (Swizzle, LayoutBase)):
        return outer
    raise LayoutError(f"the outer function of a ComposedLayout must be a Swizzle or a layout, "
                      f"got {outer!r}")


class ComposedLayoutBase:
    """CuTe's ``ComposedLayout``: ``c -> outer(offset + inner(c))`` (layout_composed.hpp);
    its domain (shape, size, rank) is ``inner``'s.  Immutable, hashable, structural ``==``."""

    __slots__ = ("_outer", "_offset", "_inner")

    _outer: Swizzle | LayoutBase
    _offset: int
    _inner: LayoutBase | SignedLayout

    def __init__(self, outer: Swizzle | LayoutBase, offset: int, inner: LayoutBase | SignedLayout) -> None:
        outer = _check_outer(outer)
        checked = check_inttuple(offset, "offset", 0)
        if isinstance(checked, tuple):
            raise LayoutError(f"the offset of a ComposedLayout is an integer, got {checked!r}")
        if not isinstance(inner, (LayoutBase, SignedLayout)):
            raise LayoutError(f"the inner part of a ComposedLayout must be a layout, got {inner!r}")
        if isinstance(inner, LayoutBase):  # a SignedLayout inner only in answers (CuTe's decays)
            inner = LayoutBase(inner.shape, inner.stride)
        object.__setattr__(self, "_outer", outer)
        object.__setattr__(self, "_offset", checked)
        object.__setattr__(self, "_inner", inner)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("composed layouts are immutable")

    @property
    def outer(self) -> Swizzle | LayoutBase:
        return self._outer

    @property
    def offset(self) -> int:
        return self._offset

    @property
    def inner(self) -> LayoutBase | SignedLayout:
        return self._inner

    @property
    def shape(self) -> IntTuple:
        return self._inner.shape

    def __str__(self) -> str:
        return f"{self._outer} o {format_tuple(self._offset)} o {self._inner}"

    def __repr__(self) -> str:
        return f"ComposedLayout('{self}')"

    def __eq__(self, other: object) -> bool:
        """Same printed form, staticness included (a memo keyed by inputs must not mix
        ``_4`` and ``4``); ``same_values`` ignores staticness."""
        if not isinstance(other, ComposedLayoutBase):
            return NotImplemented
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(("Composed", str(self)))

    def same_values(self, other: object) -> bool:
        """Same parts as values (staticness ignored), like ``LayoutBase ==``."""
        return (isinstance(other, ComposedLayoutBase) and self._outer == other._outer
                and int(self._offset) == int(other._offset) and self._inner == other._inner)

    def __reduce__(self) -> tuple[type[ComposedLayoutBase], tuple[object, int, object]]:
        return (ComposedLayoutBase, (self._outer, self._offset, self._inner))

    @classmethod
    def parse(cls, text: str) -> ComposedLayoutBase:
        return parse_composed(text)


# The values of this module (any of them may stand where CuTe takes a swizzle or composed layout).
ComposedValue: TypeAlias = Swizzle | ComposedLayoutBase | SignedLayout | F2Layout


# --- notation ---------------------------------------------------------------------------

def parse_swizzle(text: str) -> Swizzle:
    """``Sw<B,M,S>`` / ``S<B,M,S>`` / ``Swizzle<B,M,S>`` / pycute's ``SW_B_M_S`` -> Swizzle."""
    if not isinstance(text, str):
        raise LayoutError(f"expected swizzle text, got {type(text).__name__}")
    m = _SW.match(text)
    if not m:
        raise LayoutError(f"malformed swizzle {text!r}: expected Sw<B,M,S> (e.g. Sw<3,4,3>)")
    return Swizzle(*(int(g) for g in m.groups() if g is not None))


def _split_o(text: str) -> list[str]:
    """Split ``A o O o B`` at its top-level `` o `` separators."""
    parts = re.split(r"\s+o\s+", text.strip())
    return [p.strip() for p in parts]


def parse_signed(text: str) -> SignedLayout:
    """A layout whose strides may be negative (``((16,2)):((1,-16))``)."""
    if not isinstance(text, str) or text.count(":") != 1:
        raise LayoutError(f"malformed layout {text!r}: expected SHAPE:STRIDE")
    shape_text, stride_text = text.split(":")
    return SignedLayout(parse_tuple(shape_text), parse_tuple(stride_text))


def parse_composed(text: str) -> ComposedLayoutBase:
    """``OUTER o OFFSET o INNER`` -> ComposedLayoutBase (OUTER a swizzle or a layout)."""
    if not isinstance(text, str):
        raise LayoutError(f"expected composed-layout text, got {type(text).__name__}")
    parts = _split_o(text)
    if len(parts) != 3:
        raise LayoutError(f"malformed composed layout {text!r}: expected OUTER o OFFSET o INNER, "
                          "e.g. 'Sw<3,4,3> o _0 o (8,64):(64,1)'")
    outer_text, offset_text, inner_text = parts
    outer = parse_swizzle(outer_text) if _SW.match(outer_text) else LayoutBase.parse(outer_text)
    offset = parse_tuple(offset_text)
    if isinstance(offset, tuple):
        raise LayoutError(f"malformed composed layout {text!r}: the offset {offset_text!r} is no integer")
    inner = parse_signed(inner_text) if "-" in inner_text.partition(":")[2] else \
        LayoutBase.parse(inner_text)
    return ComposedLayoutBase(outer, offset, inner)


_F = re.compile(r"F(\d+)")


def parse_f2(text: str) -> F2Layout:
    """``(2,2):(F1,F3)`` -> F2Layout (the ``F`` marks are optional on input)."""
    if not isinstance(text, str) or ":" not in text:
        raise LayoutError(f"malformed F2 layout {text!r}: expected SHAPE:STRIDE like (2,2):(F1,F3)")
    shape_text, _, stride_text = text.partition(":")
    shape, stride = parse_layout_parts(shape_text + ":" + _F.sub(r"\1", stride_text))
    return F2Layout(shape, cast(IntTuple, stride))  # a text with ':' has a stride


def parse_value(text: str) -> ComposedValue | LayoutBase:
    """Any value of this module or a plain layout, recognised by its text."""
    if not isinstance(text, str):
        raise LayoutError(f"expected a string of CuTe notation, got {type(text).__name__}")
    t = text.strip()
    if _SW.match(t):
        return parse_swizzle(t)
    if re.search(r"\s+o\s+", t):
        return parse_composed(t)
    if "F" in t:
        return parse_f2(t)
    if "-" in t.partition(":")[2]:
        return parse_signed(t)
    return LayoutBase.parse(t)


def is_composed_value(x: object) -> TypeGuard[ComposedValue]:
    return isinstance(x, (Swizzle, ComposedLayoutBase, SignedLayout, F2Layout))


def parse_smem(text: str) -> ComposedLayoutBase | LayoutBase:
    """A shared-memory layout argument: a composed layout or a plain layout."""
    return parse_composed(text) if re.search(r"\s+o\s+", str(text)) else LayoutBase.parse(text)


def looks_composed(text: object) -> bool:
    """Whether ``text`` is written in this module's notation (not plain CuTe layout text)."""
    t = str(text)
    return bool(_SW.match(t) or re.search(r"\s+o\s+", t) or re.search(r":.*F\d", t)
                or re.search(r":.*-\d", t))
