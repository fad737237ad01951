"""Bounded evaluation: nothing a check enumerates may be larger than its inputs allow.

An oracle can answer ``coalesce(8:1)`` with ``(2^40):(1)``; enumerating that answer's layout
function takes gigabytes before anything fails.  So every layout the checks evaluate
(``targets.table``, the comparison of an answer with the reference) is first *measured from
its modes* (its size is the product of its shape, nothing enumerated) and compared with a
bound derived from the case's inputs:

    bound(inputs) = SLACK * prod(measure(x) for x in inputs),  at least MIN_BOUND,
    measure(layout) = max(size, cosize), measure(int n) = n, measure(tuple) = prod of measures,
    measure(outer o offset o inner) = measure(inner) * measure(outer) (a swizzle measures 1),
    measure(F2 layout) = its size

Every operation the checks call answers a layout no larger than that: coalesce / filter /
values keep size(L); composition(A, B) has size(B) (a tiler: at most size(A) size(T));
complement(L, N) at most max(N, cosize L) rounded up; divides size(A) rounded up to a
multiple of size(T); products size(A) size(B); the inverses at most cosize(L); laws combine
those answers with their own inputs (``(L, complement(L, N))``).  A larger answer is itself
the failure: ``CheckFailed`` naming the size and the bound.

Independent of the inputs, the harness never enumerates more than ``eval_limit()`` elements
(``LAYOUTCHECK_EVAL_LIMIT``, default 2^22): a layout within the inputs' bound but above that
limit (only with very large inputs, e.g. ``fuzz --case`` on a 2^30-element layout) raises
``EvaluationLimit``, which the campaign reports as an error on that case, never as a pass.
The campaign sets the bound for each case with ``with bounded(args): ...``.
"""

import os

from layoutcheck.fuzz.checks.base import CheckFailed

from layoutcheck.composed import ComposedLayoutBase, F2Layout
from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase, leaves

__all__ = ["EvaluationLimit", "bounded", "current_bound", "check_size", "input_bound",
           "layout_size", "layout_cosize", "eval_limit", "EVAL_LIMIT_ENV", "SLACK", "MIN_BOUND"]

EVAL_LIMIT_ENV = "LAYOUTCHECK_EVAL_LIMIT"
DEFAULT_EVAL_LIMIT = 1 << 22
SLACK = 4
MIN_BOUND = 1 << 10

_stack = []  # bounds of the cases being judged (innermost last); one thread per campaign


class EvaluationLimit(LayoutError):
    """A layout within what the inputs allow is still too large for the harness to enumerate."""


def eval_limit():
    text = os.environ.get(EVAL_LIMIT_ENV, "").strip()
    if not text:
        return DEFAULT_EVAL_LIMIT
    try:
        value = int(text)
    except ValueError:
        raise LayoutError(f"{EVAL_LIMIT_ENV} must be a positive integer, got {text!r}") from None
    if value < 1:
        raise LayoutError(f"{EVAL_LIMIT_ENV} must be a positive integer, got {text!r}")
    return value


def layout_size(L):
    """size(L) from its shape (nothing enumerated)."""
    n = 1
    for s in leaves(L.shape):
        n *= int(s)
    return n


def layout_cosize(L):
    """cosize(L) = 1 + sum (s_i - 1) d_i from the modes (shapes >= 1, strides >= 0)."""
    return 1 + sum((int(s) - 1) * int(d) for s, d in zip(leaves(L.shape), leaves(L.stride)))


def _measure(x):
    if isinstance(x, LayoutBase):
        return max(layout_size(x), layout_cosize(x), 1)
    if isinstance(x, ComposedLayoutBase):  # its domain is the inner layout's; a layout outer
        return _measure(x.inner) * _measure(x.outer)  # function maps into its own codomain
    if isinstance(x, F2Layout):
        return max(1, layout_size(x))
    if isinstance(x, tuple):
        m = 1
        for e in x:
            m *= _measure(e)
        return m
    if isinstance(x, int):  # bool, C and int; a negative int measures 1
        return max(1, int(x))
    return 1                # `_` and anything else without a size


def input_bound(inputs):
    """The largest layout size an answer (or a law's combination of answers) may have."""
    m = 1
    for x in inputs:
        m *= _measure(x)
    return max(MIN_BOUND, SLACK * m)


class bounded:
    """``with bounded(args):`` judge one case with the evaluation bound of its inputs."""

    def __init__(self, inputs):
        self.bound = input_bound(inputs)

    def __enter__(self):
        _stack.append(self.bound)
        return self

    def __exit__(self, *exc):
        _stack.pop()
        return False


def current_bound():
    return _stack[-1] if _stack else None


def _short(L):
    text = str(L)
    return text if len(text) <= 120 else text[:117] + "..."


def check_size(L, what="a layout"):
    """size(L), after checking it against the case's bound (``CheckFailed``) and the
    harness' evaluation limit (``EvaluationLimit``)."""
    n = layout_size(L)
    bound = current_bound()
    if bound is not None and n > bound:
        raise CheckFailed(f"{what} has size {n}, more than the inputs allow (bound {bound}: "
                          f"{SLACK} x the product of the inputs' sizes/cosizes); not evaluated",
                          {"answer": _short(L)})
    limit = eval_limit()
    if n > limit:
        raise EvaluationLimit(f"{what} {_short(L)} has size {n}, more than the harness "
                              f"enumerates ({EVAL_LIMIT_ENV}={limit})")
    return n
