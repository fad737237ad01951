"""Coordinates, slicing and IntTuple helpers: the spec's ``coords`` API, by direct arithmetic.

Same names, arguments, answers, staticness and ``LayoutError(condition=...)`` as
``layoutcheck.spec`` (see ``spec/coords.py`` for the definitions and their sources: seed 000,
the paper's Def 2.1.2.18, CuTe's ``stride.hpp`` / ``int_tuple.hpp`` / ``underscore.hpp``).
Independent of the spec: index <-> coordinate maps use the leaves' prefix products in one
pass, slice and dice are one selection walk, the profile walk is shared by ``filter``.
"""

from layoutcheck.impl.algebra import filter as _filter
from layoutcheck.impl.layout import Layout, as_layout

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import Underscore, leaves

__all__ = ["crd2idx", "idx2crd", "crd2crd", "eval_coord", "get_mode", "dice",
           "slice_and_offset", "shape_div", "prefix_product", "product", "inner_product",
           "elem_scale", "congruent", "compatible", "filter_profile", "natural_coord"]


def _int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _entry(x, what="coordinate"):
    if isinstance(x, Underscore):
        return C(0)  # CuTe's Underscore is Int<0> in index arithmetic
    if not _int(x) or x < 0:
        raise LayoutError(f"{what} entry {x!r} is not a non-negative integer", condition="in_domain")
    return x


def _ranks(a, b, what):
    if len(a) != len(b):
        raise LayoutError(f"{what}: ranks {len(a)} and {len(b)} differ", condition="congruent")


def _profile(t):
    return tuple(_profile(x) for x in t) if isinstance(t, tuple) else None


def _stride_for(shape, stride):
    if stride is None:
        return prefix_product(shape)
    if _profile(shape) != _profile(stride):
        raise LayoutError(f"stride {stride} is not congruent to shape {shape}", condition="congruent")
    return stride


def product(a):
    """The product of the leaves (``product(()) = _1``)."""
    p = C(1)
    for x in leaves(a):
        if not _int(x):
            raise LayoutError(f"{x!r} is not an IntTuple entry", condition="in_domain")
        p = p * x
    return p


def crd2idx(c, shape, stride=None):
    """CuTe's crd2idx (stride default: LayoutLeft); ``_`` counts as 0."""
    return _c2i(c, shape, _stride_for(shape, stride))


def _c2i(c, s, d):
    if isinstance(c, tuple):
        if not isinstance(s, tuple):
            raise LayoutError(f"tuple coordinate {c} for the integer shape {s}", condition="congruent")
        _ranks(c, s, "crd2idx")
        total = C(0)
        for x, y, z in zip(c, s, d):
            total = total + _c2i(x, y, z)
        return total
    c = _entry(c)
    if not isinstance(s, tuple):
        return c * d
    total, last = C(0), len(s) - 1
    for k, (y, z) in enumerate(zip(s, d)):
        if k == last:
            return total + _c2i(c, y, z)
        n = product(y)
        total, c = total + _c2i(c % n, y, z), c // n
    return total  # the empty shape ()


