"""pytest plugin (``pytest11`` entry point): the ``layoutcheck fuzz`` gate inside a test suite.

``pytest --layoutcheck=pycute,module:mylib`` adds one test item per (check, oracle), named
``layoutcheck::<oracle>::<check>``, collected like any other test (pytest counts them in
"collected N items").  A new failure, or an oracle that crashed on a case, fails the item
with the minimal counterexample, both answers and the replay command; a known finding of
the register is reported as ``XFAIL ... known F-NNN`` (it does not fail the suite); an
unavailable oracle skips with the reason.  Options: ``--layoutcheck-budget`` (seconds *per
check*, i.e. per item, default 2: 31 checks take about a minute), ``--layoutcheck-max-examples``
(cases per item instead of time), ``--layoutcheck-seed``, ``--layoutcheck-ops``.

This module loads on every pytest run in an environment where layoutcheck is installed, so
it only adds the options; the gate itself (``layoutcheck.fuzz.pytest_gate``) is registered
through pytest's plugin manager when ``--layoutcheck`` is given.
"""

import math


def _budget(text):
    value = float(text)
    if not (math.isfinite(value) and 0 < value <= 86400):
        raise ValueError(f"--layoutcheck-budget must lie in (0, 86400] seconds, got {text}")
    return value


def pytest_addoption(parser):
    group = parser.getgroup("layoutcheck", "layoutcheck fuzz gate")
    group.addoption("--layoutcheck", metavar="ORACLES", default=None,
                    help="run the layoutcheck fuzz gate against these comma-separated oracles")
    group.addoption("--layoutcheck-ops", metavar="OPS", default=None,
                    help="only the checks of these comma-separated operations")
    group.addoption("--layoutcheck-budget", type=_budget, default=2.0,
                    help="seconds per check, i.e. per test item (default 2)")
    group.addoption("--layoutcheck-max-examples", type=int, default=None,
                    help="cases per check instead of a time budget")
    group.addoption("--layoutcheck-seed", type=int, default=0, help="base seed (default 0)")


def pytest_configure(config):
    if config.getoption("layoutcheck", None) is not None:
        config.pluginmanager.import_plugin("layoutcheck.fuzz.pytest_gate")
