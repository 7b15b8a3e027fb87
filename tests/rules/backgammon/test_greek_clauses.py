"""The clauses of 2.2, 3.5, 4.3 (iii) and 4.4 (iv) read against the Greek text, in the
match core and the clocked match (shared/seeds/003_d85405b1c0e4c56b.txt)."""

from __future__ import annotations

import pytest

from kiosk.clocks.record import (
    Break,
    ClockHeader,
    GameEnd,
    Late,
    Overrule,
    Penalty,
    Press,
    Start,
)
from kiosk.rules.backgammon.clocked import ClockedMatch
from kiosk.rules.backgammon.match import (
    MATCH_LENGTHS,
    IllegalAction,
    Match,
    breaks_due,
    late_penalty_points,
    penalty_points_to_win,
    possible_points,
)

A, B = "Nikos", "Eleni"


def match(length: int = 7, a: int = 0, b: int = 0, **kw: bool) -> Match:
    return Match((A, B), length, score={A: a, B: b}, **kw)


def clocked(length: int = 7, **kw: object) -> ClockedMatch:
    return ClockedMatch(ClockHeader((A, B), length, **kw))  # type: ignore[arg-type]


# -- 4.3 (iii): the overruled player is declared the winner of the match ---------------


def test_clause_4_3_iii_overrule_declares_the_flagged_player_the_match_winner() -> None:
    cm = clocked(3, minutes_per_point=0.1, delay=2.0)  # 18 s banks
    cm.apply(Start(0.0, A))
    cm.apply(Press(1.0, A))
    cm.catch_up(30.0)
    assert (cm.match.winner, cm.clock.flagged) == (A, B)
    cm.apply(Overrule(31.0, B))
    assert (cm.match.winner, cm.match.won_by) == (B, "overrule")
    assert cm.clock.flagged == B and cm.clock.running is None
    with pytest.raises(IllegalAction, match="match is over"):
        cm.apply(Start(40.0, B))


def test_clause_4_3_iii_overrule_of_a_player_who_did_not_lose_on_time_is_refused() -> None:
    m = match()
    m.start_game()
    with pytest.raises(IllegalAction, match="did not lose on time"):
        m.overrule(A)


def test_clause_4_3_iii_without_overrule_the_flag_loses_the_match() -> None:
    cm = clocked(1, minutes_per_point=0.1, delay=0.0)
    cm.apply(Start(0.0, A))
    snap = cm.snapshot(7.0)
    assert (snap.flagged, snap.winner) == (A, B)


# -- 2.2 (iv): lateness and penalty points ----------------------------------------------


@pytest.mark.parametrize(
    ("minutes", "points"), [(0, 0), (4.99, 0), (5, 1), (9.5, 1), (10, 2), (12, 2), (25, 5)]
)
def test_clause_2_2_iv_a_point_at_five_minutes_late_and_one_each_five_more(
    minutes: float, points: int
) -> None:
    assert late_penalty_points(minutes) == points


def test_clause_2_2_iv_late_points_go_to_the_opponent() -> None:
    m = match(length=11)
    assert m.late_start(A, 12) == 2
    assert m.score == {A: 0, B: 2} and m.penalty[B] == 2


def test_clause_2_2_iv_penalty_points_over_half_the_length_win_the_match() -> None:
    assert penalty_points_to_win(7) == 4 and penalty_points_to_win(8) == 5
    m = match(length=7)
    m.award_penalty(B, 3)  # 3 is not over 3.5
    assert m.winner is None
    m.late_start(A, 5)  # late points count in all
    assert (m.winner, m.won_by) == (B, "penalty")


def test_clause_2_2_iv_a_penalty_during_a_game_can_end_the_match_and_stop_the_clock() -> None:
    cm = clocked(3)
    cm.apply(Start(0.0, A))
    cm.apply(Penalty(5.0, B, 2))
    assert cm.match.winner == B and cm.clock.running is None


def test_clause_2_2_iv_late_is_counted_before_a_game_not_during_one() -> None:
    m = match()
    m.start_game()
    with pytest.raises(IllegalAction, match="before a game"):
        m.late_start(A, 6)


def test_clause_2_2_iv_the_director_may_start_the_late_players_clock_instead() -> None:
    cm = clocked(5)  # 10-minute banks
    cm.apply(Late(0.0, A, 4.0))  # under five minutes: no point yet
    cm.apply(Start(0.0, A))  # the alternative: the late player's own clock runs
    snap = cm.snapshot(312.0)
    assert snap.score == {A: 0, B: 0} and snap.banks[A] == 300.0


