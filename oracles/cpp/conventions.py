"""The declared conventions of CuTe C++: what it does differently *on purpose*,
each citing its own documentation or tests and naming the register entry (kind ``convention``)
that recognises it at the gate (``oracles/conventions.py``).
"""

from layoutcheck.oracles.conventions import Convention, cute_conventions

__all__ = ["CONVENTIONS"]

CONVENTIONS = cute_conventions() + [
    Convention("static-divisibility-checks", ("composition",),
               "composition static_asserts its stride and shape divisibility conditions, which "
               "are stronger than existence (and skipped with runtime integers)",
               "02_layout_algebra.md: the stride / shape divisibility condition 'is statically "
               "checked in CuTe when possible'; layout.hpp composition_impl, CUTE_STATIC_ASSERT_V "
               "'Stride Divisibility Condition' / 'Shape Divisibility Condition'",
               "F-025"),
    Convention("coalesce-x-keeps-trailing-size-1", ("composition",),
               "a trailing size-1 mode of A with a non-zero stride is seeded as _2:d by coalesce_x, "
               "so the stride check crosses A's other modes",
               "layout.hpp coalesce_x ('preserves the Layout function inside its domain and "
               "outside'; is_constant<1, last shape> gives Int<2>{})",
               "F-058"),
    Convention("past-the-end-as-written", ("composition",),
               "past size(A) the last mode of A as written is extended (coalesce_x keeps A's own "
               "modes), not coalesce(A)'s",
               "layout.hpp composition: detail::coalesce_x(lhs, coprofile(rhs)) then composition_impl",
               "F-048"),
    Convention("compile-time-coalesce", ("coalesce", "filter"),
               "coalesce (and filter) merge or drop a mode only when that is decided at compile "
               "time: runtime integers keep their modes",
               "layout.hpp bw_coalesce: merge only if is_static and is_constant<true, s*d == d'>, "
               "skip only is_constant<1, shape>",
               "F-040"),
    Convention("runtime-integers-keep-modes", ("composition", "logical_divide", "zipped_divide",
                                               "tiled_divide", "flat_divide", "logical_product",
                                               "zipped_product", "tiled_product"),
               "with runtime integers compositions, divides and products keep unmerged and "
               "size-1 modes (same layout function)",
               "layout.hpp composition_impl: the is_constant<1, ...> branches are compile-time; "
               "02_layout_algebra.md ('statically checked in CuTe when possible')",
               "F-055"),
    Convention("right-inverse-pre-is-static", ("right_inverse",),
               "right_inverse matches only static strides (runtime strides are filtered out)",
               "layout.hpp right_inverse: '@pre is_static<Layout>', 'Filter out any dynamic strides'",
               "F-042"),
    Convention("left-inverse-pre-is-static", ("left_inverse",),
               "left_inverse with runtime strides does not compile",
               "layout.hpp left_inverse: '@pre is_static<Layout>', static_assert 'Left inverse "
               "requires static strides.'",
               "F-043"),
    Convention("left-inverse-is-a-quasi-inverse", ("left_inverse",),
               "left_inverse of a non-injective layout returns a quasi-inverse instead of refusing",
               "layout.hpp: 'Build the quasi-inverse of a layout (left-inverse when layout is "
               "injective)', @result layout(result(layout(i))) == layout(i)",
               "F-053"),
    Convention("dynamic-stride-complement-rank-1", ("complement",),
               "complement of several modes with a runtime stride does not compile; a runtime "
               "size-1 mode is complemented as a mode",
               "layout.hpp detail::complement: static_assert 'Dynamic-stride complement only for "
               "rank-1 layouts'; filter drops only static size-1 / stride-0 modes",
               "F-122"),
    Convention("products-need-static-complement", ("logical_product", "zipped_product",
                                                   "tiled_product", "blocked_product", "raked_product"),
               "products whose inner complement has several modes and a runtime stride do not compile",
               "the same static_assert inside logical_product's complement(block, ...)",
               "F-045"),
    Convention("divides-need-static-complement", ("logical_divide", "zipped_divide", "tiled_divide",
                                                  "flat_divide"),
               "divides by a tile layout of several modes with a runtime stride do not compile",
               "the same static_assert inside logical_divide's complement(tiler, ...)",
               "F-052"),
    Convention("products-static-divisibility", ("logical_product", "zipped_product", "tiled_product",
                                                "blocked_product", "raked_product"),
               "products refuse where the inner composition fails the stride divisibility check",
               "layout.hpp logical_product composes complement(block, ...) with tiler: "
               "composition_impl's static_assert",
               "F-056"),
    Convention("divides-static-divisibility", ("logical_divide", "zipped_divide", "tiled_divide",
                                               "flat_divide"),
               "divides refuse where the inner composition fails the stride divisibility check",
               "layout.hpp logical_divide composes layout with (tiler, complement): composition_impl's "
               "static_assert",
               "F-038"),
    Convention("tuple-tiler-drops-modes", ("composition",),
               "composition with a Tile tuple shorter than the layout drops the layout's other modes",
               "layout.hpp composition(Layout, Tiler): 'Drop any modes of lhs that aren't hit by rhs'",
               "F-120"),
    Convention("rank-one-zip-nests", ("blocked_product", "raked_product"),
               "blocked/raked_product of a leaf and a rank-1 tuple: append<1> leaves the leaf, the "
               "zip keeps the 1-tuple nested",
               "layout.hpp blocked_product: R = max(rank), logical_product(append<R>(block), "
               "append<R>(tiler)), zip(get<0>, get<1>)",
               "F-121"),
    Convention("empty-layout-does-not-compile", ("coalesce", "composition", "logical_divide",
                                                 "logical_product"),
               "ops on the empty layout ():() do not compile",
               "layout.hpp bw_coalesce takes get<R-1> of the flat shape (R = 0) and make_layout has "
               "no zero-mode overload",
               "F-049"),
    Convention("compact-size-1-stride-0", ("layout_left",),
               "the default (LayoutLeft) strides give a static size-1 mode stride _0",
               "stride.hpp detail::compact: 'if constexpr (is_constant<1, Shape>::value) return "
               "(Int<0>{}, current)'",
               "F-173"),
    Convention("flatten-keeps-an-integer", ("flatten",),
               "flatten of an integer is the integer itself",
               "algorithm/tuple_algorithms.hpp flatten: a non-tuple argument is returned unchanged",
               "F-174"),
# --- swizzles, composed layouts, recast, tiling ------------------------------------
# CuTe C++ cited from the 4.2 headers of the nvidia-cutlass wheel (layout.hpp,
# swizzle_layout.hpp), the DSL from its own docstrings and error texts (nvidia-cutlass-dsl
# 4.8.1), NVlabs PyCuTe from the snapshot's docstrings (pycute/layout.py, htuple.py).
    Convention("upcast-assumes-divisible-dynamic-strides", ("upcast", "recast_layout"),
               "upcast<N> divides a dynamic (runtime) stride by N without a check, so a stride N "
               "does not divide truncates (a runtime 1 becomes 0)",
               "layout.hpp upcast: '// Assume dynamic strides are larger than N and divisible' and "
               "the commented-out '// assert(stride % N == 0);' (safe_div, math.hpp, has its assert "
               "commented out too)",
               "F-222"),
    Convention("common-vector-static-only", ("max_common_vector", "max_common_layout"),
               "with runtime integers max_common_vector is _1 and max_common_layout _1:_0",
               "layout.hpp max_common_vector / max_common_layout: '// Keep only the static identity "
               "component of the common layout' (is_static shape and is_constant<1> stride, else "
               "Int<1> / Layout<_1,_0>)",
               "F-223"),
    Convention("composed-ops-on-the-inner-layout", ("composed_composition", "composed_logical_divide",
                                                     "composed_zipped_divide", "composed_tiled_divide",
                                                     "composed_right_inverse"),
               "composition and the divides of A o O o B are A o O o op(B, T): the inner op's own "
               "conventions and bugs show inside the composed answer",
               "layout_composed.hpp: 'Mostly, the similar functionality is accomplished by applying "
               "each operation to LayoutB only as LayoutB defines the domain'",
               "F-226"),
# Triaged from the 300 s cute-cpp gate (seed 7), 2026-12-01; the same in the 4.7 headers.
    Convention("crd2idx-of-underscore-is-the-marker", ("crd2idx",),
               "crd2idx(_, s) returns the slice marker _ itself (an integral Int<0>), not the "
               "index 0",
               "stride.hpp crd2idx(c, s): an integral coordinate 'is already an index'; "
               "underscore.hpp: struct Underscore : Int<0>",
               "F-232"),
    Convention("shape-div-unchecked-at-runtime", ("shape_div",),
               "shape_div of runtime integers skips the 'a | b or b | a' check and answers the "
               "ceil division",
               "int_tuple.hpp shape_div: the divisibility static_assert is for static integers; "
               "the runtime assert is commented out ('DEBUG assert can cause extra registers')",
               "F-233"),
    Convention("layout-swizzle-composition-needs-static-masks", ("layout_swizzle_composition",),
               "composition(L, Swizzle) compiles only when L maps the swizzle's masks to static "
               "values: the result is a Swizzle type whose masks are template arguments",
               "swizzle_layout.hpp composition(Layout, Swizzle): make_swizzle<active_Y, "
               "active_Z>(); swizzle.hpp make_swizzle<uint32_t Y, uint32_t Z>",
               "F-234"),
    Convention("identity-swizzle-is-dropped", ("composed_composition", "composed_logical_divide",
                                               "composed_zipped_divide", "composed_tiled_divide"),
               "composition and the divides of Sw<0,M,S> o _0 o L answer the plain layout op(L, T)",
               "swizzle_layout.hpp composition(Swizzle<0,M,S>, Int<0>, Layout): 'Ignore identity "
               "case' returns the layout",
               "F-236"),
    Convention("partitions-do-not-check-coordinate-bounds",
               ("outer_partition", "inner_partition", "local_tile", "local_partition"),
               "the partitions slice zipped_divide(L, T) at the coordinate (local_partition: at "
               "thr.get_flat_coord(i)) without a bounds check: a coordinate past its mode answers "
               "the unchecked crd2idx, a thread index past size(thr) wraps",
               "stride.hpp crd2idx ('op(c, s, d) => c * d'); tensor_impl.hpp outer_partition / "
               "inner_partition (zipped_divide, then the slice); layout.hpp get_flat_coord",
               "F-241"),
    Convention("coordinate-maps-do-not-check-bounds", ("crd2crd", "idx2crd"),
               "crd2crd and idx2crd(i, S) split an index past size(S) without a check: an integral "
               "shape returns i itself, a tuple shape puts the quotient left in its last mode",
               "stride.hpp idx2crd(i, s) (crd2idx(i, s, basis)) and crd2crd "
               "(idx2crd(crd2idx(c, src), dst), its size assert commented out)",
               "F-241"),
]
