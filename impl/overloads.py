"""CuTe overloads one function name on layouts, swizzles and composed layouts
(``cute/swizzle_layout.hpp``, ``cute/layout_composed.hpp``): ``composition``, the divides,
``right_inverse``, ``slice_and_offset``, ``upcast`` / ``downcast``, ``size``, ``cosize`` and
``values`` here take a layout, a ``Swizzle`` or a ``ComposedLayout`` (or their text, e.g.
``"Sw<3,4,3> o _0 o (8,64):(64,1)"``) and call the operation for that kind (the operations
table, ``oracles/operations.py``, lists each overload).  ``impl``'s package exports these
in place of the layout-only functions of its modules.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from layoutcheck.impl import algebra, compose, coords, layout, recast, swizzle
from layoutcheck.impl import divide as division
from layoutcheck.impl.layout import Layout
from layoutcheck.impl.swizzle import ComposedLayout

from layoutcheck.composed import (
    ComposedLayoutBase,
    F2Layout,
    Swizzle,
    looks_composed,
    parse_value,
)
from layoutcheck.layout import Coord, IntTuple, LayoutLike, TilerOrNone

__all__ = ["composition", "logical_divide", "zipped_divide", "tiled_divide", "right_inverse",
           "slice_and_offset", "upcast", "downcast", "size", "cosize", "values"]


def _value(x: Any) -> Any:
    """A text argument in the notation of swizzles and composed layouts, parsed; else x."""
    return parse_value(x) if isinstance(x, str) and looks_composed(x) else x




def composition(A: LayoutLike | Swizzle | ComposedLayoutBase, B: TilerOrNone | Swizzle | str,
                sense: str = "paper") -> Layout | ComposedLayout:
    A, B = _value(A), _value(B)
    if isinstance(A, Swizzle):
        return swizzle.swizzle_composition(A, B)
    if isinstance(A, ComposedLayoutBase):
        return swizzle.composed_composition(A, B)
    if isinstance(B, Swizzle):
        return swizzle.layout_swizzle_composition(A, B)
    return compose.composition(A, B, sense=sense)


def logical_divide(A: LayoutLike | ComposedLayoutBase, T: TilerOrNone | str,
                   sense: str = "paper") -> Layout | ComposedLayout:
    A = _value(A)
    if isinstance(A, ComposedLayoutBase):
        return swizzle.composed_logical_divide(A, T)
    return division.logical_divide(A, T, sense=sense)


def zipped_divide(A: LayoutLike | ComposedLayoutBase, T: TilerOrNone | str,
                  sense: str = "paper") -> Layout | ComposedLayout:
    A = _value(A)
    if isinstance(A, ComposedLayoutBase):
        return swizzle.composed_zipped_divide(A, T)
    return division.zipped_divide(A, T, sense=sense)


def tiled_divide(A: LayoutLike | ComposedLayoutBase, T: TilerOrNone | str,
                 sense: str = "paper") -> Layout | ComposedLayout:
    A = _value(A)
    if isinstance(A, ComposedLayoutBase):
        return swizzle.composed_tiled_divide(A, T)
    return division.tiled_divide(A, T, sense=sense)


def right_inverse(L: LayoutLike | ComposedLayoutBase) -> Layout | ComposedLayout:
    L = _value(L)
    if isinstance(L, ComposedLayoutBase):
        return swizzle.composed_right_inverse(L)
    return algebra.right_inverse(L)


def slice_and_offset(L: LayoutLike | ComposedLayoutBase, coord: Coord) -> tuple[Layout | ComposedLayout, int]:
    L = _value(L)
    if isinstance(L, ComposedLayoutBase):
        return swizzle.composed_slice_and_offset(L, coord)
    return coords.slice_and_offset(L, coord)


def upcast(L: LayoutLike | Swizzle | ComposedLayoutBase, N: int) -> Layout | Swizzle | ComposedLayout:
    L = _value(L)
    if isinstance(L, Swizzle):
        return swizzle.swizzle_upcast(L, N)
    if isinstance(L, ComposedLayoutBase):
        return swizzle.composed_upcast(L, N)
    return recast.upcast(L, N)


def downcast(L: LayoutLike | Swizzle | ComposedLayoutBase, N: int) -> Layout | Swizzle | ComposedLayout:
    L = _value(L)
    if isinstance(L, Swizzle):
        return swizzle.swizzle_downcast(L, N)
    if isinstance(L, ComposedLayoutBase):
        return swizzle.composed_downcast(L, N)
    return recast.downcast(L, N)


def size(x: LayoutLike | ComposedLayoutBase | IntTuple, *path: int) -> int:
    x = _value(x)
    if isinstance(x, ComposedLayoutBase):  # CuTe: the domain is the inner layout's
        return swizzle.composed_size(x) if not path else layout.size(x.inner.shape, *path)
    return layout.size(x, *path)


def cosize(L: LayoutLike | ComposedLayoutBase, *path: int) -> int:
    L = _value(L)
    if isinstance(L, ComposedLayoutBase) and not path:
        return swizzle.composed_cosize(L)
    return layout.cosize(L, *path)  # type: ignore[arg-type]  # composed with a path: refused there


def values(L: LayoutLike | Swizzle | F2Layout | ComposedLayoutBase, *args: Any,
           **kwargs: Any) -> Sequence[int] | np.ndarray:
    L = _value(L)
    if isinstance(L, Swizzle):
        return swizzle.swizzle_values(L)
    if isinstance(L, F2Layout):
        return swizzle.f2_values(L)
    if isinstance(L, ComposedLayoutBase):
        return swizzle.composed_values(L)
    return layout.values(L, *args, **kwargs)
