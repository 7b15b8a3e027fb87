"""The stroke tracker and the parts' health of a carrom table, and the journal rows of its
inputs (the shape journals have always had, read back as the same typed inputs)."""

from __future__ import annotations

from drivers.hits import BeamFault, BeamHit
from kiosk.tables.carrom_inputs import (
    CameraDiff,
    CameraMotion,
    CameraRest,
    ProposalEdit,
    RecordedDiff,
    RecordedGone,
    input_from_row,
    input_row,
)
from kiosk.tables.fusion import Context
from kiosk.tables.health import CAMERA_TIMEOUT_S, PartsHealth, beam_part
from kiosk.tables.stroke import StrokeTracker


def test_stroke_tracker_phases_follow_the_stroke() -> None:
    s = StrokeTracker()
    assert s.seen(RecordedDiff((), False, ())) is False  # no stroke: a late diff is dropped
    assert s.hit(BeamHit(1, 0.0, 0.01)) is True  # the first sign starts the stroke
    assert s.hit(BeamHit(2, 0.1, 0.01)) is False and s.phase == "moving"
    assert s.motion() is False and s.rest() is True and s.phase == "at_rest"
    assert s.seen(RecordedDiff((RecordedGone("white", 1),), False, ())) is True
    assert s.proposal((1, 2, 3, 4), Context()).hits == 2
    assert s.motion() is True  # a new stroke while the last one waits
    s.reset()
    assert (s.phase, s.hits, s.diff, s.edit) == ("aiming", [], None, None)


def test_parts_health_working_beams_and_camera_are_read_from_the_faults() -> None:
    h = PartsHealth((1, 2, 3, 4), True, started=10.0)
    assert h.working_beams == (1, 2, 3, 4) and h.camera_ok
    h.faults.raise_(beam_part(3), "stuck", 11.0)
    assert h.working_beams == (1, 2, 4)
    h.faults.clear(beam_part(3))
    assert h.working_beams == (1, 2, 3, 4)
    assert h.camera_deadline() == 10.0 + CAMERA_TIMEOUT_S
    assert h.camera_silent(10.0 + CAMERA_TIMEOUT_S - 0.1) is None
    assert h.camera_silent(10.0 + CAMERA_TIMEOUT_S) == CAMERA_TIMEOUT_S
    h.faults.raise_("camera", "no frames", 14.0)
    assert not h.camera_ok and h.camera_deadline() is None


def test_input_rows_keep_their_shape_and_read_back() -> None:
    diff = RecordedDiff((RecordedGone("black", 2),), True, ("white",))
    items = [
        BeamHit(2, 5.0, 0.012),
        BeamFault(3, "stuck", 5.0),
        CameraMotion(5.0),
        CameraRest(5.0),
        CameraDiff(5.0, diff),
        ProposalEdit(5.0, {"pocketed": ["white"], "striker": False}),
    ]
    rows = [input_row(item) for item in items]
    assert rows == [
        ("beam", "beam_hit", {"pocket": 2, "duration": 0.012}),
        ("beam", "beam_fault", {"pocket": 3, "kind": "stuck"}),
        ("camera", "camera", {"what": "motion"}),
        ("camera", "camera", {"what": "rest"}),
        (
            "camera",
            "camera",
            {
                "what": "diff",
                "gone": [{"colour": "black", "pocket": 2}],
                "striker_gone": True,
                "off_board": ["white"],
            },
        ),
        ("umpire", "tap", {"action": "edit", "changes": {"pocketed": ["white"], "striker": False}}),
    ]
    back = [input_from_row(kind, data, 5.0) for _, kind, data in (r for r in rows if r)]
    assert back == items
    assert input_from_row("tap", {"action": "play"}) is None
    assert input_from_row("event", {"type": "stroke"}) is None
