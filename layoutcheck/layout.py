"""The layout value shared by every part of layoutcheck (the neutral form).

``LayoutBase`` holds a shape and a stride (nested tuples of ``int`` and static ``C``),
checks them, prints and parses CuTe notation, and compares and hashes by structure.  It
does *not* evaluate: ``layoutcheck.spec.Layout`` and ``layoutcheck.impl.Layout`` subclass it
and each brings its own layout function, so the two stay independent witnesses.

Equality (``==``) is structural: same nested shape and stride values.  Staticness is part
of the printed form only (``str``), which is the strictest comparison level.
"""

from __future__ import annotations

from typing import Any, Callable, NoReturn, Self, TypeAlias, TypeGuard, overload

import numpy as np

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C, IntTuple
from layoutcheck.notation import TileNode, format_tuple, parse_layout_parts, parse_tile_parts

__all__ = ["LayoutBase", "check_inttuple", "congruent", "leaves", "size", "default_stride", "parse_tile",
           "Underscore", "_", "IntTuple", "Coord", "Tiler", "TilerOrNone", "LayoutLike"]


@overload
def leaves(t: IntTuple) -> tuple[int, ...]: ...
@overload
def leaves(t: object) -> tuple[Any, ...]: ...
def leaves(t: object) -> tuple[Any, ...]:
    """The flattening of a nested tuple (its leaves, left to right)."""
    if isinstance(t, tuple):
        return tuple(x for e in t for x in leaves(e))
    return (t,)


def size(x: object) -> int:
    """CuTe's ``size``: the product of an IntTuple's leaves, or of the shape of anything that
    has one (a layout; a composed layout's domain is its inner layout's)."""
    if isinstance(x, list):  # a flat list of extents
        x = tuple(x)
    shape = getattr(x, "shape", None)
    if shape is None and hasattr(x, "inner"):
        shape = x.inner.shape
    n = 1
    for leaf in leaves(x if shape is None else shape):
        n *= int(leaf)
    return n


def congruent(a: Any, b: Any) -> bool:
    """Same profile (Def 2.2: congruence of nested tuples)."""
    if isinstance(a, tuple) != isinstance(b, tuple):
        return False
    if not isinstance(a, tuple):
        return True
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):  # a loop, not all(genexpr): layouts are built by the thousand
        if (isinstance(x, tuple) or isinstance(y, tuple)) and not congruent(x, y):
            return False
    return True


def _path(path: tuple[int, ...]) -> str:
    return "(" + ",".join(map(str, path)) + ")" if path else "top level"


def _plain(t: Any, minimum: int) -> TypeGuard[IntTuple]:
    """True when ``t`` is already normal: a nested tuple (or a leaf) of plain ``int`` / ``C``
    entries, each at least ``minimum`` (then ``check_inttuple`` returns it unchanged)."""
    k = type(t)
    if k is int or k is C:
        return int.__ge__(t, minimum)
    if k is not tuple:
        return False
    for x in t:
        k = type(x)
        if k is int or k is C:
            if int.__lt__(x, minimum):
                return False
        elif k is not tuple or not _plain(x, minimum):
            return False
    return True


def check_inttuple(t: object, what: str, minimum: int, path: tuple[int, ...] = ()) -> IntTuple:
    """Check a nested integer tuple; return it normalised (ints stay ints, C stays C)."""
    if _plain(t, minimum):  # the common case, checked without rebuilding
        return t
    if isinstance(t, (tuple, list)):
        return tuple(check_inttuple(x, what, minimum, path + (i,)) for i, x in enumerate(t))
    if isinstance(t, bool) or not isinstance(t, int):
        try:
            if isinstance(t, np.integer):
                t = int(t)
            else:
                raise TypeError
        except (ImportError, TypeError):
            raise LayoutError(
                f"{what} entry at mode {_path(path)} is {t!r}, not an integer") from None
    if t < minimum:
        rule = "positive integers" if minimum == 1 else "non-negative integers"
        raise LayoutError(f"{what} entry at mode {_path(path)} is {t}; {what} entries must be {rule}")
    return t if isinstance(t, C) else int(t)


