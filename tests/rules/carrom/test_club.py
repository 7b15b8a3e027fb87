"""The club rules of shared/seeds/001_45192af66de370db.txt (sections I-V), profile "club"."""

from __future__ import annotations

from functools import partial

import pytest

from kiosk.rules.carrom import IllegalEvent, rules_for
from kiosk.rules.carrom.club import ClubRules
from kiosk.rules.carrom.events import Foul, Toss
from kiosk.rules.carrom.icf import IcfRules

from . import helpers
from .helpers import B, Q, W, bina_to_play, now_of, off, st, win_board

# Every match here is played under the club rules.
singles = partial(helpers.singles, rules="club")
doubles = partial(helpers.doubles, rules="club")


def test_club_rule_sets_are_found_by_name() -> None:
    assert isinstance(rules_for("club"), ClubRules) and type(rules_for("icf")) is IcfRules
    with pytest.raises(IllegalEvent, match="known: icf, club"):
        rules_for("snooker")


def test_club_i_i_the_breaker_plays_white() -> None:
    now = now_of(singles(first="Bina"))
    assert now.white == "Bina" and now.breaker == "Bina" and now.is_break


def test_club_iv_ii_h_three_failed_breaks_are_a_foul() -> None:
    m = singles()
    for _ in range(3):
        m.push(st(touched=False))
    now = now_of(m)
    assert now.turn == "Bina" and now.owed == {"Asha": 1, "Bina": 0} and not now.is_break


def test_club_i_iv_own_piece_or_queen_gives_another_strike() -> None:
    m = singles()
    m.push(st(W))
    assert now_of(m).turn == "Asha"
    m.push(st())
    assert now_of(m).turn == "Bina"  # I v: nothing pocketed, the turn ends


def test_club_iv_ii_a_striker_pocketed_is_a_foul_and_own_pieces_stay() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(B, striker=True))
    now = now_of(m)
    assert now.turn == "Asha" and now.on_board[B] == 8  # 7 + one penalty piece


def test_club_iv_ii_b_a_piece_or_the_striker_off_the_board_is_a_foul() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(off("striker", pocketed=(B,)))
    now = now_of(m)
    assert now.turn == "Asha" and now.on_board[B] == 7
    m.push(off(W))
    assert now_of(m).owed["Asha"] == 1 and now_of(m).turn == "Bina"


def test_club_iv_ii_c_opponent_piece_is_a_foul_and_the_queen_goes_back() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(W, Q, B))
    now = now_of(m)
    assert now.turn == "Asha" and now.on_board == {"white": 8, "black": 7, "queen": True}
    # the black stays pocketed, one penalty black goes back: 7 - 1 + 1


def test_club_iv_ii_d_opponent_final_piece_goes_back_with_the_penalty() -> None:
    m = singles()
    m.push(st(*[W] * 8))  # Asha: one white left
    m.push(st())
    m.push(st(B))  # Bina: 8 blacks
    m.push(st(W))  # Bina pockets Asha's final piece
    now = now_of(m)
    assert now.on_board == {"white": 1, "black": 9, "queen": True} and now.turn == "Asha"
    assert m.state.games[0].boards[0].winner is None


def test_club_iv_ii_e_own_final_piece_before_the_queen_is_covered_goes_back() -> None:
    m = singles()
    m.push(st(*[W] * 8))
    m.push(st(W))
    now = now_of(m)
    assert now.on_board[W] == 2 and now.turn == "Bina"  # the piece and a penalty piece


def test_club_iv_ii_g_touching_a_piece_ends_the_turn() -> None:
    m = singles()
    m.push(st(W, W))
    m.push(Foul())
    now = now_of(m)
    assert now.turn == "Bina" and now.on_board[W] == 8


def test_club_iii_i_queen_covered_by_an_own_piece_later_in_the_turn() -> None:
    m = singles()
    m.push(st(W))
    m.push(st(Q))
    assert now_of(m).queen == "pending"
    m.push(st(W))
    now = now_of(m)
    assert now.queen == "covered" and now.queen_by == "Asha"


