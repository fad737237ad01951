"""The CuTe DSL's runtime-integer path: cases compiled once per structure and run with their
runtime values, as DSL kernels run (no GPU: a ``@cute.jit`` function is host code).

``RuntimePath.answers(cases)`` yields ``{index: answer}`` frames until every case is
answered, where an answer is

* ``("ok", value, trace_text)``: ``value`` in the neutral form, ``C`` where the DSL's answer
  is static and ``int`` where it is a runtime value read back from the compiled code;
  ``trace_text`` the answer as the DSL printed it at trace time (``?`` for runtime values);
* ``("raised", message)``: the DSL refused at trace time, or (``returned ...``) its answer is
  no valid value;
* ``("unsupported", why)`` or ``("crashed", why)`` (the process died, at trace time or at run
  time, or hung).

How (``oracles/dsl/structures.py``, ``oracles/dsl/packs.py``): the cases are grouped by
structure; the structures this process has not compiled are looked up in the disk cache
(``oracles/dsl/diskcache.py``), the rest compiled ``PACK_SIZE`` to a function; then the
packs run over their rows, in one forked child per step.

Native code of the DSL can die while tracing (SIGABRT from an uncaught C++ exception, SIGFPE
in static arithmetic) and while running (SIGFPE on a runtime zero divisor).  Every call of
compiled code runs in a forked child (``run_packs``).  Compiling runs in a forked *executor*
(``Executor``), which keeps its compiled packs between requests and sends one frame per pack.
Before tracing a structure it writes (phase, case index) into memory shared with this
process; when it dies, that structure's cases answer ``crashed`` and a fresh executor (forked
from this process, which has imported the DSL: about 20 ms) takes the rest.  Nothing the DSL
does takes this process down.
"""

import os
import pickle
import select
import signal
import struct
import sys
import time

import numpy as np
from layoutcheck.oracles.dsl.diskcache import disk_cache
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
    status_text,
)
from layoutcheck.oracles.dsl.structures import raw_text, runtime_case_problem, split_case

__all__ = ["RuntimePath", "run_local", "EXECUTOR_TIMEOUT_S"]

EXECUTOR_TIMEOUT_S = 600.0  # no frame from the executor for this long: it is killed (a hang)

_STRUCTS = {}  # structure key -> Structure, compiled in this process (the executor's)
_COUNTS = {"compiled": 0, "compile_s": 0.0, "from_disk": 0, "rows": 0, "run_s": 0.0}


def run_local(cases, pack_size=PACK_SIZE):
    """Answer ``cases`` in this process; yields ``{index: answer}`` step by step: the cases
    that need no compile first, then one step per new pack (compile, run)."""
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
        groups.setdefault(key, []).append((n, vals))
        first.setdefault(key, n)
    disk = disk_cache()
    missing = [k for k in groups if k not in _STRUCTS]
    if disk is not None and missing:
        found = disk.load(missing)
        _COUNTS["from_disk"] += len(found)
        _STRUCTS.update(found)
    new = [k for k in groups if k not in _STRUCTS]
    step.update(_run_structures([_STRUCTS[k] for k in groups if k in _STRUCTS], groups))
    yield step
    for c in range(0, len(new), pack_size):
        chunk = [Structure(k) for k in new[c:c + pack_size]]
        for st in chunk:
            st.tag = first[st.key]
        t0 = time.perf_counter()
        compile_pack(chunk)
        _COUNTS["compile_s"] += time.perf_counter() - t0
        _COUNTS["compiled"] += len(chunk)
        for st in chunk:
            _STRUCTS[st.key] = st
        if disk is not None:
            disk.store(chunk)
        yield _run_structures(chunk, groups)


