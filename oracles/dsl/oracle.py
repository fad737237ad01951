"""``cute-dsl``: the CuTe DSL (``nvidia-cutlass-dsl``), run the way DSL kernels run.

Every plain ``int`` leaf of a case is a runtime value (``cutlass.Int32``) and every static
``C`` leaf (``_4``) a compile-time constant, mixed cases as written, for the operations of the
*runtime path* (``oracles/dsl/runtime.py``, ``RUNTIME_OPS``: the algebra, coordinates, slices
and IntTuples): each case structure is compiled once, its runtime values run through the
compiled code, and the answer is read back exactly from a buffer the code wrote.  Two
answers are checked against each other: the trace-time answer (nesting and static parts,
``?`` for runtime values, ``?{div=N}`` where the DSL claims a divisor) and the run-time
answer (the values); an answer whose two forms disagree, or that is no valid value (a zero
extent), answers ``raised`` with ``returned ...`` (``oracles.protocol.INVALID_ANSWER``).  The
trace-time form is the ``ok`` Outcome's message.

The other operations (``values``, swizzles, composed layouts, recast, tiling) run at trace
time with every integer static (``oracles/dsl/tracetime.py``); the gate gives them and their
reference all-static inputs (``oracles/implementations.py`` ``takes_runtime_integers``).

The DSL runs in a worker process (``oracles/isolation.py``); the worker answers a batch as a
stream, and compiles and runs the runtime path in children forked from it, so a SIGFPE or a
SIGABRT of the DSL's native code answers ``crashed`` for the cases it hit (naming the case)
and the rest go on.  Compiled packs are kept in the user's cache folder across runs
(``oracles/dsl/diskcache.py``).  Integers outside the DSL's 32-bit ``int`` are unsupported.
"""

import importlib
import os
import sys
import threading
import time
from pathlib import Path

from layoutcheck.oracles.cpp.cases import CaseMix, retype
from layoutcheck.oracles.cpp.cases import mix_setting as cases_mix_setting
from layoutcheck.oracles.dsl.runtime import RuntimePath, runtime_path_problem
from layoutcheck.oracles.dsl.structures import (
    ARG_KINDS,
    check_answer_kind,
    integer_kind,
    runtime_case_problem,
    split_case,
    trace_disagreement,
)
from layoutcheck.oracles.dsl.tracetime import TraceTimeDsl
from layoutcheck.oracles.isolation import IsolatedOracle
from layoutcheck.oracles.protocol import ANSWERS, Oracle, Outcome, format_arg

from layoutcheck.errors import LayoutError

__all__ = ["CuteDslOracle", "InProcessDsl", "RUNTIME_OPS", "takes_runtime_integers", "on_runtime_path", "runtime_outcome",
           "dsl_mix", "MIX_ENV"]

CASE_TIMEOUT_S = 120

# The operations whose plain int leaves the DSL runs as runtime integers.
RUNTIME_OPS = frozenset(ARG_KINDS)

MIX_ENV = "LAYOUTCHECK_DSL_MIX"
DEFAULT_MIX = (0.3, 0.15)


def takes_runtime_integers(op):
    """Whether the cute-dsl oracle runs ``op``'s plain int leaves as runtime integers."""
    return op in RUNTIME_OPS


def on_runtime_path(op, args):
    """The case runs on the runtime path: its op and arity are the runtime path's (the forms
    the DSL lacks, complement without a cotarget and filter with a profile, answer
    ``unsupported`` on the trace-time path)."""
    if op not in RUNTIME_OPS or (op == "complement" and len(args) < 2):
        return False
    kinds = ARG_KINDS[op]
    return sum(1 for k in kinds if not k.endswith("?")) <= len(args) <= len(kinds)


PREPARE_CHUNK = 4 * 48  # cases per prepare call: a few packs at a time (oracles/dsl/packs.py)


def _runtime_key(op, args):
    """The structure key of a case of the runtime path, None for any other case."""
    if not on_runtime_path(op, args) or runtime_case_problem(op, args) is not None:
        return None
    try:
        return split_case(op, args)[0]
    except TypeError:
        return None


def _case_text(op, args):
    try:
        return f"{op}({', '.join(format_arg(a) for a in args)})"
    except Exception:  # noqa: BLE001 - a case that does not print: its op
        return op


def runtime_outcome(op, args, answer):
    """The Outcome of a runtime-path answer (oracles/dsl/runtime.py) for ``op(*args)``."""
    kind = answer[0]
    if kind == "crashed":
        return Outcome.crashed(f"cute-dsl {answer[1]} ({_case_text(op, args)})")
    if kind == "raised":
        return Outcome.raised(answer[1])
    if kind == "unsupported":
        return Outcome.unsupported(answer[1])
    value, text = answer[1], answer[2]
    try:
        want = "int" if op == "slice_" and not hasattr(value, "shape") else ANSWERS[op]
        check_answer_kind(want, value)
    except LayoutError as e:
        return Outcome.raised(f"returned {text} for {op}: {e}")
    why = trace_disagreement(text, value)
    if why:
        return Outcome.raised(why)
    return Outcome("ok", value=value, message=f"trace-time form {text}")


