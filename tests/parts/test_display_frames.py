"""The player display's frames made from a table's view, sent over a real serial link."""

from __future__ import annotations

from pathlib import Path

import serial

from drivers.display import PlayerDisplay
from drivers.display_protocol import DisplayFrame, DisplayLink
from drivers.display_sim import SimulatedDisplay
from drivers.simulated import ManualClock as FakeClock
from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.parts.display_frames import (
    bhukhar_frame,
    carrom_frame,
    clock_frame,
    message,
    seconds_text,
    side_initials,
)
from kiosk.parts.outputs import DisplayOutput
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.backgammon_table import BackgammonTable
from kiosk.tables.bhukhar_table import BhukharTable
from kiosk.tables.carrom_table import CarromTable
from tests.waiting import wait_until


def test_display_frame_text_fits_the_led_font() -> None:
    assert message("Asha & Bina wins!") == "ASHA  BINA W"
    assert seconds_text(14.2) == "15" and seconds_text(120) == "2:00" and seconds_text(0) == "0"


def test_display_frame_carrom_law_60_change_sides_and_scores(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = CarromTable(Journal(tmp_path / "j.db"), clock=clock, wall=wall)
    assert carrom_frame(s.view()) == DisplayFrame(message="TABLESIDE")
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
    s.play(role=Role.UMPIRE)
    frame = carrom_frame(s.view())
    assert frame == DisplayFrame(
        0, 0, "15", "L", 1, "BREAK", games="0-0", queen="O", left_name="A", right_name="B"
    )
    # Asha clears the board with the queen covered: 9 + 3 = 12 points (laws 52, 54).
    s.confirm(s.proposal.edited(pocketed=["white"] * 8 + ["queen"]), role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=["white"]), role=Role.UMPIRE)
    view = s.view()
    frame = carrom_frame(view)
    assert frame.left == view.state.games[-1].points["Asha"]  # type: ignore[union-attr]
    assert frame.left > 0 and frame.right == 0
    assert frame.board == 2 and frame.turn == "R"  # Bina breaks the second board


def test_display_frame_backgammon_clock(tmp_path: Path, clock: FakeClock, wall: FakeClock) -> None:
    t = BackgammonTable(Journal(tmp_path / "j.db"), clock=clock, wall=wall)
    t.start_match(
        ("Nikos", "Eleni"), 7, (2, 1), role=Role.UMPIRE
    )  # banks (5 + 6) / 2 x 2 min = 660 s
    t.start("Eleni", role=Role.PLAYER)
    clock.advance(12 + 30)  # the delay, then 30 s of bank
    # Both banks (Nikos's untouched 11:00) and the delay, run out, beside the running bank.
    both = {"left_clock": "11:00", "right_clock": "10:30", "delay": "0"}
    names = {"left_name": "N", "right_name": "E"}
    assert clock_frame(t.view()) == DisplayFrame(
        2, 1, "10:30", "R", 0, "TO 7", **both, **names, match_length=7
    )