def test_club_iii_ii_queen_before_an_own_piece_goes_back_after_the_turn() -> None:
    m = singles()
    m.push(st(Q))
    now = now_of(m)
    assert now.turn == "Asha" and now.queen == "pending"  # the turn continues (III ii)
    m.push(st(W))
    assert now_of(m).queen == "pending"  # not permitted: cannot be covered now
    m.push(st())
    now = now_of(m)
    assert now.queen == "on_board" and now.turn == "Bina"


def test_club_iii_iii_queen_with_own_piece_counts_only_after_a_first_piece() -> None:
    m = singles()
    m.push(st(Q, W))
    assert now_of(m).queen == "pending"
    m2 = singles()
    m2.push(st(W))
    m2.push(st(Q, W))
    assert now_of(m2).queen == "covered"


def test_club_v_i_winner_scores_pieces_left_and_5_for_the_queen_uncapped() -> None:
    m = singles()
    win_board(m, "Asha")
    board = m.state.games[0].boards[0]
    assert (board.winner, board.points, board.queen) == ("Asha", 14, "Asha")


def test_club_v_i_no_points_for_a_queen_covered_by_the_loser() -> None:
    m = singles()
    m.push(st())
    m.push(st(B))
    m.push(st(Q, B))
    m.push(st())
    m.push(st(W))
    m.push(st(*[W] * 8))
    board = m.state.games[0].boards[0]
    assert (board.winner, board.points) == ("Asha", 7)


def test_club_v_ii_first_to_15_wins_the_match() -> None:
    m = singles()
    win_board(m, "Asha")
    assert m.state.winner is None and now_of(m).breaker == "Bina"
    win_board(m, "Asha", opp_left=1)
    state = m.state
    assert state.winner == "Asha" and len(state.games) == 1 and state.now is None
    assert state.games[0].points == {"Asha": 20, "Bina": 0}
    outcome = m.outcome()
    assert outcome.match is not None and outcome.match.law == "club V ii"
    assert outcome.match.points == 20


def test_club_v_ii_after_three_rounds_the_side_ahead_wins() -> None:
    m = singles()
    for side in ("Asha", "Bina", "Asha"):
        win_board(m, side, opp_left=1)
    assert m.state.winner == "Asha" and m.state.games[0].points == {"Asha": 12, "Bina": 6}


def test_club_v_ii_level_after_three_rounds_plays_another() -> None:
    m = singles()
    win_board(m, "Asha", opp_left=1)
    win_board(m, "Bina", opp_left=7)
    win_board(m, "Asha", opp_left=1)
    assert m.state.winner is None and m.state.games[0].points == {"Asha": 12, "Bina": 12}
    assert now_of(m).breaker == "Bina" and now_of(m).board == 4
    win_board(m, "Bina", opp_left=1)
    assert m.state.winner == "Bina"


def test_club_i_ix_colours_switch_each_round() -> None:
    m = singles()
    whites = []
    for side in ("Asha", "Bina"):
        whites.append(now_of(m).white)
        win_board(m, side, opp_left=1)
    whites.append(now_of(m).white)
    assert whites == ["Asha", "Bina", "Asha"]


def test_club_no_toss_and_no_board_limit() -> None:
    m = singles(limit=1)
    assert m.state.board_limit is None
    win_board(m, "Asha", opp_left=1)
    with pytest.raises(IllegalEvent, match="no toss is due"):
        m.push(Toss(winner="Asha"))


def test_club_doubles_break_passes_to_the_right() -> None:
    m = doubles()
    breakers = []
    for _ in range(3):
        breakers.append(now_of(m).breaker)
        win_board(m, now_of(m).turn_side, opp_left=1)
    assert breakers == ["Asha", "Bina", "Chitra"]
    assert m.state.winner is not None
