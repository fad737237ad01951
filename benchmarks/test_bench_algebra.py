"""Algebra operations on the fixed corpora: impl vs pycute (whole corpus, and the corpus of
small layouts ``tiny``) and impl vs spec (the cases of size <= 2^10).  One timed call runs the
operation over every case of the corpus for that operation; the groups ``OP``, ``OP-tiny``
and ``OP-small`` compare like with like."""

import corpus
import layoutcheck.impl as I
import pytest

pycute = pytest.importorskip("pycute")


def _run(fn, cases):
    for args in cases:
        fn(*args)


@pytest.mark.parametrize("op", corpus.UNARY + corpus.BINARY)
def test_impl(benchmark, op):
    benchmark.group = op
    benchmark(_run, getattr(I, op), corpus.cases(op))


@pytest.mark.parametrize("op", sorted(corpus.PYCUTE_HAS))
def test_pycute(benchmark, op):
    benchmark.group = op
    benchmark(_run, getattr(pycute, op), corpus.pycute_cases(op))


@pytest.mark.parametrize("op", corpus.UNARY + corpus.BINARY)
def test_impl_tiny(benchmark, op):
    benchmark.group = op + "-tiny"
    benchmark(_run, getattr(I, op), corpus.cases(op, "tiny"))


@pytest.mark.parametrize("op", sorted(corpus.PYCUTE_HAS))
def test_pycute_tiny(benchmark, op):
    benchmark.group = op + "-tiny"
    benchmark(_run, getattr(pycute, op), corpus.pycute_cases(op, corpus="tiny"))


@pytest.mark.parametrize("op", corpus.UNARY + corpus.BINARY)
def test_impl_small(benchmark, op):
    benchmark.group = op + "-small"
    benchmark(_run, getattr(I, op), corpus.small_cases(op))


@pytest.mark.parametrize("op", corpus.UNARY + corpus.BINARY)
def test_spec_small(benchmark, op):
    import layoutcheck.spec as S
    if not hasattr(S, op):
        pytest.skip(f"spec has no {op} yet")
    benchmark.group = op + "-small"
    benchmark.pedantic(_run, args=(getattr(S, op), corpus.small_cases(op)), rounds=3,
                       iterations=1)
