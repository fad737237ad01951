"""``cute-cpp``: the real CuTe C++ headers, compiled with g++ .

Integers follow how the input was written: a static ``C`` (``_4``) becomes ``Int<4>{}``, a
plain int (``4``) a runtime ``int``.  Each case is a *kernel* (``oracles/cpp/codegen.py``)
whose C++ text depends only on the op, the nesting and the static values; the runtime
integers are read at run time.  So:

- cases with runtime integers share compiled *driver* programs: once the kernel of a type
  is in the library (``oracles/cpp/driver.py``, persistent, shared by every command and
  process), a case costs one line of input to a running program;
- an all-static case is answered by the compiler alone: its result's type, which g++ names
  in a diagnostic of a ``-fsyntax-only`` pass (CuTe's templates are instantiated, its
  static_asserts fire, no code is generated).  A static result holds its whole value in its
  type, and an all-static computation runs no arithmetic at run time, so nothing is lost;
  a result that is not static runs as a driver kernel.  ``values`` of an all-static layout
  (size <= 1024) are the same ``L(i)`` (a runtime-typed ``i``) evaluated by the compiler in
  a constant expression and named as ``lc::vals<...>``; where that is no constant expression
  the case runs as a driver kernel;
- a case CuTe rejects at compile time answers ``raised`` with the compiler's message (the
  static_assert text where there is one); a case that dies at run time (SIGFPE) answers
  ``raised`` "runtime abort (signal 8)" and the rest still run; a function the header tree
  lacks answers ``unsupported``; a case the driver hangs on, or answers with text that is no
  answer, answers ``crashed`` (a harness failure, never a refusal).

Kernels are compiled once per toolchain (``oracles/cpp/toolchain.py``: compiler, flags,
header tree and its CUTLASS version), in parallel (``jobs``, default every core), on a
precompiled header.  The fuzz campaign sends this oracle its batches through ``case_mix``
(``oracles/cpp/cases.py``, ``$LAYOUTCHECK_CPP_MIX``): mostly all-static or all-dynamic cases.  ``stats()`` counts cases by path and the compiler's work.
"""

import threading
import time

from layoutcheck.oracles.cpp.cases import campaign_mix, retype, staticness
from layoutcheck.oracles.cpp.codegen import Unsupported, kernel, parse_answer, parse_static_type
from layoutcheck.oracles.cpp.composed import HEAVY, HEAVY_BATCH, run_cases
from layoutcheck.oracles.cpp.composed import handles as composed_handles
from layoutcheck.oracles.cpp.driver import HANG, TU_SIZE, Library, rejection_text
from layoutcheck.oracles.cpp.toolchain import (
    Toolchain,
    compile_timeout,
    cutlass_version,
    default_include_dir,
    find_cuda,
)
from layoutcheck.oracles.protocol import INVALID_ANSWER, Oracle, Outcome, format_arg
from layoutcheck.oracles.protocol import OPS as PROTOCOL_OPS

from layoutcheck.errors import LayoutError

__all__ = ["CuteCppOracle", "case_source", "type_key", "default_include_dir", "find_cuda",
           "remembered", "cutlass_version", "rejection_text"]

# The latest answers of this process, by case text (staticness included): a finding's
# predicate that judges CuTe's own output (oracles/cpp/findings/algebra.py) reads the answer the campaign
# just obtained instead of compiling the case again.
ANSWERS = {}
ANSWERS_LIMIT = 20000
PREPARE_KERNEL_S = 0.075  # CPU-s a new kernel costs g++ (cold campaign: 224 s for 3,061)


def _case_text(op, args):
    return op + "(" + ", ".join(format_arg(a) for a in args) + ")"


def remembered(op, args):
    """The answer this process last got for ``op(*args)``, or None."""
    try:
        return ANSWERS.get(_case_text(op, args))
    except (TypeError, ValueError):
        return None


def case_source(op, args):
    """The C++ body of a case's kernel (runtime integers read as ``v0, v1, ...``)."""
    return kernel(op, args, PROTOCOL_OPS[op])[0].body


