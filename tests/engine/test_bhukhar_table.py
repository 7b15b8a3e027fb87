"""The Bhukhar table session: round timer + scoresheet, on a record file on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.clocks.patterns import DOUBLE_BEEP
from kiosk.clocks.round_timer import TIME_CALLED
from kiosk.engine.outputs import MemoryOutput
from kiosk.rules.bhukhar.cards import parse_cards
from kiosk.rules.bhukhar.record import SessionError, SessionStart, Team, parse_session
from kiosk.rules.bhukhar.scoresheet import End, FullSheet, Game, TotalsSheet
from kiosk.tables.bhukhar_table import BhukharTable, TableFileError

from .conftest import FakeClock

START = SessionStart(
    teams=(
        Team("A", ("Ravi", "Mina", "Anil"), "Shah family"),
        Team("B", ("Uma", "Jay", "Dev")),
        Team("C", ("Kiran", "Nita", "Raj")),
        Team("D", ("Asha", "Hema", "Vijay")),
    ),
    round_minutes=30,
    warn_minutes=(5.0, 1.0),
    tables=(1, 2),
    name="Club night",
)


def _full_game() -> Game:
    a = FullSheet(
        licence=(parse_cards(["3S", "4S", "5S", "6S", "7S", "8S", "9S"]),),
        melds=(parse_cards(["QD", "KD", "AD"]),),
        hand=parse_cards(["2H"]),
        licence_by="Ravi",
    )
    b = FullSheet(hand=parse_cards(["AS", "KS", "4H"]))
    return Game({"A": a, "B": b}, End.OUT, bhukhar="A", closed_by="A")


@pytest.fixture
def table(tmp_path: Path, clock: FakeClock, wall: FakeClock) -> BhukharTable:
    return BhukharTable.create(tmp_path / "session.jsonl", START, clock=clock, wall=wall)


def _lines(table: BhukharTable) -> list[str]:
    return table.path.read_text(encoding="utf-8").splitlines()


def test_bhukhar_table_create_writes_the_first_line(table: BhukharTable) -> None:
    assert len(_lines(table)) == 1
    assert parse_session(table.path.read_text("utf-8")).start == START
    assert table.round == 0 and not table.time_called(0.0)


def test_bhukhar_table_create_refuses_an_existing_file(
    table: BhukharTable, clock: FakeClock, wall: FakeClock
) -> None:
    with pytest.raises(TableFileError, match="already exists"):
        BhukharTable.create(table.path, START, clock=clock, wall=wall)


def test_bhukhar_table_create_refuses_a_round_outside_rule_10(tmp_path: Path) -> None:
    bad = SessionStart(START.teams, round_minutes=60)
    with pytest.raises(ValueError, match="rule 10"):
        BhukharTable.create(tmp_path / "s.jsonl", bad)
    assert not (tmp_path / "s.jsonl").exists()


def test_bhukhar_table_round_timer_warns_then_calls_time(
    table: BhukharTable, clock: FakeClock
) -> None:
    assert table.start_round() == 1
    assert '"action": "start"' in _lines(table)[-1]
    t0 = clock.now
    assert table.face(t0) == "30:00"
    assert table.next_deadline() == t0 + 25 * 60
    assert table.due(t0 + 1499) == []
    assert table.due(t0 + 1500) == [DOUBLE_BEEP]
    assert table.due(t0 + 1740) == [DOUBLE_BEEP]
    assert not table.time_called(t0 + 1799)
    assert table.due(t0 + 1800) == [TIME_CALLED]
    assert table.time_called(t0 + 1800) and table.remaining(t0 + 1800) == 0
    with pytest.raises(SessionError, match="not running"):
        table.pause(t0 + 1801)


def test_bhukhar_table_pause_and_resume_are_recorded(
    table: BhukharTable, clock: FakeClock, wall: FakeClock
) -> None:
    table.start_round()
    clock.advance(600)
    wall.advance(600)
    table.pause()
    clock.advance(120)
    wall.advance(120)
    assert table.remaining(clock.now) == 1200
    with pytest.raises(SessionError, match="not running"):
        table.pause()
    table.resume()
    assert [line.split('"action": ')[1][:8] for line in _lines(table)[1:]] == [
        '"start",',
        '"pause",',
        '"resume"',
    ]
    with pytest.raises(SessionError, match="not paused"):
        table.resume()


def test_bhukhar_table_reopen_while_paused_keeps_the_time_left(
    table: BhukharTable, clock: FakeClock, wall: FakeClock, tmp_path: Path
) -> None:
    table.start_round()
    clock.advance(100)
    wall.advance(100)
    table.pause()
    later = FakeClock(50.0)  # a new boot: the monotonic clock starts again
    wall.advance(3600)
    again = BhukharTable.open(table.path, clock=later, wall=wall)
    assert again.round == 1 and again.timer.paused
    assert again.remaining(later.now) == 1700
    again.resume()
    assert again.remaining(later.now + 10) == 1690


def test_bhukhar_table_reopen_while_running_counts_the_downtime(
    table: BhukharTable, clock: FakeClock, wall: FakeClock
) -> None:
    table.start_round()
    wall.advance(26 * 60)  # the kiosk was down through the 5-minute warning
    later = FakeClock(10.0)
    again = BhukharTable.open(table.path, clock=later, wall=wall)
    assert again.remaining(later.now) == 240
    assert again.due(later.now) == []  # the missed warning is not sounded late
    assert again.due(later.now + 180) == [DOUBLE_BEEP]
    assert again.due(later.now + 240) == [TIME_CALLED]


def test_bhukhar_table_reopen_after_the_round_ran_out(table: BhukharTable, wall: FakeClock) -> None:
    table.start_round()
    wall.advance(3 * 3600)
    later = FakeClock(10.0)
    again = BhukharTable.open(table.path, clock=later, wall=wall)
    assert again.time_called(later.now) and again.due(later.advance(1)) == []
    assert again.start_round() == 2


def test_bhukhar_table_full_and_totals_entry_agree_and_are_kept(
    table: BhukharTable, clock: FakeClock, wall: FakeClock
) -> None:
    table.start_round()
    full = table.enter_game(1, _full_game())
    totals = Game(
        {"C": TotalsSheet(True, 330, 5, "Kiran"), "D": TotalsSheet(False, 0, 25)},
        End.OUT,
        bhukhar="C",
        closed_by="C",
    )
    by_sums = table.enter_game(2, totals)
    assert [(s.total, s.master, s.bonus) for s in full.scores] == [(475, 2, 3), (-25, 0, 0)]
    assert [(s.total, s.master, s.bonus) for s in by_sums.scores] == [(475, 2, 3), (-25, 0, 0)]
    again = BhukharTable.open(table.path, clock=clock, wall=wall)
    assert again.standings() == table.standings()
    assert [r.team for r in again.standings()][:2] == ["A", "C"]
    assert [e.round for e, _ in again.games()] == [1, 1]


def test_bhukhar_table_refused_entry_changes_nothing(table: BhukharTable) -> None:
    table.enter_game(1, _full_game())
    before = table.path.read_bytes()
    with pytest.raises(SessionError, match="rule 11"):
        table.enter_game(2, Game({"A": TotalsSheet(False, 0, 0), "C": TotalsSheet(False, 0, 0)},
                                 End.TIME))  # fmt: skip
    bad = Game({"C": TotalsSheet(False, 30, 0), "D": TotalsSheet(False, 0, 0)}, End.TIME)
    with pytest.raises(SessionError, match="without a licence"):
        table.enter_game(2, bad)
    assert table.path.read_bytes() == before
    assert len(table.games()) == 1


def test_bhukhar_table_enter_json_uses_the_current_round(table: BhukharTable) -> None:
    table.start_round()
    table.start_round()
    result = table.enter_json(
        {
            "event": "game",
            "table": 2,
            "end": "time",
            "teams": {
                "B": {"licence": True, "table": 300, "hand": 5},
                "D": {"licence": True, "table": 300, "hand": 5},
            },
        }
    )
    assert result is not None and result.winner is None
    assert [(e.round, e.table) for e, _ in table.games()] == [(2, 2)]
    with pytest.raises(SessionError, match="timer lines"):
        table.enter_json({"event": "timer", "round": 3, "action": "start", "left": 1, "at": 0})


def test_bhukhar_table_cancel_then_enter_again(table: BhukharTable) -> None:
    table.enter_game(1, _full_game())
    table.cancel_game(1, 1, "wrong hand entered")
    assert table.games() == []
    table.enter_game(1, _full_game())
    assert len(table.games()) == 1
    with pytest.raises(SessionError, match="no game of round 1 at table 2"):
        table.cancel_game(1, 2)


def test_bhukhar_table_torn_last_line_is_set_aside(
    table: BhukharTable, clock: FakeClock, wall: FakeClock
) -> None:
    table.enter_game(1, _full_game())
    with table.path.open("a", encoding="utf-8") as f:
        f.write('{"event": "game", "round": 1, "tab')  # the power went mid-line
    again = BhukharTable.open(table.path, clock=clock, wall=wall)
    assert len(again.games()) == 1
    torn = table.path.with_name("session.jsonl.torn")
    assert torn.read_text("utf-8") == '{"event": "game", "round": 1, "tab\n'
    again.start_round()
    assert len(parse_session(table.path.read_text("utf-8")).events) == 2


def test_bhukhar_table_last_line_without_newline_is_kept(
    table: BhukharTable, clock: FakeClock, wall: FakeClock
) -> None:
    table.enter_game(1, _full_game())
    table.path.write_text(table.path.read_text("utf-8").rstrip("\n"), encoding="utf-8")
    again = BhukharTable.open(table.path, clock=clock, wall=wall)
    again.start_round()
    assert len(parse_session(table.path.read_text("utf-8")).events) == 2


def test_bhukhar_table_bad_record_names_file_and_line(
    table: BhukharTable, clock: FakeClock, wall: FakeClock
) -> None:
    with table.path.open("a", encoding="utf-8") as f:
        f.write('{"event": "cancel", "round": 1, "table": 1}\n')
    before = table.path.read_bytes()
    with pytest.raises(TableFileError, match=r"session.jsonl:2: no game"):
        BhukharTable.open(table.path, clock=clock, wall=wall)
    assert table.path.read_bytes() == before


def test_bhukhar_table_write_failure_changes_nothing(table: BhukharTable) -> None:
    folder = table.path.parent
    table.path.unlink()
    folder.rmdir()  # the storage went away
    with pytest.raises(TableFileError, match="cannot write"):
        table.enter_game(1, _full_game())
    assert table.games() == []
    with pytest.raises(TableFileError, match="cannot write"):
        table.start_round()
    assert table.round == 0


def test_bhukhar_table_poll_sounds_the_rule_10_warnings_through_its_outputs(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    out = MemoryOutput()
    table = BhukharTable.create(
        tmp_path / "session.jsonl", START, clock=clock, wall=wall, outputs=[out]
    )
    table.start_round()
    assert out.view == table.view() and out.view.running and out.view.round == 1
    t0 = clock.now
    table.poll(t0 + 1499)
    assert out.sounds == []
    table.poll(t0 + 1500)
    assert out.sounds == [DOUBLE_BEEP] and out.view.face == table.face(t0 + 1500)
    table.poll(t0 + 1800)
    assert out.sounds == [DOUBLE_BEEP, DOUBLE_BEEP, TIME_CALLED] and out.view.time_called
    views = out.views
    table.poll(t0 + 1800)
    assert out.views == views  # nothing changed: nothing said
    with pytest.raises(TypeError, match="no sensor input"):
        table.post(object())
