"""The declared conventions of NVIDIA's new PyCuTe (NVlabs): what it does differently *on purpose*,
each citing its own documentation or tests and naming the register entry (kind ``convention``)
that recognises it at the gate (``oracles/conventions.py``).
"""

from layoutcheck.oracles.conventions import Convention

__all__ = ["CONVENTIONS"]

CONVENTIONS = [
# --- nvlabs: NVIDIA's PyCuTe (github.com/NVlabs/CuTe) -------------------------------------------
# Cited from the snapshot's own docstrings (shared/vendor/nvlabs-pycute/pycute) and from the
# upstream repository's docs/04_layout_algebra.md and test/ (read through the search tools; the
# newest test/test_composition.py is commit f1c0199).  Each names the nvlabs finding that
# recognises it at the gate (layoutcheck/findings.toml, block "NVlabs PyCuTe (snapshot)").
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
