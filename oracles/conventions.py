"""Declared conventions of each oracle: what an implementation does differently *on purpose*.

A convention is never reported as a bug and a bug is never filed as a convention: every
entry cites the implementation's own documentation or tests, and names the register entry
(kind ``convention``) that recognises the difference at the gate (DESIGN.md, "Post-conditions
and declared conventions").  One table per oracle, below.
"""

from dataclasses import dataclass

__all__ = ["Convention", "CONVENTIONS", "conventions_for"]


@dataclass(frozen=True)
class Convention:
    id: str          # short stable name, e.g. "drops-untiled-modes"
    ops: tuple       # the operations it concerns
    what: str        # what the implementation does, in one sentence
    cite: str        # where the implementation documents it (file/doc and the words' gist)
    finding: str     # the register entry (kind "convention") that recognises it


CONVENTIONS = {}


def conventions_for(oracle):
    """The declared conventions of ``oracle`` (a name; a ``module:NAME@LINEAGE`` oracle has
    its lineage's)."""
    name = oracle.rsplit("@", 1)[-1] if "@" in oracle else oracle
    return list(CONVENTIONS.get(name, ()))


# --- what every CuTe implementation shares (CuTe's reading vs the paper's) ------------------
# Cited from CuTe's documentation (media/docs/cpp/cute/02_layout_algebra.md of CUTLASS, the
# same text on 4.2 and 4.7.0) and its headers (include/cute/layout.hpp, 4.2 headers of the
# nvidia-cutlass wheel).  pycute mirrors CuTe C++ (its layout.py transcribes the same
# algorithms) and ships no tests in the wheel, so its entries cite its source comments and the
# CuTe documentation it follows.

def _shared(finding_past_end="F-024"):
    return [
        Convention("composes-past-the-end", ("composition",),
                   "composition(A, B) with B reaching past size(A) evaluates A beyond its size "
                   "(the last mode extended), where the paper needs Image(B) inside [0, size A)",
                   "layout.hpp: coalesce_x 'preserves the Layout function inside its domain and "
                   "outside' and composition_impl walks B's stride into A's last mode; "
                   "02_layout_algebra.md, Computing Composition (the last mode takes the rest)",
                   finding_past_end),
        Convention("complement-in-cute-sense", ("complement",),
                   "complement(L, N) skips stride-0 modes and rounds N up (ceil_div), so it exists "
                   "where the paper's N-complement does not",
                   "layout.hpp complement: filter(layout) first, rest_shape = ceil_div(cotarget, "
                   "...); 02_layout_algebra.md, Complement (@post cosize(result) >= "
                   "round_up(size(cotarget), cosize(layout_a)))",
                   "F-035"),
        Convention("divide-in-cute-sense", ("logical_divide", "zipped_divide", "tiled_divide",
                                            "flat_divide"),
                   "divides where only CuTe's complement of the divisor in size(A) exists",
                   "layout.hpp logical_divide: composition(layout, make_layout(tiler, "
                   "complement(tiler, shape(coalesce(layout))))); 02_layout_algebra.md, Logical Divide",
                   "F-036"),
        Convention("product-in-cute-sense", ("logical_product", "zipped_product", "tiled_product",
                                             "blocked_product", "raked_product"),
                   "multiplies where only CuTe's complement of A in size(A) cosize(B) exists",
                   "layout.hpp logical_product: make_layout(block, composition(complement(block, "
                   "size(block)*cosize(tiler)), tiler)); 02_layout_algebra.md, Logical Product",
                   "F-037"),
    ]


CONVENTIONS["pycute"] = _shared() + [
    Convention("stride-divisibility-assert", ("composition",),
               "composition asserts the stride divisibility condition on every mode of "
               "coalesce(A) B's stride crosses, so it refuses pairs the paper composes",
               "pycute/layout.py composition: 'assert curr_shape % rest_stride == 0 or rest_stride % "
               "curr_shape == 0'; 02_layout_algebra.md: the stride divisibility condition 'is "
               "statically checked in CuTe when possible'",
               "F-070"),
    Convention("products-inherit-the-assert", ("logical_product", "zipped_product", "tiled_product"),
               "the products refuse where their inner composition comp(A, size(A) cosize(B)) o B "
               "fails that assertion",
               "pycute/layout.py logical_product (make_layout(A, composition(complement(A, "
               "size(A)*cosize(B)), B)))",
               "F-077"),
    Convention("divides-inherit-the-assert", ("logical_divide", "zipped_divide", "tiled_divide"),
               "the divides refuse where A o (B, complement(B, size A)) fails that assertion",
               "pycute/layout.py logical_divide (composition(A, make_layout(B, complement(B, size(A)))))",
               "F-038"),
    Convention("right-inverse-parity", ("right_inverse",),
               "right_inverse walks the flat modes and stops at the first stride that is not the "
               "running product: a right inverse, smaller than CuTe C++'s",
               "pycute/layout.py right_inverse ('if current_idx != stride: break'); layout.hpp "
               "documents right_inverse's result only as layout(result(i)) == i for i < size(result)",
               "F-073"),
    Convention("left-inverse-is-a-quasi-inverse", ("left_inverse",),
               "left_inverse of a non-injective layout returns a quasi-inverse "
               "(L(R(L(i))) == L(i)) instead of refusing",
               "layout.hpp: left_inverse builds 'the quasi-inverse of a layout (left-inverse when "
               "layout is injective)'; pycute/layout.py left_inverse = right_inverse(make_layout(L, "
               "complement(L)))",
               "F-123"),
    Convention("none-tile-entry-is-a-unit-tile", ("zipped_divide", "tiled_divide", "zipped_product",
                                                  "tiled_product"),
               "a None entry of a Tile tuple is read as the tile 1:0 with the whole mode as rest",
               "pycute/layout.py hier_unzip ('layoutB is None: make_layout(Layout(1,0), layoutA)') and "
               "its comment 'Use tuples-of-layouts to perform this operation by-mode and None as no-op'",
               "F-171"),
]

