"""The declared conventions of pycute (the ``nvidia-cutlass`` wheel's): what it does differently *on purpose*,
each citing its own documentation or tests and naming the register entry (kind ``convention``)
that recognises it at the gate (``oracles/conventions.py``).
"""

from layoutcheck.oracles.conventions import Convention, cute_conventions

__all__ = ["CONVENTIONS"]

CONVENTIONS = cute_conventions() + [
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