def _run_structures(structs, groups):
    """Answers of the cases of these compiled structures: {index: answer}."""
    out, results, crashed, by_pack = {}, {}, {}, {}
    for st in structs:
        items = groups[st.key]
        if st.error or st.pack is None:
            out.update((n, ("raised", st.error or "not compiled")) for n, _ in items)
            continue
        rows = np.asarray([v for _, v in items], dtype=np.int64).reshape(len(items), st.n_in)
        by_pack.setdefault(id(st.pack), (st.pack, {}))[1][st.slot] = rows
    t0 = time.perf_counter()
    for pack, res, bad in run_packs(list(by_pack.values())) if by_pack else ():
        for slot, arr in res.items():
            results[pack.structs[slot].key] = arr
        for slot, rows in bad.items():
            crashed[pack.structs[slot].key] = rows
    _COUNTS["run_s"] += time.perf_counter() - t0
    for key, rows in results.items():
        st, dead = _STRUCTS[key], crashed.get(key, {})
        _COUNTS["rows"] += len(rows)
        for r, ((n, _), row) in enumerate(zip(groups[key], rows)):
            if r in dead:
                out[n] = ("crashed", f"at run time: {dead[r]}")
                continue
            try:
                out[n] = ("ok", st.decode(row), st.trace_text)
            except Exception as e:  # noqa: BLE001 - no valid value of the neutral form
                out[n] = ("raised", f"returned an invalid answer {raw_text(st.answer_skel, row)}: {e}")
    return out


# --- the executor -------------------------------------------------------------------------

def _send(fd, obj):
    data = pickle.dumps(obj)
    data = struct.pack("<Q", len(data)) + data
    while data:
        data = data[os.write(fd, data):]


def _recv(fd, timeout):
    def read(n):
        buf = b""
        while len(buf) < n:
            if timeout is not None and not select.select([fd], [], [], timeout)[0]:
                raise TimeoutError
            chunk = os.read(fd, n - len(buf))
            if not chunk:
                raise EOFError
            buf += chunk
        return buf
    (n,) = struct.unpack("<Q", read(8))
    return pickle.loads(read(n))


def _serve(req_r, ans_w):
    """The executor's loop: a request (cases, pack size) in, frames out, then its counters
    (``("end", counters)``)."""
    os.dup2(2, 1)  # the DSL's own prints (to fd 1) stay off the parent's stdout
    while True:
        try:
            cases, pack_size = _recv(req_r, None)
        except EOFError:
            return
        for step in run_local(cases, pack_size):
            _send(ans_w, step)
        _send(ans_w, ("end", dict(_COUNTS, structures=len(_STRUCTS))))