class Underscore:
    """CuTe's ``_``: keep this mode (in ``slice_``) or leave it alone (in a tiler)."""

    _instance = None

    def __new__(cls) -> Underscore:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "_"

    def __reduce__(self) -> tuple[type[Underscore], tuple[()]]:
        return (Underscore, ())


_ = Underscore()

# The value types of the algebra besides CuTe's IntTuple (``layoutcheck.integers``).
# A coordinate: integers and ``_`` (keep this mode), nested.
Coord: TypeAlias = int | Underscore | tuple["Coord", ...]


def default_stride(shape: IntTuple) -> IntTuple:
    """CuTe's default stride, LayoutLeft: exclusive prefix products, first stride ``_1``."""
    acc: list[int] = [C(1)]

    def go(s: IntTuple) -> IntTuple:
        if isinstance(s, tuple):
            return tuple(go(x) for x in s)
        d = acc[0]
        acc[0] = d * s
        return d

    return go(shape)


class LayoutBase:
    """A layout ``shape:stride``; immutable and hashable."""

    __slots__ = ("_shape", "_stride")

    _shape: IntTuple
    _stride: IntTuple

    def __init__(self, shape: LayoutBase | IntTuple, stride: IntTuple | None = None) -> None:
        if isinstance(shape, LayoutBase):
            stride, shape = shape.stride, shape.shape
        shape = check_inttuple(shape, "shape", 1)
        stride = default_stride(shape) if stride is None else check_inttuple(stride, "stride", 0)
        if not congruent(shape, stride):
            raise LayoutError(
                f"shape {format_tuple(shape)} and stride {format_tuple(stride)} have different "
                "profiles (they must be congruent)")
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

    @classmethod
    def parse(cls, text: str) -> Self:
        """Parse CuTe notation; a bare shape gets CuTe's default (LayoutLeft) stride."""
        shape, stride = parse_layout_parts(text)
        try:
            return cls(shape, stride)
        except LayoutError as e:
            raise LayoutError(f"{e} in {text!r}") from None

    def __str__(self) -> str:
        return f"{format_tuple(self._shape)}:{format_tuple(self._stride)}"

    def __repr__(self) -> str:
        return f"{type(self).__module__.rsplit('.', 1)[0]}.Layout('{self}')"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LayoutBase):
            return NotImplemented
        return self._shape == other._shape and self._stride == other._stride

    def __hash__(self) -> int:
        return hash((self._shape, self._stride))

    def __iter__(self) -> NoReturn:
        raise TypeError("a layout is not iterable; use its modes")

    def __reduce__(self) -> tuple[type[LayoutBase], tuple[IntTuple, IntTuple]]:
        return (type(self), (self._shape, self._stride))


# A tiler: a layout, an integer n (the layout n:_1), ``_`` (leave the mode alone), or a tuple of
# tilers (mode by mode).
Tiler: TypeAlias = LayoutBase | int | Underscore | tuple["Tiler", ...]
# A tiler as the spec's and impl's operations take it: ``_`` may also be written None (pycute's
# spelling), at any level.
TilerOrNone: TypeAlias = LayoutBase | int | Underscore | None | tuple["TilerOrNone", ...]
# What ``as_layout`` of the spec and of impl accepts: a layout, its CuTe text or (shape, stride).
LayoutLike: TypeAlias = LayoutBase | str | tuple[IntTuple, IntTuple]


def parse_tile(text: str, layout_cls: Callable[[IntTuple, IntTuple], LayoutBase]) -> Tiler:
    """Parse a layout or a CuTe Tile into a layout or a nested tuple of layouts/ints/``_``."""

    def build(node: TileNode) -> Tiler:
        kind = node[0]
        if kind == "layout":
            return layout_cls(node[1], node[2])
        if kind == "int":
            return check_inttuple(node[1], "tile", 1)
        if kind == "underscore":
            return _
        return tuple(build(x) for x in node[1])

    return build(parse_tile_parts(text))
