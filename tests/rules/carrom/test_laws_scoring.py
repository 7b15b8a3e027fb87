"""Laws 52-61: points, the board limit, games, the match, changing sides."""

from __future__ import annotations

import pytest

from kiosk.rules.carrom import IllegalEvent, Match
from kiosk.rules.carrom.events import Concede, MatchStart, Stroke, Toss, VoidBoard

from .helpers import B, Q, W, singles, st, win_board


def game_won_by(m: Match, side: str) -> None:
    game = m.state.now.game if m.state.now else 0
    while m.state.now is not None and m.state.now.game == game:
        win_board(m, side)


def test_law_52_a_the_first_side_to_pocket_all_its_coins_wins_the_board() -> None:
    m = singles()
    win_board(m, "Asha", opp_left=5)
    board = m.state.games[0].boards[0]
    assert (board.winner, board.points, board.queen, board.law) == ("Asha", 8, "Asha", "52 a")


def test_law_53_the_loser_scores_nothing_for_a_queen_it_covered() -> None:
    m = singles()
    m.push(st())  # Asha breaks
    m.push(st(B))
    m.push(st(Q, B))  # Bina covers the queen
    m.push(st())
    m.push(st(*[W] * 9))  # Asha pockets all her coins
    board = m.state.games[0].boards[0]
    assert (board.winner, board.points, board.queen) == ("Asha", 7, "Bina")
    assert m.state.games[0].points == {"Asha": 7, "Bina": 0}


def test_law_54_no_queen_points_once_the_winner_has_22() -> None:
    m = singles()
    win_board(m, "Asha")
    win_board(m, "Asha", opp_left=1)
    assert m.state.games[0].points["Asha"] == 16
    win_board(m, "Asha", opp_left=5)  # 21 or less before the board: queen counts
    assert m.state.games[0].points["Asha"] == 24
    m2 = singles()
    win_board(m2, "Asha")
    win_board(m2, "Asha")
    win_board(m2, "Bina", opp_left=1)
    win_board(m2, "Asha", opp_left=5)  # Asha has 24 before the board: coins only
    assert m2.state.games[0].boards[-1].points == 5


def test_law_55_a_board_scores_at_most_12() -> None:
    m = singles()
    m.push(st())  # Asha breaks
    m.push(st(striker=True))  # Bina owes a due (nothing pocketed)
    m.push(st())
    m.push(st(striker=True))
    assert m.state.now is not None and m.state.now.owed == {"Asha": 0, "Bina": 2}
    m.push(st(W))
    m.push(st(Q, W))
    m.push(st(*[W] * 7))  # 9 coins + 2 owed + 3 queen = 14, capped
    assert m.state.games[0].boards[0].points == 12


def test_law_87_b_owed_dues_count_for_the_board_winner() -> None:
    m = singles()
    win_board(m, "Asha")
    win_board(m, "Asha", opp_left=1)  # Asha 16
    win_board(m, "Asha", opp_left=3)  # Asha 22: no more queen points (law 54)
    m.push(st())  # Bina breaks board 4
    m.push(st())  # Asha
    m.push(st(striker=True))  # Bina owes one
    m.push(st(B))  # Asha plays black on Bina's break
    m.push(st(Q, B))
    m.push(st(*[B] * 7))
    assert m.state.games[0].boards[-1].points == 9 + 1


def test_law_56_a_a_game_is_won_at_25_points_and_scores_go_past_25() -> None:
    m = singles()
    for _ in range(3):
        win_board(m, "Asha")
    game = m.state.games[0]
    assert game.winner == "Asha" and game.points == {"Asha": 33, "Bina": 0}
    assert m.outcome().game is not None and m.outcome().game.law == "56 a"  # type: ignore[union-attr]
    assert m.state.now is not None and m.state.now.game == 2
    assert m.state.games_won == {"Asha": 1, "Bina": 0}


def test_law_56_a_the_side_ahead_after_8_boards_wins_the_game() -> None:
    m = singles()
    for side in ("Asha", "Bina", "Asha", "Bina", "Asha", "Bina", "Asha", "Asha"):
        win_board(m, side, opp_left=1)  # 4 points a board
    game = m.state.games[0]
    assert game.winner == "Asha" and game.points == {"Asha": 20, "Bina": 12}
    assert len(game.boards) == 8


def test_law_56_a_without_a_board_limit_the_game_goes_to_25_only() -> None:
    m = singles(limit=None)
    for side in ("Asha", "Bina", "Asha", "Bina", "Asha", "Bina", "Asha", "Asha"):
        win_board(m, side, opp_left=1)
    assert m.state.games[0].winner is None
    assert m.state.now is not None and m.state.now.board == 9
    win_board(m, "Asha", opp_left=1)
    win_board(m, "Asha", opp_left=1)
    assert m.state.games[0].winner == "Asha"


