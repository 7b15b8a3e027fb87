"""The rulings of shared/RULES.md that the project already followed, each shown by a test
named after its law (docs/carrom-rules.md lists every ruling with its test)."""

from __future__ import annotations

import pytest

from kiosk.rules.carrom import IllegalEvent, Match
from kiosk.rules.carrom.events import Concede, ForfeitBoard, Foul, VoidBoard, Waive

from .helpers import B, Q, W, bina_to_play, now_of, singles, st


def last_board(m: Match) -> tuple[str | None, int, str | None]:
    board = m.state.games[-1].boards[-1]
    return board.winner, board.points, board.law


# -- the break ----------------------------------------------------------------------------


def test_law_45_c_an_improper_break_keeps_its_coins_and_returns_the_queen() -> None:
    m = singles()
    m.push(st(W, B, Q, improper=True))
    now = now_of(m)
    # 74, 76: the black counts for Bina; the white stays pocketed; 64 b, 95 a: the queen back.
    assert now.on_board == {"white": 8, "black": 8, "queen": True}
    assert now.owed == {"Asha": 0, "Bina": 0} and now.placer is None and now.turn == "Bina"


# -- the queen with an opponent's coin (48, 75, 92, 97 b) ---------------------------------------


def test_law_48_the_queen_with_an_opponents_coin_lets_the_turn_go_on() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(Q, W))
    now = now_of(m)
    assert now.turn == "Bina" and now.queen == "pending" and now.on_board[W] == 8


def test_law_75_an_own_coin_with_an_opponents_coin_lets_the_turn_go_on() -> None:
    m = singles()
    bina_to_play(m)
    m.push(st(B, W))
    assert now_of(m).turn == "Bina"


def test_law_92_an_opponents_coin_with_the_queen_is_not_the_first_own_coin() -> None:
    m = singles()
    bina_to_play(m)
    m.push(st(Q, W))  # 95 a: no own coin yet
    now = now_of(m)
    assert now.queen == "on_board" and now.turn == "Asha" and not now.opened["Bina"]


def test_law_97_b_an_opponents_coin_is_not_one_of_more_than_one_coin() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(striker=True))  # the black goes back: all nine on the board again
    m.push(st())
    m.push(st(Q, B, W))  # one own coin (the white is Asha's): still to cover
    now = now_of(m)
    assert now.queen == "pending" and now.turn == "Bina"


# -- the last coin and the queen -------------------------------------------------------------


def test_law_101_a_covering_with_the_last_coin_and_the_striker_is_no_ending() -> None:
    m = singles()
    m.push(st())
    m.push(st(*[B] * 8))
    m.push(st(Q))
    m.push(st(B, striker=True))  # the last black while covering: 101 a, no 52 a
    now = now_of(m)
    assert m.outcome().board is None
    assert now.queen == "pending" and now.on_board[B] == 2 and now.turn == "Bina"


def test_law_106_by_analogy_opponents_last_coin_with_the_queen_covered_by_the_opponent() -> None:
    m = singles()
    m.push(st())
    m.push(st(B))
    m.push(st(Q, B))  # Bina covers (97 a)
    m.push(st(*[B] * 6))
    m.push(st())
    m.push(st(*[W] * 6))
    m.push(st(B))  # Asha pockets Bina's last black alone
    assert last_board(m) == ("Bina", 3 + 3, "106 a")  # Asha's 3 coins, the queen's 3


def test_law_106_by_analogy_opponents_last_coin_with_the_queen_covered_by_the_striker() -> None:
    m = singles()
    m.push(st(W))
    m.push(st(Q, W))  # Asha covers
    m.push(st())
    m.push(st(*[B] * 8))
    m.push(st())
    m.push(st(*[W] * 4))
    m.push(st(B))
    assert last_board(m) == ("Bina", 3, "106 a")  # Asha's 3 coins only (53)


def test_law_102_a_by_analogy_both_last_coins_with_the_queen_covered_by_the_striker() -> None:
    m = singles()
    m.push(st(W))
    m.push(st(Q, W))
    m.push(st(*[W] * 6))
    m.push(st())
    m.push(st(*[B] * 8))
    m.push(st())
    m.push(st(W, B))
    assert last_board(m) == ("Asha", 3, "52 a")


def test_law_110_a_by_analogy_both_last_coins_with_the_queen_covered_by_the_opponent() -> None:
    m = singles()
    m.push(st())
    m.push(st(B))
    m.push(st(Q, B))
    m.push(st(*[B] * 6))
    m.push(st())
    m.push(st(*[W] * 8))
    m.push(st(W, B))
    assert last_board(m) == ("Asha", 1, "52 a")


def test_law_78_a_a_side_that_owes_pays_first_before_any_ending() -> None:
    m = singles()
    m.push(st())
    m.push(st(striker=True))  # Bina owes one (72 a, 83)
    m.push(st())
    m.push(st(*[B] * 9))  # all nine while owing: not her last coin (no 107, no 52 a)
    now = now_of(m)
    assert m.outcome().board is None
    assert now.on_board[B] == 1 and now.owed["Bina"] == 0 and now.turn == "Bina"


def test_law_95_b_applies_even_with_an_own_coin_which_pays_the_debt() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(striker=True))  # the black goes back
    m.push(st())
    m.push(st(striker=True))  # now owed
    m.push(st())
    m.push(st(Q, B))
    now = now_of(m)
    assert now.queen == "on_board" and now.turn == "Asha"
    assert now.owed["Bina"] == 0 and now.on_board[B] == 9


# -- forfeits, club fouls, refused events ------------------------------------------------------


def test_club_v_i_a_forfeited_round_scores_as_v_i() -> None:
    m = singles(rules="club")
    m.push(st(W, W))
    m.push(ForfeitBoard(by="Bina"))
    assert last_board(m) == ("Asha", 9, "club V i")


def test_club_iv_i_a_foul_before_the_first_stroke_still_ends_the_turn() -> None:
    m = singles(rules="club")
    m.push(st())
    m.push(Foul())  # Bina, at turn, before her first stroke: no technical foul (ICF 63)
    now = now_of(m)
    assert now.turn == "Asha" and now.owed["Bina"] == 1


def test_law_80_a_waive_by_the_offending_side_is_refused() -> None:
    m = singles()
    bina_to_play(m)
    m.push(st(striker=True))  # Bina owes one
    with pytest.raises(IllegalEvent, match="nothing to waive"):
        m.push(Waive(by="Bina"))
    m.push(Waive(by="Asha"))
    assert now_of(m).owed["Bina"] == 0


# -- concessions and void boards ----------------------------------------------------------------


def test_law_139_a_concession_leaves_the_games_winner_null() -> None:
    m = singles()
    m.push(st(W))
    m.push(Concede(by="Bina"))
    assert m.state.winner == "Asha" and m.state.now is None
    assert m.state.games[0].winner is None


def test_law_140_now_board_counts_void_boards_which_do_not_count_for_the_limit() -> None:
    m = singles()
    m.push(st())
    m.push(VoidBoard())
    now = now_of(m)
    assert now.board == 2 and now.breaker == "Asha"
    assert [b.void for b in m.state.games[0].boards] == [True]
