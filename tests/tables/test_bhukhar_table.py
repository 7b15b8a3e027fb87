"""The Bhukhar table session: round timer + scoresheet + the game being entered, on the journal."""

from __future__ import annotations

import ast
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.clocks.patterns import DOUBLE_BEEP
from kiosk.clocks.round_timer import TIME_CALLED
from kiosk.engine.journal import Journal
from kiosk.engine.outputs import MemoryOutput
from kiosk.rules.bhukhar.cards import parse_cards
from kiosk.rules.bhukhar.record import SessionError, SessionStart, Team, parse_session
from kiosk.rules.bhukhar.scoresheet import End, FullSheet, Game, TotalsSheet
from kiosk.tables.bhukhar_draft import CardsEntry, Draft, DraftError
from kiosk.tables.bhukhar_table import BhukharTable
from kiosk.tables.commands import Command
from tests.refusals import raises_code

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
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "journal.db") as j:
        yield j


@pytest.fixture
def table(journal: Journal, clock: FakeClock, wall: FakeClock) -> BhukharTable:
    return BhukharTable.create(journal, START, clock=clock, wall=wall)


def _lines(table: BhukharTable) -> list[str]:
    return table.export().splitlines()


def _open(table: BhukharTable, clock: FakeClock, wall: FakeClock) -> BhukharTable:
    again = BhukharTable.open(table.journal, table.match_id, clock=clock, wall=wall)
    assert again is not None
    return again


def test_bhukhar_table_create_writes_the_first_line(table: BhukharTable) -> None:
    assert len(_lines(table)) == 1
    assert parse_session(table.export()).start == START
    assert table.journal.match(table.match_id).kind == "bhukhar"
    assert table.round == 0 and not table.time_called(0.0)


def test_bhukhar_table_create_refuses_a_round_outside_rule_10(journal: Journal) -> None:
    bad = SessionStart(START.teams, round_minutes=60)
    with pytest.raises(ValueError, match="rule 10"):
        BhukharTable.create(journal, bad)
    assert journal.matches() == []


def test_bhukhar_table_round_timer_warns_then_calls_time(
    table: BhukharTable, clock: FakeClock
) -> None:
    assert table.start_round(role=Role.UMPIRE) == 1
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
    with raises_code(SessionError, "round_not_running"):
        table.pause_round(t0 + 1801, role=Role.UMPIRE)


def test_bhukhar_table_pause_and_resume_are_recorded(
    table: BhukharTable, clock: FakeClock, wall: FakeClock
) -> None:
    table.start_round(role=Role.UMPIRE)
    clock.advance(600)
    wall.advance(600)
    table.pause_round(role=Role.UMPIRE)
    clock.advance(120)
    wall.advance(120)
    assert table.remaining(clock.now) == 1200
    with raises_code(SessionError, "round_not_running"):
        table.pause_round(role=Role.UMPIRE)
    table.resume_round(role=Role.UMPIRE)
    assert [line.split('"action": ')[1][:8] for line in _lines(table)[1:]] == [
        '"start",',
        '"pause",',
        '"resume"',
    ]
    with raises_code(SessionError, "round_not_paused"):
        table.resume_round(role=Role.UMPIRE)


def test_bhukhar_table_reopen_while_paused_keeps_the_time_left(
    table: BhukharTable, clock: FakeClock, wall: FakeClock, tmp_path: Path
) -> None:
    table.start_round(role=Role.UMPIRE)
    clock.advance(100)
    wall.advance(100)
    table.pause_round(role=Role.UMPIRE)
    later = FakeClock(50.0)  # a new boot: the monotonic clock starts again
    wall.advance(3600)
    again = _open(table, later, wall)
    assert again.round == 1 and again.timer.paused
    assert again.remaining(later.now) == 1700
    again.resume_round(role=Role.UMPIRE)
    assert again.remaining(later.now + 10) == 1690


