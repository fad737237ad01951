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
import sys
from pathlib import Path

from layoutcheck.oracles.dsl.calls import DSL_CALLS, UNSUPPORTED_DSL, dsl_answer, dsl_case, to_dsl
from layoutcheck.oracles.isolation import IsolatedOracle
from layoutcheck.oracles.protocol import ANSWERS, Oracle, Outcome, static_everywhere

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase, Underscore
from layoutcheck.notation import parse_tuple

__all__ = ["CuteDslOracle"]


CASE_TIMEOUT_S = 120
INT_LIMIT = 2 ** 31  # the DSL's integers are 32-bit, like CuTe C++'s int


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
                         timeout=timeout, start_timeout=CASE_TIMEOUT_S, memory_mb=0,
                         default_timeout=CASE_TIMEOUT_S, path=path, env=env, forget=forget)


def _holds_dsl(entry):
    """A ``sys.path`` entry from which some CuTe DSL's ``cutlass`` package imports."""
    return (Path(entry) / "cutlass" / "cute").is_dir()


class _Unrepresentable(Exception):
    pass


class InProcessDsl(Oracle):
    """The DSL in this process (what the worker runs)."""

    name = "cute-dsl"

    def __init__(self, label=None):
        self._cute = None
        self._traced = None
        self.label = label

    def describe(self):
        """With a label (another release): ``nvidia-cutlass-dsl 4.4.0: cutlass at PATH``."""
        if not self.label or self._cute is None:
            return None
        where = Path(getattr(importlib.import_module("cutlass"), "__file__", "") or "?").parent
        return f"{self.label}: cutlass at {where}"

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
        v = to_dsl(cute, x, self._to)
        if v is not None:
            return v
        if isinstance(x, LayoutBase):
            return cute.make_layout(_plain(x.shape), stride=_plain(x.stride))
        if isinstance(x, tuple):
            return tuple(self._to(e) for e in x)
        if isinstance(x, Underscore):
            return None  # the DSL's placeholder, as pycute's
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
        elif op in DSL_CALLS or op in UNSUPPORTED_DSL:  # swizzles, composed layouts, recast, tiling (oracles/dsl/calls.py)
            args, why = dsl_case(op, args)
            if why:
                return Outcome.unsupported(why)
            fn = DSL_CALLS.get(op, {}).get(len(args))
            if fn is None:
                return Outcome.unsupported(UNSUPPORTED_DSL.get(
                    op, f"cutlass.cute has no {op} of {len(args)} argument(s)"))
            call = _bind(fn, cute)
        elif op in _API and len(args) in _API[op]:
            call = _bind(_API[op][len(args)], cute)
        elif op in _BEYOND or (op == "filter" and len(args) == 2):
            return Outcome.unsupported(f"cutlass.cute has no {op} of {len(args)} argument(s)")
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
            if op in DSL_CALLS:
                return Outcome.ok(dsl_answer(op, ANSWERS[op], text))
            if op in _API:
                return Outcome.ok(_api_answer(op, text))
            return Outcome.ok(static_everywhere(LayoutBase.parse(text)))
        except LayoutError as e:
            return Outcome.raised(f"unparseable output {text!r}: {e}")


def _plain(t):
    return tuple(_plain(e) for e in t) if isinstance(t, tuple) else int(t)


# --- the ops beyond the algebra (DESIGN.md's table) ------------------------------
# op -> {argument count: fn(cute, *dsl_args) -> text}; an absent op or arity is unsupported
# (the DSL 4.8 has no crd2crd, prefix_product, inner_product, elem_scale, compatible, nor
# filter with a profile, nor idx2crd with a stride).  A pair answers "layout|offset".

def _left(s):
    """LayoutLeft's strides as plain ints (CuTe's crd2idx(c, shape) is their crd2idx)."""
    flat, p = [], 1
    for x in _leaves(s):
        flat.append(p)
        p *= x
    it = iter(flat)

    def go(t):
        return tuple(go(e) for e in t) if isinstance(t, tuple) else next(it)
    return go(s)


def _leaves(t):
    return [x for e in t for x in _leaves(e)] if isinstance(t, tuple) else [t]


def _holds_none(c):
    return c is None or (isinstance(c, tuple) and any(map(_holds_none, c)))


_API = {
    "eval_coord": {2: lambda cute, L, c: str(cute.crd2idx(c, L))},
    "get_mode": {2: lambda cute, L, i: str(cute.get(L, mode=[i]))},
    "rank": {1: lambda cute, L: str(cute.rank(L))},
    "crd2idx": {2: lambda cute, c, s: str(cute.crd2idx(c, cute.make_layout(s, stride=_left(s)))),
                3: lambda cute, c, s, d: str(cute.crd2idx(c, cute.make_layout(s, stride=d)))},
    "idx2crd": {2: lambda cute, i, s: str(cute.idx2crd(i, s))},
    "slice_": {2: lambda cute, L, c: str(cute.slice_(L, c) if _holds_none(c) else cute.crd2idx(c, L))},
    "dice": {2: lambda cute, L, c: str(cute.dice(L, c))},
    "slice_and_offset": {2: lambda cute, L, c: "{}|{}".format(*cute.slice_and_offset(c, L))},
    "layout_left": {1: lambda cute, s: str(cute.make_layout(s))},
    "shape_div": {2: lambda cute, a, b: str(cute.shape_div(a, b))},
    "product": {1: lambda cute, a: str(cute.product(a))},
    "flatten": {1: lambda cute, a: str(cute.flatten(a))},
    "congruent": {2: lambda cute, a, b: str(cute.is_congruent(a, b))},
    "coalesce": {2: lambda cute, L, p: str(cute.coalesce(L, target_profile=p))},
}


_BEYOND = frozenset(("eval_coord", "get_mode", "rank", "crd2idx", "idx2crd", "crd2crd", "slice_",
                     "dice", "slice_and_offset", "layout_left", "shape_div", "prefix_product",
                     "product", "inner_product", "elem_scale", "congruent", "compatible",
                     "flatten"))


def _bind(fn, cute):
    return lambda *a: fn(cute, *a)


def _api_answer(op, text):
    """The DSL's text of an op of ``_API`` as a neutral value of the op's answer kind."""
    kind = ANSWERS[op]
    if op == "slice_" and ":" not in text or kind in ("int", "inttuple"):
        value = parse_tuple(text.replace(" ", "").replace(",)", ")"))
        if kind == "int" and isinstance(value, tuple):
            raise LayoutError(f"expected an integer, got {text!r}")
        return static_everywhere(value)
    if kind == "bool":
        if text not in ("True", "False"):
            raise LayoutError(f"expected True or False, got {text!r}")
        return text == "True"
    if kind == "layout_offset":
        layout, offset = text.split("|")
        return static_everywhere(LayoutBase.parse(layout)), static_everywhere(parse_tuple(offset))
    return static_everywhere(LayoutBase.parse(text))


def _representable(x):
    if isinstance(x, LayoutBase):
        _representable((x.shape, x.stride))
    elif isinstance(x, tuple):
        for e in x:
            _representable(e)
    elif isinstance(x, int) and not 0 <= int(x) < INT_LIMIT:
        raise _Unrepresentable(f"integer {int(x)} does not fit the CuTe DSL's 32-bit int")
