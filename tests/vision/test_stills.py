"""Stills for protests: the board at rest before and after every stroke, beside the
journal, pruned by a setting."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.calibration import auto_calibrate
from vision.sim.live import SimulatedBoard
from vision.stills import Stills, stills_folder
from vision.watcher import BoardWatcher


def test_stills_kept_as_jpeg_beside_the_journal(tmp_path: Path) -> None:
    folder = stills_folder(tmp_path / "match.db")
    assert folder == tmp_path / "match.db.stills"
    stills = Stills(folder, keep_strokes=3)
    frame = np.full((48, 64, 3), 120, np.uint8)
    path = stills.keep(1, "before", frame)
    assert path == folder / "stroke-000001-before.jpg"
    img = cv2.imread(str(path))
    assert img is not None and img.shape == (48, 64, 3)


def test_stills_pruned_to_the_newest_strokes(tmp_path: Path) -> None:
    stills = Stills(tmp_path / "s", keep_strokes=2)
    frame = np.zeros((8, 8, 3), np.uint8)
    for n in range(1, 6):
        stills.keep(n, "before", frame)
        stills.keep(n, "after", frame)
    assert stills.strokes() == [4, 5]
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == [
        "stroke-000004-after.jpg",
        "stroke-000004-before.jpg",
        "stroke-000005-after.jpg",
        "stroke-000005-before.jpg",
    ]


def test_stills_setting_zero_keeps_none(tmp_path: Path) -> None:
    stills = Stills(tmp_path / "s", keep_strokes=0)
    assert stills.keep(1, "after", np.zeros((8, 8, 3), np.uint8)) is None
    assert not (tmp_path / "s").exists()


def test_stills_unwritable_folder_loses_nothing_else(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    stills = Stills(blocker / "s", keep_strokes=5)  # a file where the folder should be
    assert stills.keep(1, "before", np.zeros((8, 8, 3), np.uint8)) is None


def test_law_123_watcher_keeps_a_still_before_and_after_the_stroke(tmp_path: Path) -> None:
    board = SimulatedBoard()
    empty = board.empty_frame()
    stills = Stills(tmp_path / "stills", keep_strokes=10)
    watcher = BoardWatcher.from_empty_board(auto_calibrate(empty), [empty])
    watcher.stills = stills
    board.strike(1.0, [("white", 3)], duration=0.8)
    for k in range(round(3.0 * 30)):
        watcher.feed(k / 30, board.frame(k / 30))
    names = sorted(p.name for p in (tmp_path / "stills").iterdir())
    assert names == ["stroke-000001-after.jpg", "stroke-000001-before.jpg"]
