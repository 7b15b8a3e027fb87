"""The Bhukhar table with real taps: the round timer (rule 10, 16.3) and a game's totals
entry (rules 13, 18, 19) on the Bhukhar table session."""

from __future__ import annotations

from kiosk.engine.outputs import MemoryOutput

from .harness import Kiosk, fit_output


def test_bhukhar_round_timer_and_totals_entry(kiosk: Kiosk) -> None:
    buzzer = MemoryOutput()
    fit_output(kiosk, buzzer)
    kiosk.tap("bhukhar")
    assert kiosk.current == "setup_bhukhar"
    kiosk.tap("start")
    assert kiosk.current == "bhukhar"
    screen = kiosk.screen()
    assert screen.clock_face == "30:00" and screen.round_no == 0
    kiosk.tap("start_round")
    assert screen.round_no == 1
    kiosk.advance(60.0)
    assert screen.clock_face == "29:00"
    # Table 1: team A went out with its licence, 215 on the table; B 25 in hand, 120 down.
    side_a, side_b = screen.ids.side_0, screen.ids.side_1
    for _ in range(4):
        kiosk.tap(side_a.ids.points_p50)
    for _ in range(3):
        kiosk.tap(side_a.ids.points_p5)
    for _ in range(2):
        kiosk.tap(side_b.ids.points_p50)
    for _ in range(4):
        kiosk.tap(side_b.ids.points_p5)
    for _ in range(5):
        kiosk.tap(side_b.ids.hand_p5)
    assert screen.points == [215, 120] and screen.hand == [0, 25]
    kiosk.tap("bhukhar")  # the bhukhar to A
    kiosk.tap("enter")
    assert not screen.refused, screen.message
    assert screen.message.startswith("Table 1 entered.")
    assert screen.standings.splitlines()[0].startswith("1. A   master 2")
    kiosk.shot("bhukhar_entered")
    # The same table again in the same round is refused by the rules (rule 11), nothing lost.
    kiosk.tap("enter")
    assert screen.refused
    assert len(kiosk.screen().table.games()) == 1
    # Warnings at 5 and 1 minutes left, then time (rule 16.3).
    kiosk.advance(24 * 60.0)
    assert len(buzzer.sounds) == 1
    kiosk.advance(5 * 60.0)
    assert screen.time_called and screen.clock_face == "0:00"
    assert len(buzzer.sounds) == 3
    kiosk.shot("bhukhar_time")


def test_bhukhar_session_resumes_from_its_record(kiosk: Kiosk) -> None:
    kiosk.tap("bhukhar")
    kiosk.tap("start")
    kiosk.tap("start_round")
    kiosk.tap("home")
    kiosk.app.screen("bhukhar").table = None  # as after a restart: only the record remains
    assert kiosk.widget("resume").text.startswith("Resume the unfinished Bhukhar session\n")
    kiosk.tap("resume")
    assert kiosk.current == "bhukhar" and kiosk.screen().round_no == 1
