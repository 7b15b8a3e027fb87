"""The backgammon clock's other controls by real taps: the setup's score and length (3.5 (vi)),
pause and resume (4.3 (ii)), the players' invalid roll (4.3 (v)), early pickup
(4.1 (v) b), both players' bank adjustments (4.3 (iv)), the game-over panel's cancel and
points, and leaving the time-out screen. Each checks the clock record in the journal."""

from __future__ import annotations

from typing import Any

from .harness import Kiosk, confirmed_events, start_backgammon


def _events(screen: Any) -> list[dict[str, Any]]:
    """The clock record's events as the journal holds them (match time left out)."""
    return confirmed_events(screen.table)


def test_backgammon_setup_score_and_length_set_the_banks_3_5_vi(kiosk: Kiosk) -> None:
    kiosk.tap("backgammon")
    kiosk.tap("back")  # back home, nothing started
    assert kiosk.current == "home" and kiosk.services.tables.latest_unfinished() is None
    kiosk.tap("backgammon")
    setup = kiosk.screen()
    kiosk.tap("length_plus")  # 7 -> 9 points
    for _ in range(3):
        kiosk.tap("score_0_plus")
    kiosk.tap("score_0_minus")
    kiosk.tap("score_1_plus")
    kiosk.tap("score_1_plus")
    kiosk.tap("score_1_minus")
    assert setup.match_length == 9 and list(setup.score) == [2, 1]
    kiosk.shot("backgammon_setup_score")
    kiosk.tap("start")
    screen = kiosk.screen()
    header = screen.table.journal.match(screen.table.match_id).header
    assert header["match_length"] == 9 and header["score"] == [2, 1]
    assert screen.scores == [2, 1]
    # 3.5 (vi): A needs 7, B needs 8: (7 + 8) / 2 x 2 min each.
    assert screen.banks == ["15:00", "15:00"]


def test_backgammon_invalid_roll_restarts_the_delay_and_pause_keeps_it_4_3(
    kiosk: Kiosk,
) -> None:
    screen = start_backgammon(kiosk)  # 3 points: 6:00 each, 12 s delay
    # The players' own button (4.3 (v)), on the bar: nothing to restart while no side runs.
    assert kiosk.widget("restart_delay").disabled
    screen.restart_delay()  # sent all the same: refused, worded, nothing written
    assert "no side is running" in screen.message and _events(screen) == []
    kiosk.tap("start_0")
    kiosk.advance(5.0)
    assert screen.delays[0] == "7.0"
    kiosk.tap("restart_delay")  # an invalid roll must not cost the roller (4.3 (v))
    assert screen.message == "" and screen.delays[0] == "12.0" and screen.banks[0] == "6:00"
    kiosk.advance(15.0)  # 12 s of delay, then 3 s of bank
    assert screen.delays[0] == "0.0" and screen.banks[0] == "5:57"
    # The clock's stop and restart: Pause holds bank and delay, Resume goes on from there.
    kiosk.tap("pause")
    assert screen.paused and kiosk.widget("start_0").disabled
    kiosk.tap("restart_delay")  # allowed while paused: the delay is whole again
    kiosk.advance(60.0)
    assert screen.delays[0] == "12.0" and screen.banks[0] == "5:57"
    kiosk.tap("pause")  # "Resume"
    assert not screen.paused
    kiosk.advance(2.0)
    assert screen.delays[0] == "10.0" and screen.banks[0] == "5:57"
    assert [e["event"] for e in _events(screen)] == [
        "start",
        "restart_delay",
        "pause",
        "restart_delay",
        "resume",
    ]


