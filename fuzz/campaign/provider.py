"""A cheaper source of random choices for the campaign's hypothesis runs.

``FastProvider`` is a hypothesis backend (hypothesis' documented ``PrimitiveProvider``
interface, registered as ``"layoutcheck"`` in ``AVAILABLE_PROVIDERS``): it makes the
integer and boolean choices that the layout strategies draw with a few calls to the test
case's seeded ``random.Random``, where hypothesis' own provider maps each integer through its
float64 distribution (two CDF evaluations, a sampler for the weights, a 5% chance of a
scanned constant): 15-20 µs of a 20-30 µs choice (cProfile, ``divide_args``).  What the
backend changes is only where *new* values come from:

- the engine still records every choice, so a failing case is replayed on hypothesis' own
  provider (the engine does this for every non-default backend, and reports a flaky failure
  otherwise) and shrunk by hypothesis' shrinker exactly as before;
- a non-default backend skips hypothesis' DataTree (no novel-prefix search, no tree
  bookkeeping per choice): the campaign already skips cases a pair judged
  (``_Runner.fresh``), so a repeat costs its draw only;
- the values keep hypothesis' shape: bounds and weighted values as often as hypothesis
  weights them, small offsets from the lower bound more often than large ones (a quarter of
  the draws log-uniform in the offset's bit length, the rest uniform over the range); the
  engine still runs each run's simplest example (every choice minimal) on its own provider.

Floats, strings and bytes (the layout strategies draw none) go to hypothesis' provider.
The campaign uses this backend after a pair's first hypothesis run, which stays on
hypothesis' provider with its search of small cases (DESIGN.md "Where new choices come from").
"""
from hypothesis import settings

try:
    from hypothesis.internal.conjecture.providers import (
        AVAILABLE_PROVIDERS,
        HypothesisProvider,
        PrimitiveProvider,
    )
except ImportError:  # pragma: no cover - a hypothesis without backends: its own provider
    AVAILABLE_PROVIDERS, PrimitiveProvider = None, object

__all__ = ["BACKEND", "FastProvider", "backend_settings", "data_settings"]


class FastProvider(PrimitiveProvider):
    """Integers and booleans from the test case's own seeded random stream."""

    lifetime = "test_case"

    def __init__(self, conjecturedata, /):
        super().__init__(conjecturedata)
        self._random = conjecturedata._random
        self._other = None

    def _hypothesis(self):
        if self._other is None:
            self._other = HypothesisProvider(self._cd)
        return self._other

    def draw_boolean(self, p=0.5):
        return self._random.random() < p

    def draw_integer(self, min_value=None, max_value=None, *, weights=None, shrink_towards=0):
        """Bounded: a weighted value with its weight, else three in four uniform over the range,
        one in four the lower bound plus an offset of a uniform bit length (small offsets
        likelier).  Unbounded: hypothesis' own draw."""
        if min_value is None or max_value is None:
            return self._hypothesis().draw_integer(min_value, max_value, weights=weights,
                                                   shrink_towards=shrink_towards)
        rnd = self._random
        u = rnd.random()
        if weights:
            for value, p in weights.items():
                if u < p:
                    return value
                u -= p
            u = rnd.random()
        span = max_value - min_value
        if span <= 0:
            return min_value
        if span >= 1 << 52:  # beyond a double's exact integers
            return min_value + rnd.randint(0, span)
        if u < 0.75:  # u / 0.75 is uniform in [0, 1)
            return min_value + _scaled(u / 0.75, span)
        offset = rnd.getrandbits(1 + int((u - 0.75) * 4 * span.bit_length()))
        return min_value + (offset if offset <= span else _scaled(rnd.random(), span))

    def draw_float(self, **kw):
        return self._hypothesis().draw_float(**kw)

    def draw_string(self, intervals, **kw):
        return self._hypothesis().draw_string(intervals, **kw)

    def draw_bytes(self, **kw):
        return self._hypothesis().draw_bytes(**kw)


def _scaled(x, span):
    """An integer in [0, span] from x uniform in [0, 1) (min: float rounding of x * (span + 1)
    may reach span + 1)."""
    return min(span, int(x * (span + 1)))


def _register():
    """The backend's name where this hypothesis takes it in ``settings``, else hypothesis'."""
    if AVAILABLE_PROVIDERS is None:
        return "hypothesis"
    AVAILABLE_PROVIDERS.setdefault("layoutcheck", FastProvider)
    try:
        settings(backend="layoutcheck")
    except Exception:  # noqa: BLE001 - an older hypothesis: no backend setting
        return "hypothesis"
    return "layoutcheck"


BACKEND = _register()


def backend_settings(fast=True):
    """The ``settings`` keywords for a run on this backend (``fast``) or hypothesis' own."""
    return {"backend": BACKEND if fast else "hypothesis"} if BACKEND != "hypothesis" else {}


def data_settings():
    """The keywords for a ConjectureData driven directly (reuse pools) on this backend."""
    return {"provider": FastProvider} if BACKEND != "hypothesis" else {}
