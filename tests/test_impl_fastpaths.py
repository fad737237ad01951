"""The fast paths of impl's algebra (impl/algebra.py, issue 4 follow-up) against the spec.

Each special case the optimisation added is checked on inputs built to reach it: the
one-pass complement sorted by stride alone (ties of stride), composition with a coalesced
left operand of one mode (``_scale_tree``), the one-mode right inverse, the padded rank
products, and the static/dynamic propagation of the unary operations (printed form, the
strictest level, seed 003).  The benchmark corpus must run without any evaluation over a
domain (the exact fallback of composition and ``values`` are made to fail).
"""

import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

import layoutcheck.impl as I
import layoutcheck.impl.algebra as IA
import layoutcheck.impl.compose as IC
import layoutcheck.spec as S
from layoutcheck.errors import LayoutError
from layoutcheck.fuzz.strategies import layouts


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
    assert len(IA._coal(IA._fm(I.parse(a)))[0]) <= 1
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


# --- no evaluation inside the algebra on the benchmark corpus ----------------------------------

def test_benchmark_corpus_runs_without_evaluation(monkeypatch):
    pytest.importorskip("pycute")
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    try:
        import corpus
    finally:
        sys.path.pop(0)
    ops = corpus.UNARY + corpus.BINARY
    cases = {op: corpus.cases(op) for op in ops}  # built before the evaluation is cut off

    def no_evaluation(*a, **k):
        raise AssertionError("an algebra operation evaluated a layout over its domain")

    monkeypatch.setattr(IC, "_compose_exact", no_evaluation)
    monkeypatch.setattr(I.layout, "values", no_evaluation)
    monkeypatch.setattr(I.basic, "values", no_evaluation)
    for op in ops:
        assert cases[op], op
        for args in cases[op]:
            getattr(I, op)(*args)