def test_law_56_b_a_tie_at_the_limit_is_played_off_after_a_toss() -> None:
    m = singles()
    for side in ("Asha", "Bina") * 4:
        win_board(m, side, opp_left=1)
    state = m.state
    assert state.toss_due and state.games[0].winner is None
    with pytest.raises(IllegalEvent, match="toss is due"):
        m.push(st())
    with pytest.raises(IllegalEvent, match="not a player"):
        m.push(Toss(winner="Zed"))
    m.push(Toss(winner="Bina"))
    assert m.state.now is not None and m.state.now.breaker == "Bina"
    assert m.state.now.white == "Bina" and not m.state.toss_due
    win_board(m, "Asha", opp_left=1)
    assert m.state.games[0].winner == "Asha" and len(m.state.games[0].boards) == 9


def test_law_56_b_no_toss_when_none_is_due() -> None:
    m = singles()
    with pytest.raises(IllegalEvent, match="no toss is due"):
        m.push(Toss(winner="Asha"))


def test_law_56_void_boards_do_not_count_towards_the_limit() -> None:
    m = singles()
    m.push(st(W))
    m.push(VoidBoard())
    now = m.state.now
    assert now is not None and now.breaker == "Asha" and now.board == 2
    assert now.on_board == {"white": 9, "black": 9, "queen": True}
    assert m.state.games[0].boards[0].void
    for side in ("Asha", "Bina") * 3 + ("Asha", "Asha"):
        win_board(m, side, opp_left=1)
    assert m.state.games[0].winner == "Asha" and len(m.state.games[0].boards) == 9


def test_law_57_best_of_three_games() -> None:
    m = singles()
    game_won_by(m, "Asha")
    game_won_by(m, "Bina")
    assert m.state.winner is None and m.state.games_won == {"Asha": 1, "Bina": 1}
    game_won_by(m, "Asha")
    state = m.state
    assert state.winner == "Asha" and state.now is None and len(state.games) == 3
    outcome = m.outcome()
    assert outcome.match is not None and outcome.match.law == "57"
    with pytest.raises(IllegalEvent, match="match is over"):
        m.push(st())


def test_law_57_two_straight_games_win_the_match() -> None:
    m = singles()
    game_won_by(m, "Bina")
    game_won_by(m, "Bina")
    assert m.state.winner == "Bina" and len(m.state.games) == 2


def test_law_58_sides_change_after_each_game() -> None:
    m = singles()
    for _ in range(2):
        win_board(m, "Asha")
        assert not m.state.change_sides
    win_board(m, "Asha")
    assert m.state.change_sides
    m.push(st())
    assert not m.state.change_sides


def test_law_59_doubles_players_change_sides_after_each_game() -> None:
    m = Match(MatchStart("icf", ("Asha", "Bina", "Chitra", "Dev"), "Asha"))
    game_won_by(m, "Bina & Dev")
    assert m.state.change_sides and m.state.games[0].winner == "Bina & Dev"


def _to_third_game(m: Match) -> None:
    game_won_by(m, "Asha")
    game_won_by(m, "Bina")
    assert m.state.now is not None and m.state.now.game == 3


def test_law_60_a_third_game_sides_change_at_4_boards() -> None:
    m = singles()
    _to_third_game(m)
    changes = []
    for side in ("Asha", "Bina", "Asha", "Bina", "Asha"):
        win_board(m, side, opp_left=1)
        changes.append(m.state.change_sides)
    assert changes == [False, False, False, True, False]


def test_law_60_a_third_game_sides_change_at_13_points_if_sooner() -> None:
    m = singles()
    _to_third_game(m)
    changes = []
    for _ in range(3):
        win_board(m, "Asha", opp_left=5)  # 8 points a board
        changes.append(m.state.change_sides)
    assert changes == [False, True, False]


def test_law_60_b_quarter_final_sides_change_at_13_points_only() -> None:
    m = singles(limit=None)
    _to_third_game(m)
    changes = []
    for side in ("Asha", "Bina", "Asha", "Bina", "Asha", "Asha"):
        win_board(m, side, opp_left=1)
        changes.append(m.state.change_sides)
    assert changes == [False, False, False, False, False, True]


def test_law_139_a_side_may_concede_the_match_at_any_time() -> None:
    m = singles()
    win_board(m, "Asha")
    m.push(st(B))
    m.push(Concede(by="Asha"))
    state = m.state
    assert state.winner == "Bina" and state.now is None
    assert state.games[0].winner is None and len(state.games[0].boards) == 2
    assert m.outcome().match is not None and m.outcome().match.law == "139"  # type: ignore[union-attr]
    with pytest.raises(IllegalEvent, match="match is over"):
        m.push(Stroke())


def test_law_143_doubles_concession_names_a_player_of_the_losing_side() -> None:
    m = Match(MatchStart("icf", ("Asha", "Bina", "Chitra", "Dev"), "Asha"))
    m.push(Concede(by="Dev"))
    assert m.state.winner == "Asha & Chitra"


def test_law_56_the_state_shows_the_score_of_the_game_being_played() -> None:
    m = singles()
    win_board(m, "Asha", opp_left=5)
    assert m.state.score == {"Asha": 8, "Bina": 0}
    game_won_by(m, "Asha")
    assert m.state.score == {"Asha": 0, "Bina": 0} and m.state.games[0].points["Asha"] >= 25
