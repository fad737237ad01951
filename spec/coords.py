"""Coordinates, slicing and CuTe's IntTuple helpers (the ops of DESIGN.md's table).

Sources: seed 000 (a coordinate ``(i,(j,k))`` of shape ``(2,(3,4))`` maps to
``i*1 + j*2 + k*3`` with stride ``(1,(2,3))``; LayoutLeft is the exclusive prefix product;
``get<I>`` of a layout takes mode I of shape and stride together; rank), seed 001 (IntTuples,
profiles, flattening), the paper's Def 2.1.1.1 (size), Def 2.1.2.18 (the colexicographic
isomorphism, which is what an integer coordinate into a tuple-shaped mode means) and
Construction 2.1.2.13 (phi_L), and CuTe's definitions where the documents stop: the
recurrences stated in ``cute/stride.hpp`` (crd2idx, idx2crd, crd2crd), ``cute/int_tuple.hpp``
(shape_div, inner_product, elem_scale, congruent, compatible), ``cute/underscore.hpp`` (``_``
is ``Int<0>`` in an index computation; slice keeps the entries paired with ``_``, dice
those paired with an integer; nested entries are concatenated as by ``filter_tuple``),
``cute/layout.hpp`` (``slice``, ``dice``, ``slice_and_offset``, ``coalesce(L, trg_profile)``)
and pycute's ``prefix_product`` / ``filter(L, profile)`` (CuTe C++ has neither by that name).

Domains.  ``crd2idx``, ``eval_coord`` and ``idx2crd`` with a stride are CuTe's arithmetic,
total on non-negative coordinates: inside the domain they are phi_L and colex^{-1}
(checked by the laws), outside it an integer coordinate into a tuple mode extends the last
entry as CuTe does.  ``idx2crd`` without a stride is colex^{-1}_S, defined on [0, size S)
(CuTe C++ and pycute extend it differently past the end).  Slicing (``slice_``, ``dice``,
``slice_and_offset``) needs a coordinate of the layout's domain (as ``slice_``).  Every
refusal is a ``LayoutError`` with ``condition``: ``congruent`` (the coordinate or tuple does
not fit the shape's nesting), ``in_domain``, ``divisibility`` (shape_div), ``positive``,
``nonzero_stride``, ``src_shape`` (crd2crd needs the source shape), ``no_underscore``.
"""

from layoutcheck.spec import tuples as T
from layoutcheck.spec.algebra import check_coord, slice_, slice_tuple  # noqa: F401  (the op ``slice_`` is the algebra's)
from layoutcheck.spec.algebra import filter as _filter
from layoutcheck.spec.basic import make_layout
from layoutcheck.spec.layout import Layout, as_layout, colex_inv, get

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import Underscore
from layoutcheck.layout import congruent as _congruent

__all__ = ["crd2idx", "idx2crd", "crd2crd", "eval_coord", "get_mode", "dice",
           "slice_and_offset", "shape_div", "prefix_product", "product", "inner_product",
           "elem_scale", "congruent", "compatible", "filter_profile", "natural_coord"]


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _leaf(x, what):
    """A non-negative integer entry, ``_`` read as 0 (``Underscore`` is ``Int<0>``)."""
    if isinstance(x, Underscore):
        return C(0)
    if not _is_int(x) or x < 0:
        raise LayoutError(f"{what} entry {x!r} is not a non-negative integer", condition="in_domain")
    return x


def _same_rank(a, b, what):
    if len(a) != len(b):
        raise LayoutError(f"{what}: {a} has {len(a)} modes, {b} has {len(b)} (mismatched ranks)",
                          condition="congruent")


def _check_stride(shape, stride):
    if stride is None:
        return prefix_product(shape)
    if not _congruent(shape, stride):
        raise LayoutError(f"stride {stride} is not congruent to shape {shape}", condition="congruent")
    return stride


# --- coordinate maps (cute/stride.hpp; seed 000) ---------------------------------------------

