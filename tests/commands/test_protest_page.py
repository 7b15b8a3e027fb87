"""`tableside protest` for a protested board (laws 144-151): the page starts with
the protest (who, when, its words and the fee's receipt), the decision (by whom, from where,
when), and the board before and after from the camera's stills, or says there are none."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.cli import main as cli_main
from kiosk.engine.journal import Journal
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_inputs import CameraDiff, RecordedGone
from kiosk.tables.carrom_table import CarromTable
from vision.stills import Stills, stills_folder

WORDS = "The queen was covered after the striker left <the board>"


@dataclass(frozen=True)
class SeenDiff:
    """A camera diff as the watcher gives it, with the stills it kept."""

    gone: tuple[RecordedGone, ...]
    striker_gone: bool
    off_board: tuple[str, ...]
    stills: tuple[str, ...]


def _played(path: Path, *, stills: bool) -> None:
    """Asha wins board 1 (each stroke seen by the camera, with stills when `stills`), Bina
    protests it during board 2, the director upholds it from the hall."""
    clock, wall = FakeClock(100.0), FakeClock(1.7e9)
    s = CarromTable(Journal(path), clock=clock, wall=wall, beams=(), camera=True)
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
    kept = Stills(stills_folder(path), keep_strokes=50)
    for n, coins in enumerate((["white"], ["white", "queen"], ["white"] * 7), start=1):
        names: tuple[str, ...] = ()
        if stills:
            frame = np.full((48, 64, 3), 40 * n, np.uint8)
            made = [kept.keep(n, when, frame) for when in ("before", "after")]
            names = tuple(p.name for p in made if p is not None)
        gone = tuple(RecordedGone(c, 1) for c in coins)
        clock.advance(5.0)
        s.post(CameraDiff(clock.now, SeenDiff(gone, False, (), names)))
        s.poll()
        s.confirm(s.proposal.edited(pocketed=coins), role=Role.UMPIRE)
    clock.advance(70.0)
    s.confirm(
        s.proposal.edited(pocketed=["black"]), role=Role.UMPIRE
    )  # board 2 begins: play goes on (150)
    s.protest("Bina", (1, 1), WORDS, "R-17", role=Role.UMPIRE)
    clock.advance(300.0)
    s.decide_protest((1, 1), True, role=Role.DIRECTOR, via="hall:42")
    s.journal.close()


def test_law_151_the_protest_page_shows_the_protest_its_words_and_the_decision(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "journal.db"
    _played(journal, stills=False)
    out = tmp_path / "out"
    assert cli_main(["protest", str(journal), "-o", str(out)]) == 0  # the protested board
    page = out / "protest-match1-board1.html"
    text = page.read_text(encoding="utf-8")
    assert "<h2>The protest</h2>" in text
    assert "Bina&#x27;s side protests game 1, board 1: lodged at" in text
    assert "by the umpire" in text and "Fee receipt (law 145): R-17." in text
    assert "The queen was covered after the striker left &lt;the board&gt;" in text  # escaped
    assert "<b>Decision</b>: upheld: the board and every board after it set aside" in text
    assert "by the director from the hall&#x27;s board" in text
    assert "No stills of this board are in the journal" in text  # said, nothing made up
    assert "<img" not in text
    # Board 2, where the protest was lodged, has no protest section of its own.
    assert cli_main(["protest", str(journal), "--board", "2", "-o", str(out)]) == 0
    assert "<h2>The protest</h2>" not in (out / "protest-match1-board2.html").read_text("utf-8")


def test_law_151_the_protest_page_shows_the_board_before_and_after_from_the_stills(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "journal.db"
    _played(journal, stills=True)
    out = tmp_path / "out"
    assert cli_main(["protest", str(journal), "--board", "1", "-o", str(out)]) == 0
    text = (out / "protest-match1-board1.html").read_text(encoding="utf-8")
    section = text.split("<h2>The protest</h2>")[1].split("<h2>")[0]
    assert "The board before its first stroke: stroke-000001-before.jpg" in section
    assert "The board after its last stroke: stroke-000003-after.jpg" in section
    assert '<img src="stills/stroke-000001-before.jpg"' in section
    assert (out / "stills" / "stroke-000003-after.jpg").stat().st_size > 100  # a real JPEG
    assert "No stills of this board" not in text
    # A still pruned from the kiosk is named, not shown.
    (stills_folder(journal) / "stroke-000001-before.jpg").unlink()
    again = tmp_path / "again"
    assert cli_main(["protest", str(journal), "--board", "1", "-o", str(again)]) == 0
    section = (again / "protest-match1-board1.html").read_text("utf-8").split("The protest")[1]
    assert "(pruned from the kiosk: not copied)" in section
