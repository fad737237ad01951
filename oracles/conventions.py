"""Declared conventions of each oracle: what an implementation does differently *on purpose*.

A convention is never reported as a bug and a bug is never filed as a convention: every
entry cites the implementation's own documentation or tests, and names the register entry
(kind ``convention``) that recognises the difference at the gate (DESIGN.md, "Post-conditions
and declared conventions").  Each implementation's table is its package's ``conventions.py``;
``layoutcheck.oracles.implementations.conventions_for`` finds an oracle's.
"""

from dataclasses import dataclass

__all__ = ["Convention", "cute_conventions"]


@dataclass(frozen=True)
class Convention:
    id: str          # short stable name, e.g. "drops-untiled-modes"
    ops: tuple       # the operations it concerns
    what: str        # what the implementation does, in one sentence
    cite: str        # where the implementation documents it (file/doc and the words' gist)
    finding: str     # the register entry (kind "convention") that recognises it




# --- what every CuTe implementation shares (CuTe's reading vs the paper's) ------------------
# Cited from CuTe's documentation (media/docs/cpp/cute/02_layout_algebra.md of CUTLASS, the
# same text on 4.2 and 4.7.0) and its headers (include/cute/layout.hpp, 4.2 headers of the
# nvidia-cutlass wheel).  pycute mirrors CuTe C++ (its layout.py transcribes the same
# algorithms) and ships no tests in the wheel, so its entries cite its source comments and the
# CuTe documentation it follows.

def cute_conventions(finding_past_end: str = "F-024") -> list[Convention]:
    """What every CuTe implementation shares: CuTe's reading where it differs from the paper's."""
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