def crd2idx(c, shape, stride=None):
    """CuTe's ``crd2idx(c, shape, stride)``: c*d for integers; a tuple coordinate mode by
    mode (summed); an integer coordinate into a tuple shape is split colexicographically,
    ``c % size(s_0)`` into the first mode, ``c / size(s_0)`` into the rest, the last mode
    taking what remains (Def 2.1.2.18 inside the domain).  Seed 000: ``(i,(j,k))`` of
    ``(2,(3,4)):(1,(2,3))`` is ``i + 2j + 3k``.  Without a stride: LayoutLeft's
    (``prefix_product(shape)``), i.e. the colexicographic index.  ``_`` counts as 0."""
    stride = _check_stride(shape, stride)
    if isinstance(c, tuple):
        if not isinstance(shape, tuple):
            raise LayoutError(f"coordinate {c} is a tuple, shape {shape} an integer",
                              condition="congruent")
        _same_rank(c, shape, "crd2idx")
        total = C(0)  # sums start at a static _0: static terms stay static
        for ci, si, di in zip(c, shape, stride):
            total = total + crd2idx(ci, si, di)
        return total
    c = _leaf(c, "coordinate")
    if isinstance(shape, tuple):
        if not shape:
            return C(0)
        total = C(0)
        for i, (si, di) in enumerate(zip(shape, stride)):
            if i == len(shape) - 1:
                return total + crd2idx(c, si, di)
            n = T.size(si)
            total = total + crd2idx(c % n, si, di)
            c = c // n
    return c * stride


def natural_coord(i, shape):
    """colex_S^{-1}(i) with the nesting of S (Def 2.1.2.18 on the flattening, seed 001's
    nested tuple = flattening + profile): the natural (hierarchical) coordinate of index i."""
    flat = iter(colex_inv(shape, i))

    def nest(s):
        return tuple(nest(x) for x in s) if isinstance(s, tuple) else next(flat)
    return nest(shape)