CONVENTIONS["cute-cpp"] = _shared() + [
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
]

CONVENTIONS["cute-dsl"] = _shared() + [
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
]


# --- nvlabs: NVIDIA's PyCuTe (github.com/NVlabs/CuTe) -------------------------------------------
# Cited from the snapshot's own docstrings (shared/vendor/nvlabs-pycute/pycute) and from the
# upstream repository's docs/04_layout_algebra.md and test/ (read through the search tools; the
# newest test/test_composition.py is commit f1c0199).  Each names the nvlabs finding that
# recognises it at the gate (layoutcheck/findings.toml, block "NVlabs PyCuTe (snapshot)").
CONVENTIONS["nvlabs"] = [
    Convention("tuple-tiler-drops-unnamed-modes", ("composition",),
               "composition(A, T) with a Tile tuple naming fewer modes than A keeps only the named "
               "modes (as CuTe C++); divides and products keep the others",
               "test/test_composition.py::test_a_tiler_and_its_layout_compose_alike (modes the tiler "
               "does not name are not in the result; composition(A, (2,)) == Layout((2,), (1,))); "
               "pycute/layout.py Layout._composition zips A's modes with the tiler's",
               "F-140"),
    Convention("blocked-raked-equal-rank", ("blocked_product", "raked_product"),
               "blocked_product / raked_product require rank(A) == rank(B) and raise ValueError "
               "('Rank mismatch') otherwise, where CuTe C++ pads the lower rank",
               "pycute/algebra.py docstrings (Pre-conditions: rank(A) == rank(B)); "
               "test/test_blocked_raked.py::test_blocked_rank_mismatch_raises, ::test_raked_rank_mismatch_raises",
               "F-141"),
    Convention("generalized-left-inverse", ("left_inverse",),
               "left_inverse of a non-injective layout with stride-0 modes returns R with "
               "L(R(L(i))) == L(i) (overlapping non-zero strides are refused)",
               "pycute/algebra.py left_inverse docstring (A(R(A(k))) == A(k); a true inverse when A "
               "is injective); test/test_inverse_left.py (the generalized post-condition, on "
               "Layout(4,0), Layout((3,7),(0,0)), Layout((2,4,8),(32,0,2)); test_left_inverse_raises)",
               "F-142"),
    Convention("weak-complement", ("complement",),
               "complement of a layout whose sorted stride chain is not divisible returns the "
               "largest ordered layout disjoint from it, which does not tile, instead of refusing",
               "pycute/algebra.py complement docstring (the divisible and the not-divisible regime); "
               "docs/04_layout_algebra.md, Complement (the weak and the strong post-condition)",
               "F-143"),
    Convention("size-one-coalesce-keeps-stride", ("coalesce",),
               "coalesce of a layout (or, by profile, a mode) of size 1 is 1:d with d the stride of "
               "its last flat mode, where CuTe C++ gives 1:0 (same function on the domain)",
               "test/test_coalesce.py postcondition_coalesce (coalesce(L) == composition(L, "
               "Layout(size(L), 1)), on Layout((1,1),(5,7)): 1:7); pycute/algebra.py coalesce "
               "docstring (R(i) == A(i) on [0, size(A)))",
               "F-144"),
    Convention("divisibility-preconditions", ("composition", "logical_divide", "zipped_divide",
                                              "logical_product", "blocked_product", "raked_product"),
               "composition refuses with ValueError ('Stride/Shape divisibility condition "
               "violated') wherever its walk of the Whitepaper's Eqs. (20)-(21) fails, also where a "
               "layout with A∘B's function exists and where A keeps a trailing size-1 mode; the "
               "divides and products inherit it",
               "pycute/algebra.py composition and logical_divide docstrings (Pre-conditions); "
               "docs/04_layout_algebra.md ('Examples that fail divisibility raise ValueError'); "
               "test/test_composition.py::test_composition_fails",
               "F-145"),
    Convention("past-the-end-own-last-mode", ("composition", "logical_divide", "zipped_divide"),
               "past size(A), composition evaluates A by its own last flat mode as written (its "
               "idx2crd gives the excess to the last leaf; coalesce_z keeps that leaf), as CuTe C++ "
               "does and unlike coalesce(A)'s extension",
               "pycute/shape.py idx2crd docstring (the last leaf absorbs the excess); "
               "test/test_composition.py 'Over the end' (composition(Layout((4,6,1),(2,3,0)), "
               "Layout(30,4)) with R(i) == A(B(i)))",
               "F-146"),
    Convention("slice-wraps-kept-modes", ("slice_", "slice_and_offset"),
               "a slice collects the modes its coordinate keeps into a tuple, so the coordinate _ "
               "itself gives the layout wrapped as its one mode, ((s)):((d))",
               "pycute/htuple.py slice_ docstring and examples (slice_((None, None), (2, 3)) == "
               "(2, 3)); pycute/tensor.py Tensor.__getitem__ (shape(T[None, 2]) == (4,))",
               "F-147"),
    Convention("zipped-divide-no-none-leaf", ("zipped_divide",),
               "zipped_divide promotes its tiler with tiler_to_layout, whose Tiler has no None "
               "leaf, so a Tile tuple holding _ is refused with TypeError",
               "pycute/layout.py Tiler alias (an HTuple of Integer | Layout) and tiler_to_layout "
               "(TypeError otherwise); docs/04_layout_algebra.md lists None-as-noop for coalesce, "
               "composition, complement, logical_divide and logical_product",
               "F-148"),
    Convention("size-one-composition-keeps-stride", ("composition",),
               "a size-1 leaf 1:M of B composes to 1:A(M), not 1:0 (same function)",
               "pycute/layout.py Layout._composition special cases ('A o 1:M => 1:A(M)'); "
               "test/test_coalesce.py relies on it (coalesce(L) == composition(L, Layout(size(L), 1)))",
               "F-149"),
]