def test_clause_4_1_v_b_early_pickup_shows_wait_over_the_delay_by_tap(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk)
    kiosk.tap("start_0")  # Player A's turn runs
    kiosk.tap("director")
    kiosk.tap("pickup_0")  # A's own side runs: not an early pickup
    assert "own side is running" in screen.message
    assert kiosk.widget("pickup_1").text == "Early pickup"
    kiosk.tap("pickup_1")  # B picked up the dice before A pressed
    # The director sees at once that the pickup was recorded, before B's turn comes.
    assert screen.message == "" and screen.pickups == [False, True]
    assert kiosk.widget("pickup_1").text == "Early pickup recorded: Player B waits"
    assert kiosk.widget("pickup_0").text == "Early pickup"
    kiosk.tap("director_close")
    kiosk.advance(3.0)
    kiosk.tap("half_0")  # A ends the turn: B must wait out the delay, which runs as ever
    assert screen.turns == [False, True] and screen.delays[1] == "12.0"
    assert screen.waits == [False, True]
    assert kiosk.widget("half_1").wait
    kiosk.shot("backgammon_early_pickup_wait")
    kiosk.advance(5.0)
    assert screen.banks[1] == "6:00" and screen.delays[1] == "7.0" and screen.waits[1]
    assert kiosk.widget("pickup_1").text == "Early pickup recorded: Player B waits"
    kiosk.advance(7.0)  # the delay has run out: B may play; no bank was charged
    assert screen.waits == [False, False] and screen.banks[1] == "6:00"
    assert kiosk.widget("pickup_1").text == "Early pickup"
    kiosk.advance(2.0)
    assert screen.banks[1] == "5:58"
    kiosk.tap("half_1")
    kiosk.tap("half_0")  # B's next turn: no wait
    assert screen.delays[1] == "12.0" and screen.waits == [False, False]
    events = _events(screen)
    assert {"event": "early_pickup", "player": "Player B"} in events
    assert not any(e.get("player") == "Player A" and e["event"] == "early_pickup" for e in events)


def test_backgammon_director_adjusts_both_banks_by_tap_4_3_iv(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk)
    kiosk.tap("start_0")
    kiosk.tap("director")
    kiosk.tap("adj_1_m60")
    kiosk.tap("adj_1_m10")
    assert screen.banks[1] == "4:50"
    kiosk.tap("adj_1_p60")
    kiosk.tap("adj_1_p10")
    kiosk.tap("adj_1_p10")
    assert screen.banks[1] == "6:10"
    kiosk.tap("adj_0_m10")
    kiosk.tap("adj_0_p60")
    assert screen.banks[0] == "6:50"
    kiosk.tap("director_close")
    adjusts = [(e["player"], e["bank"]) for e in _events(screen) if e["event"] == "adjust"]
    assert adjusts == [
        ("Player B", 300.0),
        ("Player B", 290.0),
        ("Player B", 350.0),
        ("Player B", 360.0),
        ("Player B", 370.0),
        ("Player A", 350.0),
        ("Player A", 410.0),
    ]


def test_backgammon_game_over_panel_cancel_then_points_to_player_b(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk)
    kiosk.tap("start_1")
    kiosk.tap("game_over")
    kiosk.tap("end_winner_1")
    kiosk.tap("end_points_plus")
    kiosk.tap("end_points_plus")
    kiosk.tap("end_points_minus")
    assert screen.end_winner == 1 and screen.end_points == 2
    kiosk.tap("end_cancel")  # a change of mind: nothing is written, the game goes on
    assert not screen.end_open and screen.in_game
    assert [e["event"] for e in _events(screen)] == ["start"]
    kiosk.tap("game_over")
    assert screen.end_points == 1  # the panel opens afresh
    kiosk.tap("end_points_minus")  # never below one point
    assert screen.end_points == 1
    kiosk.tap("end_winner_1")
    kiosk.tap("end_points_plus")
    kiosk.tap("end_confirm")
    assert screen.scores == [0, 2] and not screen.in_game
    assert _events(screen)[-1] == {"event": "game_end", "winner": "Player B", "points": 2}


def test_backgammon_time_out_screen_home_and_resume_keep_the_flag(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk, length_steps=-3)  # 1 point: 2:00 each
    assert screen.banks == ["2:00", "2:00"]
    kiosk.tap("start_0")
    kiosk.advance(12.0 + 120.0)
    assert screen.flagged == "Player A"
    table = screen.table
    flags = [e.data for e in table.journal.entries(table.match_id) if e.kind == "flag"]
    assert flags == [{"player": "Player A"}]
    kiosk.tap("timeout_home")
    assert kiosk.current == "home"
    kiosk.tap("resume")
    assert kiosk.current == "backgammon" and kiosk.screen().flagged == "Player A"
