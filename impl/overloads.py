"""CuTe's overloads on layouts, swizzles and composed layouts (``layoutcheck/overloads.py``:
``composition``, the divides, ``right_inverse``, ``slice_and_offset``, ``upcast`` /
``downcast``, ``size``, ``cosize``, ``values``) over impl's operations.  ``impl``'s package
exports these in place of the layout-only functions of its modules.
"""

from layoutcheck.impl import algebra, compose, coords, layout, recast, swizzle
from layoutcheck.impl import divide as division

from layoutcheck.overloads import Overloads

__all__ = ["composition", "logical_divide", "zipped_divide", "tiled_divide", "right_inverse",
           "slice_and_offset", "upcast", "downcast", "size", "cosize", "values"]

OVERLOADS = Overloads(layout=layout, coords=coords, division=division, recast=recast, swizzle=swizzle,
                      algebra=algebra, composition=compose.composition)

composition = OVERLOADS.composition
logical_divide = OVERLOADS.logical_divide
zipped_divide = OVERLOADS.zipped_divide
tiled_divide = OVERLOADS.tiled_divide
right_inverse = OVERLOADS.right_inverse
slice_and_offset = OVERLOADS.slice_and_offset
upcast = OVERLOADS.upcast
downcast = OVERLOADS.downcast
size = OVERLOADS.size
cosize = OVERLOADS.cosize
values = OVERLOADS.values
