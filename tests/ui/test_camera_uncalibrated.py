"""Before its board is calibrated the camera adds nothing to the proposed
stroke, and the header does not name it. The tap trial found "beams + camera" over a stroke
whose count the uncalibrated camera had cut from the beams' 7 to its own 5; Confirm recorded
5. Real keys on the simulated beams, real taps on the pocket line and Confirm; the camera's
events are posted as kiosk/parts/camera.py posts them."""

from __future__ import annotations

from kiosk.tables.carrom_inputs import (
    CameraDiff,
    CameraMotion,
    CameraRest,
    RecordedDiff,
    RecordedGone,
)

from .harness import Kiosk, confirmed_events
from .test_carrom_round_four import _setup


def test_an_uncalibrated_camera_adds_nothing_to_the_proposal(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    session = screen.session
    assert not session.settings.camera.calibration
    session.fit((1, 2, 3, 4), True)  # a camera fitted and working, its board not calibrated
    clock = kiosk.clock
    session.post(CameraMotion(clock()))
    for _ in range(3):  # three whites through pocket 1, on the beams
        kiosk.key("1")
        kiosk.advance(0.2)
    # The uncalibrated camera places one white at pocket 2 and a black nowhere near a pocket.
    gone = (RecordedGone("white", 2), RecordedGone("black", None))
    session.post(CameraRest(clock()))
    session.post(CameraDiff(clock(), RecordedDiff(gone, True, ())))
    kiosk.advance(0.5)
    proposal = session.proposal
    assert proposal.source == "beams"
    assert all(p.camera is None for p in proposal.pockets)  # nothing of the camera's
    assert (screen.prop_white, screen.prop_black, screen.prop_striker) == (3, 0, False)
    assert screen.prop_source == "beams only, the camera is not calibrated: check the colours"
    assert "camera" not in screen.ids.pockets.text and "disagree" not in screen.ids.pockets.text
    kiosk.shot("carrom_uncalibrated")
    kiosk.tap("confirm")
    assert confirmed_events(session)[0]["pocketed"] == ["white"] * 3
    assert confirmed_events(session)[0]["striker"] is False
    # The camera's diff is kept in the journal all the same (the record of what it saw).
    rows = session.journal.entries(session.match_id, ["camera"])
    assert [r.data["what"] for r in rows][-1] == "diff"
