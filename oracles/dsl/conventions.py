"""The declared conventions of the CuTe DSL: what it does differently *on purpose*,
each citing its own documentation or tests and naming the register entry (kind ``convention``)
that recognises it at the gate (``oracles/conventions.py``).
"""

from layoutcheck.oracles.conventions import Convention, cute_conventions

__all__ = ["CONVENTIONS"]

CONVENTIONS = cute_conventions() + [
    Convention("static-divisibility-checks", ("composition",),
               "composition refuses (MLIRError) where CuTe's divisibility checks fail",
               "02_layout_algebra.md ('statically checked in CuTe when possible'); every DSL "
               "integer is static at trace time (cutlass/cute/core.py composition)",
               "F-025"),
    Convention("divides-static-divisibility", ("logical_divide", "zipped_divide", "tiled_divide",
                                               "flat_divide"),
               "divides refuse ('failed to perform a valid division') where the inner composition "
               "fails CuTe's checks",
               "cutlass/cute/core.py logical_divide (the cute.logical_divide op); 02_layout_algebra.md",
               "F-038"),
    Convention("products-static-divisibility", ("logical_product", "zipped_product", "tiled_product",
                                                "blocked_product", "raked_product"),
               "products refuse ('unable to compute product') where the inner composition fails "
               "CuTe's checks",
               "cutlass/cute/core.py logical_product (the cute.logical_product op); 02_layout_algebra.md",
               "F-085"),
    Convention("checks-walk-A-as-written", ("composition", "logical_divide", "logical_product"),
               "a trailing size-1 mode of A with a non-zero stride is kept (seeded as _2:d), so the "
               "divisibility checks cross A's other modes and refuse, as CuTe C++ (F-058)",
               "the same algorithm as layout.hpp coalesce_x ('preserves the Layout function inside "
               "its domain and outside'), which cutlass/cute/core.py composition follows",
               "F-058"),
    Convention("past-the-end-as-written", ("composition",),
               "past size(A) the last mode of A as written is extended, as CuTe C++",
               "the same algorithm as layout.hpp composition (coalesce_x); cutlass/cute/core.py composition",
               "F-048"),
    Convention("products-take-a-layout", ("zipped_product", "tiled_product"),
               "zipped_product and tiled_product accept only a Layout tiler (no Tile tuple, no int)",
               "cutlass/cute/core.py: zipped_product / tiled_product are typed 'tiler: Layout' "
               "(logical_product: 'tiler: Tile')",
               "F-051"),
    Convention("left-inverse-is-a-quasi-inverse", ("left_inverse",),
               "left_inverse of a non-injective layout returns a quasi-inverse instead of refusing",
               "layout.hpp left_inverse ('the quasi-inverse of a layout'), which the DSL's "
               "cute.left_inverse op computes (cutlass/cute/core.py left_inverse)",
               "F-083"),
    Convention("raked-coalesces-modes", ("raked_product",),
               "raked_product returns each top mode of the zip coalesced",
               "no DSL docstring; CuTe documents the rank-sensitive products by their post-conditions "
               "(layout.hpp raked_product: @post rank(result) == max(rank(block), rank(tiler)), which "
               "holds) and shows a coalesced mode as intended (02_layout_algebra.md, Blocked and "
               "Raked Products: blocked_product 'coalesced mode-0')",
               "F-086"),
    Convention("tuple-tiler-drops-modes", ("composition",),
               "composition with a Tile tuple shorter than the layout drops the layout's other modes",
               "layout.hpp composition(Layout, Tiler) ('Drop any modes of lhs that aren't hit by "
               "rhs'), which cutlass/cute/core.py composition follows",
               "F-087"),
    Convention("empty-layout-stays-empty", ("coalesce",),
               "coalesce of ():() is ():()",
               "no DSL docstring; CuTe documents coalesce by its post-conditions (layout.hpp: "
               "@post size(result) == size(layout), depth(result) <= 1, result(i) == layout(i)), "
               "which ():() meets",
               "F-049"),
    Convention("compact-size-1-stride-0", ("layout_left",),
               "make_layout(shape) gives a static size-1 mode stride 0, as CuTe C++",
               "the same compact strides as stride.hpp detail::compact (is_constant<1, Shape>: Int<0>{})",
               "F-173"),
    Convention("flatten-keeps-an-integer", ("flatten",),
               "flatten of an integer is the integer itself, as CuTe C++",
               "algorithm/tuple_algorithms.hpp flatten (a non-tuple is returned unchanged)",
               "F-174"),
    Convention("empty-profile-is-no-profile", ("coalesce",),
               "coalesce(L, target_profile=()) is coalesce(L)",
               "cutlass/cute/core.py coalesce: 'if target_profile:' (an empty tuple is falsy, so no "
               "profile is packed)",
               "F-175"),
    Convention("no-cosize-for-affine-outer", ("composed_cosize",),
               "cosize of a composed layout whose outer function is a layout is refused",
               "the DSL's error text: \"can't derive meaningful cosize of composed layout when inner "
               "is affine\" (the DSL calls the outer function 'inner')",
               "F-203"),
    Convention("product-each-of-an-integer", ("product_each",),
               "product_each of an integer is the integer (not the 1-tuple)",
               "cute.product_each's signature takes an Int or a tuple and returns an IntTuple; "
               "CuTe C++ wraps first (int_tuple.hpp product_each: transform(wrap(t), product))",
               "F-213"),
    Convention("group-needs-begin-before-end", ("group_modes",),
               "group_modes(L, b, e) refuses b == e",
               "the DSL's ValueError text 'Expected begin < end'",
               "F-214"),
    Convention("local-tile-coordinate-of-rest-rank", ("local_tile",),
               "local_tile needs a coordinate of the rest modes' rank; CuTe C++ also indexes the "
               "rest flat with one integer",
               "cute.local_tile docstring: coord 'selects within the remainder (\"rest\") modes'; "
               "tensor_impl.hpp inner_partition: '// Flat indexing if coord is not tuple'",
               "F-215"),
    Convention("composed-composition-drops-untiled-modes", ("composed_composition",),
               "composition(Sw o O o L, Tile) with fewer tiles than L's modes drops L's other modes "
               "(F-087 inside a composed layout)",
               "as F-087: the DSL composes by mode the modes the tiler names",
               "F-216"),
    # --- with runtime integers (the runtime path, oracles/dsl/runtime.py)
    Convention("runtime-coalesce-keeps-modes", ("coalesce", "filter"),
               "with runtime integers coalesce (and filter) merge or drop a mode only when that is "
               "decided at trace time: runtime modes and runtime 1s are kept",
               "the same rule as layout.hpp bw_coalesce (merge only if is_constant<true, s*d == d'>); "
               "NVIDIA/cutlass#3469, where the maintainer calls the DSL's behaviour intended",
               "F-243"),
    Convention("runtime-integers-keep-modes", ("composition", "logical_divide", "zipped_divide",
                                               "tiled_divide", "flat_divide", "logical_product",
                                               "zipped_product", "tiled_product"),
               "with runtime integers compositions, divides and products keep unmerged and size-1 "
               "modes (same layout function)",
               "as CuTe C++ (layout.hpp composition_impl: the is_constant<1, ...> branches are "
               "compile-time), which the DSL's ops follow",
               "F-244"),
    Convention("dynamic-stride-complement-rank-1", ("complement", "logical_divide", "zipped_divide",
                                                    "tiled_divide", "flat_divide"),
               "a complement (or a divide's tile) of several modes with a runtime stride is refused",
               "layout.hpp detail::complement: static_assert 'Dynamic-stride complement only for "
               "rank-1 layouts' (the modes are sorted by stride at compile time)",
               "F-249"),
    Convention("right-inverse-pre-is-static", ("right_inverse",),
               "right_inverse with runtime strides matches only the static ones",
               "layout.hpp right_inverse: '@pre is_static<Layout>', 'Filter out any dynamic strides'",
               "F-251"),
    Convention("left-inverse-pre-is-static", ("left_inverse",),
               "left_inverse of a layout with a runtime integer is refused",
               "layout.hpp left_inverse: '@pre is_static<Layout>'",
               "F-252"),
    Convention("products-want-a-static-block", ("logical_product", "zipped_product", "tiled_product",
                                                "blocked_product", "raked_product"),
               "a product whose multiplied mode holds a runtime integer is refused",
               "the DSL's product op says so: MLIRError 'expects `input` to be static'",
               "F-253"),
    Convention("dice-wants-a-static-dicer", ("dice",),
               "dice with a runtime integer in its coordinate is refused",
               "cute.dice docstring: ':param dicer: A static coordinate indicating how to dice the input'",
               "F-254"),
    Convention("runtime-shape-div-unchecked", ("shape_div",),
               "shape_div with runtime integers does not check its precondition (a | b or b | a) "
               "and truncates",
               "as CuTe C++ int_tuple.hpp shape_div (the runtime assert commented out); no answer is "
               "promised outside the precondition",
               "F-255"),
    Convention("composed-ops-on-the-inner-layout", ("composed_composition", "composed_logical_divide",
                                                     "composed_zipped_divide", "composed_tiled_divide"),
               "composition and the divides of a composed layout act on its inner layout, with the "
               "DSL's conventions of those ops",
               "as CuTe C++ (layout_composed.hpp); the DSL prints A o O o op(B, T)",
               "F-226"),
]
