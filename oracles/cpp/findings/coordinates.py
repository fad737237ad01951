"""Predicates of cute-cpp findings on coordinates, IntTuples and partitions, from the triage of
``layoutcheck fuzz --against cute-cpp --budget 300 --seed 7`` (F-232, F-233, F-241, and F-173's
``compact_col_major(a, init)`` form); the swizzle ones are in ``known_cpp_swizzle.py``.

Region predicates (``when``: ``fn(*inputs)``) and symptoms (``answer``: ``fn(inputs, answer,
reference)``), per DESIGN.md "Answer-precise findings": a symptom recomputes what CuTe C++
(cutlass 4.2 headers; 4.7 reads the same) does from its source -- typed like CuTe's integers
where the type decides (a static ``C`` is ``Int<N>``, a plain ``int`` a runtime integer) --
and is True only when the answer is exactly that.  Written for this harness; the headers are
cited per function, nothing is copied from them.
"""

import layoutcheck.spec as spec
from layoutcheck.oracles.compare import compare
from layoutcheck.oracles.predicates import answered, region, symptom
from layoutcheck.oracles.protocol import is_invalid_answer
from layoutcheck.spec import coords as SC
from layoutcheck.spec import tiling as ST
from layoutcheck.spec import tuples as T

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase, Underscore, leaves

__all__ = ["cpp_shape_div", "cpp_compact_left", "cpp_unchecked_partition", "cpp_idx2crd",
           "cpp_crd2crd"]


def flat_leaves(t):
    return [y for x in t for y in flat_leaves(x)] if isinstance(t, tuple) else [t]


# --- F-232: crd2idx(c, s) returns an integral coordinate as is, `_` included -----------------

@region
def crd2idx_coordinate_is_bare_underscore(c=None, shape=None, *rest):
    """F-232: ``crd2idx(c, shape)`` (two arguments) where CuTe's answer is the coordinate's
    one flattened entry ``_``: stride.hpp returns an integral coordinate unchanged ('Coord is
    already an index'), and Horner's method over a flattened coordinate of one entry returns
    that entry; underscore.hpp makes ``Underscore`` an ``Int<0>`` that ``is_integral``."""
    if rest or shape is None:
        return False
    flat = flat_leaves(c)
    return len(flat) == 1 and isinstance(flat[0], Underscore)


@symptom
def cpp_returns_the_slice_marker(inputs, answer, reference):
    """CuTe printed its ``Underscore`` (the adapter's 'returned _ ... slice marker'), and the
    index is 0 (what ``Underscore : Int<0>`` is worth; the spec's answer)."""
    if not (answer is not None and is_invalid_answer(answer) and "Underscore" in answer.message):
        return False
    try:
        ref = reference.value if answered(reference) else spec.crd2idx(*inputs)
    except LayoutError:
        return False
    return not isinstance(ref, tuple) and int(ref) == 0


# --- F-233: shape_div with a runtime integer skips the divisibility condition ---------------

class Refused(Exception):
    pass


def cpp_shape_div(a, b):
    """int_tuple.hpp ``shape_div``: tuple/tuple mode by mode, tuple/int folds b across a
    (``shape_div(ai, rest)``, then ``rest = shape_div(rest, ai)``), int/tuple divides by
    product(b), int/int is ``(a + b - 1) / b`` and checks 'Divisibility Condition' only when
    both are static (the runtime assert is commented out).  Static iff both are."""
    if isinstance(a, tuple):
        if isinstance(b, tuple):
            if len(a) != len(b):
                raise Refused("Mismatched ranks")
            return tuple(cpp_shape_div(x, y) for x, y in zip(a, b))
        out = []
        for ai in a:
            out.append(cpp_shape_div(ai, b))
            b = cpp_shape_div(b, ai)
        return tuple(out)
    if isinstance(b, tuple):
        p = 1
        for x in leaves(b):
            p *= int(x)
        static = all(isinstance(x, C) for x in leaves(b))
        return cpp_shape_div(a, C(p) if static else p)
    both = isinstance(a, C) and isinstance(b, C)
    if int(b) == 0:
        raise Refused("division by zero")
    if both and int(a) % int(b) and int(b) % int(a):
        raise Refused("Divisibility Condition")
    v = (int(a) + int(b) - 1) // int(b)
    return C(v) if both else v