class InProcessDsl(Oracle):
    """The DSL in this process (what the worker runs): the runtime path and the trace-time
    path, a batch answered as a stream in order (``stream``)."""

    name = "cute-dsl"

    def __init__(self, label=None):
        self._trace = TraceTimeDsl()
        self._runtime = None
        self._no_runtime = None  # why this DSL cannot run runtime integers (None: it can)
        self.label = label

    def describe(self):
        """With a label (another release): ``nvidia-cutlass-dsl 4.4.0: cutlass at PATH``."""
        if not self.label or self._runtime is None:
            return None
        where = Path(getattr(importlib.import_module("cutlass"), "__file__", "") or "?").parent
        return f"{self.label}: cutlass at {where}"

    def _reason(self):
        reason = self._trace.reason()
        if reason is None:
            self._runtime = RuntimePath()
            why = runtime_path_problem()
            if why:
                version = getattr(importlib.import_module("cutlass"), "__version__", None)
                which = self.label or f"nvidia-cutlass-dsl {version or '(unknown version)'}"
                self._no_runtime = (f"{which} cannot run runtime integers: {why} (the runtime "
                                    "path needs nvidia-cutlass-dsl 4.5 or later); static "
                                    "integers (_4) run at trace time")
        return reason

    def _without_runtime(self, op, args):
        """A runtime-path case on a DSL that cannot run runtime integers: an all-static case
        at trace time (the same answer: nothing runs), any other unsupported."""
        try:
            static = integer_kind(op, args) == "static"
        except TypeError:
            static = False
        return self._trace.answer(op, args) if static else Outcome.unsupported(self._no_runtime)

    def stream(self, cases):
        """One Outcome per case, in order, as they come: the runtime path's cases compile and
        run in the executor while the trace-time cases are answered here."""
        if self._no_runtime:
            for op, args in cases:
                yield (self._without_runtime(op, args) if on_runtime_path(op, args)
                       else self._trace.answer(op, args))
            return
        rt = [i for i, (op, args) in enumerate(cases) if on_runtime_path(op, args)]
        where = {i: k for k, i in enumerate(rt)}
        frames = self._runtime.answers([cases[i] for i in rt]) if rt else iter(())
        got = {}
        for i, (op, args) in enumerate(cases):
            if i not in where:
                yield self._trace.answer(op, args)
                continue
            while where[i] not in got:
                got.update(next(frames))
            yield runtime_outcome(op, args, got.pop(where[i]))

    def _run_many(self, cases):
        return list(self.stream(cases))

    def stats(self):
        return self._runtime.stats() if self._runtime is not None else {}


def _holds_dsl(entry):
    """A ``sys.path`` entry from which some CuTe DSL's ``cutlass`` package imports."""
    return (Path(entry) / "cutlass" / "cute").is_dir()


