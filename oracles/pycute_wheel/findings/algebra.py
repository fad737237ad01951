"""Regions and symptoms of the pycute and CuTe DSL findings (F-070..F-089, F-123 in findings.toml).

A region predicate takes a counterexample's inputs (``PREDICATES``, a table's ``when``); the
symptom ``pycute_answer`` (``SYMPTOMS``, a table's ``answer``) is True only when pycute's
answer is exactly what pycute 4.2 computes there (``oracles/pycute_wheel/model.py``, its model), so a
different wrong answer in a known region is new.  Regions decide with the spec (CuTe's
sense where the spec has it) and, where a finding is about what the implementation returns
(the quasi-inverse, the weak complement), with the implementation's model.
"""

import layoutcheck.oracles.pycute_wheel.model as models
import layoutcheck.spec as spec
from layoutcheck.oracles.postconditions import is_left_inverse, is_quasi_inverse
from layoutcheck.oracles.predicates import region, symptom
from layoutcheck.oracles.protocol import is_invalid_answer
from layoutcheck.oracles.regions import (
    cute_composition_check,
    divide_divisor_not_complementable,
    inner_composition,
    not_complementable_cute,
    not_injective,
    product_not_complementable,
    refusal_condition,
    stride_divisibility_fails,
)

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase, leaves

__all__ = []


