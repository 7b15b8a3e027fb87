"""Shared fixtures for the engine tests: the one fake clock (drivers.simulated.ManualClock)
as the monotonic clock and as the wall clock."""

from __future__ import annotations

import pytest

from drivers.simulated import ManualClock as FakeClock

__all__ = ["FakeClock"]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1000.0)


@pytest.fixture
def wall() -> FakeClock:
    return FakeClock(1_700_000_000.0)
