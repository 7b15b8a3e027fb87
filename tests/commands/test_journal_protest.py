"""`tableside protest`: one board's record as an HTML page, with the chain checked at the top;
looked at in headless Chromium (the docs' screenshot is taken the same way)."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from drivers.hits import BeamHit
from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.cli import main as cli_main
from kiosk.engine.journal import Journal
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromTable


def played(path: Path) -> None:
    """A board won by Asha and the start of the next: beams, an edit, an undo, timers."""
    clock, wall = FakeClock(100.0), FakeClock(1.7e9)
    s = CarromTable(Journal(path), clock=clock, wall=wall)
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
    s.play(role=Role.UMPIRE)
    clock.advance(4.0)
    s.post(BeamHit(1, clock.now, 0.012))
    clock.advance(0.3)
    s.post(BeamHit(3, clock.now, 0.015))
    s.poll()
    s.edit(pocketed=["white", "queen"], role=Role.UMPIRE)  # the umpire corrects: the queen too
    s.confirm(role=Role.UMPIRE)
    clock.advance(20.0)
    s.poll()  # the stroke timer runs out (law 50)
    s.confirm(s.proposal.edited(pocketed=["black"]), role=Role.UMPIRE)
    s.undo(role=Role.UMPIRE)  # a mistake, taken back
    s.confirm(s.proposal.edited(pocketed=["white"] * 8), role=Role.UMPIRE)
    clock.advance(3.0)
    s.confirm(s.proposal.edited(pocketed=["black"]), role=Role.UMPIRE)  # the next board begins
    s.journal.close()


def test_protest_report_has_every_stroke_of_the_board_and_the_chain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "journal.db"
    played(journal)
    assert cli_main(["protest", str(journal), "--board", "1", "-o", str(tmp_path / "out")]) == 0
    page = Path(capsys.readouterr().out.strip())
    text = page.read_text(encoding="utf-8")
    assert page.name == "protest-match1-board1.html"
    assert "Hash chain verified" in text and "WARNING" not in text
    assert "game 1, board 1" in text and "Asha v Bina" in text
    assert "beam: pocket 1, broken 12 ms" in text and "beam: pocket 3, broken 15 ms" in text
    assert "umpire corrects the proposal" in text and "queen" in text
    assert "confirmed by the umpire" in text and "umpire undoes" in text
    assert "timer stroke: expired" in text
    assert text.count('<tr class="event">') == 3  # the board's events (one undone); not the next's
    assert cli_main(["protest", str(journal), "-o", str(tmp_path / "out")]) == 0  # board 2


def test_protest_report_of_a_tampered_journal_warns_at_the_top(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "journal.db"
    played(journal)
    db = sqlite3.connect(journal)
    db.execute("UPDATE entries SET data=replace(data, '\"pocket\":3', '\"pocket\":4')")
    db.commit()
    db.close()
    assert cli_main(["protest", str(journal), "--board", "1", "-o", str(tmp_path)]) == 0
    page = Path(capsys.readouterr().out.strip().splitlines()[0])
    text = page.read_text(encoding="utf-8")
    body = text.split("<body>", 1)[1]
    assert body.startswith('<div class="bad"><b>WARNING: this journal does not verify.')
    assert "its content was changed" in body.split("</div>", 1)[0]


def test_protest_report_in_headless_chromium(tmp_path: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no chromium")
    journal = tmp_path / "journal.db"
    played(journal)
    assert cli_main(["protest", str(journal), "--board", "1", "-o", str(tmp_path)]) == 0
    shot = tmp_path / "protest.png"
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1100,900",
            f"--screenshot={shot}",
            (tmp_path / "protest-match1-board1.html").as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert shot.stat().st_size > 10_000  # a page was drawn
