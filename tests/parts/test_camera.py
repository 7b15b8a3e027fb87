"""The camera into the session: real frames of the simulated board through vision's board
watcher, translated into session inputs; the capture thread on the synthetic source."""

from __future__ import annotations

import json
import time
from pathlib import Path

from drivers.hits import BeamHit
from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.config import Settings, with_values
from kiosk.engine.journal import Journal
from kiosk.parts.camera import StrokeConfirmations, start_camera, translate
from kiosk.parts.hardware import Parts
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_inputs import (
    CameraAlive,
    CameraDiff,
    CameraMotion,
    CameraRest,
    diff_from_dict,
    diff_to_dict,
)
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.fusion import fuse
from vision.diff import GoneCoin, StrokeDiff
from vision.sim.live import SimulatedBoard
from vision.watcher import BoardWatcher

FPS = 15


def test_camera_watcher_events_drive_a_stroke_to_its_proposal(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    board, watcher = SimulatedBoard(), BoardWatcher()
    # The board calibrated (the watcher found the pockets in its first frame): the camera
    # adds nothing to a proposal until it is.
    calibrated = with_values(Settings(), camera={"calibration": [[0, 0], [1, 0], [1, 1], [0, 1]]})
    s = CarromTable(Journal(tmp_path / "j.db"), calibrated, clock=clock, wall=wall, camera=True)
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
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
    s.confirm(role=Role.UMPIRE)
    assert s.journal.confirmed(s.match_id or 0)[-1]["pocketed"] == ["white"]


def test_camera_diff_with_hidden_coins_is_flagged() -> None:
    diff = StrokeDiff((GoneCoin("black", 10.0, 10.0, 1, 5.0),), False, (), unseen=("white",))
    item = translate(diff, 3.0)
    assert isinstance(item, CameraDiff)
    proposal = fuse([BeamHit(1, 2.9, 0.01)], item.diff)
    assert proposal.review and any("could not see white" in str(n) for n in proposal.notes)


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


def test_camera_unsure_says_so_and_leaves_the_colours_to_the_umpire() -> None:
    """Honest doubt: a diff whose detector doubts a class (vision.pieces.Doubt) is
    proposed as "camera unsure", flagged for the umpire, and the doubt survives the journal,
    so a resumed table proposes the stroke as it first did."""
    diff = StrokeDiff(
        (GoneCoin("queen", 10.0, 10.0, 1, 5.0),), False, (), unseen=("black",), unsure=("queen",)
    )
    item = translate(diff, 3.0)
    assert isinstance(item, CameraDiff)
    live = fuse([BeamHit(1, 2.9, 0.01)], item.diff)
    assert live.source == "unsure" and live.review
    assert "camera unsure of queen: check the colours" in map(str, live.notes)
    recorded = diff_from_dict(json.loads(json.dumps(diff_to_dict(item.diff))))
    assert (recorded.unseen, recorded.unsure) == (("black",), ("queen",))
    assert fuse([BeamHit(1, 2.9, 0.01)], recorded) == live
    sure = fuse([BeamHit(1, 2.9, 0.01)], StrokeDiff(diff.gone, False, ()))
    assert sure.source == "beams+camera" and not sure.review


def test_camera_learns_the_set_from_each_stroke_the_umpire_confirms(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    """The camera's feed hears of each confirmed stroke once it is on disk, and its thread
    hands it to the watcher (`BoardWatcher.confirm`: the view after it teaches the set's
    looks); other events (a foul call, the match's start) teach it nothing."""
    feed = start_camera("synthetic", Settings(), lambda _item: None)
    try:
        assert feed.watcher is not None
        taught: list[float] = []
        feed.watcher.confirm = lambda: taught.append(time.monotonic())  # type: ignore[method-assign]
        outputs = Parts(camera=feed).outputs()
        assert [type(o) for o in outputs] == [StrokeConfirmations]
        s = CarromTable(
            Journal(tmp_path / "j.db"), clock=clock, wall=wall, camera=True, outputs=outputs
        )
        s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
        s.confirm(role=Role.UMPIRE)  # an empty stroke: confirmed all the same
        end = time.monotonic() + 10
        while time.monotonic() < end and not taught:
            time.sleep(0.01)  # the camera's thread takes it at its next frame
        assert len(taught) == 1
        s.undo(role=Role.UMPIRE)
        s.poll()
        time.sleep(0.3)  # a few frames: an undo teaches nothing
        assert len(taught) == 1
    finally:
        feed.close()
