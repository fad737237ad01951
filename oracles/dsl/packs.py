"""Compiled structures: several of them in one ``@cute.jit`` function, run over rows of
runtime values, each call in a forked child.

* A ``Structure`` is one key of ``oracles/dsl/structures.py``.  Tracing it rebuilds the
  arguments (static leaves as Python ints, runtime leaves as ``Int32`` values loaded from the
  input buffer), runs the op and records what the trace found: the DSL's refusal (``error``),
  or the answer's skeleton, its int32 slots and its trace-time text.  The runtime leaves of
  the answer are stored into the output buffer, each at its own width: an Int64 leaf as two
  int32 words (a widening store would let LLVM widen an overflowing ``nsw`` multiply and show
  a value the DSL's own printf does not).
* A ``Pack`` is up to ``PACK_SIZE`` structures in ONE function ``pack(inp, out, meta)``:
  compiling costs a fixed MLIR / LLVM part plus the tracing of each structure, so a pack
  shares the fixed part.  ``meta`` holds four int32 per structure: rows, input offset, output
  offset, and a progress counter the compiled code sets to ``i + 1`` after row ``i``.  For
  each structure the code is one run-time loop (``cutlass.range``, traced once) over its rows.
  The buffers reach the compiled code through DLPack (``from_dlpack(a).mark_layout_dynamic()``:
  host memory, written by host code; no GPU); without ``mark_layout_dynamic`` the function
  would be specialised to the buffers' sizes.
* ``run_packs`` calls the packs of a batch in one forked child over shared memory
  (``MAP_SHARED``): a division by a runtime zero (SIGFPE) or a hang costs the child.  The
  progress counters say which row died; that row is run again alone to confirm it, answers
  ``crashed``, and the rest runs on.

The DSL's preprocessor reads this file's source when it traces ``pack``: ship it as a file,
and assign no Python name inside its loops (the preprocessor would carry the name through
the run-time loop and refuse a Python object; ``Structure.trace_rows`` is a call instead).
"""

import ctypes
import mmap
import os
import select
import signal
import sys
import time

import numpy as np
from layoutcheck.oracles.dsl.structures import (
    RUNTIME_CALLS,
    answer_skeleton,
    build,
    count_runtime,
    count_slots,
    decode,
    error_text,
)

__all__ = ["Structure", "Pack", "compile_pack", "run_packs", "dsl", "status_text", "wait_child", "shared_array",
           "die_with_parent", "PACK_SIZE", "CALL_TIMEOUT_S", "progress", "IDLE", "TRACING",
           "COMPILING", "set_progress_buffer"]

PACK_SIZE = 48            # structures per compiled function (REPORT: 17 ms each in a pack, 55 alone)
CALL_TIMEOUT_S = 60.0     # a call of a compiled pack that runs longer is a hang: killed

_DSL = {}


def dsl():
    """(cute, cutlass, from_dlpack), imported once (the DSL is an optional dependency)."""
    if not _DSL:
        import cutlass
        import cutlass.cute as cute
        from cutlass.cute.runtime import from_dlpack
        _DSL.update(cute=cute, cutlass=cutlass, from_dlpack=from_dlpack)
    return _DSL["cute"], _DSL["cutlass"], _DSL["from_dlpack"]


# Progress of the process that compiles, in memory its parent shares (oracles/dsl/runtime.py):
# (phase, tag), tag naming a case of the structure being traced.
IDLE, TRACING, COMPILING = 0, 1, 2
_PROGRESS = [None]


def set_progress_buffer(buf):
    _PROGRESS[0] = buf


def progress(phase, tag):
    buf = _PROGRESS[0]
    if buf is not None:
        buf[0], buf[1] = phase, tag


