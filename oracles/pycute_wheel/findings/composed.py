"""Regions and symptoms of pycute's findings on swizzles and composed layouts (its
``Swizzle`` with a zero shift, ``ComposedLayout.cosize``)."""

import layoutcheck.spec as spec
from layoutcheck.oracles.predicates import answered, raised_with_any, region, symptom

from layoutcheck.composed import ComposedLayoutBase, Swizzle


def _swizzles_in(x):
    if isinstance(x, Swizzle):
        yield x
    elif isinstance(x, ComposedLayoutBase):
        yield from _swizzles_in(x.outer)
    elif isinstance(x, tuple):
        for e in x:
            yield from _swizzles_in(e)


@region
def swizzle_shift_zero(*inputs):
    """F-200: a swizzle with SShift = 0 (only B = 0 allows it: the identity)."""
    return any(sw.shift == 0 for sw in _swizzles_in(inputs))


@symptom
def python_recursion_error(inputs, answer, reference):
    """pycute's shiftr/shiftl call each other for a shift of 0 until the stack overflows."""
    return raised_with_any(answer, "RecursionError")


@symptom
def cosize_of_outer(inputs, answer, reference):
    """pycute's ComposedLayout.cosize() is cosize(layoutB), its outer function: a Swizzle's
    2^(B+M+|S|), or the outer layout's cosize."""
    Cl = inputs[0]
    if not answered(answer) or not isinstance(Cl, ComposedLayoutBase):
        return False
    want = 1 << Cl.outer.span if isinstance(Cl.outer, Swizzle) else int(spec.cosize(Cl.outer))
    return int(answer.value) == want
