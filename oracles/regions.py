"""Regions and symptoms of the register's findings that rest on the spec's own notions and
that several implementations share (composing past the end of A, CuTe's sense of
complement, divide and product, the empty layout, ...): each implementation's own
predicates live in its package (``oracles/<implementation>/findings``).
"""


from __future__ import annotations

import sys
from math import gcd

import layoutcheck.spec as spec
from layoutcheck.oracles.compare import answer_values, compare
from layoutcheck.oracles.predicates import answered, collect, region, symptom
from layoutcheck.oracles.reference import cute_reference
from layoutcheck.spec import flat as F
from layoutcheck.spec import tuples as T
from layoutcheck.spec.algebra import as_tiler
from layoutcheck.spec.layout import as_layout

from layoutcheck.composed import ComposedLayoutBase, Swizzle
from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore, leaves


def cute_composition_check(A, B):
    """A model of the compile-time checks of CuTe C++'s ``composition_impl`` (all-static
    integers): None when CuTe accepts ``composition(A, B)``, else the name of the failing
    ``static_assert`` ("Stride Divisibility Condition" or "Shape Divisibility Condition").

    Per leaf s:d of B (d != 0), walking the modes of coalesce(A) but the last: the stride
    check ``d' % c == 0 or d' < c``, then, unless ceil(c / d') == 1 or the remaining shape
    is 1, the shape check ``rest % min(ceil(c / d'), rest) == 0``.  Passing these checks
    does not make CuTe's result right (finding F-030); failing them rejects compositions
    the paper defines (finding F-025).
    """
    A = as_layout(A)
    B = as_tiler(B)
    if B is None or isinstance(B, Underscore):
        return None
    if isinstance(B, tuple):
        for m, t in zip(top_modes(A), B):
            r = cute_composition_check(m, t)
            if r:
                return r
        return None
    lhs = F.flat_modes(F.flat_coalesce(A)) or [(1, 0)]
    for rest_shape, rest_stride in zip(T.flatten(B.shape), T.flatten(B.stride)):
        if rest_stride == 0 or len(lhs) == 1:
            continue
        for curr_shape, _d in lhs[:-1]:
            if not (rest_stride % curr_shape == 0 or rest_stride < curr_shape):
                return "Stride Divisibility Condition"
            next_shape = -(-curr_shape // rest_stride)
            next_stride = -(-rest_stride // curr_shape)
            if next_shape != 1 and rest_shape != 1:
                new_shape = min(next_shape, rest_shape)
                if rest_shape % new_shape:
                    return "Shape Divisibility Condition"
                rest_shape //= new_shape
            rest_stride = next_stride
    return None


# Predicates about the spec's own notions, named by findings' match.when: the algebra findings
# (F-024..F-038), the pycute findings the de-duplication merged (F-073, F-076, F-075), and
# the impl findings (F-120, F-121).  Oracle and fuzz predicates live in oracles/cpp/findings/algebra.py and
# oracles/pycute_wheel/findings/algebra.py.

@region
def image_beyond_size(A, B=None, *rest):
    """F-024: Image(Phi_B) reaches past size(A)."""
    if not isinstance(B, LayoutBase):
        return False
    S = spec
    return max(S.values(B)) >= S.size(A)


def _only_cute_sense(fn, *args):
    """``fn(*args)`` raises in the paper's sense and returns in CuTe's."""
    try:
        fn(*args)
        return False
    except LayoutError:
        pass
    try:
        fn(*args, sense="cute")
        return True
    except LayoutError:
        return False


@region
def complement_target_zero(L=None, N=None, *rest):
    """F-260, F-261: complement(L, N) with the cotarget N = 0: no complement exists (Def 2.1.6.11 asks
    for a positive N), the input is invalid."""
    return isinstance(L, LayoutBase) and isinstance(N, int) and not isinstance(N, bool) and int(N) == 0


@region
def complement_only_in_cute_sense(L=None, N=None, *rest):
    """F-035: complement(L, N) exists in CuTe's sense (stride-0 modes skipped, N rounded up
    to a multiple of s_m d_m), not in the paper's (Def 2.1.6.11 / 2.1.6.25)."""
    return L is not None and _only_cute_sense(spec.complement, L, *(() if N is None else (N,)))


@region
def divide_only_in_cute_sense(A=None, T=None, *rest):
    """F-036: logical_divide(A, T) exists in CuTe's sense only (its complement, F-035)."""
    return T is not None and _only_cute_sense(spec.logical_divide, A, T)


@region
def product_only_in_cute_sense(A=None, T=None, *rest):
    """F-037: logical_product(A, T) exists in CuTe's sense only (its complement, F-035)."""
    return T is not None and _only_cute_sense(spec.logical_product, A, T)


@region
def divide_fails_cute_stride_divisibility(A=None, T=None, *rest):
    """F-038: the spec divides (CuTe's sense), but the composition inside CuTe's divide,
    A ∘ (B, comp(B, size A)), fails CuTe C++'s stride-divisibility check (the spec's model)
    or pycute's walk of it (F-025, F-070); a Tile tuple is checked mode by mode."""
    S = spec
    if T is None or not isinstance(A, LayoutBase):
        return False
    try:
        S.logical_divide(A, T, sense="cute")
    except LayoutError:
        return False
    if isinstance(T, tuple):
        modes = S.modes(A) if isinstance(A.shape, tuple) else [A]
        return any(divide_fails_cute_stride_divisibility(m, t) for m, t in zip(modes, T))
    B = LayoutBase(T, 1) if not isinstance(T, LayoutBase) else T
    inner = S.make_layout(B, S.complement(B, S.size(A), sense="cute"))
    pycute_walk = stride_divisibility_fails  # layoutcheck.oracles.pycute_wheel.findings.algebra
    return (cute_composition_check(A, inner) == "Stride Divisibility Condition"
            or bool(pycute_walk and pycute_walk(A, inner)))


@region
def divide_divisor_not_complementable(A=None, T=None, *rest):
    """F-075 in the divides: CuTe's sense of logical_divide(A, T) fails because the divisor
    has no complement in size(A) (condition is_complementable); CuTe computes one anyway."""
    if T is None:
        return False
    try:
        spec.logical_divide(A, T, sense="cute")
    except LayoutError as e:
        return e.condition == "is_complementable"
    return False


# --- helpers the oracle families' predicates share -----------------------------------------


@symptom
def agrees_with_cute_sense(inputs, answer, reference=None, op=None):
    """The answer is CuTe's reading of the op, which the spec models with ``sense="cute"``:
    it agrees with ``spec.<op>(..., sense="cute")`` at the level the op requires (the
    conventions where CuTe and the paper differ: composing past the end of A, complements
    and the divides / products built on them that exist only in CuTe's sense)."""
    if answer.kind != "ok":
        return False
    want = cute_reference(op, *inputs)
    return want.kind == "ok" and compare(op, inputs, want, answer).ok is True


def function_values(x):
    return [int(v) for v in answer_values(x)]


def swizzle_value(sw, x):
    B, M, S = sw.params
    y = ((1 << B) - 1) << (M + max(0, S))
    t = x & y
    return x ^ (t >> S if S >= 0 else t << -S)


@region
def composed_argument(Cl=None, *rest):
    return isinstance(Cl, ComposedLayoutBase)


def _leafwise(L, fn):
    def go(s, d):
        if isinstance(s, tuple):
            parts = [go(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
        return fn(int(s), int(d), isinstance(d, C))
    return LayoutBase(*go(L.shape, L.stride))


def unchecked_upcast(L, N, dynamic_floor=False):
    """upcast<N> by layout.hpp's arithmetic with no divisibility check; ``dynamic_floor``:
    CuTe C++'s dynamic rule (shape kept, stride / N truncated) for dynamic strides."""
    def leaf(s, d, static):
        if static and d == 0:
            return s, 0
        if static or not dynamic_floor:
            k = -(-N // d) if d else 1
            return -(-s // k), -(-d // N)
        return s, d // N
    return _leafwise(L, leaf)


def unchecked_downcast(L, N):
    return _leafwise(L, lambda s, d, static: (s * N, d) if d == 1 else (s, d * N))


def _recast(L, old, new, up, down):
    g = gcd(new, old)
    num, den = new // g, old // g
    if num == den == 1:
        return L
    if num == 1:
        return down(L, den)
    if den == 1:
        return up(L, num)
    return down(up(L, num), den)


def same_layout(answer, want):
    return answered(answer) and isinstance(answer.value, LayoutBase) and \
        answer.value.shape == want.shape and answer.value.stride == want.stride


def recast_model(op, inputs, up, down):
    if op == "upcast":
        return up(inputs[0], int(inputs[1]))
    if op == "downcast":
        return down(inputs[0], int(inputs[1]))
    if op == "recast_layout":
        return _recast(inputs[0], int(inputs[1]), int(inputs[2]), up, down)
    return None


@symptom
def unchecked_recast(inputs, answer, reference, op=None):
    """F-210 / F-220: the layout of CuTe's upcast / downcast arithmetic with its checks
    (divisibility, a static stride-1 mode) skipped; composed layouts part by part."""
    if op in ("composed_upcast", "composed_downcast"):
        Cl, N = inputs[0], int(inputs[1])
        if not (answered(answer) and isinstance(answer.value, ComposedLayoutBase)):
            return False
        S = spec
        f = unchecked_upcast if op == "composed_upcast" else unchecked_downcast
        inner = f(Cl.inner, N)
        got = answer.value
        return got.inner.shape == inner.shape and got.inner.stride == inner.stride and \
            function_values(got) == [swizzle_value(S.swizzle_upcast(Cl.outer, N) if op == "composed_upcast"
                             else S.swizzle_downcast(Cl.outer, N), v + int(got.offset))
                         for v in function_values(inner)] if isinstance(Cl.outer, Swizzle) else False
    want = recast_model(op, inputs, unchecked_upcast, unchecked_downcast)
    return want is not None and same_layout(answer, want)


@region
def recast_args(*inputs):
    return bool(inputs) and isinstance(inputs[0], (LayoutBase, ComposedLayoutBase))


@region
def integer_inttuple(t=None, *rest):
    return isinstance(t, int) and not isinstance(t, bool)


@region
def stride_divisibility_fails(A, B=None, *rest):
    """pycute's admissibility for composition(A, B): every non-zero stride d of a mode of B
    (even of size 1) must, walking coalesce(A)'s modes except the last, divide or be divided by
    each mode size it crosses (CuTe's 'stride divisibility condition')."""
    if B is None or not isinstance(A, LayoutBase):
        return False
    if isinstance(B, int):
        return False
    if isinstance(B, tuple):
        return any(stride_divisibility_fails(LayoutBase(a.shape, a.stride), b)
                   for a, b in zip(top_modes(A), B) if b is not None)
    cA = spec.coalesce(A)
    shapes = [int(s) for s in leaves(cA.shape)][:-1]
    for s, d in zip(leaves(B.shape), leaves(B.stride)):
        s, d = int(s), int(d)
        if d == 0:  # pycute special-cases stride 0 only; a size-1 mode is walked too
            continue
        rest_shape, rest_stride = s, d
        for cs in shapes:
            if not (cs % rest_stride == 0 or rest_stride % cs == 0):
                return True
            new = min(max(1, cs // rest_stride), rest_shape)
            rest_shape //= new
            rest_stride = -(-rest_stride // cs)
    return False


def top_modes(L):
    if not isinstance(L.shape, tuple):
        return [L]
    return [LayoutBase(s, d) for s, d in zip(L.shape, L.stride)]


def refusal_condition(fn, *args, **kw):
    try:
        fn(*args, **kw)
    except LayoutError as e:
        return e.condition or "raised"
    return None


@region
def product_not_complementable(A, B=None, *rest):
    """F-075 in the products: the spec (CuTe's sense) rejects logical_product(A, B) because A
    has no complement in size(A) cosize(B) (condition is_complementable)."""
    return B is not None and refusal_condition(spec.logical_product, A, B, sense="cute") == "is_complementable"


@region
def not_complementable_cute(L, N=None, *rest):
    """complement(L, N) is undefined in CuTe's sense (the spec's is_complementable)."""
    return not spec.is_complementable(L, N, sense="cute")


@region
def not_injective(L=None, *rest):
    """F-083: L is not injective (Def 2.1.5), so no left inverse exists."""
    return isinstance(L, LayoutBase) and not spec.is_injective(L)


def inner_composition(A, B, test):
    """``test(comp, B)`` on the composition inside logical_product(A, B) (Def 2.3.9):
    comp = comp(A, size(A) cosize(B)) in CuTe's sense; a Tile tuple mode by mode."""
    if isinstance(B, tuple):
        return any(inner_composition(a, b, test) for a, b in zip(top_modes(A), B) if b is not None)
    B = LayoutBase(B) if isinstance(B, int) else B
    if not isinstance(A, LayoutBase) or not isinstance(B, LayoutBase):
        return False
    try:
        comp = spec.complement(A, spec.size(A) * spec.cosize(B), sense="cute")
    except LayoutError:
        return False
    return bool(test(comp, B))

# --- planted cases (tests/test_planted.py): each finding's answer as the oracle prints it --------
# (finding, oracle, op, argument texts, answer[, static]); recorded from the real oracle; another
# wrong answer in the region (tests/planted_support.py planted) must be new.

PLANTED = [
    ("F-210", "cute-dsl", "downcast", ["_16:_3", "4"], "_16:_12", True),
]


REGIONS, SYMPTOMS = collect(sys.modules[__name__])
