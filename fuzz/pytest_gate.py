"""The ``layoutcheck fuzz`` gate as pytest items (registered by ``fuzz/pytest_plugin.py`` when
``--layoutcheck`` is given): one item per (oracle, check)."""

import pytest
from layoutcheck.fuzz.campaign.runner import format_failure, run_check
from layoutcheck.fuzz.checks.catalogue import BY_NAME, checks_for
from layoutcheck.oracles import get_oracle

from layoutcheck.errors import LayoutError


def _split(text):
    return [x.strip() for x in text.split(",") if x.strip()] if text else None


class LayoutcheckFailure(Exception):
    pass


_ORACLES = {}  # one oracle (one worker process) per name for the whole session


def _oracle(name):
    if name not in _ORACLES:
        _ORACLES[name] = get_oracle(name)
    return _ORACLES[name]


class LayoutcheckItem(pytest.Item):
    def __init__(self, *, check_name, oracle_name, **kw):
        super().__init__(**kw)
        self.check_name, self.oracle_name = check_name, oracle_name

    def runtest(self):

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