def idx2crd(i, shape, stride=None):
    """CuTe's ``idx2crd(i, shape[, stride])``.  Without a stride: the natural coordinate
    colex^{-1}_S(i), i in [0, size S) (condition ``in_domain``).  With a stride, for each
    leaf s:d of (shape, stride) the entry (i / d) mod s (``cute/stride.hpp``), d != 0."""
    i = _leaf(i, "index")
    if stride is None:
        if not i < T.size(shape):
            raise LayoutError(f"index {i} is outside [0, {T.size(shape)}) of shape {shape}",
                              condition="in_domain")
        return natural_coord(i, shape)
    stride = _check_stride(shape, stride)
    if isinstance(shape, tuple):
        return tuple(idx2crd(i, s, d) for s, d in zip(shape, stride))
    if stride == 0:
        raise LayoutError(f"idx2crd with stride 0 divides by zero (shape {shape})",
                          condition="nonzero_stride")
    return (i // stride) % shape


def crd2crd(c, dst, src=None):
    """CuTe's crd2crd: a coordinate of ``src`` re-expressed in ``dst``'s iteration space
    (``cute/stride.hpp``; pycute's argument order ``(c, dst, src)``).  Where c, dst (and src,
    when given) are tuples: mode by mode.  Otherwise the index crd2idx(c, src) (c itself for
    an integer c; a tuple c needs src: condition ``src_shape``) becomes idx2crd(index, dst),
    which needs the index in [0, size dst)."""
    if isinstance(c, tuple) and isinstance(dst, tuple) and (src is None or isinstance(src, tuple)):
        _same_rank(c, dst, "crd2crd")
        if src is not None:
            _same_rank(c, src, "crd2crd")
        return tuple(crd2crd(ci, di, None if src is None else si)
                     for ci, di, si in zip(c, dst, src if src is not None else dst))
    if isinstance(c, tuple):
        if src is None:
            raise LayoutError(f"crd2crd of the tuple coordinate {c} into {dst} needs the source "
                              "shape", condition="src_shape")
        check_coord(c, src)
        index = crd2idx(c, src)
    else:
        index = _leaf(c, "coordinate")
    return idx2crd(index, dst)


def eval_coord(L, c):
    """CuTe's ``L(c)`` for a coordinate without ``_``: crd2idx(c, shape(L), stride(L))
    (``layout.hpp``); phi_L at the coordinate inside the domain (Construction 2.1.2.13).
    A coordinate with ``_`` is a slice (``slice_``): condition ``no_underscore``."""
    L = as_layout(L)
    if _has_underscore(c):
        raise LayoutError(f"coordinate {c} holds _: that is a slice, not an evaluation",
                          condition="no_underscore")
    return crd2idx(c, L.shape, L.stride)


def _has_underscore(c):
    if isinstance(c, tuple):
        return any(_has_underscore(x) for x in c)
    return isinstance(c, Underscore)


def get_mode(L, i):
    """CuTe's ``layout<i>(L)`` / pycute's ``L[i]``: mode i of shape and stride together (seed
    000 ``get<I>(Layout)``); a layout with an integral shape has the one mode 0, itself."""
    if not _is_int(i):
        raise LayoutError(f"mode index {i!r} is not an integer", condition="in_domain")
    try:
        return get(as_layout(L), i)
    except LayoutError as e:
        raise LayoutError(str(e), condition="in_domain") from None


# --- slicing (cute/underscore.hpp, cute/layout.hpp) ------------------------------------------

def _dice(c, t, top):
    """``dice(c, t)``: the entries of t paired with an integer; nested entries concatenated
    (``filter_tuple``); at the top level an integer c keeps t whole and ``_`` keeps nothing."""
    if isinstance(c, tuple):
        out = ()
        for ci, ti in zip(c, t):
            out = out + _dice(ci, ti, False)
        return out
    if isinstance(c, Underscore):
        return ()
    return t if top else (t,)


def dice(L, c):
    """CuTe's ``dice(c, L)``: the layout of the modes paired with integers (the complement of
    ``slice``'s), e.g. ``dice((1,_), (4,8):(1,4)) = (4):(1)``."""
    L = as_layout(L)
    check_coord(c, L.shape)
    return Layout(_dice(c, L.shape, True), _dice(c, L.stride, True))


def slice_layout(L, c):
    """CuTe's ``slice(c, L)``: always a layout (``():()`` when c has no ``_``; L for c = ``_``)."""
    if isinstance(c, Underscore):
        return L
    return Layout(slice_tuple(c, L.shape), slice_tuple(c, L.stride))


def slice_and_offset(L, c):
    """CuTe's ``slice_and_offset(c, L)`` = (slice(c, L), crd2idx(c, L)) with ``_`` as 0:
    L(full coordinate) = offset + slice(L)(the ``_`` entries)."""
    L = as_layout(L)
    check_coord(c, L.shape)
    return (slice_layout(L, c), crd2idx(c, L.shape, L.stride))


# --- IntTuple helpers (cute/int_tuple.hpp; seed 001; Def 2.1.1.1) ----------------------------

def product(a):
    """size of an IntTuple: the product of its leaves (Def 2.1.1.1), ``product(()) = 1``."""
    return T.size(_inttuple(a))


def _inttuple(a):
    if isinstance(a, tuple):
        return tuple(_inttuple(x) for x in a)
    if not _is_int(a):
        raise LayoutError(f"{a!r} is not an IntTuple entry", condition="in_domain")
    return a


def shape_div(a, b):
    """CuTe's ``shape_div(a, b)``: tuple/tuple mode by mode (equal ranks); tuple/int folds b
    across a (``shape_div((4,5,6),40) = (1,1,3)``); int/tuple divides by product(b); int/int
    needs a | b or b | a (condition ``divisibility``) and is ceil(a / b)."""
    if isinstance(a, tuple):
        if isinstance(b, tuple):
            _same_rank(a, b, "shape_div")
            return tuple(shape_div(x, y) for x, y in zip(a, b))
        out = []
        for ai in a:
            out.append(shape_div(ai, b))
            b = shape_div(b, product(ai))
        return tuple(out)
    if isinstance(b, tuple):
        return shape_div(a, product(b))
    a, b = _inttuple(a), _inttuple(b)
    if a < 1 or b < 1:
        raise LayoutError(f"shape_div({a}, {b}) needs positive integers", condition="positive")
    if a % b != 0 and b % a != 0:
        raise LayoutError(f"shape_div({a}, {b}): neither divides the other",
                          condition="divisibility")
    return (a + b - C(1)) // b


def prefix_product(a, init=None):
    """The exclusive prefix product of a, congruent to a (seed 000: LayoutLeft's strides,
    shape (2,3,4) -> (1,2,6)); ``init`` (default ``_1``) is the first factor; a tuple init
    goes mode by mode (pycute ``prefix_product``; CuTe C++ ``compact_col_major(a, init)``)."""
    init = C(1) if init is None else init
    if isinstance(a, tuple):
        if isinstance(init, tuple):
            _same_rank(a, init, "prefix_product")
            return tuple(prefix_product(x, i) for x, i in zip(a, init))
        out = []
        for ai in a:
            out.append(prefix_product(ai, init))
            init = init * product(ai)
        return tuple(out)
    if isinstance(init, tuple):
        raise LayoutError(f"prefix_product of the integer {a} with the tuple {init}",
                          condition="congruent")
    _inttuple(a)
    return _inttuple(init)


def inner_product(a, b):
    """sum_i a_i b_i over congruent IntTuples (``cute/int_tuple.hpp``; condition
    ``congruent``)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        _same_rank(a, b, "inner_product")
        total = C(0)
        for x, y in zip(a, b):
            total = total + inner_product(x, y)
        return total
    if isinstance(a, tuple) or isinstance(b, tuple):
        raise LayoutError(f"inner_product of {a} and {b}: not congruent", condition="congruent")
    return _inttuple(a) * _inttuple(b)


def elem_scale(a, b):
    """a scaled by b: mode by mode where a is a tuple (b a tuple of a's rank), a * product(b)
    where a is an integer (``cute/int_tuple.hpp``)."""
    if isinstance(a, tuple):
        if not isinstance(b, tuple):
            raise LayoutError(f"elem_scale of the tuple {a} by the integer {b}",
                              condition="congruent")
        _same_rank(a, b, "elem_scale")
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    return _inttuple(a) * product(b)


def congruent(a, b):
    """Same profile (seed 001; Def 2.2.2.19)."""
    return T.profile(_inttuple(a)) == T.profile(_inttuple(b))


def compatible(a, b):
    """CuTe's ``compatible(a, b)`` (A <= B): equal sizes and every coordinate of A is one of
    B: tuples of equal rank mode by mode; an integer a needs a == size(b); a tuple a is not
    compatible with an integer b."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(compatible(x, y) for x, y in zip(a, b))
    if isinstance(a, tuple):
        return False
    return _inttuple(a) == product(b)


# --- coalesce and filter with a profile (cute/layout.hpp, pycute layout.py) ------------------

def _by_profile(op, L, profile):
    """CuTe's walk of a target profile (as ``coalesce(L, p, sense="cute")``): a tuple profile
    applies op to modes 0..len-1 with their sub-profiles, the modes past its end are kept;
    a leaf applies op to the whole mode."""
    L = as_layout(L)
    if not isinstance(profile, tuple):
        return op(L)
    ms = [L] if not isinstance(L.shape, tuple) else [Layout(s, d) for s, d in zip(L.shape, L.stride)]
    if len(profile) > len(ms):
        raise LayoutError(f"profile {profile} has more modes than {L}", condition="rank")
    return make_layout(*([_by_profile(op, m, p) for m, p in zip(ms, profile)] + ms[len(profile):]))


def filter_profile(L, profile):
    """pycute's ``filter(L, profile)``: CuTe's filter (drop stride-0 and size-1 modes, then
    coalesce) along the profile's walk.  (``coalesce(L, profile)`` is the algebra's, with
    ``sense="cute"``.)"""
    return _by_profile(_filter, L, profile)
