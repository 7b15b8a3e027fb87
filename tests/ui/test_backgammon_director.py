"""The backgammon director's panel and setup by real taps: late arrival with the points it
gives, penalty points, breaks and emergency breaks (2.2), overrule declaring the winner
(4.3 (iii)), the setup's every length (beyond 25 too), the mid-match breaks and penalty
points (2.2 (ii), 2.2 (iv), 2.3), the doubles preset, two legs and the post-Crawford
switch (2.2 (ii), 3.5 (v), 4.4 (iv)). Each checks the clock record in the journal."""

from __future__ import annotations

from typing import Any

from .harness import Kiosk, confirmed_events, start_backgammon


def _events(screen: Any) -> list[dict[str, Any]]:
    return confirmed_events(screen.table)


def _header(screen: Any) -> dict[str, Any]:
    header: dict[str, Any] = screen.table.journal.match(screen.table.match_id).header
    return header


def test_clause_2_2_iv_late_arrival_shows_its_points_then_records_them(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk, length_steps=0)  # 7 points: one break each
    kiosk.tap("director")
    assert screen.late_text == "Player A 5 min late: 1 penalty point to Player B"
    kiosk.tap("late_plus")
    kiosk.tap("late_plus")
    kiosk.tap("late_plus")
    kiosk.tap("late_plus")
    kiosk.tap("late_plus")  # 10 minutes
    assert screen.late_text == "Player A 10 min late: 2 penalty points to Player B"
    kiosk.tap("late_who_1")
    assert screen.late_text == "Player B 10 min late: 2 penalty points to Player A"
    kiosk.tap("late_who_0")
    kiosk.shot("backgammon_director_late")
    kiosk.tap("late_confirm")
    assert screen.message == "" and screen.scores == [0, 2]
    # Two more points would make four, over half of 7: the preview says it wins.
    assert "(4 in all: Player B wins the match)" in screen.late_text
    kiosk.tap("penalty_1")  # the director awards one more (slow play, conduct)
    assert screen.scores == [0, 3] and screen.winner == ""
    kiosk.tap("penalty_1")  # four penalty points: over half the match length
    assert screen.winner == "Player B"
    kiosk.tap("director_close")
    assert "Player B wins the match on penalty points" in screen.banner
    assert [e["event"] for e in _events(screen)] == ["late", "penalty", "penalty"]
    assert _events(screen)[0] == {"event": "late", "player": "Player A", "minutes": 10.0}


def test_clause_2_2_iv_the_director_may_start_the_late_players_clock(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk)
    kiosk.tap("director")
    kiosk.tap("late_who_1")
    kiosk.tap("late_start_clock")  # instead of the points: B's own clock runs
    assert screen.turns == [False, True] and screen.running
    assert _events(screen) == [{"event": "start", "player": "Player B"}]


def test_clause_2_2_ii_v_breaks_between_games_and_the_emergency_break(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk, length_steps=0)  # 7 points: one break each
    assert screen.breaks == [1, 1]
    assert kiosk.widget("half_0").breaks == 1
    kiosk.tap("start_0")
    kiosk.tap("director")
    kiosk.tap("break_0")  # during a game: refused
    assert "between games" in screen.message
    kiosk.tap("emergency_1")  # 2.2 (v): an emergency stops the clock, even in a game
    # Leaving the table is a break (2.2 (ii)): B's absence uses B's one break.
    assert screen.message == "" and screen.paused and screen.breaks == [1, 0]
    kiosk.tap("director_close")
    kiosk.tap("pause")  # Resume after the emergency
    kiosk.tap("game_over")
    kiosk.tap("end_confirm")  # A wins a single point
    kiosk.tap("director")
    kiosk.tap("break_0")
    assert screen.breaks == [0, 0] and kiosk.widget("break_0").text == "Break (0 left)"
    kiosk.tap("break_0")  # no break left
    assert "no break left" in screen.message
    kiosk.tap("emergency_0")  # beyond the allowance
    assert screen.message == "" and screen.breaks == [0, 0]
    kiosk.tap("director_close")
    assert [e["event"] for e in _events(screen)] == [
        "start", "break", "resume", "game_end", "break", "break",
    ]  # fmt: skip
    assert _events(screen)[-1] == {"event": "break", "player": "Player A", "emergency": True}


def test_clause_4_3_iii_overrule_by_tap_declares_the_flagged_player_winner(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk, length_steps=-3)  # 1 point: 2:00 each
    kiosk.tap("start_1")
    kiosk.advance(12.0 + 120.0)
    assert screen.flagged == "Player B" and screen.winner == "Player A"
    assert kiosk.widget("half_1").fallen  # the flag shows at once
    kiosk.tap("timeout_director")
    assert kiosk.widget("overrule").text == "Overrule: Player B had already won"
    kiosk.tap("overrule")
    assert screen.winner == "Player B" and screen.flagged == "Player B"
    kiosk.tap("director_close")
    assert "Player B wins the match" in screen.banner
    kinds = [e["event"] for e in _events(screen)]
    assert kinds == ["start", "query", "overrule"]  # the flag's moment, then the ruling


def test_clause_4_4_iv_post_crawford_setup_by_tap(kiosk: Kiosk) -> None:
    kiosk.tap("backgammon")
    setup = kiosk.screen()
    assert kiosk.widget("post_crawford").disabled  # 0-0: nobody is one point away
    for _ in range(6):
        kiosk.tap("score_0_plus")  # 6-0 in a 7-point match
    for _ in range(3):
        kiosk.tap("score_1_plus")
    assert not kiosk.widget("post_crawford").disabled
    kiosk.tap("post_crawford")
    assert setup.post_crawford
    kiosk.shot("backgammon_setup_post_crawford")
    kiosk.tap("start")
    screen = kiosk.screen()
    assert _header(screen)["post_crawford"] is True
    assert "Crawford" not in screen.banner  # no wrong "no doubling" announcement
    assert screen.match_line.startswith("match to 7 · post-Crawford")


