"""Laws 92-114: the queen, its cover and returns, and the last-coin endings 102-112."""

from __future__ import annotations

import pytest

from kiosk.rules.carrom import Match
from kiosk.rules.carrom.events import Foul, MatchStart

from .helpers import B, Q, W, bina_to_play, now_of, singles, st, to_turn_of, win_board


def position(m: Match, a_left: int, b_left: int, queen_by: str | None = None) -> None:
    """Asha (white) and Bina (black) pocket down to the coins left; Asha is then at turn."""
    for side, colour, left in (("Asha", W, a_left), ("Bina", B, b_left)):
        to_turn_of(m, side)
        count = 9 - left
        if queen_by == side:
            m.push(st(colour))
            m.push(st(Q, colour))
            count -= 2
        if count:
            m.push(st(*[colour] * count))
    to_turn_of(m, "Asha")
    now = now_of(m)
    assert now.on_board[W] == a_left and now.on_board[B] == b_left and now.white == "Asha"


def asha_at_24() -> Match:
    m = singles()
    win_board(m, "Asha")
    win_board(m, "Asha")
    assert m.state.games[0].points["Asha"] == 24 and now_of(m).breaker == "Asha"
    return m


def bina_at_24() -> Match:
    m = singles()
    win_board(m, "Bina")
    win_board(m, "Bina")
    assert m.state.games[0].points["Bina"] == 24 and now_of(m).breaker == "Asha"
    return m


def last_board(m: Match) -> tuple[str | None, int, str | None]:
    board = m.state.games[0].boards[-1]
    return board.winner, board.points, board.law


# -- the queen -----------------------------------------------------------------


def test_law_92_queen_after_an_own_coin_is_pending_then_covered() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(Q))
    now = now_of(m)
    assert now.queen == "pending" and now.queen_by == "Bina" and now.turn == "Bina"
    m.push(st(B))
    now = now_of(m)
    assert now.queen == "covered" and now.queen_by == "Bina" and now.turn == "Bina"


def test_law_95_a_queen_before_any_own_coin_goes_back_and_the_turn_ends() -> None:
    m = singles()
    bina_to_play(m)
    m.push(st(Q))
    now = now_of(m)
    assert now.queen == "on_board" and now.on_board[Q] and now.turn == "Asha"


def test_law_95_b_queen_while_a_due_is_owed_goes_back_and_the_turn_ends() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(striker=True))  # the black goes back: 9 on the board, Bina has opened
    m.push(st())
    m.push(st(striker=True))  # now owed
    m.push(st())
    assert now_of(m).owed["Bina"] == 1
    m.push(st(Q))
    now = now_of(m)
    assert now.queen == "on_board" and now.turn == "Asha" and now.owed["Bina"] == 1


def test_law_95_c_after_dues_are_placed_all_nine_on_board_may_still_cover() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(striker=True))  # back to nine blacks
    m.push(st())
    m.push(st(Q))
    assert now_of(m).queen == "pending" and now_of(m).turn == "Bina"
    m.push(st(B))
    assert now_of(m).queen == "covered"


def test_law_95_d_queen_with_the_striker_on_the_break_costs_a_due() -> None:
    m = singles()
    m.push(st(Q, striker=True))
    now = now_of(m)
    assert now.queen == "on_board" and now.owed["Asha"] == 1 and now.turn == "Bina"


def test_law_96_an_uncovered_queen_goes_back_and_the_turn_ends() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(Q))
    m.push(st())
    now = now_of(m)
    assert now.queen == "on_board" and now.on_board[Q] and now.turn == "Asha"


def test_law_96_an_opponent_coin_does_not_cover() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(Q))
    m.push(st(W))
    now = now_of(m)
    assert now.queen == "on_board" and now.turn == "Asha" and now.on_board[W] == 8


def test_law_97_a_queen_and_own_coin_in_one_stroke_cover() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(Q, B))
    assert now_of(m).queen == "covered" and now_of(m).queen_by == "Bina"