def type_key(op, args):
    """What the C++ types of a case depend on (the kernel's key): the op, the nesting and
    the static values; a runtime int is just ``int``.  Compile-time acceptance depends on
    nothing else."""
    return kernel(op, args, PROTOCOL_OPS[op])[0].key


class CuteCppOracle(Oracle):
    """CuTe C++ on the host (g++ and a CuTe header tree)."""

    name = "cute-cpp"

    def __init__(self, include_dir=None, cxx=None, cuda=None, cache_dir=None, timeout=None,
                 jobs=None, name=None, origin=None):
        if name is not None:
            self.name = name        # cute-cpp@3.8: another release, under its own name
        self.origin = origin        # where the headers came from (nvidia-cutlass 3.8.0.0)
        self.toolchain = Toolchain(include_dir, cxx, cuda, cache_dir)
        self.include_dir = self.toolchain.include_dir
        self.cxx = self.toolchain.cxx
        self.cuda = self.toolchain.cuda
        self.timeout = compile_timeout() if timeout is None else timeout
        self.library = Library(self.toolchain, jobs=jobs, timeout=self.timeout)
        self._parsed = {}  # static kernel key -> Outcome
        self._cases = dict(driver=0, static=0, rejected=0, unsupported=0)
        self._seconds = 0.0
        self._seconds_lock = threading.Lock()
        self._kernel_wall = PREPARE_KERNEL_S / self.library.jobs  # wall-s a new kernel takes (prepare)

    def _spent(self, t0):
        with self._seconds_lock:  # prepare may run beside the campaign's thread (fuzz/campaign/pairs.py)
            self._seconds += time.perf_counter() - t0

    @property
    def compiles(self):
        """Compiler invocations by this instance (cache misses)."""
        return self.library.stats["compiles"]

    def _reason(self):
        return self.toolchain.unavailable_reason()

    def provenance(self):
        """``CUTLASS 4.2.0 headers at PATH`` (reports name it), after the release it was
        fetched as for another release (``nvidia-cutlass 3.8.0.0: CUTLASS 3.8.0 headers at``)."""
        text = self.toolchain.describe()
        return f"{self.origin}: {text}" if self.origin else text

    describe = provenance  # what `layoutcheck op` prints as the code an oracle runs

    def stats(self):
        """Cases answered by path (``driver``: a compiled program ran it; ``static``: the
        compiler named the result's type; ``rejected`` / ``unsupported``), the compiler's
        work (``compiles``, ``compile_seconds``, ``pch_seconds``, ``kernels_compiled``),
        cache hits (``kernels_cached``: kernels found in the persistent library), driver
        runs, aborts caught inside a driver (``aborts_caught``) and crash restarts, seconds
        inside ``run_many``, and the header tree."""
        s = dict(self.library.stats)
        s["cache_hits"] = s["kernels_cached"]
        s["cases"] = dict(self._cases)
        s["cases_total"] = sum(self._cases.values())
        s["seconds"] = round(self._seconds, 3)
        s["compile_seconds"] = round(s["compile_seconds"], 3)
        s["pch_seconds"] = round(s["pch_seconds"], 3)
        s["cutlass_version"] = self.toolchain.version
        s["include_dir"] = str(self.include_dir)
        s["jobs"] = self.library.jobs
        return s

    def is_new(self, op, args):
        """Whether the kernel of ``op(*args)`` is not yet compiled (a generator can prefer
        cases of types the compiler has not seen, or skip static ones it has)."""
        try:
            k, _ = kernel(op, args, PROTOCOL_OPS[op])
        except Unsupported:
            return False
        return bool(self.library.lookup([k.key], count=False))

    def case_mix(self, op, cases, seed):
        """The fuzz campaign's batches for this oracle: drawn cases with mixed staticness
        mostly made all-static or all-dynamic (``oracles/cpp/cases.py``)."""
        return campaign_mix(op, cases, seed)

    def prepare(self, cases, until=None):
        """Compile, in one go, the kernels of ``cases`` (``[(op, args)]``) that the library
        lacks, in units of up to ``TU_SIZE`` kernels on every core; answer nothing (the
        cases run later as usual).  The campaign hands it the first calls of every pair
        (fuzz/campaign/warmstart.py).  ``until`` (monotonic): no new round of units
        (one unit per job) starts after it.  Returns the number of kernels asked for."""
        t0 = time.perf_counter()
        kernels = _kernels_of(cases)
        keys, jobs, i = list(kernels), self.library.jobs, 0
        while i < len(keys):
            step = len(keys)
            if until is not None:  # rounds of about a quarter of the time left, at the pace
                left = until - time.monotonic()  # measured so far (a loaded machine compiles
                if left <= 0:                    # several times slower than an idle one)
                    break
                step = max(jobs * TU_SIZE[False], int(left / self._kernel_wall / 4))
            todo = {k: kernels[k] for k in keys[i:i + step]}
            new = len(self.library.lookup(list(todo), count=False))
            t = time.monotonic()
            self.library.build(todo)
            if new:
                self._paced(time.monotonic() - t, new)
            i += step
        self._spent(t0)
        return len(kernels)

    def _paced(self, seconds, kernels):
        self._kernel_wall = 0.5 * (self._kernel_wall + seconds / kernels)

    def kernel_seconds(self):
        """Wall seconds a new kernel has taken to compile lately (in units, on every core):
        the campaign sizes a drawn batch to the time a pair has (a batch in flight is not
        interrupted)."""
        return self._kernel_wall

    def uncompiled(self, cases):
        """How many kernels of ``cases`` (``[(op, args)]``) are not compiled yet (in this
        process or the persistent library)."""
        return len(self.library.lookup(list(_kernels_of(cases)), count=False))

    def reusing(self, op, cases):
        """For each case: the case with every integer a runtime ``int`` when its ``op``
        kernel is already a compiled driver kernel (in this process or the persistent
        library), else None.  The fuzz campaign's *reuse batches* (fuzz/campaign/pairs.py) run those
        at driver speed, with no compile: each is a new input to CuTe's compiled code (same
        types, new values), judged like any other case."""
        picked = []
        for args in cases:
            dyn = retype(tuple(args), False)
            if staticness(dyn) != "dynamic":
                picked.append((None, None))  # no integer to vary: its static twin's C++ case
                continue
            try:
                k, _ = kernel(op, dyn, PROTOCOL_OPS[op])
            except Exception:  # noqa: BLE001 - no kernel of this op and arity: not reusable
                picked.append((None, None))
                continue
            picked.append((k.key, dyn))
        self.library.lookup([key for key, _ in picked if key is not None], count=False)
        memo = self.library.memo
        return [dyn if key is not None and memo.get(key, ("",))[0] == "driver" else None
                for key, dyn in picked]

    def compile_cost(self, op):
        """How costly a first batch of ``op`` is to compile, for the order of a campaign's
        first round: 0 a layout kernel (about 50 ms of g++ each), 1 a composed program
        (swizzle_layout.hpp, tensor.hpp: seconds a unit), 2 the heavy TiledCopy and
        partition programs (composed.HEAVY)."""
        return 2 if op in HEAVY else 1 if composed_handles(op) else 0

    def batch_cases(self, op):
        """Cases per fuzz batch for ``op``: the heavy TiledCopy and partition programs
        (composed.HEAVY)
        come in small batches; None: the campaign's default."""
        return HEAVY_BATCH if op in HEAVY else None

    # --- the batch ------------------------------------------------------------------------

    def _run_many(self, cases):
        if any(composed_handles(op) for op, _ in cases):  # oracles/cpp/composed.py
            return self._run_composed(cases)
        t0 = time.perf_counter()
        results = [None] * len(cases)
        plan = {}  # case index -> (key, runtime values)
        kernels = {}
        for i, (op, args) in enumerate(cases):
            try:
                k, values = kernel(op, args, PROTOCOL_OPS[op])
            except Unsupported as e:
                results[i] = Outcome.unsupported(str(e))
                continue
            kernels.setdefault(k.key, k)
            plan[i] = (k.key, values)
        new = len(self.library.lookup(list(kernels), count=False))
        t = time.monotonic()
        self.library.build(kernels)
        if new:
            self._paced(time.monotonic() - t, new)
        runs = {}  # binary -> [(case index, line)]
        for i, (key, values) in plan.items():
            state, data, binary, slot = self.library.memo[key]
            if state == "driver":
                runs.setdefault(binary, []).append((i, " ".join(map(str, (slot, *values)))))
            else:
                results[i] = self._settled(key, state, data)
                self._cases[state] += 1
        for binary, todo in runs.items():
            answers = self.library.run(binary, [line for _, line in todo])
            for (i, _), (text, abort) in zip(todo, answers):
                if abort == HANG:
                    results[i] = _crashed(f"cute-cpp: {HANG} ({_case_text(*cases[i])})")
                else:
                    results[i] = Outcome.raised(abort) if abort else outcome(cases[i], text)
                self._cases["driver"] += 1
        if len(ANSWERS) > ANSWERS_LIMIT:
            ANSWERS.clear()
        for (op, args), out in zip(cases, results):
            ANSWERS[_case_text(op, args)] = out
        self._spent(t0)
        return results

    def _run_composed(self, cases):
        """The swizzle / composed-layout / tensor ops in their own programs
        (oracles/cpp/composed.py); the rest as usual."""
        mine = [i for i, (op, _) in enumerate(cases) if composed_handles(op)]
        rest = [i for i in range(len(cases)) if i not in set(mine)]
        results = [None] * len(cases)
        t0 = time.perf_counter()
        for i, out in zip(mine, run_cases(self.toolchain, [cases[i] for i in mine], self.timeout,
                                              self.library.jobs)):
            results[i] = out
            self._cases["driver"] += 1
        self._spent(t0)
        if rest:
            for i, out in zip(rest, self._run_many([cases[i] for i in rest])):
                results[i] = out
        return results

    def _settled(self, key, state, data):
        got = self._parsed.get(key)
        if got is None:
            if state == "static":
                value = parse_static_type(data)
                if value is None:
                    raise LayoutError(f"cute-cpp: cannot read the static result type {data[:200]!r}")
                got = Outcome.ok(value)
            elif state == "rejected":
                got = Outcome.raised(data)
            elif state == "unsupported":
                got = Outcome.unsupported(f"{data} ({self.provenance()})")
            else:
                raise LayoutError(f"cute-cpp: unknown kernel state {state!r}")
            self._parsed[key] = got
        return got