# -- 2.2 (ii), (v): breaks ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "due"),
    [(5, 0), (7, 1), (11, 1), (13, 2), (17, 2), (19, 3), (21, 3), (23, 3), (25, 4)],
)
def test_clause_2_2_ii_breaks_by_match_length(length: int, due: int) -> None:
    assert breaks_due(length) == due
    assert match(length=length).breaks_left(A) == due


def test_clause_2_2_ii_a_best_of_three_series_takes_breaks_between_matches_only() -> None:
    assert breaks_due(13, best_of_three=True) == 0
    m = match(length=13, a=1, best_of_three=True)
    with pytest.raises(IllegalAction, match="best-of-three"):
        m.take_break(A)


def test_clause_2_2_ii_breaks_may_be_consecutive_by_one_or_both_players() -> None:
    m = match(length=13, a=2)
    m.take_break(A)
    m.take_break(A)
    m.take_break(B)
    assert (m.breaks_left(A), m.breaks_left(B)) == (0, 1)


def test_clause_2_2_v_emergency_break_beyond_the_allowance() -> None:
    m = match(length=7, b=1)
    assert m.take_break(A) == "break"
    assert m.take_break(A, emergency=True) == "emergency"
    assert m.breaks_left(A) == 0 and m.emergencies[A] == 1


def test_clause_2_2_v_an_emergency_may_come_during_a_game_and_stops_the_clock() -> None:
    cm = clocked(7)
    cm.apply(Start(0.0, A))
    cm.apply(Break(5.0, B, emergency=True))
    assert cm.clock.running is None and cm.clock.paused == A
    assert cm.match.in_game


def test_clause_2_2_v_an_emergency_between_games_uses_a_break_still_left() -> None:
    m = match(length=7, a=3)
    assert m.take_break(A, emergency=True) == "break"
    assert m.breaks_left(A) == 0 and m.emergencies[A] == 0


# -- 4.4 (iv) and 4.5: Crawford, post-Crawford, possible points ---------------------------


def test_clause_4_4_iv_post_crawford_needs_a_player_one_point_away() -> None:
    with pytest.raises(IllegalAction, match="neither player is one point away"):
        match(length=7, a=4, b=1, post_crawford=True)
    assert not match(length=7, a=6, b=3, post_crawford=True).crawford


def test_clause_4_4_iv_the_cube_is_void_in_the_crawford_game() -> None:
    assert possible_points(crawford=True) == (1, 2, 3)
    m = match(length=5, a=4)
    m.start_game()
    with pytest.raises(IllegalAction, match="Crawford game"):
        m.record_game(B, 4)
    m.record_game(B, 3)


def test_clause_4_5_points_are_the_cube_value_times_1_2_or_3() -> None:
    points = possible_points()
    assert points == (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192)
    for bad in (5, 7, 9, 10, 11, 13, 65, 100):
        m = match(length=25)
        m.start_game()
        with pytest.raises(IllegalAction, match="cannot be scored"):
            m.record_game(A, bad)
        assert m.in_game and m.score[A] == 0  # nothing changed


def test_clause_4_5_a_refused_game_end_changes_nothing_in_the_clocked_match() -> None:
    cm = clocked(7)
    cm.apply(Start(0.0, A))
    with pytest.raises(IllegalAction):
        cm.apply(GameEnd(5.0, A, 5))
    assert cm.clock.running == A and cm.match.in_game


# -- 2.2 (ii) and 3.5 (v): match lengths and time controls ------------------------------


def test_clause_2_2_ii_every_match_length_from_1_to_25() -> None:
    assert tuple(range(1, 26)) == MATCH_LENGTHS
    assert 19 in MATCH_LENGTHS and 23 in MATCH_LENGTHS
    for length in MATCH_LENGTHS:
        assert clocked(length).match.length == length


def test_clause_3_5_v_second_leg_in_the_clocked_match() -> None:
    # 30 s of match time split into a first leg of 10 s and a second of 20 s.
    cm = clocked(1, minutes_per_point=0.5, delay=0.0, second_leg=20.0)
    cm.apply(Start(0.0, A))
    assert cm.snapshot(25.0).banks[A] == 5.0 and cm.match.winner is None
    assert cm.snapshot(30.0).flagged == A and cm.match.winner == B


def test_clause_3_5_v_doubles_preset_and_two_legs_are_settings() -> None:
    from kiosk.config import BackgammonSettings

    settings = BackgammonSettings()
    assert (settings.minutes_per_point, settings.delay_s) == (2.0, 12.0)  # singles
    assert (settings.doubles_minutes_per_point, settings.doubles_delay_s) == (2.5, 18.0)
    assert settings.second_leg_s == 0.0  # one leg unless the director decides