# --- issue 16: swizzles, composed layouts, recast, tiling ------------------------------------
# CuTe C++ cited from the 4.2 headers of the nvidia-cutlass wheel (layout.hpp,
# swizzle_layout.hpp), the DSL from its own docstrings and error texts (nvidia-cutlass-dsl
# 4.8.1), NVlabs PyCuTe from the snapshot's docstrings (pycute/layout.py, htuple.py).
CONVENTIONS["cute-cpp"] += [
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
]

CONVENTIONS["cute-dsl"] += [
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
]

CONVENTIONS["nvlabs"] += [
    Convention("recast-has-no-adjacency-precondition", ("downcast", "recast_layout"),
               "recast(L, Fraction(1, N)) scales every stride without CuTe's 'Downcast requires "
               "adjacent elements' (a static stride-1 mode)",
               "pycute/layout.py recast docstring: the only pre-condition is that 'at each leaf the "
               "stride and scale divide cleanly'",
               "F-220"),
    Convention("product-each-takes-a-tuple", ("product_each",),
               "product_each takes a tuple: an integer raises TypeError",
               "pycute/htuple.py product_each: 'The product of each top-level mode of s, as a flat "
               "tuple' (examples on tuples only)",
               "F-221"),
    Convention("order-congruent-with-shape", ("make_ordered_layout",),
               "make_ordered_layout needs an order congruent with the shape (CuTe collapses the "
               "shape to a coarser order's profile)",
               "pycute/layout.py make_ordered_layout docstring: 'Pre-conditions: congruent(_shape, "
               "_order)' (ValueError otherwise)",
               "F-229"),
    Convention("tied-orders-left-to-right", ("make_ordered_layout", "make_layout_like"),
               "equal orders are laid out left to right (compact), where CuTe starts them at the "
               "same stride",
               "pycute/layout.py make_ordered_layout docstring: (2,3,4,2) by (0,2,3,0) is "
               "(2,3,4,2):(1,4,12,2)",
               "F-225"),
]
CONVENTIONS["cute-cpp"].append(
    Convention("composed-ops-on-the-inner-layout", ("composed_composition", "composed_logical_divide",
                                                     "composed_zipped_divide", "composed_tiled_divide",
                                                     "composed_right_inverse"),
               "composition and the divides of A o O o B are A o O o op(B, T): the inner op's own "
               "conventions and bugs show inside the composed answer",
               "layout_composed.hpp: 'Mostly, the similar functionality is accomplished by applying "
               "each operation to LayoutB only as LayoutB defines the domain'",
               "F-226"))
CONVENTIONS["cute-dsl"].append(
    Convention("composed-ops-on-the-inner-layout", ("composed_composition", "composed_logical_divide",
                                                     "composed_zipped_divide", "composed_tiled_divide"),
               "composition and the divides of a composed layout act on its inner layout, with the "
               "DSL's conventions of those ops",
               "as CuTe C++ (layout_composed.hpp); the DSL prints A o O o op(B, T)",
               "F-226"))
# Triaged from the 300 s cute-cpp gate (seed 7), 2026-12-01; the same in the 4.7 headers.
CONVENTIONS["cute-cpp"] += [
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
