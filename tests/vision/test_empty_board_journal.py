"""The calibration screen's "Keep empty board" is journaled: a tap on the
running kiosk (Kivy under Xvfb, the harness of tests/ui) hands the picture to the camera
and writes a kiosk note with the director's role, outside any match: the calibration the
picture was taken with and its size. The note is a kiosk act like a settings save (kind
"empty_board"); no public format (shared/spec) changes: a match record holds no notes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kiosk.config import Settings, with_values
from tests.ui.harness import FakeClock, Kiosk, Services, make_kiosk
from vision.sim.render import Scene, pocket_centres_image, render


@pytest.fixture
def kept() -> list[Any]:
    return []


@pytest.fixture
def kiosk(tmp_path: Path, kept: list[Any]) -> Iterator[Kiosk]:
    look = Scene(pieces=()).look
    frame = np.ascontiguousarray(render(Scene(pieces=(), look=look))[..., ::-1])  # RGB
    calibration = [[round(x, 2), round(y, 2)] for x, y in pocket_centres_image(look)]
    clock = FakeClock(1000.0)
    services = Services(
        data_dir=tmp_path,
        check_pin=lambda pin: pin == "2468",
        clock=clock,
        settings=with_values(Settings(), camera={"calibration": calibration}),
        grab_frame=lambda: frame,
        keep_empty=kept.append,
    )
    yield from make_kiosk(services, clock)


def test_keep_empty_board_is_journaled_with_the_calibration_it_was_taken_with(
    kiosk: Kiosk, kept: list[Any]
) -> None:
    kiosk.app.show("calibration")
    kiosk.advance(0.1)
    kiosk.tap("empty")
    assert kiosk.screen().message == "Empty board kept"
    assert len(kept) == 1  # the camera has the picture (tests/ui/test_calibration.py: used)
    notes = kiosk.services.journal().entries(None, ["empty_board"])
    assert [(e.source, e.match_id) for e in notes] == [("director", None)]
    calibration = [list(p) for p in kiosk.services.settings.camera.calibration]
    assert notes[0].data == {"calibration": calibration, "size": [640, 480]}
