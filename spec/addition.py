"""Layout addition: ``layout_add(A, B)``, the executable specification.

Source: NVlabs PyCuTe (github.com/NVlabs/CuTe), ``pycute/algebra.py``, the docstring of
``layout_add`` (no other CuTe has this operation): "Given Layouts A and B with size(A) ==
size(B), return Layout R with size(R) == size(A) == size(B), R(i) == A(i) + B(i) for i in
range(size(R)). A and B need not be compatible. [...] When no such Layout R exists, a
ValueError is raised."  Its examples give R coalesced: ``layout_add(12:1, 12:1) == 12:2``,
``layout_add((4,3):(1,4), (4,3):(3,1)) == (4,3):(4,5)``,
``layout_add((5,3,4):(1,5,15), (10,6):(1,10)) == 60:2``.

The spec decides by enumeration.  Let n = size(A) and f(i) = A(i) + B(i).  A layout has the
function of its flattening, and a flat layout keeps its function without its size-1 modes,
so a layout R of size n with the function f exists iff a flat layout ``(s_1..s_m):(d_1..d_m)``
with every s_k > 1 and s_1 ... s_m = n has it.  Its strides are then forced:
d_k = f(s_1 ... s_(k-1)) (the index of the coordinate with a 1 in mode k only).  So the spec
lists every ordered factorisation of n into factors > 1, builds the one candidate each allows,
and checks it at every point of [0, n).  The answer is the coalesced form of the first
candidate that matches (2.1.4: layouts with one function have one coalesced form, so which
candidate is found first does not matter).  None matches: ``LayoutError(condition=
"layout_sum")``.  Unequal sizes: ``LayoutError(condition="equal_size")``.

Cost: at most H(n) * n points, H(n) the number of ordered factorisations of n (H(64) = 32,
H(360) = 604, H(4096) = 2,048).  Past the enumeration limit (``spec/limits.py``) the spec refuses with
``condition="enumeration_limit"``, as it does elsewhere.
"""

from functools import lru_cache

from layoutcheck.spec import tuples as T
from layoutcheck.spec.algebra import coalesce
from layoutcheck.spec.flat import from_sources
from layoutcheck.spec.layout import Layout, as_layout, values
from layoutcheck.spec.limits import check_enumeration

from layoutcheck.errors import LayoutError

__all__ = ["layout_add", "ordered_factorisations", "count_ordered_factorisations"]


def _divisors_above_one(n):
    small = [d for d in range(2, int(n ** 0.5) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small] + ([n] if n > 1 else [])))


@lru_cache(maxsize=4096)
def count_ordered_factorisations(n: int) -> int:
    """H(n): the number of tuples of integers > 1 whose product is n (H(1) = 1, the empty one)."""
    if n == 1:
        return 1
    return sum(count_ordered_factorisations(n // d) for d in _divisors_above_one(n))


def ordered_factorisations(n: int):
    """Every tuple of integers > 1 whose product is n, the first factor smallest first."""
    if n == 1:
        yield ()
        return
    for d in _divisors_above_one(n):
        for rest in ordered_factorisations(n // d):
            yield (d,) + rest


def _matches(shape, strides, f):
    """Whether the flat layout shape:strides takes the value f[i] at every i < len(f)."""
    for i, want in enumerate(f):
        x, got = i, 0
        for s, d in zip(shape, strides):
            got += (x % s) * d
            x //= s
        if got != want:
            return False
    return True


def layout_add(A, B):
    """The layout R with size(R) == size(A) == size(B) and R(i) == A(i) + B(i), coalesced
    (NVlabs PyCuTe's ``layout_add``; see the module docstring)."""
    A, B = as_layout(A), as_layout(B)
    n = T.size(A.shape)
    if n != T.size(B.shape):
        raise LayoutError(f"layout_add needs size(A) == size(B), got {n} and {T.size(B.shape)}",
                          condition="equal_size")
    n = int(n)
    check_enumeration(n, lambda: f"the domain of {A}")
    check_enumeration(count_ordered_factorisations(n) * n,
                      lambda: f"the ordered factorisations of {n} (layout_add of {A} and {B})")
    f = [int(a) + int(b) for a, b in zip(values(A), values(B))]
    for shape in ordered_factorisations(n):
        prefix, strides = 1, []
        for s in shape:
            strides.append(f[prefix])
            prefix *= s
        if _matches(shape, strides, f):
            typed = lambda v: from_sources(v, A, B)  # noqa: E731  static iff A and B are
            if not shape:  # n == 1: the only value is A(0) + B(0) = 0
                return Layout(typed(1), typed(0))
            return coalesce(Layout(tuple(typed(s) for s in shape), tuple(typed(d) for d in strides)))
    raise LayoutError(f"no layout of size {n} has the function A(i) + B(i) of {A} and {B}",
                      condition="layout_sum")
