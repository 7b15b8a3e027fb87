"""The camera into the session: real frames of the simulated board through vision's board
watcher, translated into session inputs; the capture thread on the synthetic source."""

from __future__ import annotations

import time
from pathlib import Path

from drivers.hits import BeamHit
from kiosk.config import Settings
from kiosk.engine.journal import Journal
from kiosk.parts.camera import start_camera, translate
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_inputs import CameraAlive, CameraDiff, CameraMotion, CameraRest
from kiosk.tables.carrom_table import CarromSession
from vision.diff import GoneCoin, StrokeDiff
from vision.sim.live import SimulatedBoard
from vision.watcher import BoardWatcher

from .conftest import FakeClock

FPS = 15


def test_camera_watcher_events_drive_a_stroke_to_its_proposal(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    board, watcher = SimulatedBoard(), BoardWatcher()
    s = CarromSession(Journal(tmp_path / "j.db"), clock=clock, wall=wall, camera=True)
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"))
    t0 = clock.now
    seen: list[object] = []
    for n in range(45):
        t = t0 + n / FPS
        clock.set(t)
        if n == 5:
            board.strike(t - t0, [("white", 2)])
        for event in watcher.feed(t, board.frame(t - t0)):
            item = translate(event, t)
            seen.append(item)
            s.post(item)
        if n == 20:
            s.post(BeamHit(2, t, 0.012))  # the beam of pocket 2 saw the coin go through
        s.poll()
    assert [type(i) for i in seen] == [CameraMotion, CameraRest, CameraDiff]
    view = s.view()
    assert view.phase == "at_rest"
    assert view.proposal.pocketed == ("white",)
    assert view.proposal.source == "beams+camera" and not view.proposal.review
    assert view.state is not None and view.state.now is not None
    assert view.faults == ()
    s.confirm()
    assert s.journal.confirmed(s.match_id or 0)[-1]["pocketed"] == ["white"]


def test_camera_diff_with_hidden_coins_is_flagged() -> None:
    diff = StrokeDiff((GoneCoin("black", 10.0, 10.0, 1, 5.0),), False, (), unseen=("white",))
    item = translate(diff, 3.0)
    assert isinstance(item, CameraDiff)
    from kiosk.tables.fusion import fuse

    proposal = fuse([BeamHit(1, 2.9, 0.01)], item.diff)
    assert proposal.review and any("could not see white" in n for n in proposal.notes)


def test_camera_feed_on_the_synthetic_source_reports_frames(tmp_path: Path) -> None:
    got: list[object] = []
    feed = start_camera("synthetic", Settings(), got.append)
    try:
        end = time.monotonic() + 10
        while time.monotonic() < end and not any(isinstance(g, CameraAlive) for g in got):
            time.sleep(0.01)
        assert any(isinstance(g, CameraAlive) for g in got)
        assert type(feed.source).__name__ == "SyntheticSource"
        assert feed.watcher is not None
        assert feed.latest is not None and feed.latest.ndim == 3  # the calibration picture
    finally:
        feed.close()
    assert feed.source.stopped  # closed with the feed
