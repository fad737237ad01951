"""``module:NAME``: any importable Python module with pycute's API, run in a worker process.

``module:NAME`` drives any importable module with pycute's API: a ``Layout(shape, stride)``
class (with ``.shape``, ``.stride`` and ``L(i)``) and functions named like the operations
(``coalesce``, ``composition``, ``complement``, ...).  A function the module lacks is
"unsupported".  pycute has no static integers: inputs go in as plain ints and results
come back dynamic.
"""

import importlib

from layoutcheck.oracles.isolation import IsolatedOracle
from layoutcheck.oracles.protocol import Oracle, describe_exception
from layoutcheck.oracles.pyapi import PyApi

__all__ = ["ModuleOracle", "isolated_module"]


def isolated_module(module_name, name=None, **options):
    """``module:NAME`` (and ``pycute``) as the harness runs it: a ``ModuleOracle`` inside a
    worker process (``oracles/isolation.py``), so that the module's exits, crashes, hangs
    and memory use stay out of the harness.  ``ModuleOracle`` itself is the in-process
    adapter the worker runs; options: ``timeout``, ``start_timeout``, ``memory_mb``."""
    name = name or f"module:{module_name}"
    return IsolatedOracle(name, ("layoutcheck.oracles.module.oracle", "ModuleOracle",
                                 (module_name, name)), **options)


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
            return f"module {self.module_name!r} does not import ({describe_exception(e)})"
        if not callable(getattr(self._mod, "Layout", None)):
            return f"module {self.module_name!r} has no Layout class"
        return None

    def _run_many(self, cases):
        return [self._one(op, args) for op, args in cases]

    def _one(self, op, args):
        """One case through the op table of ``oracles/pyapi.py`` (pycute's API; a subclass
        or a caller may set ``self.api_overrides`` / ``self.api_underscore``)."""
        if getattr(self, "_api", None) is None or self._api.mod is not self._mod:
            self._api = PyApi(self._mod, name=self.module_name,
                              overrides=getattr(self, "api_overrides", None),
                              underscore=getattr(self, "api_underscore", None))
        return self._api.call(op, args)

