"""One hypothesis choice at a time, for the strategies' plain helpers.

``draw_int(draw, lo, hi)`` and ``draw_bool(draw)`` are ``draw(st.integers(lo, hi))`` and
``draw(st.booleans())``: inside a ``@st.composite`` they make the same choice on the test
case directly (the same span and label, constraints and weights, so the shrinker sees the
same test case) without the generic ``draw``'s checks of the strategy, which were a third
of the drawing's CPU time.  With any other ``draw`` they call it.  On a reuse pool's recorder
(``batched._recorder``, a ConjectureData subclass whose cases are judged and never shrunk) they
open no span: spans do not change the values drawn, only what the shrinker can do (without
them ``tests/test_strategies.py::test_shrinks_pairs`` shrank to a 16-element layout, not 4-6).
"""

from functools import lru_cache

from hypothesis import strategies as st

try:
    from hypothesis.internal.conjecture.data import ConjectureData as _Data
except ImportError:  # pragma: no cover - another hypothesis layout: always via draw()
    _Data = ()

__all__ = ["draw_int", "draw_bool", "draw_ints", "BOOL_CHOICE"]

BOOL_CHOICE = st.booleans()
_BOOL_LABEL = BOOL_CHOICE.label


@lru_cache(maxsize=4096)
def draw_ints(lo, hi):
    """st.integers, built once per bound pair (building strategies costs more than drawing)."""
    return st.integers(lo, hi)


@lru_cache(maxsize=4096)
def _weights(lo, hi):
    """st.integers' weights for a wide bounded range (its bounds and near-bounds likelier)."""
    if hi - lo <= 127:
        return None
    return {lo: 2 / 128, lo + 1: 1 / 128, hi - 1: 1 / 128, hi: 2 / 128}


@lru_cache(maxsize=4096)
def _label(lo, hi):
    return draw_ints(lo, hi).label


def draw_int(draw, lo, hi):
    """An integer in [lo, hi]: one choice, shrinking toward lo (no choice when lo == hi)."""
    if hi <= lo:
        return lo
    data = getattr(draw, "__self__", None)
    if type(data) is _Data:  # the engine's test case: st.integers' own span, for the shrinker
        data.start_span(_label(lo, hi))
        try:
            return data.draw_integer(lo, hi, weights=_weights(lo, hi))
        finally:
            data.stop_span()
    if isinstance(data, _Data):  # a reuse pool's recorder: never shrunk
        return data.draw_integer(lo, hi, weights=_weights(lo, hi))
    return draw(draw_ints(lo, hi))


def draw_bool(draw):
    """One boolean choice (``st.booleans()``), made directly like ``draw_int``."""
    data = getattr(draw, "__self__", None)
    if type(data) is _Data:
        data.start_span(_BOOL_LABEL)
        try:
            return data.draw_boolean()
        finally:
            data.stop_span()
    if isinstance(data, _Data):
        return data.draw_boolean()
    return draw(BOOL_CHOICE)
