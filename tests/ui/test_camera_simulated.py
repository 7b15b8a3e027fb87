"""`make run`'s simulated camera is calibrated: the kiosk started as `tableside run
--simulate` starts it (the synthetic board's camera, simulated beams) carries the board's
own calibration, so a coin through a pocket is seen by the beam and by the camera, and the
console's header names both: "beams + camera", not "beams only, the camera is not
calibrated". The coin is the simulation's own key press (a beam hit and the same coin
leaving the rendered board); the camera's thread watches the frames as the kiosk's does."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.startup import Kiosk as Started
from kiosk.startup import start_kiosk
from vision.sim.live import default_board
from vision.sim.render import pocket_centres_image

from .harness import FakeClock, Kiosk, make_kiosk


@pytest.fixture
def simulated(tmp_path: Path, fake_clock: FakeClock) -> Iterator[tuple[Kiosk, Started]]:
    # No settings file: the shipped defaults, whose camera `tableside run --simulate` makes
    # the synthetic board's.
    started = start_kiosk(None, tmp_path / "data", simulate=True, clock=fake_clock)
    try:
        for kiosk in make_kiosk(started.services.but(authority=None, ask_pins=False), fake_clock):
            yield kiosk, started
    finally:
        started.close()


def test_make_run_s_simulated_camera_is_calibrated_and_the_header_names_it(
    simulated: tuple[Kiosk, Started],
) -> None:
    kiosk, started = simulated
    kiosk.app.show("home")
    kiosk.tap("carrom_icf")
    kiosk.tap("start")
    kiosk.tap("play")
    console = kiosk.screen()
    session = console.session
    press = started.services.press_pocket  # make run's key 1: the beam and the board
    assert press is not None
    press(1)
    # The camera's thread renders the board at the kiosk's clock: move it on as time passes
    # so that it sees the coin go and the board come to rest.
    clock = kiosk.clock
    for _ in range(300):
        clock.advance(1 / 15)
        started.runner.step()  # the started beams' filter
        kiosk.advance(0.0, frames=1)
        if session.proposal.source == "beams+camera":
            break
        time.sleep(1 / 15)
    kiosk.advance(0.1)
    assert console.prop_source == "beams + camera"
    assert session.proposal.source == "beams+camera" and session.proposal.pocketed == ("white",)
    assert session.camera_calibrated and session.view().calibrated
    camera = started.parts.camera
    assert camera is not None and camera.watcher is not None
    assert camera.watcher.calibration is not None  # the board watcher has the pockets
    drawn = pocket_centres_image(default_board().look)  # where the renderer puts them
    expected = [[round(x, 2), round(y, 2)] for x, y in drawn]
    assert [list(p) for p in started.services.settings.camera.calibration] == expected
    kiosk.shot("carrom_simulated_camera")
