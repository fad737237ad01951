"""The fast paths of impl's algebra (impl/algebra.py, compose.py, divide.py)
against the spec and against impl's own general paths.

Each special case the optimisation added is checked on inputs built to reach it: the
one-pass complement sorted by stride alone (ties of stride), composition with a coalesced
left operand of one mode (``_scale_tree``), the one-mode right inverse, the padded rank
products, and the static/dynamic propagation of the unary operations (printed form, the
strictest level, seed 003).  Per-call overhead on small layouts): a leaf composed
with one mode or split over several (only its end is checked for carries), tuple tilers
taken apart entry by entry, the results that are an input (coalesce of a coalesced flat
layout), the right inverse as a chain of strides, the normal forms an impl Layout keeps
(flat and coalesced modes: an operation on a reused object prints as on a fresh one), and
the static ones and zeros shared by identity (a layout built with other ``C(1)`` objects
prints the same results).  The benchmark corpora must run without any evaluation over a
domain (the exact fallback of composition and ``values`` are made to fail).
"""

import sys
from pathlib import Path

import layoutcheck.impl as I
import layoutcheck.impl.algebra as IA
import layoutcheck.impl.compose as IC
import layoutcheck.spec as S
import pytest
from hypothesis import given
from hypothesis import strategies as st
from layoutcheck.fuzz.strategies.algebra import divide_args, layouts, product_args

from layoutcheck.errors import LayoutError
from layoutcheck.integers import C
from layoutcheck.layout import LayoutBase


def outcome(fn, *args, **kw):
    """("ok", value) or ("raised", condition)."""
    try:
        return "ok", fn(*args, **kw)
    except LayoutError as e:
        return "raised", e.condition


def same_structure(op, *args, **kw):
    a, b = outcome(getattr(S, op), *args, **kw), outcome(getattr(I, op), *args, **kw)
    assert a[0] == b[0], (op, [str(x) for x in args], a, b)
    if a[0] == "ok":
        assert a[1] == b[1], (op, [str(x) for x in args], str(a[1]), str(b[1]))
    else:
        assert a[1] == b[1], (op, [str(x) for x in args], a[1], b[1])
    return b


# --- complement: one pass, sorted by stride alone --------------------------------------------

@pytest.mark.parametrize("text", [
    "(2,2):(4,4)", "(2,3):(2,2)", "(3,2):(2,2)", "(2,2,2):(1,4,4)",   # tied non-zero strides
    "(2,2):(0,1)", "(2,1):(1,0)", "(1,4):(0,1)",                      # stride 0, size 1
    "(2,4):(1,2)", "(4,2):(2,1)", "(2,(3,2)):(12,(1,3))", "1:0", "(1,1):(3,5)",
])
@pytest.mark.parametrize("sense", ["paper", "cute"])
def test_complement_cases(text, sense):
    for N in (None, 8, 24, 48, 100):
        same_structure("complement", text, N, sense=sense)
        assert I.is_complementable(text, N, sense=sense) == S.is_complementable(text, N,
                                                                                sense=sense)


# --- composition with coalesce(A) of one mode --------------------------------------------------

@pytest.mark.parametrize("a", ["16:2", "(4,4):(1,4)", "(2,(2,4)):(3,(6,12))", "1:0", "8:_1"])
@pytest.mark.parametrize("b", ["(2,(1,2)):(1,(5,2))", "((2,2),2):((1,0),8)", "(1,(2,1)):(0,(3,7))",
                               "(4,2):(1,4)", "((1,1),(1,1)):((1,2),(3,0))", "(2,2):(4,1)"])
@pytest.mark.parametrize("sense", ["paper", "cute"])
def test_composition_single_mode_left(a, b, sense):
    assert len(IA.coalesced_pairs(IA.flat_pairs_of(I.parse(a)))[0]) <= 1
    same_structure("composition", a, b, sense=sense)


# --- right inverse of one mode, rank products --------------------------------------------------

@pytest.mark.parametrize("text", ["8:1", "8:_1", "8:2", "1:0", "(1,1):(0,4)", "(2,4):(1,2)",
                                  "(4,1):(_1,5)", "(2,2):(2,1)"])
def test_inverses_small_cases(text):
    R = same_structure("right_inverse", text)[1]
    L = I.parse(text)
    assert all(L(int(R(i))) == i for i in range(int(I.size(R))))
    same_structure("left_inverse", text)