@region
def shape_div_runtime_not_divisible(a=None, b=None, *rest):
    """F-233: the spec refuses shape_div(a, b) (condition divisibility: some pair of CuTe's
    fold divides neither way) and CuTe's model answers (that pair holds a runtime integer)."""
    try:
        spec.shape_div(a, b)
        return False
    except LayoutError as e:
        if e.condition != "divisibility":
            return False
    try:
        cpp_shape_div(a, b)
    except Refused:
        return False
    return True


@symptom
def cpp_ceil_div_unchecked(inputs, answer, reference):
    """The answer is CuTe's fold of ceil divisions (``cpp_shape_div``), value for value."""
    try:
        want = cpp_shape_div(*inputs[:2])
    except Refused:
        return False
    return answered(answer) and flat_leaves(answer.value) == flat_leaves(want) and \
        _shape_of(answer.value) == _shape_of(want)


def _shape_of(t):
    return tuple(_shape_of(x) for x in t) if isinstance(t, tuple) else None


# --- F-173, compact_col_major(a, init): static _1 leaves get _0 ------------------------------

def cpp_compact_left(shape, current):
    """stride.hpp ``compact_major<LayoutLeft>(shape, current)``: a tuple ``current`` goes mode
    by mode (transform); an integral one is folded over the shape left to right, a static
    ``_1`` leaf getting ``Int<0>`` (detail::compact) and the running product unchanged."""
    if isinstance(current, tuple):
        if not isinstance(shape, tuple) or len(shape) != len(current):
            raise Refused("Mismatched Ranks")
        return tuple(cpp_compact_left(s, c) for s, c in zip(shape, current))
    out, run = _fold_left(shape, int(current))
    return out


def _fold_left(s, run):
    if isinstance(s, tuple):
        out = []
        for x in s:
            y, run = _fold_left(x, run)
            out.append(y)
        return tuple(out), run
    if isinstance(s, C) and int(s) == 1:
        return 0, run
    return run, run * int(s)


@symptom
def static_size_one_gets_stride_zero_from_init(inputs, answer, reference, op=None):
    """F-173 with an init (CuTe C++'s ``compact_col_major(a, init)``): the answer is
    ``cpp_compact_left(a, init)``, and differs from the spec's only at static ``_1`` leaves."""
    if op != "prefix_product" or len(inputs) != 2 or not answered(answer):
        return False
    try:
        want = cpp_compact_left(*inputs)
    except Refused:
        return False
    return _shape_of(answer.value) == _shape_of(want) and \
        [int(x) for x in flat_leaves(answer.value)] == flat_leaves(want)


# --- F-241: the partitions slice zipped_divide(L, T) with an unchecked crd2idx --------------

_PARTITION_OPS = ("outer_partition", "inner_partition", "local_tile", "local_partition")


def cpp_unchecked_partition(op, L, tiler, coord):
    """What tensor_impl.hpp computes for ``op`` with no bounds check on the coordinate:
    zipped_divide(L, T) sliced at (coord, _) (outer_partition) or (_, coord) (inner_partition,
    local_tile), the offset stride.hpp crd2idx (``c * d`` at a leaf, the last mode of an
    integer split taking the rest); local_partition is outer_partition at thr.get_flat_coord(i)
    (layout.hpp: idx2crd(i, shape, stride), ``(i / d) % s`` per mode, so i wraps).  The spec's
    own steps, less its ``in_domain`` checks."""
    S = spec
    if op == "local_partition":
        thr = S.as_layout(tiler)
        if isinstance(coord, bool) or not isinstance(coord, int) or coord < 0:
            raise LayoutError("not a thread index", condition="in_domain")
        hier = SC.idx2crd(coord, thr.shape, thr.stride)
        tup = isinstance(thr.shape, tuple)
        shapes, hier = (thr.shape, hier) if tup else ((thr.shape,), (hier,))
        flat = tuple(SC.crd2idx(c, s) for c, s in zip(hier, shapes))
        return cpp_unchecked_partition("outer_partition", L, S.product_each(thr.shape),
                                       flat if tup else flat[0])
    Z = S.zipped_divide(S.as_layout(L), tiler, sense="cute")
    r0, r1 = T.rank(Z.shape[0]), T.rank(Z.shape[1])
    if op == "outer_partition":
        c = (ST.pad_coordinate(coord, r0) if isinstance(coord, tuple) else coord, ST.repeat_underscore(r1))
    else:
        c = (ST.repeat_underscore(r0), ST.pad_coordinate(coord, r1) if isinstance(coord, tuple) else coord)
    return SC.slice_layout(Z, c), SC.crd2idx(c, Z.shape, Z.stride)


