"""``module:NAME``: any importable Python module with pycute's API, run in a worker process.

``module:NAME`` drives any importable module with pycute's API: a ``Layout(shape, stride)``
class (with ``.shape``, ``.stride`` and ``L(i)``) and functions named like the operations
(``coalesce``, ``composition``, ``complement``, ...).  A function the module lacks is
"unsupported".  pycute has no static integers: inputs go in as plain ints and results
come back dynamic.
"""

import importlib
import sys
from pathlib import Path

from layoutcheck.oracles.isolation import IsolatedOracle
from layoutcheck.oracles.protocol import Oracle, describe_exception
from layoutcheck.oracles.pyapi import PyApi

__all__ = ["ModuleOracle", "isolated_module"]


def isolated_module(module_name, name=None, *, first=None, label=None, **options):
    """``module:NAME`` (and ``pycute``) as the harness runs it: a ``ModuleOracle`` inside a
    worker process (``oracles/isolation.py``), so that the module's exits, crashes, hangs
    and memory use stay out of the harness.  ``ModuleOracle`` itself is the in-process
    adapter the worker runs; options: ``timeout``, ``start_timeout``, ``memory_mb``.
    ``first``: a folder the worker imports the module from, ahead of the environment (another
    release's pycute); ``label``: what ``describe()`` says it is (``nvidia-cutlass 3.5.1.0``)."""
    name = name or f"module:{module_name}"
    path = [str(first), *map(str, sys.path)] if first is not None else None
    return IsolatedOracle(name, ("layoutcheck.oracles.module.oracle", "ModuleOracle",
                                 (module_name, name, label)), path=path, **options)


class ModuleOracle(Oracle):
    """``module:NAME``: a module with pycute's API (``pycute`` is ``module:pycute``)."""

    def __init__(self, module_name, name=None, label=None):
        self.module_name = module_name
        self.name = name or f"module:{module_name}"
        self.label = label
        self._mod = None

    def describe(self):
        """With a label (another release): ``nvidia-cutlass 3.5.1.0: pycute at PATH``."""
        if not self.label or self._mod is None:
            return None
        where = Path(getattr(self._mod, "__file__", "") or "?").parent
        return f"{self.label}: {self.module_name} at {where}"

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

