"""pytest plugin (``pytest11`` entry point): the ``layoutcheck fuzz`` gate inside a test suite.

``pytest --layoutcheck=pycute,module:mylib`` adds one test item per (check, oracle), named
``layoutcheck::<oracle>::<check>``, collected like any other test (pytest counts them in
"collected N items").  A new failure, or an oracle that crashed on a case, fails the item
with the minimal counterexample, both answers and the replay command; a known finding of
the register is reported as ``XFAIL ... known F-NNN`` (it does not fail the suite); an
unavailable oracle skips with the reason.  Options: ``--layoutcheck-budget`` (seconds *per
check*, i.e. per item, default 2: 31 checks take about a minute), ``--layoutcheck-max-examples``
(cases per item instead of time), ``--layoutcheck-seed``, ``--layoutcheck-ops``.

This module loads on every pytest run, so it imports nothing heavy at module level.
"""

import math

import pytest


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


def _split(text):
    return [x.strip() for x in text.split(",") if x.strip()] if text else None


class LayoutcheckFailure(Exception):
    pass


_ORACLES = {}  # one oracle (one worker process) per name for the whole session


def _oracle(name):
    from layoutcheck.oracles import get_oracle
    if name not in _ORACLES:
        _ORACLES[name] = get_oracle(name)
    return _ORACLES[name]


class LayoutcheckItem(pytest.Item):
    def __init__(self, *, check_name, oracle_name, **kw):
        super().__init__(**kw)
        self.check_name, self.oracle_name = check_name, oracle_name

    def runtest(self):
        from layoutcheck.fuzz.campaign.runner import format_failure, run_check
        from layoutcheck.fuzz.checks.algebra import BY_NAME

        cfg = self.config
        oracle = _oracle(self.oracle_name)
        reason = oracle.unavailable_reason()
        if reason:
            pytest.skip(f"oracle {self.oracle_name} unavailable: {reason}")
        check = BY_NAME[self.check_name]
        spec = _oracle("spec")
        if check.kind == "differential":
            if self.oracle_name == "spec":
                pytest.skip("the spec against itself")
            if spec.unavailable_reason():
                pytest.skip(f"spec unavailable: {spec.unavailable_reason()}")
        mx = cfg.getoption("layoutcheck_max_examples")
        r = run_check(check, oracle, spec, budget=None if mx else cfg.getoption("layoutcheck_budget"),
                      max_examples=mx, seed=cfg.getoption("layoutcheck_seed"))
        self.user_properties.append(("cases", r["cases"]))
        if r["status"] == "skipped":
            pytest.skip(r["message"])
        if r["status"] in ("fail", "error") and not r["known_finding"]:
            raise LayoutcheckFailure(format_failure(r))
        if r["known_finding"]:
            print(format_failure(r))
            pytest.xfail(f"known {r['known_finding']}: {r['message']}")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, LayoutcheckFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"layoutcheck {self.oracle_name} {self.check_name}"


class LayoutcheckGate(pytest.Collector):
    """The gate's items: one per (oracle, check)."""

    def __init__(self, *, oracles, checks, **kw):
        super().__init__(**kw)
        self.oracles, self.checks = oracles, checks

    def collect(self):
        for oracle in self.oracles:
            for check in self.checks:
                yield LayoutcheckItem.from_parent(
                    self, name=f"{oracle}::{check.name}",
                    check_name=check.name, oracle_name=oracle)


def pytest_collection_modifyitems(session, config, items):
    oracles = _split(config.getoption("layoutcheck", None))
    if config.getoption("layoutcheck", None) is not None and not oracles:
        raise pytest.UsageError("--layoutcheck names no oracle")
    if not oracles:
        return
    from layoutcheck.fuzz.checks.algebra import checks_for
    from layoutcheck.oracles import get_oracle

    from layoutcheck.errors import LayoutError
    for name in oracles:
        try:
            get_oracle(name)
        except LayoutError as e:
            raise pytest.UsageError(f"--layoutcheck: {e}") from None
    ops = _split(config.getoption("layoutcheck_ops"))
    selected = checks_for(ops)
    if not selected:
        raise pytest.UsageError(f"--layoutcheck-ops {ops} selects no check")
    gate = LayoutcheckGate.from_parent(session, name="layoutcheck", oracles=oracles,
                                       checks=selected)
    items.extend(session.genitems(gate))  # reports the collection, so pytest counts them