def _raises(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except LayoutError:
        return True
    return False


@region
def composition_not_composable(A, B=None, *rest):
    """The spec (CuTe's sense) has no composition(A, B): no layout has i -> A(B(i))."""
    return B is not None and _raises(spec.composition, A, B, sense="cute")


@region
def product_not_composable(A, B=None, *rest):
    """The spec (CuTe's sense) rejects logical_product(A, B) because comp(A, size(A) cosize(B))
    and B are not composable (condition is_composable)."""
    return B is not None and refusal_condition(spec.logical_product, A, B, sense="cute") == "is_composable"


@region
def product_stride_divisibility_fails(A, B=None, *rest):
    """logical_product(A, B) composes comp(A, size(A) cosize(B)) with B: that inner
    composition fails pycute's stride-divisibility condition (F-070); a Tile tuple mode by
    mode."""
    return B is not None and inner_composition(A, B, stride_divisibility_fails)


# --- cute-dsl findings F-081..F-089 (CuTe DSL, nvidia-cutlass-dsl 4.8.x) -------------------


# --- pycute: the symptom and the regions that need pycute's own answer ----------------------

@symptom
def pycute_answer(inputs, answer, reference=None, op=None):
    """pycute's answer is exactly the one pycute 4.2 computes (oracles/pycute_wheel/model.py): the same
    layout, or an exception of the same type."""
    return models.matches(answer, models.answer(op, *inputs))


@symptom
def pycute_complement_zero_extent(inputs, answer, reference=None):
    """F-260: pycute's ``complement(L, 0)`` builds its trailing mode with extent ``ceil(0 / end)
    = 0`` and returns that layout (no valid layout: the oracle reports ``returned an invalid
    layout``), recomputed by pycute's algorithm (``models.complement``)."""
    try:
        r = models.complement(inputs[0], 0)
    except Exception:  # noqa: BLE001 - outside pycute's precondition: it raises, not this bug
        return False
    text = f"returned an invalid layout {_plain(r.shape)}:{_plain(r.stride)}: "  # pycute's own print
    return answer is not None and answer.kind == "raised" and answer.message.startswith(text)


def _plain(t):
    return tuple(_plain(x) for x in t) if isinstance(t, tuple) else int(t)


def _pycute_model(op, *args):
    out = models.answer(op, *args)
    return out.value if out is not None and out.kind == "ok" and isinstance(out.value, LayoutBase) else None


@region
def pycute_accepts_non_additive(A, B=None, *rest):
    """F-088 in pycute: no composition exists (CuTe's sense), pycute's strict stride walk and
    CuTe's shape check pass, and pycute returns a layout: it composes B leaf by leaf (each
    leaf alone composes), and the leaves do not add under A (a carry between modes)."""
    if B is None or isinstance(B, (int, tuple)) or not isinstance(B.shape, tuple):
        return False
    if not composition_not_composable(A, B) or stride_divisibility_fails(A, B):
        return False
    if cute_composition_check(A, B) is not None:
        return False
    return all(spec.is_composable(A, LayoutBase(s, d), sense="cute")
               for s, d in zip(leaves(B.shape), leaves(B.stride)))


@region
def pycute_composition_wrong_size(A, B=None, *rest):
    """F-071: no composition exists (CuTe's sense) and it is not the by-mode case of F-088:
    pycute skips CuTe's shape-divisibility check and returns a layout of the wrong size."""
    return composition_not_composable(A, B) and not pycute_accepts_non_additive(A, B)


@region
def pycute_left_inverse_quasi(L=None, *rest):
    """F-123: L is not injective and pycute's left_inverse is a quasi-inverse
    (L(R(L(i))) == L(i)), which is what CuTe documents for such input."""
    if not isinstance(L, LayoutBase) or not not_injective(L):
        return False
    R = _pycute_model("left_inverse", L)
    return R is not None and is_quasi_inverse(L, R)


@region
def pycute_left_inverse_wrong(L=None, *rest):
    """F-074: pycute's left_inverse breaks CuTe's documented contract: for injective L it is
    no left inverse (R(L(i)) != i, e.g. L not complementable), for non-injective L no
    quasi-inverse."""
    if not isinstance(L, LayoutBase):
        return False
    R = _pycute_model("left_inverse", L)
    if R is None:
        return False
    return not is_quasi_inverse(L, R) if not_injective(L) else not is_left_inverse(L, R)


@region
def pycute_product_non_additive(A, B=None, *rest):
    """F-088 inside pycute's logical_product: the inner composition
    comp(A, size(A) cosize(B)) ∘ B is the by-mode case of pycute_accepts_non_additive."""
    return B is not None and inner_composition(A, B, pycute_accepts_non_additive)


@region
def pycute_product_not_composable(A, B=None, *rest):
    """F-072: the spec (CuTe's sense) has no product (the inner composition does not exist)
    and it is not the by-mode case of F-088."""
    return product_not_composable(A, B) and not pycute_product_non_additive(A, B)


@region
def pycute_not_complementable(*inputs, op=None):
    """F-075 in pycute: the complement (or the divisor's complement in size(A)) does not exist
    in CuTe's sense, and pycute (its model) computes one anyway: a layout, or a shape with a
    0 entry that the adapter reports as an invalid answer (oracles.protocol.INVALID_ANSWER)."""
    inside = (not_complementable_cute(*inputs) if op == "complement"
              else product_not_complementable(*inputs) if op.endswith("_product")
              else _divisor_not_complementable(*inputs))
    if not inside:
        return False
    out = models.answer(op, *inputs)
    return _pycute_model(op, *inputs) is not None or (out is not None and is_invalid_answer(out))


def _divisor_not_complementable(*inputs):  # the predicate lives in layoutcheck.findings
    return divide_divisor_not_complementable(*inputs)


@region
def tiler_has_int(A, T=None, *rest):
    """F-076: the tiler is, or contains at any depth, an integer (pycute's logical_product
    sends an int ``n`` to logical_divide(A, n:1), also inside a Tile tuple)."""
    if isinstance(T, tuple):
        return any(tiler_has_int(A, t) for t in T)
    return isinstance(T, int)


@region
def has_empty_layout(*inputs):
    """F-034: one of the inputs is the empty layout ():()."""
    return any(isinstance(x, LayoutBase) and x.shape == () for x in inputs)


@region
def pycute_right_inverse_stops_early(L=None, *rest):
    """F-073: pycute's right_inverse walks L's flat modes (not coalesce(L)'s) by increasing
    (stride, shape), skips size-1 modes and stops at the first stride that is not the running
    product; that walk covers fewer indices than CuTe's right_inverse (the spec's)."""
    if not isinstance(L, LayoutBase):
        return False
    covered, current = 1, 1
    for d, s in sorted(zip(map(int, leaves(L.stride)), map(int, leaves(L.shape)))):
        if s == 1:
            continue
        if d != current:
            break
        covered, current = covered * s, s * d
    S = spec
    try:
        return covered < S.size(S.right_inverse(L))
    except LayoutError:
        return False
