"""Oracles: one protocol over spec, impl, pycute, ``module:NAME``, cute-cpp and cute-dsl.

``get_oracle(name)`` returns an ``Oracle`` with ``unavailable_reason()``, ``run(op, *args)``
and ``run_many([(op, args), ...])``, each answer an ``Outcome`` (``ok`` / ``raised`` /
``unsupported``).  ``compare(op, inputs, expected, actual)`` grades an answer against the
reference (see ``layoutcheck.oracles.compare`` for the levels).
"""

from layoutcheck.errors import LayoutError

from layoutcheck.oracles.compare import CHECK, LEVELS, REQUIRED, Comparison, compare, verdict
from layoutcheck.oracles.protocol import OPS, Oracle, Outcome, parse_args

__all__ = ["get_oracle", "available_oracles", "ORACLE_NAMES", "compare", "Comparison", "Outcome",
           "Oracle", "OPS", "LEVELS", "REQUIRED", "CHECK", "verdict", "parse_args"]

ORACLE_NAMES = ("spec", "impl", "pycute", "nvlabs", "cute-cpp", "cute-dsl")


def get_oracle(name, **options):
    """The oracle called ``name`` (one of ORACLE_NAMES or ``module:NAME``).

    ``options`` go to the oracle's constructor (cute-cpp: ``include_dir``, ``cxx``, ``cuda``,
    ``cache_dir``).  An unknown name raises LayoutError; an unavailable oracle is returned
    and says why through ``unavailable_reason()``.
    """
    if name in ("spec", "impl"):
        from layoutcheck.oracles.module.oracle import PackageOracle
        return PackageOracle(name, **options)
    if name == "pycute":
        from layoutcheck.oracles.module.oracle import isolated_module
        return isolated_module("pycute", name="pycute", **options)
    if isinstance(name, str) and name.startswith("module:"):
        # module:NAME@LINEAGE: a copy of an implementation (a patched pycute) that inherits
        # LINEAGE's findings (layoutcheck.findings.lineage); plain module:NAME has none.
        module, _, line = name[len("module:"):].partition("@")
        if not module or not all(p.isidentifier() for p in module.split(".")):
            raise LayoutError(f"bad oracle name {name!r}: expected module:NAME with an importable module name")
        if "@" in name and not all(p.isidentifier() for p in line.replace("-", "_").split(".")):
            raise LayoutError(f"bad oracle name {name!r}: expected module:NAME@LINEAGE, e.g. module:mycopy@pycute")
        from layoutcheck.oracles.module.oracle import isolated_module
        oracle = isolated_module(module, name=name, **options)
        oracle.lineage = line or None
        return oracle
    if name == "cute-cpp":
        from layoutcheck.oracles.cpp.oracle import CuteCppOracle
        return CuteCppOracle(**options)
    if name == "cute-dsl":
        from layoutcheck.oracles.dsl.oracle import CuteDslOracle
        return CuteDslOracle(**options)
    if isinstance(name, str) and (name == "nvlabs" or name.startswith("nvlabs:")):
        path = name[len("nvlabs:"):] if name != "nvlabs" else None
        if path == "":
            raise LayoutError(f"bad oracle name {name!r}: expected nvlabs or nvlabs:PATH")
        from layoutcheck.oracles.nvlabs.oracle import nvlabs_oracle
        return nvlabs_oracle(path, name=name, **options)
    raise LayoutError(f"unknown oracle {name!r}; known: {', '.join(ORACLE_NAMES)}, "
                      "module:NAME[@LINEAGE], nvlabs:PATH")


def available_oracles():
    """The names in ORACLE_NAMES whose oracle can run here."""
    return [n for n in ORACLE_NAMES if get_oracle(n).unavailable_reason() is None]
