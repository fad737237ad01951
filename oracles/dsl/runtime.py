"""The CuTe DSL's runtime-integer path: cases compiled once per structure and run with their
runtime values, as DSL kernels run (no GPU: a ``@cute.jit`` function is host code).

``RuntimePath.answers(cases)`` yields ``{index: answer}`` frames until every case is
answered, where an answer is

* ``("ok", value, trace_text)``: ``value`` in the neutral form, ``C`` where the DSL's answer
  is static and ``int`` where it is a runtime value read back from the compiled code;
  ``trace_text`` the answer as the DSL printed it at trace time (``?`` for runtime values);
* ``("raised", message)``: the DSL refused at trace time, or (``returned ...``) its answer is
  no valid value;
* ``("unsupported", why)`` or ``("crashed", why)`` (a process died, at trace time or at run
  time, or hung).

How (``oracles/dsl/structures.py``, ``oracles/dsl/packs.py``): the cases are grouped by
structure.  A structure this process has not loaded is looked up in the disk cache of
compiled packs (``oracles/dsl/diskcache.py``); the others are compiled ``PACK_SIZE`` to a
function in a forked *compiler* child, which exports each pack to the cache folder (a
temporary one when the cache is off) and exits; this process loads them (``load_module``:
milliseconds).  Then the packs run over their rows in one forked child per step.

Native code of the DSL can die while tracing (SIGABRT from an uncaught C++ exception, SIGFPE
in static arithmetic) and while running (SIGFPE on a runtime zero divisor): only forked
children ever trace or run it.  Before tracing a structure the compiler child writes (phase,
structure) into memory shared with this process; when it dies, that structure answers
``crashed`` (and is remembered: tracing does not depend on the runtime values) and a new
child compiles the others.  Nothing the DSL does takes this process down.
"""

import atexit
import importlib
import os
import resource
import shutil
import sys
import tempfile
import time

import numpy as np
from layoutcheck.oracles.dsl.diskcache import DiskCache, disk_cache
from layoutcheck.oracles.dsl.model import answer as model_answer
from layoutcheck.oracles.dsl.packs import (
    COMPILING,
    IDLE,
    PACK_SIZE,
    TRACING,
    Structure,
    compile_pack,
    die_with_parent,
    dsl,
    run_packs,
    set_progress_buffer,
    shared_array,
    wait_child,
)
from layoutcheck.oracles.dsl.structures import raw_text, runtime_case_problem, split_case

__all__ = ["RuntimePath", "COMPILE_TIMEOUT_S", "runtime_path_problem"]

COMPILE_TIMEOUT_S = 600.0  # a compiler child that takes longer is a hang: killed


def _decoded(st, row):
    try:
        return "ok", st.decode(row), st.trace_text
    except Exception as e:  # noqa: BLE001 - no valid value of the neutral form
        return "raised", f"returned an invalid answer {raw_text(st.answer_skel, row)}: {e}"


def _dies_running(op, args):
    """The DSL's model expects the compiled code of this case to divide by a runtime zero."""
    try:
        out = model_answer(op, *args)
    except Exception:  # noqa: BLE001 - a hint only
        return False
    return out is not None and out.kind == "crashed" and out.message.startswith("at run time")


def _dies_tracing(op, args):
    """The DSL's model (oracles/dsl/model.py) expects tracing this case to kill the process."""
    try:
        out = model_answer(op, *args)
    except Exception:  # noqa: BLE001 - a hint only
        return False
    return out is not None and out.kind == "crashed" and out.message.startswith("while tracing")