@pytest.mark.parametrize("a,b", [("(2,4):(1,2)", "(3,2):(1,3)"), ("4:1", "(2,2):(1,2)"),
                                 ("(2,2):(1,2)", "3:1"), ("((2,2),3):((1,2),4)", "(2,(2,2)):(1,(2,4))")])
def test_rank_products(a, b):
    for op in ("blocked_product", "raked_product"):
        P = same_structure(op, a, b)[1]
        assert I.size(P) == I.size(a) * I.size(b)


# --- printed agreement (staticness) of the unary operations -----------------------------------

@given(layouts(max_size=128, static=None))
def test_unary_ops_print_like_spec(L):
    """The fast paths compute values with plain ints where they can; the printed results
    (static ``_n`` or dynamic ``n``) must still be the spec's."""
    for op in ("coalesce", "filter", "complement", "right_inverse", "left_inverse"):
        a, b = outcome(getattr(S, op), L), outcome(getattr(I, op), L)
        assert a[0] == b[0], (op, str(L), a, b)
        assert str(a[1]) == str(b[1]), (op, str(L), str(a[1]), str(b[1]))


@given(layouts(max_size=64), st.sampled_from(["2:1", "4:2", "(2,2):(1,4)", 3]))
def test_divide_product_forms_agree(A, T):
    """zipped/tiled/flat forms are built from the raw pair of logical_divide/product."""
    for op in ("zipped_divide", "tiled_divide", "flat_divide", "zipped_product",
               "tiled_product", "flat_product"):
        if hasattr(S, op):
            same_structure(op, A, T)


# --- composition of a leaf, tuple tilers, inputs returned, right inverse -----------

LEFT = ["8:1", "8:_1", "(8):(1)", "(4,8):(1,4)", "(4,8):(_1,4)", "(4,8):(8,1)", "(4,8):(8,_1)",
        "(2,4,8):(32,8,1)", "(4,3):(1,5)", "1:0", "(1,4):(0,2)", "((2,2),4):((1,2),4)"]
LEAVES = ["2:1", "4:2", "2:_1", "1:3", "3:0", "8:1", "16:1", "32:1", "64:1", "2:6", "_4:_2", 4]


@pytest.mark.parametrize("a", LEFT)
@pytest.mark.parametrize("b", LEAVES)
@pytest.mark.parametrize("sense", ["paper", "cute"])
def test_composition_with_a_leaf(a, b, sense):
    """One mode (written out in composition and _compose_raw) or several (the leaf splits;
    only its end in the last mode is checked), both senses, including the refusals and the
    exact fallback ((4,3):(1,5) with 2:6)."""
    kind, R = same_structure("composition", a, b, sense=sense)
    B = I.parse(b) if isinstance(b, str) else I.Layout(b, C(1))  # an int n is n:_1
    a_s, a_d = IA.coalesced_modes(I.parse(a))
    if kind == "ok" and len(a_s) == 1:
        t, e = B.shape, B.stride  # t:(e d) with CuTe's static arithmetic (seed 003)
        expected = I.Layout(t, e) if e == 0 else I.Layout(t, C(0)) if t == 1 else \
            I.Layout(t, e * a_d[0])
        assert str(R) == str(expected)


@given(divide_args(max_size=64, static=None), st.sampled_from(["paper", "cute"]), st.booleans())
def test_tilers_entry_by_entry(args, sense, underscore):
    """Tuple tilers (and ints, and `_` entries) go through _compose_mode / _modewise /
    _unzip; the results agree with the spec as structures."""
    A, T = args
    if underscore and isinstance(T, tuple) and len(T) > 1:
        T = (I._,) + T[1:]
    for op in ("composition", "logical_divide", "zipped_divide", "tiled_divide",
               "logical_product", "zipped_product"):
        same_structure(op, A, T, sense=sense)


@pytest.mark.parametrize("text", ["(4,8):(8,1)", "(2,4,8):(32,8,1)", "8:3", "(3,4):(4,1)"])
def test_coalesced_flat_input_is_returned(text):
    L = I.parse(text)
    assert I.coalesce(L) is L and I.filter(L) is L
    assert I.coalesce(L) == S.coalesce(text)


@pytest.mark.parametrize("text", ["(8):(1)", "((4,8)):((8,1))", "(4,(8)):(8,(1))",
                                  "((2,3),()):((1,2),())", "(4,1):(8,1)", "(4,8):(1,4)"])
