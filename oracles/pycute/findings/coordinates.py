"""Predicates of the findings in pycute's API beyond the algebra (issue 11; F-170..F-172).

Region predicates (``when``: ``fn(*inputs)``) and symptom predicates (``answer``:
``fn(inputs, answer, reference)``), per DESIGN.md "Answer-precise findings": a symptom is
True only when pycute's answer is exactly what the finding describes, recomputed here from
pycute's source (nvidia-cutlass 4.2.0.0 ``pycute/layout.py``, ``pycute/int_tuple.py``) with
the spec doing every step pycute does the way CuTe does.
"""

from layoutcheck.errors import LayoutError
from layoutcheck.findings import predicate, symptom
from layoutcheck.layout import LayoutBase, Underscore, leaves

__all__ = []


def _ok(answer):
    return answer is not None and answer.kind == "ok"


# --- F-170: pycute slices a layout at a bare _ into a rank-1 tuple ----------------------------

@predicate
def bare_underscore_coordinate(L=None, c=None, *rest):
    """F-170: the coordinate is ``_`` itself (not a tuple holding it)."""
    return isinstance(L, LayoutBase) and isinstance(c, Underscore)


@symptom
def pycute_wraps_whole_slice(inputs, answer, reference, op=None):
    """pycute's ``Layout.__call__(None)`` is ``Layout(slice_(None, shape), slice_(None,
    stride))`` and ``slice_(None, t) = (t,)``: the layout wrapped as one mode (offset 0)."""
    L = inputs[0] if inputs else None
    if not (_ok(answer) and isinstance(L, LayoutBase)):
        return False
    wrapped = LayoutBase((L.shape,), (L.stride,))
    if op == "slice_and_offset":
        return answer.value == (wrapped, 0) and int(answer.value[1]) == 0
    return answer.value == wrapped


# --- F-171: pycute's hier_unzip reads a _ entry of a Tile as (1:0, mode) ----------------------

def _holds_underscore(T):
    if isinstance(T, tuple):
        return any(_holds_underscore(t) for t in T)
    return isinstance(T, Underscore)


@predicate
def tile_tuple_holds_underscore(A=None, T=None, *rest):
    """F-171: the tiler is a Tile tuple with ``_`` at some depth."""
    return isinstance(A, LayoutBase) and isinstance(T, tuple) and _holds_underscore(T)


def _modes(L):
    if not isinstance(L.shape, tuple):
        return [L]
    return [LayoutBase(s, d) for s, d in zip(L.shape, L.stride)]


def _mk(ls):
    ls = list(ls)
    return LayoutBase(tuple(x.shape for x in ls), tuple(x.stride for x in ls))


def _split(product, A, T):
    """pycute's logical_divide / logical_product of one mode (as CuTe's, except that its
    logical_product of an int n is logical_divide(A, n:1): F-076)."""
    import layoutcheck.spec as spec
    if product and not isinstance(T, int):
        return spec.logical_product(A, T, sense="cute")
    return spec.logical_divide(A, T, sense="cute")


def _hier_unzip(product, A, T):
    """pycute's ``hier_unzip``: a ``_`` entry becomes ``make_layout(Layout(1,0), A_i)``; a
    tuple gathers ((tiles), (rests, untiled modes of A))."""
    if isinstance(T, Underscore):
        return _mk([LayoutBase(1, 0), A])
    if isinstance(T, tuple):
        am = _modes(A)
        split = [_modes(_hier_unzip(product, am[i], T[i])) for i in range(len(T))]
        return _mk([_mk(s[0] for s in split), _mk([s[1] for s in split] + am[len(T):])])
    return _split(product, A, T)


@symptom
def pycute_unzips_underscore_as_unit_tile(inputs, answer, reference, op=None):
    """pycute's zipped / tiled form, with each ``_`` entry giving the tile 1:0 and the rest
    the whole mode (recomputed; tiled unpacks the rests as pycute's tiled_divide does)."""
    if len(inputs) < 2 or not tile_tuple_holds_underscore(*inputs[:2]) or not _ok(answer) \
            or op not in ("zipped_divide", "tiled_divide", "zipped_product", "tiled_product"):
        return False
    A, T = inputs[0], inputs[1]
    try:
        Z = _hier_unzip(op.endswith("product"), A, T)
    except LayoutError:
        return False
    if op.startswith("tiled"):
        z0, z1 = _modes(Z)
        Z = _mk([z0] + _modes(z1))
    return answer.value == Z


# --- F-172: pycute's crd2crd drops src_shape when it recurses ---------------------------------