class Structure:
    """One structure: its op and argument skeletons, and what tracing found: the refusal
    (``error``), or the answer's skeleton, its int32 slots (``n_out``) and the trace-time
    text.  Its code lives in a ``Pack`` (``pack``, ``slot``)."""

    def __init__(self, key):
        self.key = key
        self.op, self.arg_skels = key
        self.n_in = sum(count_runtime(s) for s in self.arg_skels)
        self.error = None
        self.answer_skel = None
        self.n_out = 0
        self.trace_text = None
        self.pack = None
        self.slot = None
        self.tag = -1

    def record(self):
        """What tracing found, as plain data (the disk cache keeps it)."""
        return self.answer_skel, self.n_out, self.trace_text, self.error

    def restore(self, record):
        self.answer_skel, self.n_out, self.trace_text, self.error = record

    def trace(self, vals, store):
        """Trace time: rebuild the arguments (``vals`` yields the runtime leaves), run the op,
        record the answer's skeleton and hand its runtime leaves to ``store(k, value)``.  A DSL
        exception is this structure's refusal; the pack goes on."""
        cute, cutlass, _ = dsl()
        progress(TRACING, self.tag)
        try:
            args = [build(cute, sk, vals) for sk in self.arg_skels]
            res = RUNTIME_CALLS[self.op](cute, *args)
            dyn = []
            skel = answer_skeleton(cute, cutlass.Numeric, res, dyn)
            self.answer_skel, self.n_out, self.trace_text = skel, count_slots(skel), str(res)
            k = 0
            for v in dyn:  # one int32 slot per 32-bit leaf, two (low, high) per 64-bit leaf
                if getattr(type(v), "width", 32) <= 32:
                    store(k, cutlass.Int32(v))
                    k += 1
                else:
                    store(k, cutlass.Int32(v & 0xFFFFFFFF))
                    store(k + 1, cutlass.Int32(v >> 32))
                    k += 2
        except Exception as e:  # noqa: BLE001 - the DSL refuses this structure
            self.error = error_text(e)

    def trace_rows(self, inp, out, i, in_off, out_off):
        """Trace time, inside the pack's run-time loop: row ``i`` of this structure."""
        vals = iter([inp[in_off + i * self.n_in + k] for k in range(self.n_in)])

        def store(k, v):
            out[out_off + i * self.n_out + k] = v
        self.trace(vals, store)

    def decode(self, row):
        return decode(self.answer_skel, row)


class Pack:
    """Several structures compiled into one ``@cute.jit`` function (module docstring)."""

    def __init__(self, structs):
        self.structs = list(structs)
        self.fn = None
        self.compile_s = 0.0

    def compile(self):
        cute, cutlass, _ = dsl()
        structs, K = self.structs, len(self.structs)
        for j, st in enumerate(structs):
            st.pack, st.slot, st.error = self, j, None

        def traced():  # after the last structure's trace: the rest is MLIR / LLVM work
            progress(COMPILING, structs[0].tag)

        @cute.jit
        def pack(inp: cute.Tensor, out: cute.Tensor, meta: cute.Tensor):
            for j in cutlass.range_constexpr(K):       # unrolled at trace time
                for i in cutlass.range(meta[4 * j]):   # a run-time loop over its rows
                    structs[j].trace_rows(inp, out, i, meta[4 * j + 1], meta[4 * j + 2])
                    meta[4 * j + 3] = i + 1            # progress, to name a row that dies
            traced()

        t0 = time.perf_counter()
        buffers = tensors(np.zeros(1, np.int32), np.zeros(1, np.int32), np.zeros(4 * K, np.int32))
        self.fn = cute.compile(pack, *buffers)
        self.compile_s = time.perf_counter() - t0
        progress(IDLE, -1)
        return self



class _Call:
    """One pack's part of a run: its shared buffers and which rows are settled."""

    def __init__(self, pack, jobs):
        self.pack, structs = pack, pack.structs
        live = {j: r for j, r in jobs.items() if not structs[j].error}
        n_in = sum(r.size for r in live.values())
        n_out = sum(len(r) * structs[j].n_out for j, r in live.items())
        self.meta = shared_array(4 * len(structs), np.int32)
        self.inp, self.out = shared_array(max(n_in, 1), np.int32), shared_array(max(n_out, 1), np.int32)
        self.start = {}  # slot -> (rows, input offset, output offset)
        i0 = o0 = 0
        for j, rows in live.items():
            self.start[j] = (len(rows), i0, o0)
            self.inp[i0:i0 + rows.size] = rows.reshape(-1)
            i0 += rows.size
            o0 += len(rows) * structs[j].n_out
        self.done = {j: 0 for j in self.start}  # rows of each structure settled
        self.buffers = tensors(self.inp, self.out, self.meta)

    def set_meta(self, only=None, row=None):
        """The rows still to run (or only row ``row`` of slot ``only``) into ``meta``."""
        self.meta[:] = 0
        for j, (n, i0, o0) in self.start.items():
            st = self.pack.structs[j]
            if only is None:
                d, rows = self.done[j], n - self.done[j]
            elif j == only:
                d, rows = row, 1
            else:
                continue
            self.meta[4 * j:4 * j + 3] = (rows, i0 + d * st.n_in, o0 + d * st.n_out)

    def unfinished(self):
        """(slot, row) of the first structure, in run order, whose rows did not all run."""
        for j in sorted(self.start):
            if self.meta[4 * j + 3] < self.meta[4 * j]:
                return j, self.done[j] + int(self.meta[4 * j + 3])
        return None

    def finish_all(self):
        for j, (n, _, _) in self.start.items():
            self.done[j] = n

    def results(self):
        out = {}
        for j, (n, _, o) in self.start.items():
            st = self.pack.structs[j]
            out[j] = np.array(self.out[o:o + n * st.n_out]).reshape(n, st.n_out)
        return out


