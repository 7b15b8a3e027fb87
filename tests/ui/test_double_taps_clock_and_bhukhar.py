"""A double tap acts once on the backgammon clock and the Bhukhar scoresheet: each screen
sends the version of the view it drew (kiosk/ui/seen.py), so the second tap, made from the
view before the first one's answer, is refused by the table as stale."""

from __future__ import annotations

from .harness import Kiosk, confirmed_events, start_backgammon


def test_double_tap_on_a_backgammon_half_presses_once(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk)
    kiosk.tap("start_0")
    kiosk.advance(2.0)
    assert screen.turns == [True, False]
    kiosk.double_tap("half_0")
    kiosk.advance(0.1)
    presses = [e for e in confirmed_events(screen.table) if e["event"] == "press"]
    assert len(presses) == 1 and screen.turns == [False, True]
    assert screen.message == ""  # the second tap refused, without a word against the first
    kiosk.tap("half_1")  # a deliberate tap later: B's own press
    assert screen.turns == [True, False]
    kiosk.double_tap("pause")  # pause, then at once resume: one pause only
    kiosk.advance(0.1)
    assert screen.paused and screen.message == ""
    assert [e["event"] for e in confirmed_events(screen.table)][-1] == "pause"


def test_double_tap_on_bhukhar_enter_enters_the_table_once(kiosk: Kiosk) -> None:
    kiosk.tap("bhukhar")
    kiosk.tap("start")
    screen = kiosk.screen()
    kiosk.tap("start_round")
    side_a, side_b = screen.ids.side_0, screen.ids.side_1
    for _ in range(4):
        kiosk.tap(side_a.ids.points_p50)
    for _ in range(2):
        kiosk.tap(side_b.ids.points_p50)
    kiosk.tap("bhukhar")  # the bhukhar to A
    kiosk.double_tap("enter")
    kiosk.advance(0.1)
    assert len(screen.table.games()) == 1
    assert screen.message.startswith("Table 1 entered."), screen.message
    assert not screen.refused