def test_clause_4_4_iv_without_the_switch_the_next_game_is_crawford(kiosk: Kiosk) -> None:
    kiosk.tap("backgammon")
    for _ in range(6):
        kiosk.tap("score_0_plus")
    kiosk.tap("score_0_minus")
    kiosk.tap("score_0_plus")
    kiosk.tap("start")
    screen = kiosk.screen()
    assert "post_crawford" not in _header(screen)
    assert screen.banner == "Next game: the Crawford game, no doubling"


def test_clause_2_2_ii_3_5_v_every_length_doubles_preset_and_two_legs(kiosk: Kiosk) -> None:
    kiosk.tap("backgammon")
    setup = kiosk.screen()
    for _ in range(6):
        kiosk.tap("length_plus")  # 7 -> 19
    assert setup.match_length == 19
    kiosk.tap("length_plus")
    kiosk.tap("length_plus")
    assert setup.match_length == 23
    kiosk.tap("length_plus_one")
    assert setup.match_length == 24
    kiosk.tap("length_plus")  # from an even length, to the odd one above
    assert setup.match_length == 25
    kiosk.tap("length_plus")  # 2.2 (ii): matches "of 25 points and above"
    assert setup.match_length == 27 and kiosk.widget("length_text").text == "27 points"
    kiosk.tap("length_minus")
    kiosk.tap("length_minus_one")
    kiosk.tap("length_minus_one")  # 23
    kiosk.tap("doubles_preset")
    assert (setup.minutes_per_point, setup.delay) == (2.5, 18.0)
    kiosk.tap("delay_plus")
    kiosk.tap("leg_plus")
    kiosk.tap("leg_plus")
    assert kiosk.widget("leg_text").text == "second leg 2 min"
    kiosk.tap("best_of_three")
    kiosk.shot("backgammon_setup_doubles")
    kiosk.tap("start")
    screen = kiosk.screen()
    header = _header(screen)
    assert header["match_length"] == 23 and header["minutes_per_point"] == 2.5
    assert header["delay"] == 19.0 and header["second_leg"] == 120.0
    assert header["best_of_three"] is True and screen.breaks == [0, 0]
    # 3.5 (vi): (23 + 23) / 2 x 2.5 min = 57:30 each, of which the second leg's 2 min
    # are held back (3.5 (v): the match time is divided into two legs).
    assert screen.banks == ["55:30", "55:30"]


def test_2_2_ii_longest_lengths_beyond_25_up_to_99(kiosk: Kiosk) -> None:
    kiosk.tap("backgammon")
    setup = kiosk.screen()
    for _ in range(50):
        setup.step_length(1)  # the -/+ steps, not under test here: the bound is
    assert setup.match_length == 99
    kiosk.tap("length_plus")
    kiosk.tap("length_plus_one")
    assert setup.match_length == 99  # two digits on the player display
    kiosk.tap("start")
    screen = kiosk.screen()
    assert _header(screen)["match_length"] == 99 and screen.breaks == [4, 4]
    assert screen.match_line == "match to 99 · cube 1"


def test_2_2_ii_2_3_a_clock_introduced_mid_match_keeps_breaks_and_penalty_points(
    kiosk: Kiosk,
) -> None:
    kiosk.tap("backgammon")
    setup = kiosk.screen()
    kiosk.tap("length_plus")
    kiosk.tap("length_plus")
    kiosk.tap("length_plus")  # 13 points: two breaks each
    for _ in range(3):
        kiosk.tap("score_1_plus")  # 0-3, of which B's penalty points
    kiosk.tap("so_far")
    kiosk.shot("backgammon_setup_so_far")
    kiosk.tap("taken_0_plus")
    kiosk.tap("taken_0_plus")
    kiosk.tap("taken_0_plus")  # never more than the allowance
    assert list(setup.breaks_taken) == [2, 0]
    kiosk.tap("penalty_0_plus")  # A has no point: no penalty point either (2.2 (iv))
    for _ in range(4):
        kiosk.tap("penalty_1_plus")  # at most B's score of 3
    assert list(setup.penalty_points) == [0, 3]
    kiosk.tap("penalty_1_minus")
    kiosk.tap("so_far_done")
    kiosk.tap("start")
    screen = kiosk.screen()
    header = _header(screen)
    assert header["breaks_taken"] == [2, 0] and header["penalty_points"] == [0, 2]
    assert screen.breaks == [0, 2] and screen.scores == [0, 3]
    # 2.2 (iv): the two penalty points before the clock count: five more are 7 of 13.
    kiosk.tap("director")
    for _ in range(4):
        kiosk.tap("penalty_1")
    assert screen.winner == ""
    kiosk.tap("penalty_1")
    assert screen.winner == "Player B"
    kiosk.tap("director_close")
    assert screen.banner == "Player B wins the match on penalty points"


def test_2_2_iv_a_mid_match_header_the_rules_refuse_is_worded_on_the_setup(
    kiosk: Kiosk,
) -> None:
    kiosk.tap("backgammon")
    setup = kiosk.screen()
    for _ in range(6):
        kiosk.tap("score_1_plus")  # 0-6 of 7
    kiosk.tap("so_far")
    for _ in range(4):
        kiosk.tap("penalty_1_plus")  # 4 penalty points: more than half of 7
    kiosk.tap("so_far_done")
    kiosk.tap("start")
    assert kiosk.current == "setup_backgammon"
    assert setup.message == (
        "Player B's 4 penalty points are more than half of 7: the match is already won (2.2 (iv))"
    )
    assert kiosk.services.tables.latest_unfinished() is None
