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

from layoutcheck.oracles.protocol import Oracle, Outcome

__all__ = ["PackageOracle", "ModuleOracle", "isolated_module"]


def isolated_module(module_name, name=None, **options):
    """``module:NAME`` (and ``pycute``) as the harness runs it: a ``ModuleOracle`` inside a
    worker process (``oracles/isolation.py``), so that the module's exits, crashes, hangs
    and memory use stay out of the harness.  ``ModuleOracle`` itself is the in-process
    adapter the worker runs; options: ``timeout``, ``start_timeout``, ``memory_mb``."""
    from layoutcheck.oracles.isolation import IsolatedOracle
    name = name or f"module:{module_name}"
    return IsolatedOracle(name, ("layoutcheck.oracles.module.oracle", "ModuleOracle",
                                 (module_name, name)), **options)


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
        from layoutcheck.oracles.pyapi import package_function
        fn = package_function(mod, op, args)
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

    def _run_many(self, cases):
        return [self._one(op, args) for op, args in cases]

    def _one(self, op, args):
        """One case through the op table of ``oracles/pyapi.py`` (pycute's API; a subclass
        or a caller may set ``self.api_overrides`` / ``self.api_underscore``)."""
        if getattr(self, "_api", None) is None or self._api.mod is not self._mod:
            from layoutcheck.oracles.pyapi import PyApi
            self._api = PyApi(self._mod, name=self.module_name,
                              overrides=getattr(self, "api_overrides", None),
                              underscore=getattr(self, "api_underscore", None))
        return self._api.call(op, args)


def _parameters(fn):
    try:
        return inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {}