def test_law_97_b_first_own_coin_with_the_queen_must_still_be_covered() -> None:
    m = singles()
    bina_to_play(m)
    m.push(st(Q, B))
    assert now_of(m).queen == "pending"
    m.push(st(B))
    assert now_of(m).queen == "covered"


def test_law_97_b_queen_with_two_own_coins_covers_at_once() -> None:
    m = singles()
    bina_to_play(m)
    m.push(st(Q, B, B))
    assert now_of(m).queen == "covered"


def test_law_98_a_queen_own_coin_and_striker_queen_and_two_coins_back() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(Q, B, striker=True))
    now = now_of(m)
    assert now.queen == "on_board" and now.on_board[B] == 8 and now.turn == "Bina"


def test_law_98_b_improper_queen_own_coin_and_striker_three_coins_back() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(Q, B, striker=True, improper=True))
    now = now_of(m)
    assert now.queen == "on_board" and now.on_board[B] == 9 and now.turn == "Asha"


def test_law_99_a_queen_and_striker_queen_and_one_coin_back_turn_goes_on() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(Q, striker=True))
    now = now_of(m)
    assert now.queen == "on_board" and now.on_board[B] == 8 and now.turn == "Bina"


def test_law_99_b_improper_queen_and_striker_queen_and_two_coins_back() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(Q, striker=True, improper=True))
    now = now_of(m)
    assert now.queen == "on_board" and now.on_board[B] == 9 and now.turn == "Asha"


def test_law_100_a_striker_while_covering_queen_and_one_coin_back_turn_ends() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(Q))
    m.push(st(striker=True))
    now = now_of(m)
    assert now.queen == "on_board" and now.on_board[B] == 8 and now.turn == "Asha"


def test_law_100_b_improper_striker_while_covering_queen_and_two_coins_back() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(Q))
    m.push(st(striker=True, improper=True))
    now = now_of(m)
    assert now.queen == "on_board" and now.on_board[B] == 9 and now.turn == "Asha"


def test_law_101_a_own_coin_and_striker_while_covering_cover_on_the_next_stroke() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(Q))
    m.push(st(B, striker=True))
    now = now_of(m)
    assert now.queen == "pending" and now.on_board[B] == 8 and now.turn == "Bina"
    m.push(st(B))
    assert now_of(m).queen == "covered"


def test_law_101_a_no_own_coin_on_the_next_stroke_returns_the_queen() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(Q))
    m.push(st(B, striker=True))
    m.push(st())
    assert now_of(m).queen == "on_board" and now_of(m).turn == "Asha"


def test_law_101_b_improper_while_covering_one_more_coin_and_the_queen_back() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(Q))
    m.push(st(B, striker=True, improper=True))
    now = now_of(m)
    assert now.queen == "on_board" and now.on_board[B] == 9 and now.turn == "Asha"


def test_law_64_a_foul_after_pocketing_the_queen_returns_it() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(Q))
    m.push(Foul())
    now = now_of(m)
    assert now.queen == "on_board" and now.turn == "Asha" and now.on_board[B] == 8


# -- the last-coin endings -------------------------------------------------------


def test_law_52_a_last_coin_after_the_queen_is_covered_wins() -> None:
    m = singles()
    position(m, 2, 4, queen_by="Asha")
    m.push(st(W, W))
    assert last_board(m) == ("Asha", 4 + 3, "52 a")
    assert m.state.games[0].boards[0].queen == "Asha"


@pytest.mark.parametrize(
    ("improper", "expected"), [(False, ("Asha", 3, "102 a")), (True, ("Bina", 4, "102 b"))]
)
def test_law_102_covering_with_both_last_coins(
    improper: bool, expected: tuple[str, int, str]
) -> None:
    m = singles()
    position(m, 1, 1)
    m.push(st(Q))
    m.push(st(W, B, improper=improper))
    assert last_board(m) == expected
    assert m.state.games[0].boards[0].queen == ("Asha" if not improper else None)