@region
def partition_coordinate_out_of_bounds(L=None, tiler=None, coord=None, *rest, op=None):
    """F-241: the spec refuses the partition only because a coordinate entry (the thread
    index of local_partition) lies past its mode's size (condition ``in_domain``), and the
    unchecked arithmetic (``cpp_unchecked_partition``) has an answer."""
    if op not in _PARTITION_OPS or rest or coord is None:
        return False
    try:
        getattr(spec, op)(L, tiler, coord)
    except LayoutError as e:
        if e.condition != "in_domain":
            return False
    else:
        return False
    try:
        cpp_unchecked_partition(op, L, tiler, coord)
    except LayoutError:
        return False
    return True


@symptom
def cpp_unchecked_partition_answer(inputs, answer, reference, op=None):
    """The answer is the unchecked one (``cpp_unchecked_partition``), compared as the gate
    compares partitions (layout by layout, the offset's value)."""
    if op not in _PARTITION_OPS or not answered(answer):
        return False
    try:
        want = cpp_unchecked_partition(op, *inputs[:3])
    except LayoutError:
        return False
    return compare(op, tuple(inputs), want, answer.value).ok


# --- F-241 in crd2crd / idx2crd: stride.hpp splits an index with no bounds check -------------

def _nonneg_leaves(t):
    return all(isinstance(x, int) and not isinstance(x, bool) and int(x) >= 0 for x in flat_leaves(t))


def cpp_idx2crd(i, shape):
    """stride.hpp ``idx2crd(i, s)``: an integral shape returns i as is; a tuple one is
    crd2idx(i, s, basis) -- ``i % size(s_k)`` into each mode but the last, which takes the
    quotient left (recursively), so an index past size(s) lands in the last leaves."""
    if not isinstance(shape, tuple):
        return int(i)
    out = []
    for k, s in enumerate(shape):
        if k == len(shape) - 1:
            out.append(cpp_idx2crd(i, s))
        else:
            n = 1
            for x in leaves(s) if isinstance(s, tuple) else [s]:
                n *= int(x)
            out.append(cpp_idx2crd(i % n, s))
            i //= n
    return tuple(out)


def _product_like(shape, c):  # int_tuple.hpp product_like: shape folded where c is a leaf
    if isinstance(c, tuple):
        if not isinstance(shape, tuple) or len(shape) != len(c):
            raise Refused("Mismatched Ranks")
        return tuple(_product_like(s, x) for s, x in zip(shape, c))
    n = 1
    for x in leaves(shape) if isinstance(shape, tuple) else [shape]:
        n *= int(x)
    return n


def cpp_crd2crd(c, dst, src=None):
    """stride.hpp ``crd2crd(c, src, dst)`` (the spec's order c, dst, src): mode by mode where
    all three are tuples, else idx2crd(crd2idx(c, src), dst) -- crd2idx(c, s) returns an
    integral c as is and applies Horner's method to flatten(c) over flatten(product_like(s, c))
    -- with no bounds check at either step (``cpp_idx2crd``)."""
    if isinstance(c, tuple) and isinstance(dst, tuple) and (src is None or isinstance(src, tuple)):
        srcs = src if src is not None else dst
        if len(c) != len(dst) or len(c) != len(srcs):
            raise Refused("Mismatched Ranks")
        return tuple(cpp_crd2crd(x, d, s) for x, d, s in zip(c, dst, srcs))
    if isinstance(c, tuple):
        if not isinstance(src, tuple):
            raise Refused("Invalid parameters")
        index, mult = 0, 1
        for x, s in zip(flat_leaves(c), flat_leaves(_product_like(src, c))):
            index, mult = index + int(x) * mult, mult * int(s)
    else:
        index = int(c)
    return cpp_idx2crd(index, dst)


