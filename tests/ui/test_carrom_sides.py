"""The change of sides on the umpire console and the player display, with real taps
(laws 58-61): shown while it is due, with the two-minute allowance, gone once the
next board begins; and the next player's break after three failed breaks (45 b)."""

from __future__ import annotations

from .harness import Kiosk, win_board
from .test_carrom import _setup

SIDES = "Change sides (law 58): 2 minutes (law 61)"


def test_carrom_law_58_change_sides_due_with_the_two_minutes_of_law_61(kiosk: Kiosk) -> None:
    _setup(kiosk)
    screen = kiosk.screen()
    session = screen.session
    while not any(session.view().state.games_won.values()):  # the boards by the table's
        win_board(session)  # commands (the rules tests cover them); the change by taps
    kiosk.advance(0.0)
    assert screen.banner_kind == "sides" and screen.banner == SIDES
    assert screen.timer_kind.startswith("Change sides (law 61)") and screen.timer == "2:00"
    kiosk.advance(30.0)
    assert screen.timer == "1:30" and screen.banner == SIDES  # still due while it runs
    kiosk.shot("carrom_law_58_change_sides")
    kiosk.tap("players")
    players = kiosk.screen()
    assert players.banner == SIDES and players.big == "1:30"
    kiosk.shot("players_law_58_change_sides")
    kiosk.tap("back")
    kiosk.tap("sheet")  # the board that ended game 1 carries the change
    assert screen.sheet_rows[-1][-1] == "law 52 a; change sides (law 58)"
    kiosk.tap("sheet_close")
    # Bina breaks game 2's first board: the change is over.
    kiosk.tap("confirm")
    assert screen.banner_kind != "sides" and screen.banner != SIDES


def test_carrom_law_45_b_the_next_player_breaks_after_three_failed_breaks(kiosk: Kiosk) -> None:
    _setup(kiosk)
    screen = kiosk.screen()
    for attempt in (2, 3):
        kiosk.tap("not_touched")  # the umpire marks a break that touched no coin
        kiosk.tap("confirm")
        assert screen.status == f"Asha to break (attempt {attempt} of 3)"
    kiosk.tap("not_touched")
    kiosk.tap("confirm")
    assert screen.status == "Bina to break"
    assert screen.colours == ["white", "black"]  # Asha keeps white (43, 45 b)
