"""Every operation an oracle answers, in one declarative table: its name, argument kinds,
answer kind, the comparison level an answer must reach, its concept, and for the operations
on swizzled and composed layouts the CuTe function they overload.

Argument kinds: ``layout``, ``tiler`` (a layout, an int, ``_`` or a tuple of tilers), ``int``,
``coord`` (ints and ``_`` nested), ``inttuple``, ``profile`` (an IntTuple whose nesting is
the target profile), ``swizzle`` (``Sw<B,M,S>``), ``composed`` (``outer o offset o inner``),
``f2layout`` (NVlabs' XOR strides), ``smem`` (a layout or a composed layout); a trailing
``?`` marks an optional argument.  Answer kinds: ``layout``, ``int``, ``bool``, ``inttuple``,
``values`` (a flat tuple of ints), ``layout_offset`` ((layout, int)), ``composed`` (a composed
layout, or a layout where CuTe decays one), ``composed_offset``, ``f2layout``.  Levels: see
``oracles/compare.py``.  CuTe overloads one function name on layouts, swizzles and composed
layouts; here each overload is its own operation (``composed_composition``, ...), and
``overloads`` names the CuTe function a user calls (``resolve`` picks the operation from the
arguments).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Operation", "OPERATIONS", "BY_NAME", "FAMILIES", "resolve"]


@dataclass(frozen=True)
class Operation:
    name: str
    arguments: tuple[str, ...]  # argument kinds, in order
    answer: str                 # answer kind
    level: str                  # the comparison level an answer must reach
    family: str                 # algebra, coordinates, swizzle, recast, tiling
    overloads: str | None = None  # the CuTe function this overload of it answers, if another name

    @property
    def cute_name(self) -> str:
        return self.overloads or self.name


OPERATIONS: tuple[Operation, ...] = (
    # --- algebra
    Operation("coalesce", ('layout', 'profile?'), "layout", "structure", "algebra"),
    Operation("filter", ('layout', 'profile?'), "layout", "structure", "algebra"),
    Operation("complement", ('layout', 'int?'), "layout", "coalesced", "algebra"),
    Operation("composition", ('layout', 'tiler'), "layout", "function", "algebra"),
    Operation("logical_divide", ('layout', 'tiler'), "layout", "function", "algebra"),
    Operation("zipped_divide", ('layout', 'tiler'), "layout", "function", "algebra"),
    Operation("tiled_divide", ('layout', 'tiler'), "layout", "function", "algebra"),
    Operation("flat_divide", ('layout', 'tiler'), "layout", "function", "algebra"),
    Operation("logical_product", ('layout', 'tiler'), "layout", "function", "algebra"),
    Operation("zipped_product", ('layout', 'tiler'), "layout", "function", "algebra"),
    Operation("tiled_product", ('layout', 'tiler'), "layout", "function", "algebra"),
    Operation("blocked_product", ('layout', 'layout'), "layout", "function", "algebra"),
    Operation("raked_product", ('layout', 'layout'), "layout", "function", "algebra"),
    Operation("right_inverse", ('layout',), "layout", "property", "algebra"),
    Operation("left_inverse", ('layout',), "layout", "property", "algebra"),
    Operation("size", ('layout',), "int", "structure", "algebra"),
    Operation("cosize", ('layout',), "int", "structure", "algebra"),
    Operation("values", ('layout',), "values", "structure", "algebra"),
    # NVlabs PyCuTe's own: R(i) = A(i) + B(i), coalesced (its docstring's examples)
    Operation("layout_add", ('layout', 'layout'), "layout", "structure", "algebra"),
    # --- coordinates
    Operation("eval_coord", ('layout', 'coord'), "int", "structure", "coordinates"),
    Operation("get_mode", ('layout', 'int'), "layout", "structure", "coordinates"),
    Operation("rank", ('layout',), "int", "structure", "coordinates"),
    Operation("crd2idx", ('coord', 'inttuple', 'inttuple?'), "int", "structure", "coordinates"),
    Operation("idx2crd", ('int', 'inttuple', 'inttuple?'), "inttuple", "structure", "coordinates"),
    Operation("crd2crd", ('coord', 'inttuple', 'inttuple?'), "inttuple", "structure", "coordinates"),
    Operation("slice_", ('layout', 'coord'), "layout", "structure", "coordinates"),
    Operation("dice", ('layout', 'coord'), "layout", "structure", "coordinates"),
    Operation("slice_and_offset", ('layout', 'coord'), "layout_offset", "structure", "coordinates"),
    Operation("layout_left", ('inttuple',), "layout", "structure", "coordinates"),
    Operation("shape_div", ('inttuple', 'inttuple'), "inttuple", "structure", "coordinates"),
    Operation("prefix_product", ('inttuple', 'inttuple?'), "inttuple", "structure", "coordinates"),
    Operation("product", ('inttuple',), "int", "structure", "coordinates"),
    Operation("inner_product", ('inttuple', 'inttuple'), "int", "structure", "coordinates"),
    Operation("elem_scale", ('inttuple', 'inttuple'), "inttuple", "structure", "coordinates"),
    Operation("congruent", ('inttuple', 'inttuple'), "bool", "structure", "coordinates"),
    Operation("compatible", ('inttuple', 'inttuple'), "bool", "structure", "coordinates"),
    Operation("flatten", ('inttuple',), "inttuple", "structure", "coordinates"),
    # --- swizzle
    Operation("swizzle_apply", ('swizzle', 'int'), "int", "structure", "swizzle"),
    Operation("swizzle_values", ('swizzle',), "values", "structure", "swizzle", overloads="values"),
    Operation("f2_values", ('f2layout',), "values", "structure", "swizzle", overloads="values"),
    Operation("composed_values", ('composed',), "values", "structure", "swizzle", overloads="values"),
    Operation("composed_size", ('composed',), "int", "structure", "swizzle", overloads="size"),
    Operation("composed_cosize", ('composed',), "int", "structure", "swizzle", overloads="cosize"),
    Operation("swizzle_composition", ('swizzle', 'layout'), "composed", "function", "swizzle", overloads="composition"),
    Operation("layout_swizzle_composition", ('layout', 'swizzle'), "composed", "function", "swizzle", overloads="composition"),
    Operation("composed_composition", ('composed', 'tiler'), "composed", "function", "swizzle", overloads="composition"),
    Operation("composed_logical_divide", ('composed', 'tiler'), "composed", "function", "swizzle", overloads="logical_divide"),
    Operation("composed_zipped_divide", ('composed', 'tiler'), "composed", "function", "swizzle", overloads="zipped_divide"),
    Operation("composed_tiled_divide", ('composed', 'tiler'), "composed", "function", "swizzle", overloads="tiled_divide"),
    Operation("composed_slice_and_offset", ('composed', 'coord'), "composed_offset", "function", "swizzle", overloads="slice_and_offset"),
    Operation("composed_right_inverse", ('composed',), "composed", "property", "swizzle", overloads="right_inverse"),
    Operation("composed_upcast", ('composed', 'int'), "composed", "function", "swizzle", overloads="upcast"),
    Operation("composed_downcast", ('composed', 'int'), "composed", "function", "swizzle", overloads="downcast"),
    Operation("bank_conflicts", ('smem', 'layout', 'int'), "inttuple", "structure", "swizzle"),
    # --- recast
    Operation("upcast", ('layout', 'int'), "layout", "function", "recast"),
    Operation("downcast", ('layout', 'int'), "layout", "function", "recast"),
    Operation("recast_layout", ('layout', 'int', 'int'), "layout", "function", "recast"),
    Operation("max_common_vector", ('layout', 'layout'), "int", "structure", "recast"),
    Operation("max_common_layout", ('layout', 'layout'), "layout", "property", "recast"),
    Operation("nullspace", ('layout',), "layout", "function", "recast"),
    # --- tiling
    Operation("product_each", ('inttuple',), "inttuple", "structure", "tiling"),
    Operation("make_ordered_layout", ('inttuple', 'inttuple'), "layout", "function", "tiling"),
    Operation("make_layout_like", ('layout',), "layout", "function", "tiling"),
    Operation("tile_to_shape", ('layout', 'inttuple', 'inttuple?'), "layout", "function", "tiling"),
    Operation("local_tile", ('layout', 'tiler', 'coord'), "layout_offset", "function", "tiling"),
    Operation("local_partition", ('layout', 'layout', 'int'), "layout_offset", "function", "tiling"),
    Operation("inner_partition", ('layout', 'tiler', 'coord'), "layout_offset", "function", "tiling"),
    Operation("outer_partition", ('layout', 'tiler', 'coord'), "layout_offset", "function", "tiling"),
    Operation("zip_layout", ('layout',), "layout", "function", "tiling"),
    Operation("group_modes", ('layout', 'int', 'int'), "layout", "function", "tiling"),
    Operation("tiled_copy_partition_S", ('smem', 'layout', 'layout', 'int'), "composed_offset", "function", "tiling"),
    Operation("tiled_copy_partition_D", ('smem', 'layout', 'layout', 'int'), "composed_offset", "function", "tiling"),
    # --- swizzle
    Operation("swizzle_as_f2", ('swizzle',), "f2layout", "function", "swizzle"),
)

BY_NAME = {op.name: op for op in OPERATIONS}
FAMILIES = tuple(dict.fromkeys(op.family for op in OPERATIONS))

# the kinds a value of a composed-layout argument can have
_COMPOSED_KINDS = ("swizzle", "composed", "f2layout")


def resolve(name: str, kinds: tuple[str, ...]) -> str:
    """The operation a user means by CuTe's function ``name`` on arguments of these kinds
    (``composition`` on a composed layout is ``composed_composition``); ``name`` itself when
    no overload fits better.  ``kinds``: one of ``layout``, ``swizzle``, ``composed``,
    ``f2layout``, ``other`` per argument."""
    if name in BY_NAME and not any(k in _COMPOSED_KINDS for k in kinds):
        return name
    for op in OPERATIONS:
        if op.cute_name != name or op.name == name:
            continue
        wanted = [k.rstrip("?") for k in op.arguments]
        if len(kinds) > len(wanted) or len(kinds) < sum(not k.endswith("?") for k in op.arguments):
            continue
        if all(_fits(k, w) for k, w in zip(kinds, wanted)):
            return op.name
    return name


def _fits(kind: str, wanted: str) -> bool:
    if wanted in ("swizzle", "composed", "f2layout"):
        return kind == wanted
    if wanted == "smem":
        return kind in ("layout", "composed")
    return kind not in _COMPOSED_KINDS
