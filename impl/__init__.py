"""The optimized implementation: the same public API as ``layoutcheck.spec``, by algorithms.

Independent of the spec (this package never imports it): it shares only the core value
(``layoutcheck.layout.LayoutBase``), the notation, ``LayoutError`` and the static ``C``.
Algebra operations work on the modes and never evaluate over the domain; ``values`` evaluates
the layout function over the whole domain as a numpy array from per-mode offsets.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C

from layoutcheck.impl.tuples import (is_tuple, profile, length, concat_tuples,  # noqa: F401
                     divides, permute_tuple, domain)
from layoutcheck.impl.layout import (Layout, parse, parse_tiler, as_layout, shape, stride, cosize,  # noqa: F401
                     modes, colex, colex_inv, phi, Phi, values, image, flatten, mode, get, rank, depth,
                     size)
from layoutcheck.impl.basic import (layout_left, layout_right, is_column_major, is_row_major,  # noqa: F401
                    is_non_degenerate, restrict, squeeze, filter_zeros, permute, mode_precedes,
                    is_sorted, sort, concat, make_layout, is_injective, is_surjective,
                    is_compact)
from layoutcheck.impl.algebra import (coalesce, is_coalesced, filter, complement, is_complementable,  # noqa: F401
                      is_disjoint, right_inverse, left_inverse, slice_, Underscore, _,
                      is_tractable)
from layoutcheck.impl.compose import composition, is_composable  # noqa: F401
from layoutcheck.impl.divide import (logical_divide, zipped_divide, tiled_divide, flat_divide,  # noqa: F401
                     logical_product, zipped_product, tiled_product, flat_product,
                     blocked_product, raked_product)
from layoutcheck.impl.coords import (crd2idx, idx2crd, crd2crd, eval_coord, get_mode, dice,  # noqa: F401
                     slice_and_offset, shape_div, prefix_product, product, inner_product,
                     elem_scale, congruent, compatible, filter_profile, natural_coord)
from layoutcheck.impl import recast as _recast, swizzle as _swizzle, tiling as _tiling  # noqa: E402
from layoutcheck.impl.recast import *  # noqa: F401,F403
from layoutcheck.impl.swizzle import *  # noqa: F401,F403
from layoutcheck.impl.tiling import *  # noqa: F401,F403
from layoutcheck.impl.addition import layout_add  # noqa: F401

__all__ = [
    "LayoutError", "C",
    "is_tuple", "flatten", "profile", "length", "mode", "get", "concat_tuples", "divides",
    "permute_tuple", "domain", "rank", "depth", "size",
    "Layout", "parse", "parse_tiler", "as_layout", "shape", "stride", "cosize", "modes",
    "colex", "colex_inv", "phi", "Phi", "values", "image",
    "layout_left", "layout_right", "is_column_major", "is_row_major", "is_non_degenerate",
    "restrict", "squeeze", "filter_zeros", "permute", "mode_precedes", "is_sorted", "sort",
    "concat", "make_layout", "is_injective", "is_surjective", "is_compact",
    "coalesce", "is_coalesced", "filter", "complement", "is_complementable", "is_disjoint",
    "composition", "is_composable", "logical_divide", "zipped_divide", "tiled_divide",
    "flat_divide", "logical_product", "zipped_product", "tiled_product", "flat_product",
    "blocked_product", "raked_product", "right_inverse", "left_inverse", "slice_",
    "Underscore", "_", "is_tractable",
    "crd2idx", "idx2crd", "crd2crd", "eval_coord", "get_mode", "dice", "slice_and_offset",
    "shape_div", "prefix_product", "product", "inner_product", "elem_scale", "congruent",
    "compatible", "filter_profile", "natural_coord", "layout_add",
] + list(_swizzle.__all__) + list(_recast.__all__) + list(_tiling.__all__)
# CuTe's overloads on swizzles and composed layouts: these names take any of them
from layoutcheck.impl.overloads import (composition, logical_divide, zipped_divide, tiled_divide,  # noqa: E402,F401,F811
                                        right_inverse, slice_and_offset, upcast, downcast, size,
                                        cosize, values)
