"""Evaluation over the whole domain: impl.values (allocating, and with out=) vs the plain
write ``np.arange(n, dtype=dt) * 1`` of the same length and dtype, and vs pycute's and
spec's per-element ``L(i)`` timed on a sample of 4096 indices (extrapolated per element:
the group ``values-N`` reports those as time per 4096 elements, see run.py)."""

import corpus
import layoutcheck.impl as I
import numpy as np
import pytest

SAMPLE = 4096


@pytest.mark.parametrize("n", corpus.EVAL_SIZES)
def test_impl_values(benchmark, n):
    L = corpus.eval_layout(n)
    benchmark.group = f"values-{n}"
    benchmark(I.values, L)


@pytest.mark.parametrize("n", corpus.EVAL_SIZES)
def test_impl_values_out(benchmark, n):
    L = corpus.eval_layout(n)
    out = np.empty(n, dtype=np.int32)  # the dtype values() picks: cosize < 2^31
    benchmark.group = f"values-{n}"
    benchmark(I.values, L, out=out)


@pytest.mark.parametrize("n", corpus.EVAL_SIZES)
def test_plain_write(benchmark, n):
    benchmark.group = f"values-{n}"
    benchmark(lambda: np.arange(n, dtype=np.int32) * 1)


@pytest.mark.parametrize("n", corpus.EVAL_SIZES)
def test_pycute_sample(benchmark, n):
    pycute = pytest.importorskip("pycute")
    L = corpus._pycute_layout(corpus.eval_layout(n))
    idx = np.random.default_rng(0).integers(0, n, SAMPLE).tolist()
    benchmark.group = f"values-{n}"
    benchmark(lambda: [L(i) for i in idx])


@pytest.mark.parametrize("n", corpus.EVAL_SIZES)
def test_spec_sample(benchmark, n):
    import layoutcheck.spec as S
    L = S.as_layout(corpus.eval_layout(n))
    idx = np.random.default_rng(0).integers(0, n, SAMPLE).tolist()
    benchmark.group = f"values-{n}"
    benchmark.pedantic(lambda: [L(i) for i in idx], rounds=3, iterations=1)
