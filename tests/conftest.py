"""Shared pytest configuration: hypothesis profiles and opt-in markers."""

import os

import pytest
from hypothesis import HealthCheck, settings

# "ci" keeps the default run short and deterministic; LAYOUTCHECK_SLOW=1 selects "slow".
settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("slow", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("slow" if os.environ.get("LAYOUTCHECK_SLOW") else "ci")


def pytest_collection_modifyitems(config, items):
    if os.environ.get("LAYOUTCHECK_SLOW"):
        return
    skip = pytest.mark.skip(reason="long run: opt in with LAYOUTCHECK_SLOW=1")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