@region
def coordinate_map_out_of_bounds(c=None, shape=None, *rest, op=None):
    """F-241's convention in stride.hpp: the spec refuses crd2crd (c, dst[, src]) or the
    strideless idx2crd (i, shape) only because an index or coordinate lies past its shape
    (condition ``in_domain``), every entry a non-negative integer, and CuTe's unchecked
    arithmetic (``cpp_crd2crd`` / ``cpp_idx2crd``) has an answer."""
    if op not in ("crd2crd", "idx2crd") or shape is None or len(rest) > (op == "crd2crd") \
            or not _nonneg_leaves(c) or not all(_nonneg_leaves(x) for x in (shape,) + rest):
        return False
    try:
        getattr(spec, op)(c, shape, *rest)
        return False
    except LayoutError as e:
        if e.condition != "in_domain":
            return False
    try:
        cpp_crd2crd(c, shape, *rest) if op == "crd2crd" else cpp_idx2crd(c, shape)
    except Refused:
        return False
    return True


@symptom
def cpp_unchecked_coordinate_answer(inputs, answer, reference, op=None):
    """The answer is the unchecked one, entry for entry and nested as it."""
    if op not in ("crd2crd", "idx2crd") or not answered(answer):
        return False
    try:
        want = cpp_crd2crd(*inputs) if op == "crd2crd" else cpp_idx2crd(*inputs)
    except Refused:
        return False
    got = answer.value
    return _shape_of(got) == _shape_of(want) and [int(x) for x in flat_leaves(got)] == flat_leaves(want)


def _has_size_one_leaf(t):
    return any(int(x) == 1 for x in leaves(t))


def _is_inttuple(t):
    if isinstance(t, tuple):
        return all(map(_is_inttuple, t))
    return isinstance(t, int) and not isinstance(t, bool)


@region
def shape_has_size_one_leaf(shape=None, *rest):
    """F-173: layout_left / prefix_product of a shape with a size-1 leaf."""
    return _is_inttuple(shape) and _has_size_one_leaf(shape)


def _left_zeroing(shape, zero):
    """LayoutLeft's strides (exclusive prefix products) with the leaves ``zero(s)`` picks set
    to 0 (CuTe stride.hpp compact_major: ``is_constant<1, Shape>`` gives ``Int<0>``)."""
    flat, p = [], 1
    for s in leaves(shape):
        flat.append(0 if zero(s) else p)
        p *= int(s)
    it = iter(flat)

    def nest(t):
        return tuple(nest(x) for x in t) if isinstance(t, tuple) else next(it)
    return nest(shape)


def layout_left_symptom(inputs, answer, op, zero):
    if not (answered(answer) and inputs and shape_has_size_one_leaf(inputs[0])):
        return False
    shape = inputs[0]
    want = _left_zeroing(shape, zero)
    if op == "prefix_product" and len(inputs) == 1:
        return answer.value == want
    return op == "layout_left" and isinstance(answer.value, LayoutBase) and \
        answer.value == LayoutBase(shape, want)


@symptom
def static_size_one_gets_stride_zero(inputs, answer, reference, op=None):
    """CuTe C++: a static ``_1`` leaf gets stride ``_0``, the other strides as LayoutLeft's."""
    return layout_left_symptom(inputs, answer, op, lambda s: isinstance(s, C) and int(s) == 1)


@region
def integer_argument(a=None, *rest):
    """F-174: flatten of an integer (not a tuple)."""
    return isinstance(a, int) and not isinstance(a, bool)


@symptom
def flatten_keeps_the_integer(inputs, answer, reference):
    """CuTe's flatten(n) is n itself (tuple_algorithms.hpp: a non-tuple is returned as is)."""
    return (answered(answer) and len(inputs) == 1 and integer_argument(inputs[0])
            and _is_inttuple(answer.value) and not isinstance(answer.value, tuple)
            and int(answer.value) == int(inputs[0]))

# --- planted cases (tests/test_planted.py): each finding's answer as the oracle prints it --------
# (finding, oracle, op, argument texts, answer[, static]); recorded from the real oracle; another
# wrong answer in the region (tests/planted_support.py planted) must be new.

PLANTED = [
    ("F-232", "cute-cpp", "crd2idx", ["_", "1"], "raised: returned _ (CuTe's Underscore, the slice marker), not a value for crd2idx(_, 1)"),
    ("F-233", "cute-cpp", "shape_div", ["(4,5,1)", "3"], "(2,5,1)"),
    ("F-241", "cute-cpp", "outer_partition", ["(_2):(_1)", "(_1)", "1"], "((_2)):((_1))|0"),
]
