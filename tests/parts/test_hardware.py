"""The parts built from the settings: simulated beams into a session, parts that fail to
start become faults, the camera feed's heartbeat and loss."""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from drivers.display_protocol import DisplayFrame
from drivers.hits import BeamHit
from kiosk.access.authority import Role
from kiosk.config import Settings, with_values
from kiosk.engine.journal import Journal
from kiosk.parts.camera import CameraFeed
from kiosk.parts.hardware import build_parts
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_inputs import CameraAlive, CameraLost, PartFault
from kiosk.tables.carrom_table import CarromTable
from tests.waiting import wait_until


def test_hardware_simulated_beams_feed_the_session(tmp_path: Path) -> None:
    settings = with_values(Settings(), pockets={"source": "simulated"})
    s = CarromTable(Journal(tmp_path / "j.db"), settings)
    parts = build_parts(settings, s.post, simulate=True, camera=False)
    try:
        assert parts.problems == ()
        assert parts.pockets == (1, 2, 3, 4) and parts.buzzer is not None
        s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
        parts.simulated.press(3, 0.02)  # key 3: a coin through pocket 3, real MockFactory pins
        assert wait_until(lambda: s.poll().proposal.hits == 1)
        assert [v.beam for v in s.view().proposal.pockets] == [0, 0, 1, 0]
        assert parts.pollers() and parts.deadlines()
        # Simulated without a port: a simulated display on a pty speaks the real protocol.
        assert parts.display_sim is not None and parts.display is not None
        frame = DisplayFrame(3, 4, "15", "L", 1, "BREAK")
        parts.display.show(frame)
        assert parts.display_sim.wait_for(frame, 5.0)
    finally:
        parts.close()


def test_hardware_gpio_beams_on_the_mock_factory(tmp_path: Path) -> None:
    settings = with_values(Settings(), pockets={"source": "gpio", "pin_factory": "mock"})
    got: list[object] = []
    parts = build_parts(settings, got.append, camera=False)
    try:
        assert parts.problems == ()
        pin = parts.beams.pin_of(2)
        pin.drive_low()  # the beam breaks
        time.sleep(0.01)
        pin.drive_high()
        assert wait_until(lambda: any(isinstance(g, BeamHit) and g.pocket == 2 for g in got))
    finally:
        parts.close()


@pytest.mark.filterwarnings("ignore::gpiozero.PinFactoryFallback")
def test_hardware_a_part_that_fails_to_start_is_a_fault_not_a_crash(tmp_path: Path) -> None:
    settings = with_values(
        Settings(),
        pockets={"source": "bridge"},
        bridge={"port": str(tmp_path / "no-such-port")},
        display={"port": "/dev/null/not-a-port"},
        camera={"source": f"file:{tmp_path / 'missing.mp4'}"},
    )
    s = CarromTable(Journal(tmp_path / "j.db"), settings, camera=True)
    parts = build_parts(settings, s.post)
    try:
        names = {part for part, _ in parts.problems}
        assert "camera" in names
        s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
        parts.report(s.post, time.monotonic())
        view = s.poll()
        assert "camera" in {f.part for f in view.faults}
        assert all(isinstance(p, str) and m for p, m in parts.problems)
    finally:
        parts.close()


def test_hardware_part_fault_messages_name_the_part() -> None:
    got: list[object] = []
    settings = with_values(Settings(), camera={"source": "none"})
    parts = build_parts(settings, got.append, simulate=True)
    try:
        gone = ("display", "player display did not start: gone")
        replace(parts, problems=(*parts.problems, gone)).report(got.append, 5.0)
        assert PartFault(5.0, "display", "player display did not start: gone") in got
    finally:
        parts.close()


class Frames:
    """Real image arrays, then a camera that stops delivering, then comes back."""

    def __init__(self) -> None:
        self.failing = threading.Event()
        self.count = 0

    def read(self) -> Any:
        if self.failing.is_set():
            return None
        self.count += 1
        return np.full((48, 64, 3), self.count % 255, dtype=np.uint8)


def test_camera_feed_heartbeat_loss_and_return() -> None:
    frames = Frames()
    seen: list[tuple[float, int]] = []
    got: list[object] = []

    def watch(t: float, frame: Any) -> list[object]:
        seen.append((t, int(frame.mean())))
        return []

    feed = CameraFeed(
        frames.read, watch, got.append, alive_every_s=0.05, lost_after=3, retry_s=0.01
    )
    try:
        assert wait_until(lambda: any(isinstance(g, CameraAlive) for g in got))
        assert wait_until(lambda: len(seen) > 5)
        frames.failing.set()
        assert wait_until(lambda: any(isinstance(g, CameraLost) for g in got))
        lost_at = len(got)
        frames.failing.clear()
        assert wait_until(lambda: any(isinstance(g, CameraAlive) for g in got[lost_at:]))
    finally:
        feed.close()
    assert feed.frames == len(seen)


def test_hardware_simulated_key_moves_beam_and_synthetic_camera_together(tmp_path: Path) -> None:
    # The synthetic board calibrated as the calibration screen's taps would: an uncalibrated
    # camera adds nothing to the proposal.
    from vision.capture import default_board
    from vision.sim.render import pocket_centres_image

    pockets = [list(p) for p in pocket_centres_image(default_board().look)]
    settings = with_values(Settings(), camera={"source": "synthetic", "calibration": pockets})
    s = CarromTable(Journal(tmp_path / "j.db"), settings)
    parts = build_parts(settings, s.post, simulate=True)
    try:
        assert parts.problems == () and parts.camera is not None
        s.fit(parts.pockets, camera=True)
        s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
        assert wait_until(lambda: s.poll().camera, 10)
        parts.press(4, "black")
        assert wait_until(lambda: s.poll().phase == "at_rest" and s.view().proposal.hits == 1, 20)
        assert wait_until(lambda: s.poll().proposal.source == "beams+camera", 10)
        proposal = s.view().proposal
        assert proposal.pocketed == ("black",), proposal
        # The synthetic camera runs in real time: on a loaded machine its frames are sparse,
        # the coin's last sighting is short of the pocket, and fusion says how it decided.
        # The beam and the camera still agree on the coin; nothing else may be in doubt.
        sparse = "a black coin vanished away from the pockets: taken as pocketed"
        assert {str(n) for n in proposal.notes} <= {sparse}, proposal.notes
    finally:
        parts.close()


def test_hardware_sensor_bridge_silent_is_a_beams_fault_until_it_reports(tmp_path: Path) -> None:
    from drivers.bridge_sim import SimulatedBridge

    with SimulatedBridge() as sim:
        settings = with_values(
            Settings(),
            pockets={"source": "bridge", "pin_factory": "mock"},  # the buzzer on a mock pin
            bridge={"port": sim.port_path},
        )
        s = CarromTable(Journal(tmp_path / "j.db"), settings)
        parts = build_parts(settings, s.post, camera=False)
        try:
            s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
            pollers = parts.pollers(s.post)
            assert len(pollers) == 1  # the link watch (the bridge times the beams itself)

            def faults() -> set[str]:
                pollers[0](time.monotonic())
                return {f.part for f in s.poll().faults}

            assert wait_until(lambda: parts.beams.status.state == "ok")
            assert faults() == set()
            sim.hit(2, 0.012)
            assert wait_until(lambda: s.poll().proposal.hits == 1)
            sim.mute = True  # the bridge stops talking
            assert wait_until(lambda: "beams" in faults())
            assert "sends nothing" in s.view().faults[0].message
            sim.mute = False
            assert wait_until(lambda: faults() == set())
        finally:
            parts.close()
