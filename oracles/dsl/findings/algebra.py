"""Regions and symptoms of the CuTe DSL's algebra findings, recomputed by its model
(``oracles/dsl/model.py``): a symptom is True only for exactly the DSL's answer."""

import layoutcheck.oracles.cpp.model as M
import layoutcheck.spec as spec
from layoutcheck.oracles.compare import compare
from layoutcheck.oracles.cpp.findings.algebra import (
    cute_accepts_non_additive,
    cute_sense_rejected,
    cute_weak_stride_branch,
    inner_pair_in,
    past_end_as_written,
    rejected_as_written,
)
from layoutcheck.oracles.dsl.model import DSL_ERRORS, all_static, answer, matches, zero_size_complement
from layoutcheck.oracles.postconditions import is_quasi_inverse
from layoutcheck.oracles.predicates import partly_unchecked, region
from layoutcheck.oracles.regions import (
    cute_composition_check,
    divide_divisor_not_complementable,
    inner_composition,
    not_complementable_cute,
    not_injective,
    product_not_complementable,
    top_modes,
)

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase

__all__ = ["answer", "matches", "DSL_ERRORS"]


@partly_unchecked("F-125: the DSL's refusal in a zero-size complement's region (the model does not say "
                  "whether the DSL refuses or dies with SIGFPE, and the refusal names only the op's family)")
def dsl_answer(inputs, answer_, reference, op=None):
    """The CuTe DSL's answer is exactly the model's (C++ algorithm on static integers plus the
    DSL's own wrappers, this module): its layout, or its rejection message."""
    return matches(answer_, answer(op, *inputs), op)


def _dsl_model(op, *args):
    out = answer(op, *args)
    return out.value if out is not None and out.kind == "ok" else None


@region
def dsl_left_inverse_quasi(L=None, *rest):
    """F-083: L is not injective and the DSL's left_inverse is the quasi-inverse CuTe
    documents (L(R(L(i))) == L(i); findings.is_quasi_inverse)."""
    if not isinstance(L, LayoutBase) or not not_injective(L):
        return False
    R = _dsl_model("left_inverse", L)
    return R is not None and is_quasi_inverse(L, R)


@region
def dsl_not_complementable(*inputs, op=None):
    """F-075 in the DSL: the complement (or the divisor's complement in size(A)) does not exist
    in CuTe's sense, and the DSL (its model) computes one anyway."""
    if op == "complement":
        inside = not_complementable_cute(*inputs)
    elif op.endswith("_product"):
        inside = product_not_complementable(*inputs)
    else:
        inside = divide_divisor_not_complementable(*inputs)
    return bool(inside) and _dsl_model(op, *inputs) is not None


@region
def dsl_left_inverse_not_quasi(L=None, *rest):
    """F-124 in the DSL: L is not injective and the DSL's left_inverse is no quasi-inverse."""
    if not isinstance(L, LayoutBase) or not not_injective(L):
        return False
    R = _dsl_model("left_inverse", L)
    return R is not None and not is_quasi_inverse(L, R)


@region
def dsl_zero_size_complement(A=None, T=None, *rest, op=None):
    """F-125: the complement inside the DSL's divide or product has a zero-size mode (see
    zero_size_complement), which the DSL computes on instead of refusing."""
    try:
        return zero_size_complement(op or "", all_static(A), all_static(T))
    except (M.Reject, M.Abort, TypeError, ValueError):
        return False


@region
def dsl_rejects_composable(A=None, B=None, *rest):
    """F-025 in the DSL: A∘B exists (CuTe's sense), the spec's model of CuTe's checks fails,
    and the DSL (its model) refuses."""

    def rejects():
        out = answer("composition", A, B)
        return out is not None and out.kind == "raised"
    return cute_sense_rejected(A, B, rejects)


@region
def dsl_rejects_as_written(*inputs, op=None):
    """F-058 in the DSL (oracles/cpp/findings/algebra.py: rejected_as_written with the DSL's model)."""
    return rejected_as_written(answer, op, inputs)


@region
def dsl_past_end_as_written(*inputs, op=None):
    """F-048 in the DSL (oracles/cpp/findings/algebra.py: past_end_as_written with the DSL's model)."""
    return past_end_as_written(answer, op, inputs)