def run_packs(jobs, timeout=CALL_TIMEOUT_S):
    """Run compiled packs over rows of runtime values, all in one forked child.

    ``jobs``: [(pack, {slot: int array (rows, n_in)})] -> [(pack, {slot: int32 array (rows,
    n_out)}, {slot: {row: what ended the call}})].  When the child dies, the progress counters
    name the row: it runs again alone (the counter might trail a store the compiler moved) to
    confirm it, and a fresh child runs the rest."""
    calls = [_Call(pack, j) for pack, j in jobs]
    bad = [{} for _ in calls]
    first = 0  # calls before this one are settled
    while first < len(calls):
        for c in calls[first:]:
            c.set_meta()
        why = forked_call(_run_all, [(c.pack.fn, c.buffers) for c in calls[first:]], timeout)
        if not why:
            break
        k, hit = next(((k, c.unfinished()) for k, c in enumerate(calls) if k >= first and c.unfinished()),
                      (len(calls) - 1, None))
        c = calls[k]
        if hit is None:  # every counter is complete: the call died after its last row
            j = max(c.start) if c.start else None
            hit = (j, c.start[j][0] - 1) if j is not None else None
        for earlier in calls[first:k]:
            earlier.finish_all()
        first = k
        if hit is None:
            first += 1
            continue
        j, r = hit
        alone = sum(n - c.done[s] for s, (n, _, _) in c.start.items()) == 1 and \
            all(d.done == {s: n for s, (n, _, _) in d.start.items()} for d in calls[first:] if d is not c)
        for s in c.start:
            if s < j:
                c.done[s] = c.start[s][0]
        c.done[j] = r + 1
        if alone:  # the only row that ran: no other can be the one
            bad[k].setdefault(j, {})[r] = why
        else:
            c.set_meta(only=j, row=r)
            again = forked_call(_run_all, [(c.pack.fn, c.buffers)], timeout)
            if again:
                bad[k].setdefault(j, {})[r] = again
        if all(c.done[s] >= c.start[s][0] for s in c.start):
            first = k + 1
    return [(c.pack, c.results(), b) for c, b in zip(calls, bad)]


def _run_all(calls):
    for fn, buffers in calls:
        fn(*buffers)


def compile_pack(structs):
    """Compile ``structs`` as one pack; when the compile fails after tracing (an error no
    structure's trace caught), split it in halves until the failing structure is alone."""
    todo = [list(structs)]
    while todo:
        group = todo.pop()
        try:
            Pack(group).compile()
        except Exception as e:  # noqa: BLE001 - the DSL's refusal of the pack
            if len(group) == 1:
                group[0].error, group[0].pack = error_text(e), None
            else:
                todo += [group[:len(group) // 2], group[len(group) // 2:]]


def tensors(*arrays):
    from_dlpack = dsl()[2]
    return [from_dlpack(a).mark_layout_dynamic() for a in arrays]


def shared_array(n, dtype):
    """A numpy array in anonymous shared memory: a forked child's writes stay visible to the
    parent after the child died."""
    nbytes = max(int(n), 1) * np.dtype(dtype).itemsize
    return np.frombuffer(mmap.mmap(-1, nbytes), dtype=dtype, count=int(n))


def status_text(status):
    """None for a process that exited 0, else what ended it."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            return f"killed by {signal.Signals(sig).name}"
        except ValueError:
            return f"killed by signal {sig}"
    code = os.WEXITSTATUS(status)
    return None if code == 0 else f"exit status {code}"


def wait_child(pid, timeout):
    """Wait for child ``pid``; None when it exited 0, else what ended it (killed on timeout)."""
    fd = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return f"timed out after {timeout:g} s"
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    return status_text(status)


def die_with_parent():
    """Linux: this (forked) process gets SIGKILL when its parent dies."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def forked_call(fn, arg, timeout):
    """``fn(arg)`` in a forked child (it inherits the compiled code; the buffers are shared
    memory); None when it returned, else what ended it."""
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: run, then leave without Python's teardown
        code = 0
        try:
            die_with_parent()
            fn(arg)
        except BaseException:  # noqa: BLE001 - reported as the exit status
            code = 3
        finally:
            os._exit(code)
    return wait_child(pid, timeout)