class Executor:
    """A forked process that compiles and runs cases for this one and keeps its compiled
    packs between requests (the module docstring)."""

    def __init__(self):
        self.pid = None
        self.restarts = 0
        self.crashes = 0
        self.counts, self.dead_counts = {}, {}  # the executor's counters; those of dead ones

    def _start(self):
        dsl()  # imported here once: every fork starts warm
        progress = shared_array(2, np.int64)
        req_r, req_w = os.pipe()
        ans_r, ans_w = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the executor
            code = 0
            try:
                die_with_parent()
                os.close(req_w)
                os.close(ans_r)
                set_progress_buffer(progress)
                _serve(req_r, ans_w)
            except BaseException:  # noqa: BLE001 - reported as how it ended
                code = 3
            os._exit(code)
        os.close(req_r)
        os.close(ans_w)
        self.pid, self.progress, self.req, self.ans = pid, progress, req_w, ans_r

    def stop(self):
        if self.pid:
            self._close()
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        self.pid = None

    def _close(self):
        for fd in (self.req, self.ans):
            try:
                os.close(fd)
            except OSError:
                pass

    def _death(self, e):
        """Reap a dead (or stuck) executor; how it ended."""
        if isinstance(e, TimeoutError):
            os.kill(self.pid, signal.SIGKILL)
        _, status = os.waitpid(self.pid, 0)
        self._close()
        self.pid = None
        for k, v in self.counts.items():
            if k != "structures":
                self.dead_counts[k] = self.dead_counts.get(k, 0) + v
        self.counts = {}
        return "timed out" if isinstance(e, TimeoutError) else (status_text(status) or "exited")

    def stats(self):
        """The counters of this executor and of the dead ones before it."""
        out = dict(self.dead_counts)
        for k, v in self.counts.items():
            out[k] = out.get(k, 0) + v if k != "structures" else v
        return out

    def answers(self, cases):
        """Yield ``{index: answer}`` frames until every case of ``cases`` is answered."""
        answered = [False] * len(cases)
        todo = list(range(len(cases)))
        pack_size = PACK_SIZE
        while todo:
            if self.pid is None:
                self._start()
            sub = [cases[i] for i in todo]
            self.progress[:] = (IDLE, -1)
            why, pending = None, None
            try:
                _send(self.req, (sub, pack_size))
                frame, waiting = _recv(self.ans, EXECUTOR_TIMEOUT_S), len(sub)
                while not isinstance(frame, tuple):
                    pending = {todo[pos]: ans for pos, ans in frame.items()}
                    for i in pending:
                        answered[i] = True
                    waiting -= len(pending)
                    frame = _recv(self.ans, EXECUTOR_TIMEOUT_S)
                    if waiting <= 0 and not isinstance(frame, tuple):
                        raise OSError("the executor answered more cases than it was sent")
                    if isinstance(frame, tuple):
                        self.counts = frame[1]
                    out, pending = pending, None
                    yield out  # the request's end is read before its last frame is handed on
                self.counts = frame[1]
            except (EOFError, OSError, TimeoutError) as e:
                why = self._death(e)
            if pending:
                yield pending
            left = [i for i in todo if not answered[i]]
            if why is None:
                todo = left
                continue
            self.restarts += 1
            phase, tag = int(self.progress[0]), int(self.progress[1])
            frame = {}
            if phase == TRACING or (phase == COMPILING and pack_size == 1):
                when = "while tracing" if phase == TRACING else "while compiling"
                culprit = split_case(*sub[tag])[0] if 0 <= tag < len(sub) else None
                for i in left:
                    if culprit is None or split_case(*cases[i])[0] == culprit:
                        frame[i] = ("crashed", f"{when}: {why}")
            elif phase == COMPILING:
                pack_size = 1  # died after tracing: compile one structure at a time
            else:
                frame = {i: ("crashed", f"the executor died: {why}") for i in left}
            self.crashes += len(frame)
            for i in frame:
                answered[i] = True
            if frame:
                yield frame
            todo = [i for i in left if not answered[i]]


class RuntimePath:
    """The runtime path of one process (the cute-dsl oracle's worker): its executor, and the
    structure keys it has answered (so compiled, in the executor or on disk)."""

    def __init__(self):
        self.executor = Executor()
        self.known = set()
        self.traps = {}  # structure key -> how tracing it ended the executor

    def answers(self, cases):
        """Yield ``{index: answer}`` frames for ``[(op, args)]`` (the module docstring).  A
        structure whose tracing killed the executor once is not traced again: tracing does
        not depend on the runtime values, so its cases answer the same ``crashed``."""
        keys, trapped = [], {}
        for i, (op, args) in enumerate(cases):
            try:
                key = split_case(op, args)[0]
            except TypeError:
                key = None
            keys.append(key)
            if key in self.traps:
                trapped[i] = ("crashed", self.traps[key])
        if trapped:
            yield trapped
        rest = [i for i in range(len(cases)) if i not in trapped]
        if not rest:
            return
        for frame in self.executor.answers([cases[i] for i in rest]):
            out = {rest[p]: ans for p, ans in frame.items()}
            for i, ans in out.items():
                if ans[0] in ("ok", "raised"):
                    self.known.add(keys[i])
                elif ans[0] == "crashed" and ans[1].startswith("while tracing") and keys[i] is not None:
                    self.traps[keys[i]] = ans[1]
            yield out

    def run(self, cases):
        """One answer per case, in order."""
        out = [None] * len(cases)
        for frame in self.answers(cases):
            for i, ans in frame.items():
                out[i] = ans
        return out

    def stats(self):
        s = self.executor.stats()
        s.update(executor_restarts=self.executor.restarts, traced_crashes=len(self.traps))
        return s

    def close(self):
        self.executor.stop()
