"""`tableside export`: the match record and the clock record from a journal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.cli import main as cli_main
from kiosk.clocks.record import parse_clock_record
from kiosk.engine.journal import Journal
from kiosk.rules.carrom.events import MatchStart
from kiosk.rules.carrom.record import match_to_json, parse_record, replay
from kiosk.tables.backgammon_table import BackgammonTable
from kiosk.tables.carrom_table import CarromTable


def carrom_journal(path: Path, clock: FakeClock, wall: FakeClock) -> CarromTable:
    s = CarromTable(Journal(path), clock=clock, wall=wall)
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha", board_limit=None), role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=["white", "white"]), role=Role.UMPIRE)
    clock.advance(7.5)
    s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    clock.advance(3)
    s.confirm(s.proposal.edited(pocketed=["black"], striker=True), role=Role.UMPIRE)
    s.undo(role=Role.UMPIRE)
    return s


def test_export_match_record_replays_to_the_session_state(
    tmp_path: Path, clock: FakeClock, wall: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.db"
    s = carrom_journal(path, clock, wall)
    assert cli_main(["export", str(path)]) == 0
    text = capsys.readouterr().out
    # Comment lines (the spec skips them) name each correction's role: here the umpire's undo.
    lines = [json.loads(line) for line in text.splitlines() if not line.startswith("#")]
    assert [line for line in text.splitlines() if line.startswith("#")] == [
        "# t=10.5 correction by the umpire: undo"
    ]
    assert lines[0] == {
        "event": "match",
        "rules": "icf",
        "players": ["Asha", "Bina"],
        "first_break": "Asha",
        "board_limit": None,
    }
    assert [line["event"] for line in lines[1:]] == ["stroke", "stroke"]  # the undone one is gone
    assert lines[2]["t"] == 7.5
    assert s.match is not None
    assert match_to_json(replay(parse_record(text))) == match_to_json(s.match)


def test_export_to_a_file_while_the_kiosk_holds_the_journal(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    path = tmp_path / "j.db"
    s = carrom_journal(path, clock, wall)  # still open: a second process reads it
    target = tmp_path / "match.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "export", str(path), "-o", str(target)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert len(parse_record(target.read_text())) == 3
    s.confirm(s.proposal.edited(pocketed=["black"]), role=Role.UMPIRE)  # the kiosk was not blocked
    assert len(s.journal.confirmed(s.match_id or 0)) == 3


def test_export_clock_record(
    tmp_path: Path, clock: FakeClock, wall: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.db"
    t = BackgammonTable(Journal(path), clock=clock, wall=wall)
    t.start_match(("Nikos", "Eleni"), 5, role=Role.UMPIRE)
    t.start("Nikos", role=Role.PLAYER)
    clock.advance(9.5)
    t.press("Nikos", role=Role.PLAYER)
    assert cli_main(["export", str(path), "--clock"]) == 0
    record = parse_clock_record(capsys.readouterr().out)
    assert record.header.players == ("Nikos", "Eleni")
    assert [type(e).__name__ for _, e in record.events] == ["Start", "Press"]
    assert record.events[1][1].t == 9.5


def test_export_missing_journal_or_match_exits_1_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["export", str(tmp_path / "none.db")]) == 1
    assert "none.db" in capsys.readouterr().err
    Journal(tmp_path / "empty.db").close()
    assert cli_main(["export", str(tmp_path / "empty.db")]) == 1
    assert "no carrom match" in capsys.readouterr().err
    assert cli_main(["export", str(tmp_path / "empty.db"), "--clock"]) == 1
    assert "no backgammon clock" in capsys.readouterr().err


def test_export_bhukhar_session_record_for_the_standings(
    tmp_path: Path, clock: FakeClock, wall: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    """The session lives in the journal; `export --bhukhar` gives its record back, which
    `tableside bhukhar standings` reads (rule 19)."""
    from kiosk.rules.bhukhar.record import SessionStart, Team, parse_session
    from kiosk.rules.bhukhar.scoresheet import End, Game, TotalsSheet
    from kiosk.tables.bhukhar_table import BhukharTable

    path = tmp_path / "j.db"
    teams = tuple(Team(t, (f"{t}1", f"{t}2", f"{t}3")) for t in "AB")
    with Journal(path) as journal:
        assert cli_main(["export", str(path), "--bhukhar"]) == 1
        assert "no Bhukhar session" in capsys.readouterr().err
        table = BhukharTable.create(journal, SessionStart(teams), clock=clock, wall=wall)
        table.start_round(role=Role.UMPIRE)
        table.edit(
            lambda d: d.step("points", 0, 5), role=Role.UMPIRE
        )  # a draft: never part of the record
        sheets = {"A": TotalsSheet(True, 330, 5), "B": TotalsSheet(False, 0, 25)}
        table.enter_game(1, Game(sheets, End.OUT, bhukhar="A", closed_by="A"))
        out = tmp_path / "session.jsonl"
        assert cli_main(["export", str(path), "--bhukhar", "-o", str(out)]) == 0
        assert out.read_text("utf-8") == table.export()
    assert parse_session(out.read_text("utf-8")).standings()[0].team == "A"
    assert cli_main(["bhukhar", "standings", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[0]