def test_law_102_a_at_22_points_only_one_point() -> None:
    m = asha_at_24()
    position(m, 1, 1)
    m.push(st(Q))
    m.push(st(W, B))
    assert last_board(m) == ("Asha", 1, "102 a")


@pytest.mark.parametrize(
    ("improper", "expected"), [(False, ("Bina", 4 + 3, "103 a")), (True, ("Bina", 8, "103 b"))]
)
def test_law_103_covering_with_the_opponents_last_coin(
    improper: bool, expected: tuple[str, int, str]
) -> None:
    m = singles()
    position(m, 4, 1)
    m.push(st(Q))
    m.push(st(B, improper=improper))  # Asha's four whites left and the queen
    assert last_board(m) == expected


def test_law_103_a_the_cover_pockets_an_own_coin_and_the_opponents_last_coin() -> None:
    # RULES.md 2026-11-27: the covering stroke pockets a white and Bina's last black: Bina
    # wins with Asha's coins left (7) and the queen's 3: 10, not 7; the queen is not Asha's.
    m = singles()
    position(m, 8, 1)
    m.push(st(Q))
    m.push(st(W, B))
    assert last_board(m) == ("Bina", 7 + 3, "103 a")
    assert m.state.games[0].boards[-1].queen is None


def test_law_103_a_the_covering_stroke_at_22_gives_the_coins_only() -> None:
    # 103 a, 54: at 22 or more the opponent gets only the coins' points.
    m = bina_at_24()
    position(m, 8, 1)
    m.push(st(Q))
    m.push(st(W, B))
    assert last_board(m) == ("Bina", 7, "103 a")


@pytest.mark.parametrize(
    ("improper", "expected"), [(False, ("Asha", 3, "104 a")), (True, ("Bina", 4, "104 b"))]
)
def test_law_104_queen_and_both_last_coins(improper: bool, expected: tuple[str, int, str]) -> None:
    m = singles()
    position(m, 1, 1)
    m.push(st(Q, W, B, improper=improper))
    assert last_board(m) == expected


@pytest.mark.parametrize(
    ("improper", "expected"), [(False, ("Bina", 3, "105 a")), (True, ("Bina", 4, "105 b"))]
)
def test_law_105_both_last_coins_with_the_queen_on_the_board(
    improper: bool, expected: tuple[str, int, str]
) -> None:
    m = singles()
    position(m, 1, 1)
    m.push(st(W, B, improper=improper))
    assert last_board(m) == expected


@pytest.mark.parametrize(
    ("improper", "expected"), [(False, ("Bina", 4 + 3, "106 a")), (True, ("Bina", 8, "106 b"))]
)
def test_law_106_opponents_last_coin_with_the_queen_on_the_board(
    improper: bool, expected: tuple[str, int, str]
) -> None:
    m = singles()
    position(m, 4, 1)
    m.push(st(B, improper=improper))
    assert last_board(m) == expected


def test_law_106_a_at_22_points_the_coins_only() -> None:
    m = bina_at_24()
    position(m, 4, 1)
    m.push(st(B))
    assert last_board(m) == ("Bina", 4, "106 a")


@pytest.mark.parametrize(
    ("improper", "expected"), [(False, ("Bina", 3, "107 a")), (True, ("Bina", 4, "107 b"))]
)
def test_law_107_own_last_coin_with_the_queen_on_the_board(
    improper: bool, expected: tuple[str, int, str]
) -> None:
    m = singles()
    position(m, 1, 5)
    m.push(st(W, improper=improper))
    assert last_board(m) == expected


def test_law_107_a_at_22_points_only_one_point() -> None:
    m = bina_at_24()
    position(m, 1, 5)
    m.push(st(W))
    assert last_board(m) == ("Bina", 1, "107 a")