@region
def dsl_inner_weak_stride_branch(*inputs, op=None):
    """F-082 inside the DSL's divides and products: the inner composition passes CuTe's checks
    only through the weak stride branch."""
    st = tuple(all_static(x) for x in inputs)
    return inner_pair_in(cute_weak_stride_branch, op, st) and _dsl_model(op, *inputs) is not None


@region
def dsl_inner_non_additive(*inputs, op=None):
    """F-088 inside the DSL's divides and products."""
    st = tuple(all_static(x) for x in inputs)
    return inner_pair_in(cute_accepts_non_additive, op, st) and _dsl_model(op, *inputs) is not None


@region
def empty_layout(L=None, *rest):
    """L is ``():()``."""
    return isinstance(L, LayoutBase) and L.shape == ()


@region
def tiler_is_plain_int(A=None, T=None, *rest):
    """F-081: the tiler is a bare integer ``n`` (meaning ``n:1``), not a layout or Tile tuple.
    The DSL's zipped/tiled/flat_divide wrap only tuple tilers (``_pack_tile``) and its
    zipped/tiled_product take only a Layout, so a bare int reaches the MLIR op unconverted."""
    return isinstance(T, int)


@region
def product_cute_rejects_composable(A, B=None, *rest):
    """F-085: the composition inside logical_product(A, B) exists (CuTe's sense) but fails
    CuTe's stride-divisibility check (F-025 inside the product), so CuTe refuses the product."""

    def rejected(comp, b):
        return spec.is_composable(comp, b, sense="cute") and cute_composition_check(comp, b) is not None
    return B is not None and inner_composition(A, B, rejected)


def _rank(L):
    return len(L.shape) if isinstance(L.shape, tuple) else 1


def _zip_leaf_after_tuple(A, B, raked):
    """CuTe's blocked/raked_product zip the two modes of logical_product(append<R>(A),
    append<R>(B)), R = max(rank A, rank B): blocked zips (mode 0, mode 1), raked (mode 1,
    mode 0).  With R == 1 nothing is appended, and the zip fails when its first operand is a
    tuple and its second a leaf."""
    B = LayoutBase(B) if isinstance(B, int) else B
    if not isinstance(A, LayoutBase) or not isinstance(B, LayoutBase):
        return False
    if _rank(A) != 1 or _rank(B) != 1:
        return False
    try:
        P = spec.logical_product(A, B, sense="cute")
    except LayoutError:
        return False
    m0, m1 = top_modes(P)
    first, second = (m1, m0) if raked else (m0, m1)
    if not isinstance(first.shape, tuple):
        return False  # zip(leaf, y) gives ((leaf, y)) in the DSL
    return not isinstance(second.shape, tuple) or len(second.shape) != len(first.shape)


@region
def blocked_zip_leaf_after_tuple(A, B=None, *rest):
    """F-084: the DSL's blocked_product zips a rank-1 tuple with a leaf (see _zip_leaf_after_tuple)."""
    return B is not None and _zip_leaf_after_tuple(A, B, raked=False)


@region
def raked_zip_leaf_after_tuple(A, B=None, *rest):
    """F-084: the DSL's raked_product zips a tuple with a leaf (see _zip_leaf_after_tuple)."""
    return B is not None and _zip_leaf_after_tuple(A, B, raked=True)


@region
def raked_coalesces_modes(A, B=None, *rest):
    """F-086: the DSL's raked_product returns each top mode of CuTe C++'s zip result
    coalesced (CuTe's ``coalesce(R, (_1,...,_1))``): true when that per-mode coalesce of the
    spec's raked_product changes it beyond the function level (a nested mode flattened,
    ((s,t),a) -> (s,t,a)), which is then exactly the DSL's difference."""
    if B is None:
        return False
    try:
        R = spec.raked_product(A, B, sense="cute")
    except LayoutError:
        return False
    if not isinstance(R.shape, tuple):
        return False
    Rc = spec.coalesce(R, tuple(1 for _ in R.shape), sense="cute")
    return compare("raked_product", (A, B), R, Rc).ok is False


@region
def tiler_is_not_layout(A=None, T=None, *rest):
    """F-051: the tiler is a bare int or a Tile tuple, not one layout (the DSL's
    zipped_product / tiled_product are typed ``tiler: Layout``)."""
    return isinstance(T, (int, tuple))