def test_clause_4_1_v_b_display_frame_shows_wait_after_an_early_pickup(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    t = BackgammonTable(Journal(tmp_path / "j.db"), clock=clock, wall=wall)
    t.start_match(("Nikos", "Eleni"), 7, role=Role.UMPIRE)
    t.start("Nikos", role=Role.PLAYER)
    t.early_pickup("Eleni", role=Role.DIRECTOR)
    clock.advance(5)
    t.press("Nikos", role=Role.PLAYER)
    clock.advance(3)
    frame = clock_frame(t.view())
    assert frame == DisplayFrame(
        0, 0, "14:00", "R", 0, "WAIT", "-", "-", "14:00", "14:00", "9", "N", "E", 7
    )  # Eleni waits 9 s more of her delay
    clock.advance(10)  # the delay has run out
    assert clock_frame(t.view()).message == "TO 7"


def test_display_frame_backgammon_match_score_crosses_a_loop_port(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    """At 4-2 in a match to 5 the board says CRAWFORD, and the frame still carries the match
    score, "4-2 to 5": the scores and the match's length (protocol version 3)."""
    t = BackgammonTable(Journal(tmp_path / "j.db"), clock=clock, wall=wall)
    t.start_match(("Nikos", "Eleni"), 5, (4, 2), role=Role.UMPIRE)
    t.start("Nikos", role=Role.PLAYER)
    frame = clock_frame(t.view())
    port = serial.serial_for_url("loop://", timeout=0.5)
    with SimulatedDisplay(announce=False) as sim:
        link = DisplayLink()
        sent = link.show(frame, 0.0)
        port.write(sent)
        port.write(sim.handle(port.readline()))  # the display reads the frame off the port
        assert link.receive(port.readline(), 0.01) == b""
    port.close()
    assert b" L=4 R=2 " in sent and b" M=CRAWFORD " in sent and b" P=5 *" in sent
    shown = sim.shown
    assert shown is not None and link.acked == frame
    assert (shown.left, shown.right, shown.match_length, shown.message) == (4, 2, 5, "CRAWFORD")


def test_display_frame_games_queen_and_initials_of_names_in_any_script(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    s = CarromTable(Journal(tmp_path / "j.db"), clock=clock, wall=wall)
    s.start_match(MatchStart("icf", ("अमित शाह", "Νίκος Παππάς"), "अमित शाह"), role=Role.UMPIRE)
    s.play(role=Role.UMPIRE)
    frame = carrom_frame(s.view())
    assert (frame.left_name, frame.right_name) == ("AS", "NP")  # transliterated initials
    assert (frame.games, frame.queen) == ("0-0", "O")
    s.confirm(
        s.proposal.edited(pocketed=["white", "queen"]), role=Role.UMPIRE
    )  # the queen, to be covered
    assert carrom_frame(s.view()).queen == "P"
    s.confirm(s.proposal.edited(pocketed=["white"]), role=Role.UMPIRE)  # covered: the left side's
    assert carrom_frame(s.view()).queen == "L"


def test_rule_16_3_display_frame_bhukhar_round_clock_then_time(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    from tests.tables.test_bhukhar_table import START

    t = BhukharTable.create(Journal(tmp_path / "j.db"), START, clock=clock, wall=wall)
    assert bhukhar_frame(t.view()) == DisplayFrame(message="BHUKHAR")
    t.start_round(role=Role.UMPIRE)
    clock.advance(65)
    assert bhukhar_frame(t.view()) == DisplayFrame(clock="28:55", board=1, message="ROUND 1")
    clock.advance(30 * 60)
    assert bhukhar_frame(t.view()) == DisplayFrame(clock="0", board=1, message="TIME")


def test_display_frame_doubles_initials_are_the_partners() -> None:
    assert side_initials("Asha Rao & Bina") == "AB"
    assert side_initials("ભાવેશ") == "B" and side_initials("") == ""


def test_display_output_on_a_simulated_display_and_its_silence_is_a_fault(
    tmp_path: Path, clock: FakeClock, wall: FakeClock
) -> None:
    with (
        SimulatedDisplay() as sim,
        PlayerDisplay(sim.port_path, ack_timeout_s=0.05, retries=1, keepalive_s=0.2) as display,
    ):
        out = DisplayOutput(display, carrom_frame)
        s = CarromTable(Journal(tmp_path / "j.db"), clock=clock, wall=wall, outputs=[out])
        s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
        s.play(role=Role.UMPIRE)
        first = DisplayFrame(0, 0, "15", "L", 1, "BREAK", "0-0", "O", left_name="A", right_name="B")
        assert sim.wait_for(first, 5.0)
        assert wait_until(lambda: display.status.state == "ok")
        assert s.poll().faults == ()
        sim.mute = True  # the display stops acknowledging
        assert wait_until(lambda: display.status.state == "silent")
        view = s.poll()
        assert [f.part for f in view.faults] == ["display"]
        assert "does not answer" in view.faults[0].message
        s.confirm(s.proposal.edited(pocketed=["white"]), role=Role.UMPIRE)  # the match goes on
        sim.mute = False
        assert wait_until(lambda: display.status.state == "ok")
        assert s.poll().faults == ()
        faults = [e for e in s.journal.entries(s.match_id or 0) if e.kind.startswith("fault")]
        assert [e.kind for e in faults] == ["fault", "fault_cleared"]