def runtime_path_problem() -> str | None:
    """Why the DSL this process imported cannot run the runtime path (None when it can), from
    its API alone, so that a release answers the same on every machine: the runtime path
    compiles host code without a GPU driver, exports it and loads it in another process
    (nvidia-cutlass-dsl 4.5 and later; ``oracles/fetch.py`` ``RUNTIME_PATH_SINCE``)."""
    cute = dsl()[0]
    if not hasattr(getattr(cute, "runtime", None), "load_module"):
        return ("it has no cute.runtime.load_module: compiled code cannot be exported and "
                "loaded again")
    try:
        compiler = importlib.import_module("cutlass.base_dsl.compiler")
    except ImportError:
        compiler = None
    if hasattr(getattr(compiler, "Compiler", None), "_check_cuda_dependencies_once"):
        return "it initialises the CUDA driver (cuInit) whenever it compiles"
    if os.environ.get("CUTE_DSL_DRYRUN", "").strip().lower() not in ("", "0", "false", "no", "off"):
        return "CUTE_DSL_DRYRUN is set: the DSL generates IR only and compiles nothing"
    return None


class RuntimePath:
    """The runtime path of one process (the cute-dsl oracle's worker): the structures it has
    loaded, those whose tracing kills the process, and its counters."""

    def __init__(self):
        self.structs = {}  # structure key -> Structure (its pack loaded here)
        self.traps = {}    # structure key -> how tracing it ended the compiler child
        self.counts = {"compiled": 0, "compile_s": 0.0, "from_disk": 0, "rows": 0, "run_s": 0.0,
                       "compiler_deaths": 0}
        self._cache = None
        self._progress = None

    @property
    def known(self):
        """The structure keys this process answers without compiling."""
        return set(self.structs) | set(self.traps)

    def cache(self):
        """The disk cache, or a temporary folder when it is off (packs reach this process
        through a folder either way)."""
        if self._cache is None:
            self._cache = disk_cache()
            if self._cache is None:
                folder = tempfile.mkdtemp(prefix="layoutcheck-dsl-")
                atexit.register(shutil.rmtree, folder, ignore_errors=True)
                self._cache = DiskCache(folder)
        return self._cache

    def answers(self, cases):
        """Yield ``{index: answer}`` frames for ``[(op, args)]`` until each case is answered:
        the cases that need no compile first, then one frame per new pack."""
        groups, first, step = {}, {}, {}
        for n, (op, args) in enumerate(cases):
            why = runtime_case_problem(op, args)
            if why:
                step[n] = ("unsupported", why)
                continue
            try:
                key, vals = split_case(op, args)
            except TypeError as e:
                step[n] = ("unsupported", str(e))
                continue
            if key in self.traps:
                step[n] = ("crashed", self.traps[key])
                continue
            groups.setdefault(key, []).append((n, vals))
            first.setdefault(key, n)
        missing = [k for k in groups if k not in self.structs]
        if missing:
            found = self.cache().load(missing)
            self.counts["from_disk"] += len(found)
            self.structs.update(found)
        new = [k for k in groups if k not in self.structs]
        step.update(self._run([self.structs[k] for k in groups if k in self.structs], groups, cases))
        yield step
        # a structure the model expects to kill the compiler while tracing is compiled alone,
        # so that its death costs no other structure's trace (the answer is the DSL's either way)
        alone = [k for k in new if _dies_tracing(*cases[first[k]])]
        new = [k for k in new if k not in alone]
        for chunk in [new[c:c + PACK_SIZE] for c in range(0, len(new), PACK_SIZE)] + [[k] for k in alone]:
            crashed = self._compile(chunk)
            frame = {n: ("crashed", crashed[k]) for k in chunk if k in crashed for n, _ in groups[k]}
            frame.update(self._run([self.structs[k] for k in chunk if k in self.structs], groups, cases))
            yield frame

    def run(self, cases):
        """One answer per case, in order."""
        out = [None] * len(cases)
        for frame in self.answers(cases):
            for i, ans in frame.items():
                out[i] = ans
        return out

    # --- compiling, in forked children -------------------------------------------------------

    def _compile(self, keys):
        """Compile the structures ``keys`` in forked children and load their packs; returns
        {key: how it crashed} for the structures whose compile killed the child."""
        crashed, todo, one_by_one = {}, list(keys), False
        if self._progress is None:
            self._progress = shared_array(2, np.int64)
        dsl()  # imported here, once: every child starts warm
        while todo:
            groups = [todo[i:i + 1] for i in range(len(todo))] if one_by_one else [todo]
            left = []
            for group in groups:
                t0 = time.perf_counter()
                why = self._compile_child(group)
                self.counts["compile_s"] += time.perf_counter() - t0
                found = self.cache().load(group)
                self.structs.update(found)
                self.counts["compiled"] += len(found)
                rest = [k for k in group if k not in found]
                if why is None:
                    for k in rest:  # compiled, exported, but not loadable: a refusal of its own
                        st = self.structs[k] = Structure(k)
                        st.error = "the compiled pack could not be loaded back"
                    continue
                self.counts["compiler_deaths"] += 1
                phase, tag = int(self._progress[0]), int(self._progress[1])
                if phase == TRACING and 0 <= tag < len(group) and group[tag] in rest:
                    crashed[group[tag]] = self.traps[group[tag]] = f"while tracing: {why}"
                    left += [k for k in rest if k != group[tag]]
                elif phase == COMPILING and len(group) > 1:
                    one_by_one = True  # died after tracing: find the structure alone
                    left += rest
                else:
                    when = "while compiling" if phase == COMPILING else "in the compiler process"
                    for k in rest:
                        crashed[k] = self.traps[k] = f"{when}: {why}"
            todo = left
        return crashed

    def _compile_child(self, keys):
        """Compile ``keys`` as one pack in a forked child that exports it to the cache
        folder; None when the child exited 0, else what ended it."""
        structs = [Structure(k) for k in keys]
        for i, st in enumerate(structs):
            st.tag = i
        cache, progress = self.cache(), self._progress
        progress[:] = (IDLE, -1)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the compiler child
            code = 0
            try:
                die_with_parent()
                os.dup2(2, 1)  # the DSL's own prints stay off the parent's stdout
                set_progress_buffer(progress)
                compile_pack(structs)
                cache.store(structs, keep_errors=True)
            except BaseException:  # noqa: BLE001 - reported as the exit status
                code = 3
            finally:
                os._exit(code)
        return wait_child(pid, COMPILE_TIMEOUT_S)

    # --- running ------------------------------------------------------------------------

    def _run(self, structs, groups, cases):
        """Answers of the cases of these loaded structures: {index: answer}.  A row the model
        expects to divide by a runtime zero runs alone, in a child of its own (its death then
        names it; the answer is the DSL's either way)."""
        out, jobs = {}, [{}]  # jobs: [{id(pack): (pack, {slot: [(case index, values)]})}]
        for st in structs:
            items = groups[st.key]
            if st.error or st.pack is None:
                out.update((n, ("raised", st.error or "not compiled")) for n, _ in items)
                continue
            for n, vals in items:
                job = jobs[0] if not (0 in vals and _dies_running(*cases[n])) else {}
                if job is not jobs[0]:
                    jobs.append(job)
                job.setdefault(id(st.pack), (st.pack, {}))[1].setdefault(st.slot, []).append((n, vals))
        t0 = time.perf_counter()
        for job in jobs:
            if not job:
                continue
            packs = [(pack, {slot: np.asarray([v for _, v in items], dtype=np.int64).reshape(
                len(items), pack.structs[slot].n_in) for slot, items in slots.items()})
                for pack, slots in job.values()]
            for (pack, slots), (_, res, bad) in zip(job.values(), run_packs(packs)):
                for slot, arr in res.items():
                    st, dead = pack.structs[slot], bad.get(slot, {})
                    self.counts["rows"] += len(arr)
                    for r, ((n, _), row) in enumerate(zip(slots[slot], arr)):
                        out[n] = ("crashed", f"at run time: {dead[r]}") if r in dead else _decoded(st, row)
        self.counts["run_s"] += time.perf_counter() - t0
        return out

    def stats(self):
        """The counters, and the CPU seconds of this process and its reaped children."""
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        s = dict(self.counts, structures=len(self.structs), traced_crashes=len(self.traps),
                 cpu_s=round(own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime, 3))
        s["compile_s"], s["run_s"] = round(s["compile_s"], 3), round(s["run_s"], 3)
        return s

    def close(self):
        pass
