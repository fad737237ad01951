"""``cute-dsl``: the CuTe DSL (``nvidia-cutlass-dsl``), whose layout algebra runs at trace time.

Inside a ``@cute.jit`` function (no GPU needed) the DSL's ``make_layout``, ``coalesce``,
``composition``, ... compute static layouts; their text (CuTe notation without the ``_``
marks: every integer there is a compile-time constant) is parsed back and its integers
marked static.  Trace-time values are static by construction, so every input integer is
passed as a Python int: the DSL cannot run this package's dynamic (``4``) integers without
launching code, and results that still hold a runtime value (printed ``?``) are reported
as unsupported.  Outside ``@cute.jit`` the DSL refuses to run (``CALL_OUTSIDE_JIT``).

The DSL runs in a worker process (``oracles/isolation.py``, like every ``module:`` oracle):
its native code can die on a signal (SIGFPE on some zero strides), which must not take the
harness with it.  A batch goes to the worker in one message; a case that kills the worker,
or takes longer than ``LAYOUTCHECK_ORACLE_TIMEOUT`` (default 120 s here: the first trace
compiles), answers ``crashed`` and the worker is restarted for the next case.  Integers
outside CuTe's 32-bit ``int`` are "unsupported", as for cute-cpp.
"""

import importlib

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase
from layoutcheck.notation import parse_tuple

from .isolation import IsolatedOracle
from .protocol import Oracle, Outcome, static_everywhere

__all__ = ["CuteDslOracle"]


CASE_TIMEOUT_S = 120
INT_LIMIT = 2 ** 31  # the DSL's integers are 32-bit, like CuTe C++'s int


class CuteDslOracle(IsolatedOracle):
    """The CuTe DSL, driven in a worker process (see the module docstring)."""

    name = "cute-dsl"

    def __init__(self, timeout=None):
        super().__init__("cute-dsl", ("layoutcheck.oracles.cute_dsl", "_InProcessDsl", ()),
                         timeout=timeout, start_timeout=CASE_TIMEOUT_S, memory_mb=0,
                         default_timeout=CASE_TIMEOUT_S)


class _Unrepresentable(Exception):
    pass


class _InProcessDsl(Oracle):
    """The DSL in this process (what the worker runs)."""

    name = "cute-dsl"

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

    def _run_many(self, cases):
        return [self._one(op, args) for op, args in cases]

    def _to(self, x):
        cute = self._cute
        if isinstance(x, LayoutBase):
            return cute.make_layout(_plain(x.shape), stride=_plain(x.stride))
        if isinstance(x, tuple):
            return tuple(self._to(e) for e in x)
        return int(x)

    def _one(self, op, args):
        cute = self._cute
        try:
            _representable(args)
        except _Unrepresentable as e:
            return Outcome.unsupported(str(e))
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


def _representable(x):
    if isinstance(x, LayoutBase):
        _representable((x.shape, x.stride))
    elif isinstance(x, tuple):
        for e in x:
            _representable(e)
    elif isinstance(x, int) and not 0 <= int(x) < INT_LIMIT:
        raise _Unrepresentable(f"integer {int(x)} does not fit the CuTe DSL's 32-bit int")
