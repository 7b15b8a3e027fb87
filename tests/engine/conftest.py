"""Shared helpers for the engine tests: a fake monotonic clock and a fake wall clock."""

from __future__ import annotations

import pytest


class FakeClock:
    """A clock the test moves by hand: `clock()` reads it, `advance(s)` moves it on."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1000.0)


@pytest.fixture
def wall() -> FakeClock:
    return FakeClock(1_700_000_000.0)
