"""Oracles that answer a batch much faster than one case (cute-cpp compiles one program per
batch; cute-dsl traces in a worker): the campaign draws a batch of cases, answers every
oracle call a stage at a time through one ``run_many``, then judges each case from the cache.
A failing case is the smallest of its batch (not shrunk further: each shrink step would cost
a compile)."""

import random
import time
from functools import lru_cache

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hseed
from hypothesis import strategies as st
from hypothesis.control import BuildContext
from hypothesis.errors import UnsatisfiedAssumption
from hypothesis.internal.conjecture.choice import choice_permitted, choice_size
from hypothesis.internal.conjecture.data import ChoiceNode, ConjectureData
from layoutcheck.fuzz.campaign.provider import backend_settings, data_settings
from layoutcheck.fuzz.checks.base import Skip
from layoutcheck.fuzz.checks.bounds import bounded
from layoutcheck.oracles.reference import case_key

__all__ = ["BATCHED", "BATCH_CASES", "Prefetching", "draw_cases", "draw_pool", "first_stage",
           "prefetch", "tolerant"]

BATCHED = ("cute-cpp", "cute-dsl")
BATCH_CASES = 64   # cases drawn per batch
STAGES = 6         # a law's later calls depend on earlier answers: at most this many rounds
PART = 256         # cases per run_many call
PER_EXAMPLE = 32   # cases per hypothesis example when drawing a batch
MAX_PER_EXAMPLE = 128


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


def _record(proxy, check, ctx, cases):
    """One recording pass over ``cases`` (``proxy.recording`` set): every oracle call the
    check makes without a cached answer lands in ``proxy.misses``; returns the indexes of
    the cases that made one."""
    waiting = set()
    for i, args in enumerate(cases):
        before = len(proxy.misses)
        try:
            with bounded(args):
                check.run(ctx, args)
        except Exception:  # noqa: BLE001 - misses are recorded; cases judged later
            pass
        if len(proxy.misses) > before:
            waiting.add(i)
    return waiting


def first_stage(proxy, check, ctx, cases):
    """The oracle calls ``check`` makes on ``cases`` before it needs any answer (the first
    stage of ``prefetch``), recorded without calling the oracle."""
    proxy.recording = True
    try:
        _record(proxy, check, ctx, cases)
    finally:
        proxy.recording = False
    calls, proxy.misses = proxy.misses, []
    return list({(op, case_key(a)): (op, a) for op, a in calls}.values())


def prefetch(proxy, check, ctx, cases, until=None):
    """Answer, stage by stage, every oracle call the check makes on ``cases``.  Past
    ``until`` (monotonic; the campaign's deadline) no further stage starts: returns the
    indexes of the cases then still waiting for answers (they are not judged), else an
    empty set."""
    proxy.recording = True
    try:
        for stage in range(STAGES):
            waiting = _record(proxy, check, ctx, cases)
            if not waiting:
                break
            if stage and until is not None and time.monotonic() > until:
                proxy.misses = []
                return waiting
            proxy.fill()
    finally:
        proxy.recording = False
    return set()


@st.composite
def tolerant(draw, strategy):
    """One case of ``strategy``, or None where the strategy rejected its draw (``assume``):
    with many cases per example, one rejected case must not discard the whole example
    (the others are drawn and valid); the None is not judged."""
    try:
        return draw(strategy)
    except UnsatisfiedAssumption:
        return None


def _key(case):
    return None if case is None else case_key(case)