def test_bhukhar_table_reopen_while_running_counts_the_downtime(
    table: BhukharTable, clock: FakeClock, wall: FakeClock
) -> None:
    table.start_round(role=Role.UMPIRE)
    wall.advance(26 * 60)  # the kiosk was down through the 5-minute warning
    later = FakeClock(10.0)
    again = _open(table, later, wall)
    assert again.remaining(later.now) == 240
    assert again.due(later.now) == []  # the missed warning is not sounded late
    assert again.due(later.now + 180) == [DOUBLE_BEEP]
    assert again.due(later.now + 240) == [TIME_CALLED]


def test_bhukhar_table_reopen_after_the_round_ran_out(table: BhukharTable, wall: FakeClock) -> None:
    table.start_round(role=Role.UMPIRE)
    wall.advance(3 * 3600)
    later = FakeClock(10.0)
    again = _open(table, later, wall)
    assert again.time_called(later.now) and again.due(later.advance(1)) == []
    assert again.start_round(role=Role.UMPIRE) == 2


def test_bhukhar_table_full_and_totals_entry_agree_and_are_kept(
    table: BhukharTable, clock: FakeClock, wall: FakeClock
) -> None:
    table.start_round(role=Role.UMPIRE)
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
    again = _open(table, clock, wall)
    assert again.standings() == table.standings()
    assert [r.team for r in again.standings()][:2] == ["A", "C"]
    assert [e.round for e, _ in again.games()] == [1, 1]


def test_bhukhar_table_refused_entry_changes_nothing(table: BhukharTable) -> None:
    table.enter_game(1, _full_game())
    before = table.journal.entries(table.match_id)
    with raises_code(SessionError, "team_played", law="11"):
        table.enter_game(2, Game({"A": TotalsSheet(False, 0, 0), "C": TotalsSheet(False, 0, 0)},
                                 End.TIME))  # fmt: skip
    bad = Game({"C": TotalsSheet(False, 30, 0), "D": TotalsSheet(False, 0, 0)}, End.TIME)
    with raises_code(SessionError, "table_no_licence"):
        table.enter_game(2, bad)
    assert table.journal.entries(table.match_id) == before
    assert len(table.games()) == 1


def test_bhukhar_table_enter_json_uses_the_current_round(table: BhukharTable) -> None:
    table.start_round(role=Role.UMPIRE)
    table.start_round(role=Role.UMPIRE)
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
    with raises_code(SessionError, "timer_line"):
        table.enter_json({"event": "timer", "round": 3, "action": "start", "left": 1, "at": 0})


def test_bhukhar_table_cancel_then_enter_again(table: BhukharTable) -> None:
    table.enter_game(1, _full_game())
    table.cancel_game(1, 1, "wrong hand entered")
    assert table.games() == []
    table.enter_game(1, _full_game())
    assert len(table.games()) == 1
    with raises_code(SessionError, "cancel_no_game"):
        table.cancel_game(1, 2)


def test_bhukhar_table_write_failure_holds_the_entry_and_loses_nothing(
    table: BhukharTable, clock: FakeClock, wall: FakeClock
) -> None:
    """The journal's medium refuses: the entry is held in memory in order (the journal's
    `fault` says so), the game stands, and it is on disk once writing works again."""
    journal = table.journal
    assert journal._db is not None
    journal._db.execute("PRAGMA query_only = ON")  # the disk refuses every write
    table.enter_game(1, _full_game())
    assert len(table.games()) == 1 and journal.fault is not None
    journal._db.execute("PRAGMA query_only = OFF")
    assert journal.retry(force=True) and journal.fault is None
    assert len(_open(table, clock, wall).games()) == 1


