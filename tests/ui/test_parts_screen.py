"""Dead parts at start, real parts and real taps under Xvfb: the kiosk started with
its beams dead and showed only a tiny truncated red line. Here the kiosk is started as
`tableside run` starts it (kiosk/startup.py) on a machine with no GPIO: the beams and the
buzzer do not start. A clear screen names them with the choices to go on by hand or retry;
a retry once gpiozero has a pin factory starts them, one that starts nothing says it tried;
a fault stays on the console as a sign
and a line, with its details a tap away."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device

from kiosk.startup import start_kiosk

from .harness import FakeClock, Kiosk, make_kiosk

pytestmark = pytest.mark.filterwarnings("ignore::gpiozero.PinFactoryFallback")


@pytest.fixture
def dead(tmp_path: Path, fake_clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> Iterator[Kiosk]:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    # gpiozero keeps the factory it made first (a Retry's mock pins, a test before): without
    # one, it looks again, as a kiosk's first start does.
    monkeypatch.setattr(Device, "pin_factory", None)
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


def test_dead_beams_at_start_are_named_with_go_on_by_hand(dead: Kiosk) -> None:
    assert dead.current == "parts"
    screen = dead.screen()
    assert screen.ids.headline.text == "Some parts did not start"
    names = [row[0] for row in screen.rows]
    assert names == ["Pocket beams", "Buzzer"]
    assert screen.rows[0][1] == "no pockets are counted: the umpire enters each stroke"
    assert screen.rows[0][2] == "No GPIO pin factory can start on this computer"  # its facts
    dead.shot("parts_dead_at_start")
    dead.tap("go_on")
    assert dead.current == "pins"  # then the first start asks for the PINs, as without faults
    dead.app.show("home")
    dead.tap("carrom_icf")
    dead.tap("start")
    assert dead.current == "carrom", (dead.current, getattr(dead.screen(), "message", ""))
    console = dead.screen()
    # The fault stays in sight: a sign and a line, a tap for every message.
    assert console.ids.fault_icon.opacity == 1
    assert console.fault_line == "Pocket beams: not working (+1 more)"
    dead.tap("faults")
    assert console.show_fault_details
    details = console.ids.fault_details.text.splitlines()
    assert details[0] == "Pocket beams: No GPIO pin factory can start on this computer"
    dead.shot("carrom_fault_details")
    dead.tap("fault_close")
    assert not console.show_fault_details


def test_retry_starts_the_parts_once_they_can(dead: Kiosk, monkeypatch: pytest.MonkeyPatch) -> None:
    screen = dead.screen()
    assert not screen.ids.retry.disabled
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")  # the pins are there now
    dead.tap("retry")
    assert dead.current == "pins"  # the first start's PINs come next
    assert dead.services.startup_faults == () and dead.services.beams == (1, 2, 3, 4)


# A Retry that starts nothing new says it tried, and again at the next tap.
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
