"""Predicates of the findings in pycute's API beyond the algebra (F-170..F-172).

Region predicates (``when``: ``fn(*inputs)``) and symptom predicates (``answer``:
``fn(inputs, answer, reference)``), per DESIGN.md "Answer-precise findings": a symptom is
True only when pycute's answer is exactly what the finding describes, recomputed here from
pycute's source (nvidia-cutlass 4.2.0.0 ``pycute/layout.py``, ``pycute/int_tuple.py``) with
the spec doing every step pycute does the way CuTe does.
"""

import layoutcheck.oracles.pycute_wheel.model as models
import layoutcheck.spec as spec
from layoutcheck.oracles.predicates import answered, region, symptom

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase, Underscore

__all__ = []


# --- F-170: pycute slices a layout at a bare _ into a rank-1 tuple ----------------------------

@region
def bare_underscore_coordinate(L=None, c=None, *rest):
    """F-170: the coordinate is ``_`` itself (not a tuple holding it)."""
    return isinstance(L, LayoutBase) and isinstance(c, Underscore)


@symptom
def pycute_wraps_whole_slice(inputs, answer, reference, op=None):
    """pycute's ``Layout.__call__(None)`` is ``Layout(slice_(None, shape), slice_(None,
    stride))`` and ``slice_(None, t) = (t,)``: the layout wrapped as one mode (offset 0)."""
    L = inputs[0] if inputs else None
    if not (answered(answer) and isinstance(L, LayoutBase)):
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


@region
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
    if len(inputs) < 2 or not tile_tuple_holds_underscore(*inputs[:2]) or not answered(answer) \
            or op not in ("zipped_divide", "tiled_divide", "zipped_product", "tiled_product"):
        return False
    A, T = inputs[0], inputs[1]
    modelled = models.answer(op, A, T)  # pycute's whole algorithm: its products of stride-0 modes too
    if modelled is not None:
        return models.matches(answer, modelled)
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


@region
def crd2crd_needs_src_below_top(c=None, dst=None, src=None, *rest):
    """F-172: crd2crd(c, dst, src) whose mode-by-mode recursion needs src below the top."""
    return src is not None and _needs_src_below(c, dst)


@symptom
def pycute_asserts(inputs, answer, reference):
    """pycute raised its bare ``AssertionError`` (the assert in crd2crd has no message)."""
    return answer is not None and answer.kind == "raised" and answer.message == "AssertionError (no message)"


# --- F-262: pycute's crd2crd checks a tuple coordinate against no integer dst ---------------

def _plain_leaves_nonneg(t):
    if isinstance(t, tuple):
        return all(_plain_leaves_nonneg(e) for e in t)
    return isinstance(t, int) and not isinstance(t, bool) and int(t) >= 0


@region
def crd2crd_tuple_past_integer_dst(c=None, dst=None, src=None, *rest):
    """F-262: crd2crd(c, dst, src) with a tuple c in src's domain and an integer dst that its
    index crd2idx(c, src) does not fit (the spec refuses: condition ``in_domain``)."""
    if rest or not isinstance(c, tuple) or isinstance(dst, tuple) or src is None \
            or not all(_plain_leaves_nonneg(x) for x in (c, dst, src)):
        return False
    try:
        return spec.crd2idx(c, src) >= int(dst)
    except LayoutError:
        return False


@symptom
def pycute_crd2crd_unchecked(inputs, answer, reference):
    """pycute answered crd2idx(c, src), the index past dst, as its tuple-int branch computes it."""
    if not answered(answer) or len(inputs) != 3:
        return False
    c, _, src = inputs
    return not isinstance(answer.value, tuple) and int(answer.value) == spec.crd2idx(c, src)


# --- F-173 / F-174 / F-175: CuTe's own conventions beyond the algebra -------------------------


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
    ("F-262", "pycute", "crd2crd", ["(1,1)", "3", "(2,2)"], "3"),
    ("F-173", "cute-dsl", "layout_left", ["(2,(1,4))"], "(_2,(_1,_4)):(_1,(_0,_2))"),
    ("F-173", "cute-cpp", "layout_left", ["(2,(_1,4))"], "(2,(_1,4)):(_1,(_0,2))"),
    ("F-173", "cute-cpp", "prefix_product", ["(2,(_1,4))"], "(_1,(_0,2))"),
    ("F-174", "cute-dsl", "flatten", ["4"], "_4"),
    ("F-174", "cute-cpp", "flatten", ["4"], "4"),
    ("F-175", "cute-dsl", "coalesce", ["(2,(2,2)):(1,(2,4))", "()"], "_8:_1"),
]