def test_other_inputs_are_rebuilt(text):
    """A 1-tuple, a nested tuple (even one with as many leaves as entries), a dropped or a
    merged mode: the result is a new layout, CuTe's."""
    L = I.parse(text)
    R = I.coalesce(L)
    assert R is not L
    assert str(R) == str(S.coalesce(text))


@pytest.mark.parametrize("text", ["(2,2):(1,1)", "(2,3,2):(1,2,6)", "(4,2,2):(2,1,8)",
                                  "(2,2,2):(4,1,2)", "(3,2):(2,1)", "(2,(2,2)):(1,(1,2))"])
def test_right_inverse_chain_of_strides(text):
    R = same_structure("right_inverse", text)[1]
    L = I.parse(text)
    assert all(L(int(R(i))) == i for i in range(int(I.size(R))))


# --- kept normal forms and shared static ones ---------------------------------------

OPS1 = ["coalesce", "filter", "complement", "right_inverse", "left_inverse"]
OPS2 = ["composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
        "logical_product", "zipped_product", "tiled_product", "blocked_product",
        "raked_product"]


def _printed(op, *args, **kw):
    try:
        return str(getattr(I, op)(*args, **kw))
    except LayoutError as e:
        return ("raised", e.condition)


def _fresh(x):
    """An equal value made of new objects: new impl Layouts, every static leaf a new C."""
    def leaf(v):
        return tuple(leaf(t) for t in v) if isinstance(v, tuple) else \
            C(int(v)) if type(v) is C else v
    if isinstance(x, tuple):
        return tuple(_fresh(t) for t in x)
    if isinstance(x, LayoutBase):
        return I.Layout(leaf(x.shape), leaf(x.stride))
    return x


@given(st.one_of(divide_args(max_size=64, static=None),
                 product_args(max_size=32, static=None, valid=False)),
       st.sampled_from(["paper", "cute"]))
def test_reused_objects_print_as_fresh_ones(args, sense):
    """Every op on objects that already keep their flat and coalesced modes (computed by
    the other ops) prints the same as on fresh objects whose static leaves are new C
    objects (so that identity shortcuts on _C1 / _C0 cannot change a result's staticness)."""
    A, T = _fresh(args[0]), _fresh(args[1])
    for op in OPS1:
        kw = {"sense": sense} if op == "complement" else {}
        first = _printed(op, A, **kw)
        assert _printed(op, A, **kw) == first == _printed(op, _fresh(A), **kw), op
    for op in OPS2:
        if op in ("blocked_product", "raked_product") and not isinstance(T, LayoutBase):
            continue
        first = _printed(op, A, T, sense=sense)
        assert _printed(op, A, T, sense=sense) == first == \
            _printed(op, _fresh(A), _fresh(T), sense=sense), (op, str(A), T)


def test_flat_modes_share_the_static_one_and_zero():
    L = I.Layout((C(4), 8, C(1)), (C(1), 4, C(0)))
    fm = I.layout.flat_modes(L)
    assert fm == ((4, 1), (8, 4), (1, 0))
    assert fm[0][1] is IA.C1 and fm[2][1] is IA.C0  # the strides
    assert [type(x) for m in fm for x in m] == [C, C, int, int, C, C]
    assert I.layout.flat_modes(I.Layout(8, C(1)))[0][1] is IA.C1
    cm = IA.coalesced_modes(L)
    assert cm is L._cm and cm is IA.coalesced_modes(L)  # computed once, kept
    assert str(IA.build_layout(*cm)) == str(S.coalesce(L))


# --- no evaluation inside the algebra on the benchmark corpora ---------------------------------

@pytest.mark.parametrize("which", ["main", "tiny"])
def test_benchmark_corpus_runs_without_evaluation(monkeypatch, which):
    pytest.importorskip("pycute")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    try:
        import corpus
    finally:
        sys.path.pop(0)
    ops = corpus.UNARY + corpus.BINARY
    cases = {op: corpus.cases(op, which) for op in ops}  # built before evaluation is cut off

    def no_evaluation(*a, **k):
        raise AssertionError("an algebra operation evaluated a layout over its domain")

    monkeypatch.setattr(IC, "_compose_exact", no_evaluation)
    monkeypatch.setattr(I.layout, "values", no_evaluation)
    monkeypatch.setattr(I.basic, "values", no_evaluation)
    for op in ops:
        assert cases[op], op
        for args in cases[op]:
            getattr(I, op)(*args)
