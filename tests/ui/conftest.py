"""Fixtures for the Kivy tests: a running kiosk on a fake clock (see harness.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import FakeClock, Kiosk, Services, make_kiosk

PIN = "2468"


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock(1000.0)


@pytest.fixture
def services(tmp_path: Path, fake_clock: FakeClock) -> Services:
    return Services(data_dir=tmp_path, check_pin=lambda pin: pin == PIN, clock=fake_clock)


@pytest.fixture
def kiosk(services: Services, fake_clock: FakeClock) -> Iterator[Kiosk]:
    yield from make_kiosk(services, fake_clock)