def draw_cases(strategy, n, seed_value):
    """Up to n distinct argument tuples drawn by hypothesis with a fixed seed (no test, no
    shrinking; a case the strategy rejects is left out).

    They are drawn as lists of ``PER_EXAMPLE`` or more distinct cases, a few examples in all: hypothesis' cost per example is shared by the list, and with at most ten
    examples the engine runs no "mutations" (copies of earlier examples' spans).  Drawn one
    case per example, 12-25% of a 64-case batch were repeats and a case cost 2-3.4 ms;
    as lists, none repeats and a case costs 0.7-0.9 ms (diff.composition, diff.crd2idx).
    New choices come from ``provider.FastProvider`` (nothing here is shrunk)."""
    out, seen = [], set()
    k = max(1, min(MAX_PER_EXAMPLE, max(PER_EXAMPLE, -(-n // 8)), n))
    cases = st.lists(tolerant(strategy), min_size=k, max_size=k, unique_by=_key)

    @settings(max_examples=-(-n // k), database=None, deadline=None, verbosity=Verbosity.quiet,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate],
              **backend_settings())
    @hseed(seed_value)
    @given(cases)
    def collect(drawn):
        for args in drawn:
            key = None if args is None else case_key(args)
            if key is not None and key not in seen:
                seen.add(key)
                out.append(args)
    collect._hypothesis_internal_database_key = None  # no database: no hash of the source
    collect()
    return out[:n]


# --- reuse pools: cases drawn with their choices, and neighbours of them -------------

def _recorded(strategy, rnd, prefix=()):
    """(case, choice nodes) drawn by hypothesis' ConjectureData directly (no engine, no test
    function), ``prefix`` replayed first; None where the strategy rejected the draw."""
    data = _recorder()(random=rnd, prefix=list(prefix) or None, **data_settings())
    try:
        with BuildContext(data, is_final=False, wrapped_test=None):
            case = data.draw(strategy)
    except Exception:  # noqa: BLE001 - a rejected or overrun draw: no case
        return None
    return case, tuple(data.nodes)


@lru_cache(maxsize=1)
def _recorder():
    """The ConjectureData class of reuse pools: ``_Recorder`` where this hypothesis has the
    internals it uses, else ConjectureData itself."""
    try:
        pass
    except ImportError:  # pragma: no cover - another hypothesis layout
        return ConjectureData

    class _Recorder(ConjectureData):
        """ConjectureData whose plain integer and boolean choices (no ``forced``) are made as
        ``ConjectureData._draw`` makes them (the prefix's value where it fits the
        constraints, else the provider's draw, so the same values from the same random
        stream) but without its bookkeeping for the engine: argument checks, pooled
        constraint dicts, the observer (a no-op here).  A reuse pool's cases are judged, never
        shrunk or replayed by an engine; ``tests/test_reuse_batches.py`` checks that the
        cases and choices are those of ConjectureData.  Anything else (a prefix value that
        does not fit, a forced or unobserved choice, an overrun) is ConjectureData's own."""

        def draw_integer(self, min_value=None, max_value=None, *, weights=None,
                         shrink_towards=0, forced=None, observe=True):
            constraints = {"min_value": min_value, "max_value": max_value, "weights": weights,
                           "shrink_towards": shrink_towards}
            if forced is not None or not observe or min_value is None or max_value is None:
                return super().draw_integer(min_value, max_value, weights=weights,
                                            shrink_towards=shrink_towards, forced=forced,
                                            observe=observe)
            return self._choose("integer", int, constraints)

        def draw_boolean(self, p=0.5, *, forced=None, observe=True):
            if forced is not None or not observe or not 0 < p < 1:
                return super().draw_boolean(p, forced=forced, observe=observe)
            return self._choose("boolean", bool, {"p": p})

        def _choose(self, kind, typ, constraints):
            nodes, prefix, i = self._nodes, self.prefix, self.index
            if self.length >= self.max_length or len(nodes) == self.max_choices:
                return self._draw(kind, constraints, observe=True, forced=None)
            if prefix is not None and i < len(prefix):
                value = prefix[i]
                if type(value) is not typ or not choice_permitted(value, constraints):
                    return self._draw(kind, constraints, observe=True, forced=None)
                self.index = i + 1
            else:
                value = getattr(self.provider, f"draw_{kind}")(**constraints)
            size = choice_size(value)
            if self.length + size > self.max_length:
                self.mark_overrun()
            nodes.append(ChoiceNode(type=kind, value=value, constraints=constraints,
                                    was_forced=False, index=len(nodes)))
            self._ConjectureData__span_record.record_choice()
            self.length += size
            return value

    return _Recorder if same_draws(_Recorder, ConjectureData) else ConjectureData


def same_draws(recorder, plain):
    """Whether ``recorder`` draws what ``plain`` draws (cases and choices, fresh and replayed
    with a prefix, seeded) on a small strategy: a check of the internals it relies on."""

    strategy = st.tuples(st.lists(st.integers(0, 300), max_size=4), st.booleans(),
                         st.sampled_from("abc"), st.integers(-5, 5))

    def draw(cls, seed, prefix=None):
        data = cls(random=random.Random(seed), prefix=prefix)
        with BuildContext(data, is_final=False, wrapped_test=None):
            return data.draw(strategy), [(n.type, n.value) for n in data.nodes]
    try:
        for seed in range(8):
            case, nodes = draw(plain, seed)
            prefix = [v for _, v in nodes][:3] + [True, 7]  # a prefix that partly misfits
            if draw(recorder, seed) != (case, nodes) or \
                    draw(recorder, seed, prefix) != draw(plain, seed, prefix):
                return False
    except Exception:  # noqa: BLE001 - internals this hypothesis does not have
        return False
    return True


NEIGHBOUR_WIDTH = 8  # a neighbour redraws integer choices of at least this many values


def neighbour(nodes, rnd):
    """The choices of ``nodes`` with one or two bounded integer choices redrawn: choices with
    at least NEIGHBOUR_WIDTH values where there are some (those are mostly extents and
    strides; a narrow choice or a boolean more often picks a rank or a nesting, hence
    another C++ type: ``benchmarks/reuse_neighbours.py``, 14 checks, 0.80 reusable neighbours
    a draw against 0.64 when any bounded integer choice was redrawn), else any bounded
    integer or boolean choice."""
    values = [n.value for n in nodes]
    bounded = [i for i, n in enumerate(nodes) if n.type == "integer"
               and n.constraints.get("min_value") is not None
               and n.constraints.get("max_value") is not None]
    spots = [i for i in bounded if nodes[i].constraints["max_value"]
             - nodes[i].constraints["min_value"] >= NEIGHBOUR_WIDTH] or \
        bounded + [i for i, n in enumerate(nodes) if n.type == "boolean"]
    for i in rnd.sample(spots, min(len(spots), rnd.choice((1, 1, 2)))):
        n = nodes[i]
        values[i] = (rnd.random() < 0.5) if n.type == "boolean" else \
            rnd.randint(n.constraints["min_value"], n.constraints["max_value"])
    return values


def draw_pool(strategy, n, seed_value, near=()):
    """Up to n distinct cases as ``[(case, nodes)]``, about three in four of them neighbours of ``near``
    (pairs from an earlier pool: the same choices with one or two of them redrawn, so mostly
    the same nesting with other values) and the rest drawn afresh, by a seeded generator;
    None where this hypothesis lacks the internals it uses (then use ``draw_cases``)."""
    rnd = random.Random(seed_value)
    out, seen = [], set()
    near = list(near)
    try:
        for k in range(2 * n):
            if len(out) >= n:
                break
            base = near[rnd.randrange(len(near))] if near and k % 4 else None
            got = _recorded(strategy, rnd, neighbour(base[1], rnd) if base else ())
            key = None if got is None or got[0] is None else case_key(got[0])
            if key is None or key in seen:
                continue
            seen.add(key)
            out.append(got)
    except (ImportError, AttributeError, TypeError):  # another hypothesis: its engine instead
        return None
    return out
