"""Python oracles: this package's ``spec`` and ``impl``, and ``module:NAME`` (pycute's API).

``module:NAME`` drives any importable module with pycute's API: a ``Layout(shape, stride)``
class (with ``.shape``, ``.stride`` and ``L(i)``) and functions named like the operations
(``coalesce``, ``composition``, ``complement``, ...).  A function the module lacks is
"unsupported".  pycute has no static integers: inputs go in as plain ints and results
come back dynamic.
"""

import importlib
import inspect

from layoutcheck.errors import LayoutError
from layoutcheck.layout import LayoutBase

from .protocol import Oracle, Outcome

__all__ = ["PackageOracle", "ModuleOracle"]


def _describe(e):
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0]}" if text else type(e).__name__


class PackageOracle(Oracle):
    """``spec`` or ``impl``: call ``layoutcheck.<pkg>.<op>`` on the neutral arguments."""

    def __init__(self, name, sense=None):
        """``sense="cute"`` calls every function that has a ``sense`` parameter with it
        (the spec's CuTe reading of composition, complement, divide and product)."""
        if sense not in (None, "paper", "cute"):
            raise LayoutError(f"sense must be 'paper' or 'cute', got {sense!r}")
        self.name = name
        self.sense = sense
        self._module_name = f"layoutcheck.{name}"

    def _reason(self):
        try:
            mod = importlib.import_module(self._module_name)
        except Exception as e:  # a broken package is a reason, not a crash
            return f"{self._module_name} does not import ({_describe(e)})"
        if not hasattr(mod, "Layout"):
            return f"{self._module_name} has no Layout yet"
        return None

    def _run_many(self, cases):
        mod = importlib.import_module(self._module_name)
        return [self._one(mod, op, args) for op, args in cases]

    def _one(self, mod, op, args):
        fn = getattr(mod, op, None)
        if fn is None:
            return Outcome.unsupported(f"{self._module_name} has no {op}")
        kwargs = {}
        if self.sense and "sense" in _parameters(fn):
            kwargs["sense"] = self.sense
        try:
            result = fn(*args, **kwargs)
        except NotImplementedError as e:
            return Outcome.unsupported(f"{self._module_name}.{op}: {e}")
        except LayoutError as e:
            cond = f" [condition {e.condition}]" if e.condition else ""
            return Outcome.raised(f"{e}{cond}")
        except Exception as e:  # a bug in the package: report it, the comparison flags it
            return Outcome.raised(f"internal error: {_describe(e)}")
        if op == "values":
            return Outcome.ok(tuple(int(x) for x in result))
        return Outcome.ok(result)


class ModuleOracle(Oracle):
    """``module:NAME``: a module with pycute's API (``pycute`` is ``module:pycute``)."""

    def __init__(self, module_name, name=None):
        self.module_name = module_name
        self.name = name or f"module:{module_name}"
        self._mod = None

    def _reason(self):
        try:
            self._mod = importlib.import_module(self.module_name)
        except ImportError as e:
            hint = " (pip install --no-deps nvidia-cutlass)" if self.module_name == "pycute" else ""
            return f"module {self.module_name!r} is not installed: {e}{hint}"
        except Exception as e:
            return f"module {self.module_name!r} does not import ({_describe(e)})"
        if not callable(getattr(self._mod, "Layout", None)):
            return f"module {self.module_name!r} has no Layout class"
        return None

    # neutral -> module values (plain ints: such modules have no static integers)
    def _to(self, x):
        if isinstance(x, LayoutBase):
            return self._mod.Layout(_plain(x.shape), _plain(x.stride))
        if isinstance(x, tuple):
            return tuple(self._to(e) for e in x)
        return int(x)

    def _from(self, r):
        if hasattr(r, "shape") and hasattr(r, "stride"):
            try:
                return LayoutBase(_plain(r.shape), _plain(r.stride))
            except (LayoutError, TypeError) as e:
                raise _BadResult(f"returned an invalid layout {r}: {e}") from None
        if isinstance(r, int) and not isinstance(r, bool):
            return int(r)
        raise _BadResult(f"returned {type(r).__name__} {r!r}, not a layout or an integer")

    def _run_many(self, cases):
        return [self._one(op, args) for op, args in cases]

    def _one(self, op, args):
        mod = self._mod
        name = {"values": "Layout"}.get(op, op)
        fn = getattr(mod, name, None)
        if not callable(fn):
            return Outcome.unsupported(f"{self.module_name} has no {op}")
        try:
            margs = [self._to(a) for a in args]
            if op == "values":
                L = margs[0]
                n = mod.size(L) if hasattr(mod, "size") else _size(L.shape)
                return Outcome.ok(tuple(int(L(i)) for i in range(n)))
            return Outcome.ok(self._from(fn(*margs)))
        except _BadResult as e:
            return Outcome.raised(str(e))
        except RecursionError:
            return Outcome.raised("RecursionError: maximum recursion depth exceeded")
        except Exception as e:
            return Outcome.raised(_describe(e) if str(e) else f"{type(e).__name__} (no message)")


def _parameters(fn):
    try:
        return inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {}


class _BadResult(Exception):
    pass


def _plain(t):
    if isinstance(t, (tuple, list)):
        return tuple(_plain(e) for e in t)
    return int(t)


def _size(shape):
    if isinstance(shape, tuple):
        n = 1
        for s in shape:
            n *= _size(s)
        return n
    return shape
