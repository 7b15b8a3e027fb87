"""The backgammon clock screen with real taps: presses, delay and bank apart, pause, the
director, the Crawford banner and a time-out (rules 3.5, 4.1 (v)-(vi), 4.3, 4.4 (iv))."""

from __future__ import annotations

from .harness import Kiosk, start_backgammon


def test_backgammon_presses_show_delay_apart_and_time_out(kiosk: Kiosk) -> None:
    start_backgammon(kiosk)  # 7 -> 3 points: banks (3 + 3) / 2 x 2 min = 6:00
    screen = kiosk.screen()
    assert screen.banks == ["6:00", "6:00"]
    kiosk.tap("start_0")
    assert screen.turns == [True, False] and screen.delays[0] == "12.0"
    kiosk.shot("backgammon_running")
    kiosk.advance(5.0)
    assert screen.delays[0] == "7.0" and screen.banks[0] == "6:00"  # delay first, bank untouched
    # A tap on the idle half does nothing; the running player's own half ends the turn.
    kiosk.tap("half_1")
    assert screen.turns == [True, False]
    kiosk.tap("half_0")
    assert screen.turns == [False, True] and screen.delays[1] == "12.0"
    kiosk.advance(20.0)  # 12 s of delay, then 8 s of bank
    assert screen.banks[1] == "5:52" and screen.delays[1] == "0.0"
    kiosk.tap("half_1")
    # Pause keeps the delay; the clock does not run while paused.
    kiosk.advance(4.0)
    kiosk.tap("pause")
    assert screen.paused
    kiosk.advance(100.0)
    assert screen.delays[0] == "8.0" and screen.banks[0] == "6:00"
    kiosk.tap("pause")  # Resume
    assert not screen.paused
    # Below 20 s the bank shows tenths; at 0 the flag falls and the time-out screen shows.
    kiosk.advance(8.0 + 360.0 - 15.0)
    assert screen.banks[0] == "15.0"
    kiosk.advance(15.0)
    assert screen.flagged == screen.names[0]
    assert "Player B wins the match on time" in screen.banner
    timeout = kiosk.widget("timeout_panel")
    assert timeout.x < kiosk.app.root.width  # on screen
    kiosk.shot("backgammon_timeout")
    # The director rules the flagged player had already won (4.3 (iii)).
    kiosk.tap("timeout_director")
    kiosk.tap("overrule")
    # ...and so is declared the winner of the match; the flag stays, the clock stopped.
    assert screen.flagged == "Player A" and screen.winner == "Player A"
    assert kiosk.widget("overrule").disabled
    kiosk.tap("director_close")
    assert "Player A wins the match" in screen.banner


def test_backgammon_director_adjusts_a_bank_and_the_crawford_banner(kiosk: Kiosk) -> None:
    start_backgammon(kiosk)  # 3-point match
    screen = kiosk.screen()
    kiosk.tap("start_1")
    kiosk.tap("director")
    kiosk.tap("adj_0_m60")
    assert screen.banks[0] == "5:00"
    kiosk.tap("adj_0_p10")
    assert screen.banks[0] == "5:10"
    kiosk.shot("backgammon_director")
    kiosk.tap("director_close")
    kiosk.advance(30.0)
    kiosk.tap("game_over")
    kiosk.tap("end_winner_0")
    kiosk.tap("end_points_plus")
    kiosk.tap("end_confirm")
    assert screen.scores == [2, 0]
    assert not screen.running
    # 2-0 in a match to 3: the next game is the Crawford game, announced before it starts.
    assert screen.banner == "Next game: the Crawford game, no doubling"
    kiosk.shot("backgammon_crawford")


def test_backgammon_resumes_from_the_journal(kiosk: Kiosk) -> None:
    start_backgammon(kiosk)
    kiosk.tap("start_0")
    kiosk.advance(20.0)
    kiosk.tap("home")
    assert kiosk.current == "home"
    assert kiosk.app.next_tick is not None
    kiosk.app.next_tick.cancel()  # no tick comes: the player display must show at once
    kiosk.tap("players")  # the player display follows the clock in play
    players = kiosk.screen()
    assert (players.left_score, players.big, players.left_turn) == ("5:52", "0.0", True)
    kiosk.tap("back")
    assert kiosk.current == "backgammon"
    kiosk.tap("home")
    assert kiosk.widget("resume").text.startswith("Resume the unfinished backgammon clock\n")
    kiosk.tap("resume")
    assert kiosk.current == "backgammon"
    assert kiosk.screen().banks[0] == "5:52"