class CuteDslOracle(IsolatedOracle):
    """The CuTe DSL, driven in a worker process (see the module docstring)."""

    name = "cute-dsl"

    def __init__(self, timeout=None, name=None, target=None):
        """``target`` (an ``oracles.fetch.DslTarget``): another release, imported by the worker
        from its own folder ahead of the environment, under ``name`` (``cute-dsl@4.4.0``)."""
        path = env = None
        label = forget = ()
        if target is not None:
            # the environment's DSL is reachable only through the folders its .pth adds (and
            # the namespace package that .pth imports at start-up): both are left out
            path = target.python_path() + [p for p in map(str, sys.path) if not _holds_dsl(p)]
            env, forget = target.environment(), ("nvidia_cutlass_dsl", "cutlass")
            label = (f"nvidia-cutlass-dsl {target.version}",)
        super().__init__(name or "cute-dsl", ("layoutcheck.oracles.dsl.oracle", "InProcessDsl", label),
                         timeout=timeout, default_start_timeout=CASE_TIMEOUT_S, memory_mb=0,
                         default_timeout=CASE_TIMEOUT_S, path=path, env=env, forget=forget)
        self._counts = {"runtime": 0, "static": 0, "mixed": 0, "unsupported": 0, "trace_time": 0,
                        "crashed": 0}
        self._seconds = 0.0
        self._known = set()  # structure keys answered: compiled in the worker or on disk
        self._lock = threading.Lock()
        self._worker, self._dead = (None, {}), {}  # (pid, its counters); those of dead workers

    def _run_many(self, cases):
        t0 = time.perf_counter()
        with self._lock:  # the campaign may prepare on a thread beside its own (pairs.py)
            out = super()._run_many(cases)
            self._sample_worker()
        for (op, args), o in zip(cases, out):
            key = _runtime_key(op, args)
            if key is not None and o.kind == "unsupported":  # e.g. a release before 4.5
                self._counts["unsupported"] += 1
            elif key is not None:
                self._counts[integer_kind(op, args)] += 1
                if o.kind in ("ok", "raised"):
                    self._known.add(key)
            else:
                self._counts["trace_time"] += 1
            self._counts["crashed"] += o.kind == "crashed"
        self._seconds += time.perf_counter() - t0
        return out

    def _new_structures(self, calls):
        """The runtime-path calls among ``calls`` whose structure this oracle has not answered."""
        todo, seen = [], set()
        for op, args in calls:
            key = _runtime_key(op, tuple(args))
            if key is not None and key not in self._known and key not in seen:
                seen.add(key)
                todo.append((op, tuple(args)))
        return todo

    def prepare(self, calls, until=None):
        """Compile, in few large packs, the structures of ``calls`` (``[(op, args)]``) not
        compiled yet; answer nothing (the cases run later as usual).  The campaign hands it
        the first calls of every pair (fuzz/campaign/warmstart.py).  ``until``
        (monotonic): no new chunk starts after it.  Returns the number of structures."""
        todo = self._new_structures(calls)
        t0 = time.perf_counter()
        for i in range(0, len(todo), PREPARE_CHUNK):
            if until is not None and time.monotonic() > until:
                break
            chunk = todo[i:i + PREPARE_CHUNK]
            with self._lock:
                out = IsolatedOracle._run_many(self, chunk)
                self._sample_worker()
            self._known.update(_runtime_key(op, args) for (op, args), o in zip(chunk, out)
                               if o.kind in ("ok", "raised"))
        self._seconds += time.perf_counter() - t0
        return len(todo)

    def uncompiled(self, calls):
        """How many structures of ``calls`` this oracle has not answered yet."""
        return len(self._new_structures(calls))

    def _sample_worker(self):
        """Keep the worker's counters: a worker that dies takes its own with it, so the
        counters of the workers before this one are summed in ``_dead``."""
        pid = self._proc.pid if self._proc is not None else None
        if pid != self._worker[0]:
            for k, v in self._worker[1].items():
                if isinstance(v, (int, float)):
                    self._dead[k] = self._dead.get(k, 0) + v
            self._worker = (pid, {})
        if pid is not None:
            got = self.worker_stats()
            if got:
                self._worker = (pid, got)

    def stats(self):
        """Cases by the integers they ran with (``runtime``, ``static``, ``mixed``: the runtime
        path; ``unsupported_cases``: runtime-path cases the DSL could not run; ``trace_time``: the
        other operations, all static), crashes, seconds inside
        ``run_many``, and the worker's runtime path: structures compiled and their seconds,
        structures loaded from the disk cache, rows run and their seconds, compiler children
        that died, the workers' CPU seconds (their forked children's included), summed over
        the workers a crash replaced (``worker_restarts``)."""
        s = {f"{k}_cases" if k != "crashed" else k: v for k, v in self._counts.items()}
        s["seconds"] = round(self._seconds, 3)
        with self._lock:
            self._sample_worker()
        worker = self._worker[1]
        for k in ("compiled", "compile_s", "from_disk", "rows", "run_s", "compiler_deaths", "cpu_s"):
            v = worker.get(k, 0) + self._dead.get(k, 0)
            s[k] = round(v, 3) if isinstance(v, float) else v
        s["worker_restarts"] = self.restarts
        return s

    def case_mix(self, op, cases, seed):
        """The campaign's batches for this oracle: drawn cases with mixed staticness mostly
        made all-static or all-runtime (``dsl_mix``)."""
        return dsl_mix(op, cases, seed)

    def reusing(self, op, cases):
        """For each case: the case with every integer a runtime ``int`` when that structure
        was answered before (its code compiled: no compile), else None (the campaign's reuse
        batches, fuzz/campaign/pairs.py)."""
        out = []
        for args in cases:
            dyn = retype(tuple(args), False)
            try:
                hit = on_runtime_path(op, dyn) and split_case(op, dyn)[0] in self._known
            except TypeError:
                hit = False
            out.append(dyn if hit and integer_kind(op, dyn) == "runtime" else None)
        return out


def mix_setting(text):
    """(mixed, static) from ``$LAYOUTCHECK_DSL_MIX`` text (default 0.3,0.15), or None for ``off``."""
    return cases_mix_setting(text or "", env=MIX_ENV, default=DEFAULT_MIX)


def dsl_mix(op, cases, seed, setting=None):
    """The cases of a drawn batch for the DSL: a drawn case that mixes static and runtime
    integers stays mixed with probability ``mixed``, becomes all-static with probability
    ``static`` and all-runtime otherwise (``oracles/cpp/cases.py`` ``CaseMix``; a function of
    the case and the seed).  All-runtime cases share compiled code by nesting alone; every
    kind is still sent.  ``$LAYOUTCHECK_DSL_MIX`` is ``MIXED,STATIC`` (default 0.3,0.15) or
    ``off`` (the cases as drawn)."""
    setting = mix_setting(os.environ.get(MIX_ENV, "")) if setting is None else setting
    if setting is None:
        return list(cases)
    mix = CaseMix(None, mixed=setting[0], static=setting[1], seed=seed)
    return [mix.apply(op, args) for args in cases]
