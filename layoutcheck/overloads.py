"""CuTe overloads one function name on layouts, swizzles and composed layouts
(``cute/swizzle_layout.hpp``, ``cute/layout_composed.hpp``): ``composition``, the divides,
``right_inverse``, ``slice_and_offset``, ``upcast`` / ``downcast``, ``size``, ``cosize`` and
``values`` take a layout, a ``Swizzle`` or a ``ComposedLayout`` (or their text, e.g.
``"Sw<3,4,3> o _0 o (8,64):(64,1)"``) and call the operation for that kind (the operations
table, ``oracles/operations.py``, lists each overload).

The dispatch is written once here; ``Overloads`` binds it to one implementation's modules
(``spec/overloads.py``, ``impl/overloads.py``), so that neither package imports the other.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Sequence

from layoutcheck.composed import ComposedLayoutBase, F2Layout, Swizzle, looks_composed, parse_value
from layoutcheck.layout import Coord, IntTuple, LayoutBase, LayoutLike, TilerOrNone

__all__ = ["Overloads", "NAMES"]

NAMES = ("composition", "logical_divide", "zipped_divide", "tiled_divide", "right_inverse",
         "slice_and_offset", "upcast", "downcast", "size", "cosize", "values")


def _value(x: Any) -> Any:
    """A text argument in the notation of swizzles and composed layouts, parsed; else x."""
    return parse_value(x) if isinstance(x, str) and looks_composed(x) else x


class Overloads:
    """CuTe's overloads over one implementation: its ``layout`` (size, cosize, values),
    ``coords`` (slice_and_offset), ``division`` (the divides), ``recast`` (upcast, downcast),
    ``swizzle`` (the swizzle and composed-layout operations) and ``algebra`` (right_inverse)
    modules, and its layout ``composition``."""

    def __init__(self, *, layout: ModuleType, coords: ModuleType, division: ModuleType,
                 recast: ModuleType, swizzle: ModuleType, algebra: ModuleType,
                 composition: Callable[..., Any]) -> None:
        self.layout, self.coords, self.division = layout, coords, division
        self.recast, self.swizzle, self.algebra = recast, swizzle, algebra
        self.layout_composition = composition

    def composition(self, A: LayoutLike | Swizzle | ComposedLayoutBase, B: TilerOrNone | Swizzle | str,
                    sense: str = "paper") -> LayoutBase | ComposedLayoutBase:
        A, B = _value(A), _value(B)
        if isinstance(A, Swizzle):
            return self.swizzle.swizzle_composition(A, B)
        if isinstance(A, ComposedLayoutBase):
            return self.swizzle.composed_composition(A, B)
        if isinstance(B, Swizzle):
            return self.swizzle.layout_swizzle_composition(A, B)
        return self.layout_composition(A, B, sense=sense)

    def _divide(self, name: str, A: Any, T: Any, sense: str) -> LayoutBase | ComposedLayoutBase:
        A = _value(A)
        if isinstance(A, ComposedLayoutBase):
            return getattr(self.swizzle, f"composed_{name}")(A, T)
        return getattr(self.division, name)(A, T, sense=sense)

    def logical_divide(self, A: LayoutLike | ComposedLayoutBase, T: TilerOrNone | str,
                       sense: str = "paper") -> LayoutBase | ComposedLayoutBase:
        return self._divide("logical_divide", A, T, sense)

    def zipped_divide(self, A: LayoutLike | ComposedLayoutBase, T: TilerOrNone | str,
                      sense: str = "paper") -> LayoutBase | ComposedLayoutBase:
        return self._divide("zipped_divide", A, T, sense)

    def tiled_divide(self, A: LayoutLike | ComposedLayoutBase, T: TilerOrNone | str,
                     sense: str = "paper") -> LayoutBase | ComposedLayoutBase:
        return self._divide("tiled_divide", A, T, sense)

    def right_inverse(self, L: LayoutLike | ComposedLayoutBase) -> LayoutBase | ComposedLayoutBase:
        L = _value(L)
        if isinstance(L, ComposedLayoutBase):
            return self.swizzle.composed_right_inverse(L)
        return self.algebra.right_inverse(L)

    def slice_and_offset(self, L: LayoutLike | ComposedLayoutBase,
                         coord: Coord) -> tuple[LayoutBase | ComposedLayoutBase, int]:
        L = _value(L)
        if isinstance(L, ComposedLayoutBase):
            return self.swizzle.composed_slice_and_offset(L, coord)
        return self.coords.slice_and_offset(L, coord)

    def _recast(self, name: str, L: Any, N: int) -> LayoutBase | Swizzle | ComposedLayoutBase:
        L = _value(L)
        if isinstance(L, Swizzle):
            return getattr(self.swizzle, f"swizzle_{name}")(L, N)
        if isinstance(L, ComposedLayoutBase):
            return getattr(self.swizzle, f"composed_{name}")(L, N)
        return getattr(self.recast, name)(L, N)

    def upcast(self, L: LayoutLike | Swizzle | ComposedLayoutBase,
               N: int) -> LayoutBase | Swizzle | ComposedLayoutBase:
        return self._recast("upcast", L, N)

    def downcast(self, L: LayoutLike | Swizzle | ComposedLayoutBase,
                 N: int) -> LayoutBase | Swizzle | ComposedLayoutBase:
        return self._recast("downcast", L, N)

    def size(self, x: LayoutLike | ComposedLayoutBase | IntTuple, *path: int) -> int:
        x = _value(x)
        if isinstance(x, ComposedLayoutBase):  # CuTe: the domain is the inner layout's
            return self.swizzle.composed_size(x) if not path else self.layout.size(x.inner.shape, *path)
        return self.layout.size(x, *path)

    def cosize(self, L: LayoutLike | ComposedLayoutBase, *path: int) -> int:
        L = _value(L)
        if isinstance(L, ComposedLayoutBase) and not path:
            return self.swizzle.composed_cosize(L)
        return self.layout.cosize(L, *path)  # composed with a path: refused there

    def values(self, L: LayoutLike | Swizzle | F2Layout | ComposedLayoutBase, *args: Any,
               **kwargs: Any) -> Sequence[int]:
        L = _value(L)
        if isinstance(L, Swizzle):
            return self.swizzle.swizzle_values(L)
        if isinstance(L, F2Layout):
            return self.swizzle.f2_values(L)
        if isinstance(L, ComposedLayoutBase):
            return self.swizzle.composed_values(L)
        return self.layout.values(L, *args, **kwargs)
