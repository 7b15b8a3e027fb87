"""Stills for protests: the board at rest before and after every stroke, beside the
journal, pruned by a setting."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from drivers.simulated import ManualClock
from kiosk.access.authority import Role
from kiosk.cli import main as cli_main
from kiosk.engine.journal import Journal
from kiosk.parts.camera import translate
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromTable
from vision.calibration import auto_calibrate
from vision.sim.live import SimulatedBoard
from vision.stills import Stills, stills_folder
from vision.watcher import BoardWatcher

FPS = 12  # frames a second: enough for motion and rest (0.4 s), few renders


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
    diffs = []
    for k in range(round(3.0 * FPS)):
        diffs += [e for e in watcher.feed(k / FPS, board.frame(k / FPS)) if hasattr(e, "stills")]
    names = sorted(p.name for p in (tmp_path / "stills").iterdir())
    assert names == ["stroke-000001-after.jpg", "stroke-000001-before.jpg"]
    # The diff names its stills: the journal keeps the names for the protest record.
    assert [d.stills for d in diffs] == [("stroke-000001-before.jpg", "stroke-000001-after.jpg")]


def test_stills_numbered_on_after_a_restart(tmp_path: Path) -> None:
    stills = Stills(tmp_path / "s", keep_strokes=5)
    assert stills.next_stroke() == 1
    stills.keep(7, "after", np.zeros((8, 8, 3), np.uint8))
    # A kiosk restarted on the same journal starts its strokes after the newest still.
    assert Stills(tmp_path / "s", keep_strokes=5).next_stroke() == 8


def test_law_144_protest_record_shows_the_stills_of_each_stroke(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The camera's stills go beside the carrom table's journal, its journaled diff names them,
    and `tableside protest` shows them with the stroke (laws 144-151: decided on the record)."""
    path = tmp_path / "journal.db"
    clock, wall = ManualClock(0.0), ManualClock(1.7e9)
    session = CarromTable(Journal(path), clock=clock, wall=wall, camera=True)
    session.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
    session.play(role=Role.UMPIRE)
    board = SimulatedBoard()
    empty = board.empty_frame()
    watcher = BoardWatcher.from_empty_board(auto_calibrate(empty), [empty])
    watcher.stills = Stills(stills_folder(path), keep_strokes=10)
    board.strike(1.0, [("white", 3)], duration=0.8)
    for k in range(round(3.0 * FPS)):
        clock.t = k / FPS
        for event in watcher.feed(clock.t, board.frame(clock.t)):
            item = translate(event, clock.t)
            if item is not None:
                session.post(item)
        session.poll()
    session.journal.close()
    assert cli_main(["protest", str(path), "-o", str(tmp_path / "out")]) == 0
    page = Path(capsys.readouterr().out.strip())
    text = page.read_text(encoding="utf-8")
    for when in ("before", "after"):
        name = f"stroke-000001-{when}.jpg"
        assert f'<img src="stills/{name}"' in text
        assert cv2.imread(str(tmp_path / "out" / "stills" / name)) is not None
