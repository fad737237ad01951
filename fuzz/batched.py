"""Oracles that answer a batch much faster than one case (cute-cpp compiles one program per
batch; cute-dsl traces in a worker): the campaign draws a batch of cases, answers every
oracle call a stage at a time through one ``run_many``, then judges each case from the cache.
A failing case is the smallest of its batch (not shrunk further: each shrink step would cost
a compile)."""

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hseed

from .bounds import bounded
from .properties import Skip
from .targets import case_key

__all__ = ["BATCHED", "BATCH_CASES", "Prefetching", "draw_cases", "prefetch"]

BATCHED = ("cute-cpp", "cute-dsl")
BATCH_CASES = 64   # cases drawn per batch
STAGES = 6         # a law's later calls depend on earlier answers: at most this many rounds
PART = 256         # cases per run_many call


class _Miss(Skip):
    """No cached answer yet: the call is recorded for the next stage."""


class Prefetching:
    """Wraps a batched oracle: answers from a cache; while recording, a cache miss is noted
    (and the check stops with _Miss) so that one run_many call answers a whole stage."""

    def __init__(self, oracle):
        self.oracle, self.name = oracle, oracle.name
        self.cache, self.misses, self.recording = {}, [], False

    def unavailable_reason(self):
        return self.oracle.unavailable_reason()

    def stats(self):
        fn = getattr(self.oracle, "stats", None)
        return fn() if callable(fn) else {}

    def run(self, op, *args):
        key = (op, case_key(args))
        if key not in self.cache:
            if self.recording:
                self.misses.append((op, args))
                raise _Miss(op)
            self.cache[key] = self.oracle.run(op, *args)
        return self.cache[key]

    def run_many(self, cases):
        return [self.run(op, *args) for op, args in cases]

    def fill(self):
        todo = list({(op, case_key(a)): (op, a) for op, a in self.misses}.values())
        self.misses = []
        for k in range(0, len(todo), PART):
            part = todo[k:k + PART]
            for (op, a), out in zip(part, self.oracle.run_many(part)):
                self.cache[(op, case_key(a))] = out
        return len(todo)


def prefetch(proxy, check, ctx, cases):
    """Answer, stage by stage, every oracle call the check makes on ``cases``."""
    proxy.recording = True
    try:
        for _ in range(STAGES):
            for args in cases:
                try:
                    with bounded(args):
                        check.run(ctx, args)
                except Exception:  # noqa: BLE001 - misses are recorded; cases judged later
                    pass
            if not proxy.fill():
                break
    finally:
        proxy.recording = False


def draw_cases(strategy, n, seed_value):
    """n argument tuples drawn by hypothesis with a fixed seed (no test, no shrinking)."""
    out = []

    @settings(max_examples=n, database=None, deadline=None, verbosity=Verbosity.quiet,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @hseed(seed_value)
    @given(strategy)
    def collect(args):
        out.append(args)
    collect()
    return out
