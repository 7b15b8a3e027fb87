"""Fixtures for the Kivy tests: a running kiosk on a fake clock (see harness.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kiosk.config import Settings

from .harness import FakeClock, Kiosk, Services, make_kiosk, pump

PIN = "2468"


@dataclass
class Hooks:
    """What a test hands the kiosk in place of its parts (Services is built once): where the
    settings are saved (`saved`, or `save` when set), the camera's frame and where a picture
    kept as the empty board goes (`keep`)."""

    saved: list[Settings] = field(default_factory=list)
    save: Callable[[Settings], None] | None = None
    frame: Any = None
    keep: Callable[[Any], None] | None = None

    def save_settings(self, settings: Settings) -> None:
        if self.save is not None:
            self.save(settings)
        self.saved.append(settings)


@pytest.fixture
def hooks() -> Hooks:
    return Hooks()


@pytest.fixture
def fake_clock() -> FakeClock:
    return FakeClock(1000.0)


@pytest.fixture
def services(tmp_path: Path, fake_clock: FakeClock, hooks: Hooks) -> Services:
    return Services(
        data_dir=tmp_path,
        check_pin=lambda pin: pin == PIN,
        clock=fake_clock,
        save_settings=hooks.save_settings,
        grab_frame=lambda: hooks.frame,
        keep_empty=lambda rgb: hooks.keep(rgb) if hooks.keep is not None else None,
    )


@pytest.fixture
def kiosk(services: Services, fake_clock: FakeClock) -> Iterator[Kiosk]:
    yield from make_kiosk(services, fake_clock)


@pytest.fixture
def small(kiosk: Kiosk) -> Iterator[Kiosk]:
    """The kiosk at 800x480, the window at the screen's corner (SDL may move a resized window:
    taps aim at 0,0); English and 1024x600 again afterwards."""
    from kivy.core.window import Window

    from kiosk.ui.i18n import apply_languages

    Window.size = (800, 480)
    pump(6)
    Window.left, Window.top = 0, 0
    pump(2)
    try:
        yield kiosk
    finally:
        apply_languages("en", "")
        Window.size = (1024, 600)
        pump(6)
        Window.left, Window.top = 0, 0
        pump(2)