def natural_coord(i, shape):
    """The hierarchical coordinate of index i in [0, size): entry k of the flattening is
    (i / p_k) mod s_k with p_k the exclusive prefix product of the leaves."""
    out, p = [], 1
    for s in leaves(shape):
        out.append((i // p) % s)
        p *= s
    it = iter(out)

    def nest(t):
        return tuple(nest(x) for x in t) if isinstance(t, tuple) else next(it)
    return nest(shape)


def idx2crd(i, shape, stride=None):
    """CuTe's idx2crd: the natural coordinate (no stride, i < size) or (i / d) mod s per leaf."""
    i = _entry(i, "index")
    if stride is None:
        if i >= product(shape):
            raise LayoutError(f"index {i} is outside [0, {product(shape)})", condition="in_domain")
        return natural_coord(i, shape)
    stride = _stride_for(shape, stride)
    if 0 in leaves(stride):
        raise LayoutError("idx2crd with a stride 0 divides by zero", condition="nonzero_stride")

    def go(s, d):
        return tuple(go(x, y) for x, y in zip(s, d)) if isinstance(s, tuple) else (i // d) % s
    return go(shape, stride)


def crd2crd(c, dst, src=None):
    """CuTe's crd2crd with pycute's argument order (c, dst, src)."""
    if isinstance(c, tuple) and isinstance(dst, tuple) and (src is None or isinstance(src, tuple)):
        _ranks(c, dst, "crd2crd")
        srcs = (None,) * len(c) if src is None else src
        _ranks(c, srcs, "crd2crd")
        return tuple(crd2crd(x, y, z) for x, y, z in zip(c, dst, srcs))
    if isinstance(c, tuple):
        if src is None:
            raise LayoutError(f"crd2crd of {c} into {dst} needs the source shape", condition="src_shape")
        _domain(c, src)
        c = _c2i(c, src, prefix_product(src))
    return idx2crd(c, dst)


def _has_underscore(c):
    return isinstance(c, Underscore) or (isinstance(c, tuple) and any(map(_has_underscore, c)))


def eval_coord(L, c):
    """L(c) = crd2idx(c, shape, stride) for a coordinate without ``_``."""
    L = as_layout(L)
    if _has_underscore(c):
        raise LayoutError(f"coordinate {c} holds _: a slice, not an evaluation",
                          condition="no_underscore")
    return _c2i(c, L.shape, L.stride)


def get_mode(L, i):
    """Mode i of a layout (the layout itself for i = 0 of an integral shape)."""
    L = as_layout(L)
    r = len(L.shape) if isinstance(L.shape, tuple) else 1
    if not _int(i) or not 0 <= i < r:
        raise LayoutError(f"mode {i!r} of {L} does not exist (rank {r})", condition="in_domain")
    if not isinstance(L.shape, tuple):
        return L
    return Layout(L.shape[i], L.stride[i])


# --- slice and dice: one selection walk --------------------------------------------------------

def _domain(c, s):
    """c is a coordinate of shape s: nesting matches where c is a tuple, integer entries lie
    in [0, size of their mode), ``_`` anywhere."""
    if isinstance(c, Underscore):
        return
    if isinstance(c, tuple):
        if not isinstance(s, tuple) or len(c) != len(s):
            raise LayoutError(f"coordinate {c!r} does not match shape {s}", condition="congruent")
        for x, y in zip(c, s):
            _domain(x, y)
        return
    if not _int(c) or not 0 <= c < product(s):
        raise LayoutError(f"coordinate entry {c!r} is outside [0, {product(s)})",
                          condition="in_domain")


def _select(c, t, keep_underscore):
    """The entries of t paired with ``_`` (slice) or with an integer (dice), concatenated."""
    if isinstance(c, tuple):
        return tuple(x for ci, ti in zip(c, t) for x in _select(ci, ti, keep_underscore))
    return (t,) if isinstance(c, Underscore) == keep_underscore else ()


def _cut(L, c, keep_underscore):
    whole = isinstance(c, Underscore) == keep_underscore
    if not isinstance(c, tuple):  # top level: slice(_, L) = L, dice(int, L) = L
        return L if whole else Layout((), ())
    return Layout(_select(c, L.shape, keep_underscore), _select(c, L.stride, keep_underscore))


def dice(L, c):
    """CuTe's dice(c, L): the modes paired with integers."""
    L = as_layout(L)
    _domain(c, L.shape)
    return _cut(L, c, False)


def slice_and_offset(L, c):
    """(slice(c, L), crd2idx(c, L)) with ``_`` as 0."""
    L = as_layout(L)
    _domain(c, L.shape)
    return _cut(L, c, True), _c2i(c, L.shape, L.stride)


# --- IntTuple helpers -------------------------------------------------------------------------

def shape_div(a, b):
    """CuTe's shape_div (ceil division under the weak divisibility condition)."""
    if isinstance(a, tuple):
        if isinstance(b, tuple):
            _ranks(a, b, "shape_div")
            return tuple(map(shape_div, a, b))
        out = []
        for x in a:
            out.append(shape_div(x, b))
            b = shape_div(b, product(x))
        return tuple(out)
    if isinstance(b, tuple):
        b = product(b)
    a, b = _entry(a, "shape_div"), _entry(b, "shape_div")
    if a == 0 or b == 0:
        raise LayoutError(f"shape_div({a}, {b}) needs positive integers", condition="positive")
    if a % b and b % a:
        raise LayoutError(f"shape_div({a}, {b}): neither divides the other", condition="divisibility")
    return (a + b - C(1)) // b


def prefix_product(a, init=None):
    """Exclusive prefix product congruent to a, starting at init (default ``_1``)."""
    init = C(1) if init is None else init
    if isinstance(a, tuple):
        if isinstance(init, tuple):
            _ranks(a, init, "prefix_product")
            return tuple(map(prefix_product, a, init))
        out = []
        for x in a:
            out.append(prefix_product(x, init))
            init = init * product(x)
        return tuple(out)
    if isinstance(init, tuple):
        raise LayoutError(f"prefix_product of {a} with the tuple {init}", condition="congruent")
    _entry(a, "prefix_product")
    return _entry(init, "prefix_product")


def inner_product(a, b):
    """Sum of a_i b_i over congruent IntTuples."""
    if _profile(a) != _profile(b):
        raise LayoutError(f"inner_product of {a} and {b}: not congruent", condition="congruent")
    total = C(0)
    for x, y in zip(leaves(a), leaves(b)):
        total = total + _entry(x, "inner_product") * _entry(y, "inner_product")
    return total


def elem_scale(a, b):
    """a * product(b) at the leaves of a, b matching a's tuples."""
    if not isinstance(a, tuple):
        return _entry(a, "elem_scale") * product(b)
    if not isinstance(b, tuple):
        raise LayoutError(f"elem_scale of the tuple {a} by {b}", condition="congruent")
    _ranks(a, b, "elem_scale")
    return tuple(map(elem_scale, a, b))


def congruent(a, b):
    """Same profile."""
    for x in leaves(a) + leaves(b):
        _entry(x, "congruent")
    return _profile(a) == _profile(b)


def compatible(a, b):
    """CuTe's compatible(a, b): a's leaves each match a sub-shape of b of the same size."""
    if not isinstance(a, tuple):
        return _entry(a, "compatible") == product(b)
    return isinstance(b, tuple) and len(a) == len(b) and all(map(compatible, a, b))


def filter_profile(L, profile):
    """pycute's filter(L, profile): filter mode by mode along the profile."""
    L = as_layout(L)
    if not isinstance(profile, tuple):
        return _filter(L)
    ms = [L] if not isinstance(L.shape, tuple) else [Layout(s, d) for s, d in zip(L.shape, L.stride)]
    if len(profile) > len(ms):
        raise LayoutError(f"profile {profile} has more modes than {L}", condition="rank")
    parts = [filter_profile(m, p) for m, p in zip(ms, profile)] + ms[len(profile):]
    return Layout(tuple(m.shape for m in parts), tuple(m.stride for m in parts))