def _kernels_of(cases):
    """{key: Kernel} of the kernels ``cases`` (``[(op, args)]``) need; the composed-layout ops (their
    own programs, oracles/cpp/composed.py) and cases with no kernel (answered unsupported when
    they run) have none."""
    kernels = {}
    for op, args in cases:
        if composed_handles(op):
            continue
        try:
            k, _ = kernel(op, args, PROTOCOL_OPS[op])
        except Exception:  # noqa: BLE001 - no kernel: nothing to compile
            continue
        kernels.setdefault(k.key, k)
    return kernels


def _crashed(what):
    if hasattr(Outcome, "crashed"):
        return Outcome.crashed(what)
    raise LayoutError(what)


def outcome(case, text):
    """A driver's printed answer as an Outcome; garbage is a harness failure, not a refusal."""
    if text.split()[-1:] == ["?_"]:  # CuTe returned its Underscore: an answer, of the wrong kind
        return Outcome.raised(f"{INVALID_ANSWER}_ (CuTe's Underscore, the slice marker), not a "
                              f"value for {_case_text(*case)}")
    try:
        return Outcome.ok(parse_answer(text))
    except LayoutError as e:
        return _crashed(f"cute-cpp printed {text[:120]!r} for {_case_text(*case)}, which "
                        f"layoutcheck cannot read: {e}")