@pytest.mark.parametrize(
    ("improper", "expected"), [(False, ("Bina", 4, "108 a")), (True, ("Bina", 5, "108 b"))]
)
def test_law_108_own_last_coin_and_striker_with_the_queen_on_the_board(
    improper: bool, expected: tuple[str, int, str]
) -> None:
    m = singles()
    position(m, 1, 5)
    m.push(st(W, striker=True, improper=improper))
    assert last_board(m) == expected


@pytest.mark.parametrize(
    ("improper", "expected"), [(False, ("Bina", 4, "109 a")), (True, ("Bina", 5, "109 b"))]
)
def test_law_109_striker_queen_and_both_last_coins(
    improper: bool, expected: tuple[str, int, str]
) -> None:
    m = singles()
    position(m, 1, 1)
    m.push(st(Q, W, B, striker=True, improper=improper))
    assert last_board(m) == expected


@pytest.mark.parametrize(
    ("improper", "expected"), [(False, ("Bina", 2, "110 a")), (True, ("Bina", 3, "110 b"))]
)
def test_law_110_both_last_coins_and_striker_after_covering(
    improper: bool, expected: tuple[str, int, str]
) -> None:
    m = singles()
    position(m, 1, 1, queen_by="Asha")
    m.push(st(W, B, striker=True, improper=improper))
    assert last_board(m) == expected


@pytest.mark.parametrize(
    ("improper", "expected"), [(False, ("Bina", 8, "111 a")), (True, ("Bina", 9, "111 b"))]
)
def test_law_111_opponents_last_coin_and_striker_with_the_queen_on_the_board(
    improper: bool, expected: tuple[str, int, str]
) -> None:
    m = singles()
    position(m, 4, 1)
    m.push(st(B, striker=True, improper=improper))
    assert last_board(m) == expected


def test_law_111_a_and_law_55_at_most_12() -> None:
    m = singles()
    position(m, 9, 1)
    m.push(st(B, striker=True))  # 9 + 3 + 1 = 13
    assert last_board(m) == ("Bina", 12, "111 a")


@pytest.mark.parametrize(
    ("improper", "expected"), [(False, ("Bina", 4, "112 a")), (True, ("Bina", 5, "112 b"))]
)
def test_law_112_both_last_coins_and_striker_after_the_opponent_covered(
    improper: bool, expected: tuple[str, int, str]
) -> None:
    m = singles()
    position(m, 1, 1, queen_by="Bina")
    m.push(st(W, B, striker=True, improper=improper))
    assert last_board(m) == expected
    assert m.state.games[0].boards[0].queen == "Bina"


def test_law_73_own_last_coin_and_striker_after_the_cover_goes_back() -> None:
    m = singles()
    position(m, 1, 3, queen_by="Asha")
    m.push(st(W, striker=True))
    now = now_of(m)
    assert now.on_board[W] == 2 and now.turn == "Asha" and not m.state.games[0].boards[0].winner


def test_law_102_doubles_the_covering_side_wins() -> None:
    m = Match(MatchStart("icf", ("Asha", "Bina", "Chitra", "Dev"), "Asha"))
    m.push(st(*[W] * 8))  # Asha
    m.push(st())
    m.push(st(*[B] * 8))  # Bina
    m.push(st())
    m.push(st(Q))  # Chitra, for Asha & Chitra
    m.push(st(W, B))
    board = m.state.games[0].boards[0]
    assert (board.winner, board.points, board.law) == ("Asha & Chitra", 3, "102 a")
    assert now_of(m).breaker == "Bina"


def test_law_97_b_all_nine_back_on_the_board_queen_and_one_coin_must_be_covered() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(striker=True))  # the black goes back: nine on the board again
    m.push(st())
    m.push(st(Q, B))
    assert now_of(m).queen == "pending" and now_of(m).turn == "Bina"


def test_law_95_d_all_nine_on_the_board_queen_and_striker_end_the_turn() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(striker=True))  # nine blacks on the board again
    m.push(st())
    m.push(st(Q, striker=True))
    now = now_of(m)
    assert now.queen == "on_board" and now.turn == "Asha" and now.owed["Bina"] == 1
