"""The backgammon match: score, cube, Crawford, dead cube, penalties, breaks (2.2, 4.4)."""

from __future__ import annotations

import pytest

from kiosk.rules.backgammon.match import IllegalAction, Match, breaks_due, late_penalty_points

A, B = "Nikos", "Eleni"


def match(length: int = 7, a: int = 0, b: int = 0, **kw: bool) -> Match:
    return Match((A, B), length, score={A: a, B: b}, **kw)


def test_rule_4_4_cube_double_take_and_ownership() -> None:
    m = match()
    m.start_game()
    m.double(A)
    m.take(B)
    assert (m.cube, m.owner) == (2, B)
    with pytest.raises(IllegalAction, match="cube belongs to Eleni"):
        m.double(A)
    m.double(B)
    m.take(A)
    assert (m.cube, m.owner) == (4, A)


def test_rule_4_4_drop_gives_the_doubler_the_cube_value_before_the_double() -> None:
    m = match()
    m.start_game()
    m.double(A)
    m.take(B)
    m.double(B)
    m.drop(A)
    assert m.score == {A: 0, B: 2} and not m.in_game


@pytest.mark.parametrize(("result", "points"), [("single", 2), ("gammon", 4), ("backgammon", 6)])
def test_rule_4_5_single_gammon_backgammon_score_cube_times_1_2_3(result: str, points: int) -> None:
    m = match(length=11)
    m.start_game()
    m.double(B)
    m.take(A)
    assert m.end_game(A, result) == points  # type: ignore[arg-type]
    assert m.score[A] == points


def test_rule_4_4_iv_crawford_game_is_the_first_at_one_point_away() -> None:
    m = match(length=5, a=3)
    assert not m.crawford
    m.start_game()
    m.end_game(A)
    assert m.score[A] == 4 and m.crawford and m.crawford_next()  # announced before it starts
    m.start_game()
    assert m.game_is_crawford
    with pytest.raises(IllegalAction, match="Crawford"):
        m.double(B)
    m.end_game(B)
    assert not m.crawford and m.post_crawford
    m.start_game()  # post-Crawford: the trailer may double again
    assert not m.game_is_crawford
    m.double(B)


def test_clause_4_4_iv_crawford_as_written_even_when_both_are_one_point_away() -> None:
    # "the first game in which a player is exactly one point away": the text adds no
    # condition on the other player.
    assert match(length=5, a=4, b=4).crawford_next()
    assert not match(length=5, a=4, b=4, post_crawford=True).crawford_next()


def test_clause_4_4_iv_a_one_point_match_game_is_the_crawford_game() -> None:
    m = match(length=1)
    assert m.crawford
    m.start_game()
    refusal = m.double_refusal(A)
    assert m.game_is_crawford and refusal is not None and refusal.code == "double_crawford"


def test_rule_4_4_iv_match_taken_over_after_the_crawford_game() -> None:
    assert not match(length=5, a=4, b=1, post_crawford=True).crawford_next()
    assert match(length=5, a=4, b=1).crawford_next()


def test_rule_4_4_vii_dead_cube_double_is_refused() -> None:
    m = match(length=7, a=3, b=5)  # Eleni needs 2
    m.start_game()
    m.double(A)
    m.take(B)  # cube 2 on Eleni's side: already enough for her
    reason = m.double_refusal(B)
    assert reason is not None and reason.code == "dead_cube" and reason.law == "4.4 (vii)"
    with pytest.raises(IllegalAction, match="dead cube"):
        m.double(B)
    assert m.offered_by is None and m.cube == 2


def test_4_4_vii_a_centred_cube_is_never_dead() -> None:
    # 4.4 (vii) covers only a cube the player holds: from the centre the leader, who needs
    # 1, may still double (pointless, but not void).
    m = match(length=5, a=4, b=2, post_crawford=True)
    m.start_game()
    assert m.double_refusal(A) is None and m.double_refusal(B) is None
    m.double(A)
    assert m.offered_by == A


def test_match_won_by_reaching_the_length() -> None:
    m = match(length=3, a=2)
    m.start_game()
    m.end_game(A, "gammon")
    assert (m.winner, m.won_by, m.score[A]) == (A, "points", 4)
    with pytest.raises(IllegalAction, match="over"):
        m.start_game()


def test_rule_4_3_iv_time_given_back_lets_the_match_go_on() -> None:
    m = match()
    m.start_game()
    m.lose_on_time(A)
    assert (m.winner, m.won_by) == (B, "time")
    m.undo_time_loss()
    assert m.winner is None and m.in_game  # the game goes on


@pytest.mark.parametrize(
    ("length", "breaks"),
    [(1, 0), (5, 0), (7, 1), (11, 1), (13, 2), (17, 2), (19, 3), (23, 3), (25, 4), (31, 4)],
)
def test_rule_2_2_ii_breaks_due_by_match_length(length: int, breaks: int) -> None:
    assert breaks_due(length) == breaks


def test_rule_2_2_ii_breaks_only_between_games_and_only_as_many_as_due() -> None:
    m = match(length=7, b=2)  # a game played before
    m.take_break(A)
    with pytest.raises(IllegalAction, match="no break left"):
        m.take_break(A)
    m.start_game()
    with pytest.raises(IllegalAction, match="between games"):
        m.take_break(B)


@pytest.mark.parametrize(("late", "points"), [(4.9, 0), (5.0, 1), (9.99, 1), (10.0, 2), (27, 5)])
def test_rule_2_2_iv_late_start_a_penalty_point_each_five_minutes(late: float, points: int) -> None:
    assert late_penalty_points(late) == points


def test_rule_2_2_iv_late_start_points_go_to_the_opponent() -> None:
    m = match(length=7)
    assert m.late_start(A, 11.0) == 2
    assert m.score == {A: 0, B: 2} and m.penalty[B] == 2 and m.winner is None


def test_rule_2_2_iv_more_penalty_points_than_half_the_length_win_the_match() -> None:
    m = match(length=7)
    m.late_start(A, 20.0)  # 4 points: more than 3.5
    assert (m.winner, m.won_by) == (B, "penalty")


def test_match_bad_setup_is_refused() -> None:
    with pytest.raises(IllegalAction, match="score of Nikos"):
        match(length=5, a=5)
    with pytest.raises(IllegalAction, match="two different players"):
        Match((A, A), 5)
    with pytest.raises(IllegalAction, match="no double to answer"):
        m = match()
        m.start_game()
        m.take(B)