def test_bhukhar_table_poll_sounds_the_rule_10_warnings_through_its_outputs(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    out = MemoryOutput()
    table = BhukharTable.create(
        Journal(tmp_path / "journal.db"), START, clock=clock, wall=wall, outputs=[out]
    )
    table.start_round(role=Role.UMPIRE)
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
    table.post(object())  # a table without sensors: the input is a fault, not a crash
    table.poll(t0 + 1801)
    assert [f.part for f in table.view().faults] == ["inputs"]
    assert out.faults[-1][0].part == "inputs"


def test_bhukhar_table_draft_survives_a_crash_mid_entry(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    """The game being entered is journaled at every change: the kiosk is killed mid-entry
    (SIGKILL, nothing closed), the journal is opened again, and the draft is there."""
    script = f"""
import os, signal
from kiosk.engine.journal import Journal
from kiosk.rules.bhukhar.scoresheet import PenaltyKind
from kiosk.tables.bhukhar_table import BhukharTable
from kiosk.tables.bhukhar_draft import CardsEntry, Draft
from kiosk.access.authority import Role
from tests.tables.test_bhukhar_table import START
table = BhukharTable.create(Journal({str(tmp_path / "journal.db")!r}), START)
U = Role.UMPIRE
table.start_round(role=U)
table.edit(lambda d: d.step_table(1), role=U)
table.edit(lambda d: d.step("points", 0, 215), role=U)
table.edit(lambda d: d.toggle_full(1), role=U)
table.edit_cards(1, lambda c: c.add("10C", "licence"), role=U)
table.edit(lambda d: d.add_penalty(1, PenaltyKind.ASK, 1), role=U)
print(repr(table.draft.to_dict()), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""
    root = Path(__file__).parents[2]
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == -signal.SIGKILL, run.stderr
    draft = Draft.from_dict(ast.literal_eval(run.stdout.strip()))
    again_journal = Journal(tmp_path / "journal.db")
    again = BhukharTable.open(again_journal, clock=clock, wall=wall)
    assert again is not None and again.draft == draft
    assert again.draft.table_no == 2 and again.draft.sides[0].points == 215
    assert again.draft.sides[1].cards.laying == ("10C",)
    # Once the game is entered, the next draft starts clean (and so does a resume).
    again.edit_cards(1, lambda c: CardsEntry(), role=Role.UMPIRE)
    again.edit(lambda d: d.toggle_full(1).choose_bhukhar(0).choose_closed(0), role=Role.UMPIRE)
    again.edit(lambda d: d.toggle_licence(1).take_back_penalty(), role=Role.UMPIRE)
    again.enter_draft(role=Role.UMPIRE)
    assert again.draft.sides[0].points == 0 and again.draft.table_no == 2
    third = BhukharTable.open(again_journal, clock=clock, wall=wall)
    assert third is not None and third.draft == again.draft
    assert len(third.games()) == 1
    again_journal.close()


def test_bhukhar_table_export_is_the_session_record(table: BhukharTable) -> None:
    """What the journal holds of a session reads back as the record format (docs/bhukhar.md);
    draft entries are never part of it."""
    table.start_round(role=Role.UMPIRE)
    table.edit(lambda d: d.step("points", 0, 5), role=Role.UMPIRE)
    table.enter_game(1, _full_game())
    session = parse_session(table.export())
    assert len(session.events) == 2 and session.standings() == table.standings()


def test_17_2_a_licence_meld_spoiled_later_entered_in_full_and_as_totals(
    table: BhukharTable, clock: FakeClock, wall: FakeClock
) -> None:
    """17.2 after a licence (ruling of 2026-11-27): the spoiled meld is void, its cards do not
    count, the licence stands; the draft keeps the mark through a crash and both levels of
    entry take it."""
    seven = ("3S", "4S", "5S", "6S", "7S", "8S", "9S")
    table.edit_cards(0, lambda e: replace(e, licence=(seven, ("AH", "2H", "3H"))), role=Role.UMPIRE)
    table.edit_cards(0, lambda e: e.toggle_spoiled(1), role=Role.UMPIRE)
    assert table.draft.sides[0].cards.spoiled == (1,)
    assert table.draft.sides[0].cards.table_points() == 300  # A 2 3 counts nothing
    table.edit(lambda d: d.toggle_full(0), role=Role.UMPIRE)
    table.edit(
        lambda d: d.step("points", 1, 40), role=Role.UMPIRE
    )  # B: a licence of which 40 still counts
    table.edit(lambda d: d.toggle_spoiled(1), role=Role.UMPIRE)
    table.edit(lambda d: d.choose_end(End.STOCK), role=Role.UMPIRE)
    again = _open(table, clock, wall)  # a crash mid-entry: the marks come back
    assert again.draft == table.draft
    result = again.enter_draft(role=Role.UMPIRE)
    a, b = result.score("A"), result.score("B")
    assert (a.table, a.licence) == (300, 50) and (b.table, b.licence) == (40, 50)
    line = _lines(again)[-1]
    assert '"licence_spoiled": [2]' in line and '"licence_spoiled": true' in line
    assert again.view().entered_game is not None
    assert again.view().entered_game.sheets["A"].licence_spoiled == (1,)


def test_17_2_without_the_mark_a_short_totals_licence_is_refused(table: BhukharTable) -> None:
    table.edit(lambda d: d.toggle_licence(0), role=Role.UMPIRE)  # A laid no licence
    table.edit(lambda d: d.step("points", 1, 40), role=Role.UMPIRE)
    table.edit(lambda d: d.choose_end(End.STOCK), role=Role.UMPIRE)
    with pytest.raises(SessionError) as refused:  # 13.4: a licence is worth 100 when laid
        table.enter_draft(role=Role.UMPIRE)
    assert refused.value.reason is not None and refused.value.reason.code == "licence_short"
    table.edit(lambda d: d.toggle_licence(1).step("points", 1, -40), role=Role.UMPIRE)
    table.edit(lambda d: d.toggle_spoiled(1), role=Role.UMPIRE)
    with pytest.raises(SessionError) as refused:  # spoiled, but no licence to spoil
        table.enter_draft(role=Role.UMPIRE)
    assert refused.value.reason is not None
    assert refused.value.reason.code == "spoiled_without_licence"


def test_17_2_a_spoiled_mark_only_on_a_licence_meld_and_off_again() -> None:
    entry = CardsEntry(licence=(("AH", "2H", "3H"),))
    with pytest.raises(DraftError):
        entry.toggle_spoiled(1)
    marked = entry.toggle_spoiled(0)
    assert marked.spoiled == (0,) and marked.toggle_spoiled(0).spoiled == ()
    assert CardsEntry.from_dict(marked.to_dict()) == marked
    assert CardsEntry.from_dict({"licence": [["AH", "2H", "3H"]]}).spoiled == ()  # old drafts


def test_13_4_preview_of_the_draft_is_the_record_s_score_and_writes_nothing(
    table: BhukharTable,
) -> None:
    """The screen asks the table what the game being entered would score (rules 13-19), or
    why it would be refused (13.4: a licence is worth 100 when laid): nothing is journaled,
    the draft and the view's version stay."""
    table.edit(lambda d: d.toggle_licence(0), role=Role.UMPIRE)  # A laid no licence
    table.edit(lambda d: d.step("points", 1, 40), role=Role.UMPIRE)
    table.edit(lambda d: d.choose_end(End.STOCK), role=Role.UMPIRE)
    ask = Command.of("enter_draft", Role.UMPIRE)
    refused = table.preview(ask)
    assert refused.result is None and refused.refused is not None
    assert refused.refused.code == "licence_short"
    table.edit(lambda d: d.step("points", 1, 60), role=Role.UMPIRE)  # 100 on the table
    entries = table.journal.entries(table.match_id)
    before = (len(entries), table.draft, table.version)
    shown = table.preview(ask).result
    after = (len(table.journal.entries(table.match_id)), table.draft, table.version)
    assert shown is not None and after == before
    assert table.enter_draft(role=Role.UMPIRE) == shown  # what was shown is what is scored
    assert table.preview(Command.of("start_round", Role.UMPIRE)).refused.code == "no_preview"
