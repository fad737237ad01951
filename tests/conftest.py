"""Shared pytest configuration: hypothesis profiles, opt-in markers, and where this
repository's test machines keep the implementations under test that no package index has."""

import importlib
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# "ci" keeps the default run short and deterministic; LAYOUTCHECK_SLOW=1 selects "slow".
settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("slow", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("slow" if os.environ.get("LAYOUTCHECK_SLOW") else "ci")

# NVIDIA's new PyCuTe is not on the package index: the oracle reads $LAYOUTCHECK_NVLABS_PATH.
# The machines that run this suite provide a snapshot in a folder ``shared/vendor/nvlabs-pycute``
# beside the checkout or one of its parents; elsewhere the tests that need it skip and say so.
if not os.environ.get("LAYOUTCHECK_NVLABS_PATH"):
    for _folder in Path(__file__).resolve().parents[1:]:
        _snapshot = _folder / "shared" / "vendor" / "nvlabs-pycute"
        if (_snapshot / "pycute").is_dir():
            os.environ["LAYOUTCHECK_NVLABS_PATH"] = str(_snapshot)
            break


def pytest_collection_modifyitems(config, items):
    if os.environ.get("LAYOUTCHECK_SLOW"):
        return
    skip = pytest.mark.skip(reason="long run: opt in with LAYOUTCHECK_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def install(monkeypatch, tmp_path):
    """``install(oracle)``: the campaigns of this test get ``oracle`` for its name (the others as
    usual), run in a temporary folder."""
    monkeypatch.chdir(tmp_path)
    # imported here: the campaign's strategies are not built while pytest loads its plugins
    startup = importlib.import_module("layoutcheck.fuzz.campaign.startup")
    real = startup.get_oracle

    def put(oracle):
        monkeypatch.setattr(startup, "get_oracle", lambda n: oracle if n == oracle.name else real(n))
        return oracle
    return put
