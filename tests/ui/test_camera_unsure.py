"""Honest doubt at the console: a stroke the camera doubts shows "camera unsure",
flagged for the umpire, in the console's language, its note too (every message
translated)."""

from __future__ import annotations

from drivers.hits import BeamHit
from kiosk.config import with_values
from kiosk.tables.carrom_inputs import CameraDiff, CameraMotion, CameraRest
from kiosk.ui.i18n import apply_languages
from vision.diff import GoneCoin, StrokeDiff

from .harness import Kiosk, name_players, pump


def test_camera_unsure_is_said_on_the_console_and_flags_the_stroke(kiosk: Kiosk) -> None:
    kiosk.tap("carrom_icf")
    name_players(kiosk, "Asha", "Bina")
    kiosk.tap("start")
    screen = kiosk.screen()
    kiosk.tap("play")
    table = screen.session
    # A camera fitted and calibrated: the header names it only then (the sources working).
    table.settings = with_values(
        table.settings, camera={"calibration": [[0, 0], [100, 0], [100, 100], [0, 100]]}
    )
    table.fit((1, 2, 3, 4), True)
    now = kiosk.clock()
    gone = (GoneCoin("white", 10.0, 10.0, 1, 5.0),)
    table.post(CameraMotion(now))
    table.post(BeamHit(1, now + 0.2, 0.012))
    table.post(CameraRest(now + 1.0))
    table.post(CameraDiff(now + 1.0, StrokeDiff(gone, False, (), unsure=("white",))))
    kiosk.advance(1.5)
    assert screen.prop_white == 1 and screen.prop_review
    assert screen.prop_source == "camera unsure: check the colours"
    assert screen.prop_notes == "camera unsure of white: check the colours"
    try:
        apply_languages("hi", "")
        pump(4)
        assert screen.ids.prop_source.text.startswith("स्ट्रोक: कैमरा अनिश्चित: रंग जाँचें")
        # The note is data (kiosk/tables/fusion.py Note), worded in the console's language.
        assert "camera" not in screen.prop_notes and "white" not in screen.prop_notes
        assert screen.prop_notes.endswith("पर अनिश्चित: रंग जाँचें")
    finally:
        apply_languages("en", "")
        pump(4)