def _needs_src_below(c, dst):
    """Below the top, pycute recurses with ``crd2crd(x, y)`` (no src): a tuple coordinate
    meeting an integer dst entry there hits its ``assert src_shape is not None``."""
    if not (isinstance(c, tuple) and isinstance(dst, tuple)):
        return False
    return any((isinstance(x, tuple) and not isinstance(y, tuple)) or _needs_src_below(x, y)
               for x, y in zip(c, dst))


@predicate
def crd2crd_needs_src_below_top(c=None, dst=None, src=None, *rest):
    """F-172: crd2crd(c, dst, src) whose mode-by-mode recursion needs src below the top."""
    return src is not None and _needs_src_below(c, dst)


@symptom
def pycute_asserts(inputs, answer, reference):
    """pycute raised its bare ``AssertionError`` (the assert in crd2crd has no message)."""
    return answer is not None and answer.kind == "raised" and answer.message == "AssertionError (no message)"


# --- F-173 / F-174 / F-175: CuTe's own conventions beyond the algebra -------------------------

def _has_size_one_leaf(t):
    return any(int(x) == 1 for x in leaves(t))


def _is_inttuple(t):
    if isinstance(t, tuple):
        return all(map(_is_inttuple, t))
    return isinstance(t, int) and not isinstance(t, bool)


@predicate
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


def _left_symptom(inputs, answer, op, zero):
    if not (_ok(answer) and inputs and shape_has_size_one_leaf(inputs[0])):
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
    from layoutcheck.integers import C
    return _left_symptom(inputs, answer, op, lambda s: isinstance(s, C) and int(s) == 1)


@symptom
def size_one_gets_stride_zero(inputs, answer, reference, op=None):
    """The CuTe DSL (every integer static at trace time): every size-1 leaf gets stride 0."""
    return _left_symptom(inputs, answer, op, lambda s: int(s) == 1)


@predicate
def integer_argument(a=None, *rest):
    """F-174: flatten of an integer (not a tuple)."""
    return isinstance(a, int) and not isinstance(a, bool)


@symptom
def flatten_keeps_the_integer(inputs, answer, reference):
    """CuTe's flatten(n) is n itself (tuple_algorithms.hpp: a non-tuple is returned as is)."""
    return (_ok(answer) and len(inputs) == 1 and integer_argument(inputs[0])
            and _is_inttuple(answer.value) and not isinstance(answer.value, tuple)
            and int(answer.value) == int(inputs[0]))


@predicate
def empty_profile(L=None, profile=None, *rest):
    """F-175: coalesce with the empty target profile ()."""
    return isinstance(L, LayoutBase) and profile == ()


@symptom
def coalesces_the_whole_layout(inputs, answer, reference):
    """The DSL reads the profile () as no profile: its answer is coalesce(L)."""
    import layoutcheck.spec as spec
    return (_ok(answer) and len(inputs) == 2 and empty_profile(*inputs)
            and answer.value == spec.coalesce(inputs[0]))


# --- planted cases (tests/test_planted.py): each finding's answer as the oracle prints it --------
# (finding, oracle, op, argument texts, answer); another wrong answer in the region must be new.
# pycute's rows are re-run on pycute by the test; F-173/F-174 on CuTe C++ follow its source
# (stride.hpp compact_major, tuple_algorithms.hpp flatten) and the DSL's were recorded from it.

PLANTED = [
    ("F-170", "pycute", "slice_", ["(4,8):(1,4)", "_"], "((4,8)):((1,4))"),
    ("F-170", "pycute", "slice_and_offset", ["(4,8):(1,4)", "_"], "((4,8)):((1,4))|0"),
    ("F-171", "pycute", "zipped_divide", ["(8,(4,2)):(1,(8,32))", "(2:1,_)"],
     "((2,1),(4,(4,2))):((1,0),(2,(8,32)))"),
    ("F-172", "pycute", "crd2crd", ["((1,1),2)", "(4,3)", "((2,2),3)"], "raised: AssertionError (no message)"),
    ("F-173", "cute-dsl", "layout_left", ["(2,(1,4))"], "(_2,(_1,_4)):(_1,(_0,_2))"),
    ("F-173", "cute-cpp", "layout_left", ["(2,(_1,4))"], "(2,(_1,4)):(_1,(_0,2))"),
    ("F-173", "cute-cpp", "prefix_product", ["(2,(_1,4))"], "(_1,(_0,2))"),
    ("F-174", "cute-dsl", "flatten", ["4"], "_4"),
    ("F-174", "cute-cpp", "flatten", ["4"], "4"),
    ("F-175", "cute-dsl", "coalesce", ["(2,(2,2)):(1,(2,4))", "()"], "_8:_1"),
]
