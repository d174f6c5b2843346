"""Shared test settings: hypothesis profiles and the scale of `slow` tests.

`slow` tests size themselves with ``scaled(n)``: full size by default, scaled down in
CI by ``CARDSIM_SLOW_SCALE`` (e.g. 0.02), never below a floor that still means
something.
"""
import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, max_examples=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("slow", deadline=None, max_examples=400,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def _scaled(n: int, floor: int = 200) -> int:
    """``n`` times ``CARDSIM_SLOW_SCALE`` (default 1), at least ``floor``."""
    return max(floor, int(n * float(os.environ.get("CARDSIM_SLOW_SCALE", "1"))))


@pytest.fixture
def scaled():
    """The ``scaled(n, floor)`` function as a fixture, for `slow` tests."""
    return _scaled
