"""``cute-dsl``: the CuTe DSL (``nvidia-cutlass-dsl``), whose layout algebra runs at trace time.

Inside a ``@cute.jit`` function (no GPU needed) the DSL's ``make_layout``, ``coalesce``,
``composition``, ... compute static layouts; their text (CuTe notation without the ``_``
marks: every integer there is a compile-time constant) is parsed back and its integers
marked static.  Trace-time values are static by construction, so every input integer is
passed as a Python int: the DSL cannot run this package's dynamic (``4``) integers without
launching code, and results that still hold a runtime value (printed ``?``) are reported
as unsupported.  Outside ``@cute.jit`` the DSL refuses to run (``CALL_OUTSIDE_JIT``).

The DSL runs in a worker process, one case at a time: its native code can die on a signal
(SIGFPE on some zero strides), which must not take the harness with it.  A case that kills
the worker is reported as raised (with the signal) and the worker is restarted.
"""

import importlib
import multiprocessing
import signal

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase
from layoutcheck.notation import parse_tuple

from .protocol import Oracle, Outcome, static_everywhere

__all__ = ["CuteDslOracle"]


CASE_TIMEOUT_S = 120


class CuteDslOracle(Oracle):
    """The CuTe DSL, driven in a worker process (see the module docstring)."""

    name = "cute-dsl"

    def __init__(self):
        self._proc = self._conn = None

    def _start(self):
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(target=_worker, args=(child,), daemon=True)
        self._proc.start()
        child.close()
        if not self._conn.poll(CASE_TIMEOUT_S):
            self._stop()
            return "the CuTe DSL worker did not start within 120 s"
        try:
            return self._conn.recv()
        except EOFError:
            return f"the CuTe DSL worker died while importing ({self._death()})"

    def _death(self):
        self._proc.join(5)
        code = self._proc.exitcode
        self._proc = None
        if code is not None and code < 0:
            return f"killed by {signal.Signals(-code).name}"
        return f"exit status {code}"

    def _stop(self):
        if self._proc is not None:
            self._proc.kill()
            self._proc.join(5)
            self._proc = None

    def _reason(self):
        return self._start()

    def _run_many(self, cases):
        out = []
        for op, args in cases:
            if self._proc is None:
                reason = self._start()
                if reason:
                    out.append(Outcome.raised(f"the CuTe DSL worker cannot restart: {reason}"))
                    continue
            self._conn.send((op, tuple(args)))
            if not self._conn.poll(CASE_TIMEOUT_S):
                self._stop()
                out.append(Outcome.raised(f"the CuTe DSL did not answer within {CASE_TIMEOUT_S} s"))
                continue
            try:
                out.append(self._conn.recv())
            except EOFError:
                out.append(Outcome.raised(f"the CuTe DSL crashed on this case ({self._death()})"))
        return out

    def __del__(self):
        try:
            self._stop()
        except Exception:
            pass


def _worker(conn):
    """The worker's loop: import the DSL, report availability, answer cases until EOF."""
    dsl = _InProcessDsl()
    conn.send(dsl._reason())
    while True:
        try:
            op, args = conn.recv()
        except EOFError:
            return
        try:
            conn.send(dsl._one(op, args))
        except Exception as e:  # an answer that cannot be sent is reported, not lost
            conn.send(Outcome.raised(f"{type(e).__name__}: {e}"[:400]))


class _InProcessDsl:
    """The DSL in this process (used by the worker)."""

    def __init__(self):
        self._cute = None
        self._traced = None

    def _reason(self):
        try:
            self._cute = importlib.import_module("cutlass.cute")
        except ImportError as e:
            return (f"package nvidia-cutlass-dsl is not installed ({e}); "
                    "pip install 'layoutcheck[dsl]'")
        except Exception as e:
            return f"nvidia-cutlass-dsl does not import: {type(e).__name__}: {str(e)[:200]}"
        job = {}

        @self._cute.jit
        def traced():  # runs the pending job at trace time, recording text
            fn, args = job["call"]
            job["out"] = fn(*args)

        self._job, self._traced = job, traced
        return None

    def _to(self, x):
        cute = self._cute
        if isinstance(x, LayoutBase):
            return cute.make_layout(_plain(x.shape), stride=_plain(x.stride))
        if isinstance(x, tuple):
            return tuple(self._to(e) for e in x)
        return int(x)

    def _one(self, op, args):
        cute = self._cute
        if op == "values":
            def call(L):
                return " ".join(str(L(i)) for i in range(cute.size(L)))
        elif op == "complement" and len(args) == 1:
            return Outcome.unsupported("the DSL's complement(L, cotarget) has no default cotarget "
                                       "(CuTe C++ uses cosize(L)); give N explicitly")
        else:
            fn = getattr(cute, op, None)
            if fn is None:
                return Outcome.unsupported(f"cutlass.cute has no {op}")

            def call(*a):
                return str(fn(*a))
        self._job["call"] = (lambda *a: call(*[self._to(x) for x in a]), args)
        self._job.pop("out", None)
        try:
            self._traced()
        except Exception as e:
            lines = [ln.strip() for ln in str(e).strip().splitlines() if ln.strip()]
            detail = next((ln for ln in lines if ln.startswith("error:")), lines[0] if lines else "")
            return Outcome.raised(f"{type(e).__name__}: {detail}"[:400])
        text = self._job.get("out")
        if text is None:
            return Outcome.raised("the traced function produced no result")
        if "?" in text:
            return Outcome.unsupported(f"result holds a runtime value: {text}")
        try:
            if op == "values":
                return Outcome.ok(tuple(int(x) for x in text.split()))
            if op in ("size", "cosize"):
                value = parse_tuple(text)
                if isinstance(value, tuple):
                    raise LayoutError(f"expected an integer, got {text!r}")
                return Outcome.ok(static_everywhere(value))
            return Outcome.ok(static_everywhere(LayoutBase.parse(text)))
        except LayoutError as e:
            return Outcome.raised(f"unparseable output {text!r}: {e}")


def _plain(t):
    return tuple(_plain(e) for e in t) if isinstance(t, tuple) else int(t)
