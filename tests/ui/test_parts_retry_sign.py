"""Retry on the parts screen gives a sign that it tried (issue 34, item 10): on this machine's
missing GPIO, started as `tableside run` starts the kiosk, a Retry that starts nothing new
says so, and says it again at the next tap."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.startup import start_kiosk

from .harness import FakeClock, Kiosk, make_kiosk

pytestmark = pytest.mark.filterwarnings("ignore::gpiozero.PinFactoryFallback")


@pytest.fixture
def dead(tmp_path: Path, fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[Kiosk]:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    config = tmp_path / "settings.toml"
    config.write_text('[camera]\nsource = "none"\n', encoding="utf-8")
    started = start_kiosk(config, tmp_path / "data", clock=fake_clock)
    if not started.services.startup_faults:  # a machine with GPIO: nothing is dead here
        started.close()
        pytest.skip("the GPIO pins start on this machine")
    try:
        yield from make_kiosk(started.services.but(authority=None), fake_clock)
    finally:
        started.parts.close()


def test_retry_that_starts_nothing_says_it_tried(dead: Kiosk) -> None:
    assert dead.current == "parts"
    screen = dead.screen()
    assert screen.ids.tried.text == ""
    dead.tap("retry")  # still no pin factory: nothing starts
    assert dead.current == "parts"
    assert screen.ids.tried.text == "Tried again (1): 2 still not working"
    dead.tap("retry")
    assert screen.ids.tried.text == "Tried again (2): 2 still not working"
    dead.shot("parts_retry_sign")
