"""The backgammon clock table: presses journaled, flag fall buzzed, resume after a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.clocks.patterns import LONG_BUZZ
from kiosk.clocks.record import parse_clock_record
from kiosk.engine.journal import Journal
from kiosk.engine.outputs import MemoryOutput
from kiosk.rules.backgammon.clocked import replay_clock
from kiosk.rules.backgammon.match import IllegalAction
from kiosk.tables.backgammon_table import ClockTable, export_clock_record

from .conftest import FakeClock

PLAYERS = ("Nikos", "Eleni")


def table(path: Path, clock: FakeClock, wall: FakeClock, out: MemoryOutput) -> ClockTable:
    return ClockTable(Journal(path), clock=clock, wall=wall, outputs=[out])


def test_clock_table_rule_3_5_bank_and_simple_delay(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    out = MemoryOutput()
    t = table(tmp_path / "j.db", clock, wall, out)
    t.start_match(PLAYERS, 7)
    view = t.view()
    assert view.snapshot.banks == {"Nikos": 840.0, "Eleni": 840.0}  # (7+7)/2 x 2 min
    t.start("Nikos")
    clock.advance(20)
    wall.advance(20)
    t.press("Nikos")  # 12 s delay, then 8 s of bank
    view = t.view()
    assert view.snapshot.banks["Nikos"] == pytest.approx(832.0)
    assert view.running == "Eleni"
    assert out.views == 3 and out.view == view  # start_match, start, press
    clock.advance(5)
    assert t.view().face.sides[1].delay == "7.0"


def test_clock_table_rule_4_3_iii_flag_fall_buzzes_and_loses_the_match(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    out = MemoryOutput()
    t = table(tmp_path / "j.db", clock, wall, out)
    t.start_match(PLAYERS, 1, minutes_per_point=0.5, delay=0)  # 30 s banks
    t.start("Nikos")
    deadline = t.next_deadline()
    assert deadline == pytest.approx(clock.now + 30.0)
    clock.advance(29.9)
    t.poll()
    assert out.sounds == []
    clock.advance(0.2)
    view = t.poll()
    assert view is not None and view.flagged == "Nikos" and view.winner == "Eleni"
    assert out.sounds == [LONG_BUZZ]
    t.poll()
    assert out.sounds == [LONG_BUZZ]  # once
    assert [e.kind for e in t.journal.entries(t.match_id or 0) if e.kind == "flag"] == ["flag"]


def test_clock_table_refused_press_changes_nothing_and_is_not_journaled(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 5)
    with pytest.raises(IllegalAction):
        t.pause()  # nothing runs
    with pytest.raises(IllegalAction):
        t.start("Zoe")
    assert t.events == []
    assert t.journal.confirmed(t.match_id or 0) == []


def test_clock_table_export_is_the_clock_record_and_replays_to_the_same_banks(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    t = table(tmp_path / "j.db", clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 3, score=(1, 0))
    t.start("Eleni")
    for who in ("Eleni", "Nikos", "Eleni", "Nikos"):
        clock.advance(17.25)
        t.press(who)
    clock.advance(3)
    t.game_end("Nikos", 2)
    text = export_clock_record(t.journal)
    record = parse_clock_record(text)
    assert record.header.players == PLAYERS and record.header.score == (1, 0)
    final = replay_clock(record)[-1]
    assert final.banks == pytest.approx(t.view().snapshot.banks)
    assert final.winner == "Nikos"


def test_clock_table_resumes_after_restart_paused_for_the_director(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    path = tmp_path / "j.db"
    t = table(path, clock, wall, MemoryOutput())
    t.start_match(PLAYERS, 7)
    t.start("Nikos")
    clock.advance(30)
    wall.advance(30)
    t.press("Nikos")
    clock.advance(4)
    wall.advance(4)
    t.journal.close()  # the kiosk stops here, Eleni's side running
    wall.advance(60)
    clock.reboot(5.0)  # a new boot: the monotonic clock started again
    again = table(path, clock, wall, MemoryOutput())
    assert again.has_unfinished()
    view = again.resume()
    assert view is not None
    assert view.running is None and view.paused
    assert view.snapshot.banks["Nikos"] == pytest.approx(840 - 18)
    # The downtime ran on Eleni's side until the restart: 4 + 60 s, less her 12 s delay.
    assert view.snapshot.banks["Eleni"] == pytest.approx(840 - 52)
    again.resume_clock()
    clock.advance(1)
    again.press("Eleni")
    assert again.view().running == "Nikos"
    assert [e.source for e in again.journal.entries(again.match_id or 0)][-3:] == [
        "system",
        "umpire",
        "umpire",
    ]
