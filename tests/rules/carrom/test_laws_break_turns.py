"""Laws 39-51: the toss, the break, turns, break alternation, forfeiting a board."""

from __future__ import annotations

import pytest

from kiosk.rules.carrom import IllegalEvent, Match
from kiosk.rules.carrom.events import ForfeitBoard, Foul, Pass

from .helpers import B, Q, W, doubles, singles, st, win_board


def win_board_for_turn_side(m: Match) -> None:
    now = m.state.now
    assert now is not None
    win_board(m, now.turn_side)


def test_law_42_the_toss_winner_breaks_the_first_board() -> None:
    m = singles(first="Bina")
    assert m.state.now is not None
    assert m.state.now.breaker == "Bina" and m.state.now.turn == "Bina"
    assert m.state.now.is_break


def test_law_43_the_breaker_plays_white() -> None:
    m = singles(first="Bina")
    now = m.state.now
    assert now is not None
    assert now.white == "Bina" and now.black == "Asha"
    assert now.colours == {"Asha": "black", "Bina": "white"}
    assert now.on_board == {"white": 9, "black": 9, "queen": True}


def test_law_44_touching_a_coin_completes_the_break() -> None:
    m = singles()
    m.push(st())
    now = m.state.now
    assert now is not None
    assert not now.is_break and now.turn == "Bina" and now.break_attempts == 0


def test_law_45_a_a_break_touching_nothing_uses_an_attempt() -> None:
    m = singles()
    m.push(st(touched=False))
    m.push(st(touched=False))
    now = m.state.now
    assert now is not None
    assert now.is_break and now.turn == "Asha" and now.break_attempts == 2


def test_law_45_b_three_failed_breaks_pass_the_turn_and_colours_stay() -> None:
    m = singles()
    for _ in range(3):
        m.push(st(touched=False))
    now = m.state.now
    assert now is not None
    # Definition 6, 45 a: Bina's first stroke is the break of the same arrangement.
    assert now.turn == "Bina" and now.is_break
    assert now.white == "Asha" and now.breaker == "Asha" and now.colours["Bina"] == "black"
    assert now.owed == {"Asha": 0, "Bina": 0}
    assert now.break_attempts == 3 and now.break_attempts_in_turn == 0


def test_law_45_a_after_a_foul_during_the_break_the_next_player_has_three_attempts() -> None:
    # RULES.md 2026-11-27: Asha's break touches nothing, a foul ends her turn (64 a); Bina's
    # first stroke is the break and the three attempts are her own: the count starts again.
    m = singles()
    m.push(st(touched=False))
    m.push(Foul())
    now = m.state.now
    assert now is not None and now.turn == "Bina" and now.is_break
    assert now.break_attempts == 1 and now.break_attempts_in_turn == 0
    m.push(st(touched=False))
    m.push(st(touched=False))
    now = m.state.now
    assert now is not None and now.turn == "Bina" and now.is_break  # a third is still hers
    assert now.break_attempts_in_turn == 2 and now.break_attempts == 3
    assert [c.english() for c in m.state.calls] == ["the break touched no coin (attempt 2)"]
    m.push(st(touched=False))
    now = m.state.now
    assert now is not None and now.turn == "Asha" and now.is_break  # 45 b: back to Asha


def test_law_45_c_striker_pocketed_on_the_break_ends_the_turn_without_a_due() -> None:
    m = singles()
    m.push(st(W, striker=True))
    now = m.state.now
    assert now is not None
    assert now.turn == "Bina"
    assert now.owed == {"Asha": 0, "Bina": 0}
    assert now.on_board["white"] == 8  # the white stays pocketed


def test_law_45_c_improper_break_ends_the_turn_without_a_penalty() -> None:
    m = singles()
    m.push(st(B, improper=True))
    now = m.state.now
    assert now is not None
    assert now.turn == "Bina" and now.owed == {"Asha": 0, "Bina": 0}
    assert now.on_board["black"] == 8


def test_law_45_break_that_touched_nothing_cannot_pocket() -> None:
    m = singles()
    with pytest.raises(IllegalEvent, match="law 44"):
        m.push(st(W, touched=False))
    assert m.state.now is not None and m.state.now.break_attempts == 0


def test_law_46_the_break_cannot_be_passed() -> None:
    m = singles()
    with pytest.raises(IllegalEvent, match="break cannot be passed"):
        m.push(Pass())


def test_law_48_turn_goes_on_while_own_coins_are_pocketed() -> None:
    m = singles()
    m.push(st(W))
    assert m.state.now is not None and m.state.now.turn == "Asha"
    m.push(st(W, W))
    assert m.state.now is not None and m.state.now.turn == "Asha"
    m.push(st())
    assert m.state.now is not None and m.state.now.turn == "Bina"
    assert m.state.now.pocketed == {"Asha": 3, "Bina": 0}


def test_law_48_opponent_coin_alone_ends_the_turn() -> None:
    m = singles()
    m.push(st(B))
    now = m.state.now
    assert now is not None
    assert now.turn == "Bina" and now.pocketed == {"Asha": 0, "Bina": 1}


def test_law_48_doubles_turn_passes_to_the_right() -> None:
    m = doubles()
    turns = []
    for _ in range(5):
        assert m.state.now is not None
        turns.append(m.state.now.turn)
        m.push(st())
    assert turns == ["Asha", "Bina", "Chitra", "Dev", "Asha"]
    assert m.state.sides == ("Asha & Chitra", "Bina & Dev")
    assert m.state.now is not None and m.state.now.turn_side == "Bina & Dev"


def test_law_49_singles_break_alternates_between_boards() -> None:
    m = singles()
    breakers = []
    for _ in range(4):
        assert m.state.now is not None
        breakers.append(m.state.now.breaker)
        win_board_for_turn_side(m)
    assert breakers == ["Asha", "Bina", "Asha", "Bina"]
    # The breaker's side plays white each board (law 43).
    assert m.state.now is not None and m.state.now.white == "Asha"


def _finish_game(m: Match, side: str) -> None:
    game = m.state.now.game if m.state.now else 0
    while m.state.now is not None and m.state.now.game == game:
        win_board(m, side)


def test_law_49_singles_second_game_broken_by_the_other_player_third_by_the_first() -> None:
    m = singles()
    _finish_game(m, "Asha")
    assert m.state.now is not None
    assert m.state.now.game == 2 and m.state.now.breaker == "Bina"
    _finish_game(m, "Bina")
    assert m.state.now is not None
    assert m.state.now.game == 3 and m.state.now.breaker == "Asha"


def test_law_49_doubles_break_passes_to_the_right_each_board_and_game() -> None:
    m = doubles(first="Bina")
    breakers = []
    for _ in range(5):
        assert m.state.now is not None
        breakers.append(m.state.now.breaker)
        win_board(m, "Asha & Chitra", opp_left=1)  # 4 points a board
    assert m.state.games[0].points == {"Asha & Chitra": 20, "Bina & Dev": 0}
    assert breakers == ["Bina", "Chitra", "Dev", "Asha", "Bina"]
    _finish_game(m, "Asha & Chitra")
    assert m.state.now is not None and m.state.now.game == 2
    assert m.state.now.breaker == "Chitra"  # to the right of game 1's first breaker
    _finish_game(m, "Bina & Dev")
    assert m.state.now is not None
    assert m.state.now.game == 3 and m.state.now.breaker == "Bina"


def test_law_51_striking_out_of_turn_forfeits_the_board_with_queen_and_own_coins() -> None:
    m = singles()
    m.push(st(W, W))  # Asha: 7 whites left
    m.push(ForfeitBoard(by="Asha"))
    board = m.state.games[0].boards[0]
    assert board.winner == "Bina" and board.points == 7 + 3
    assert m.outcome().board is not None and m.outcome().board.law == "51"  # type: ignore[union-attr]


def test_law_91_leaving_the_seat_no_queen_points_at_22() -> None:
    m = singles()
    win_board(m, "Bina")
    win_board(m, "Bina")
    assert m.state.games[0].points["Bina"] == 24
    m.push(st(W, W))  # Asha, breaking board 3, leaves 7 whites
    m.push(ForfeitBoard(by="Asha"))
    board = m.state.games[0].boards[-1]
    assert board.winner == "Bina" and board.points == 7  # no queen at 22 or more (law 91)


def test_law_126_forfeit_when_the_loser_covered_the_queen_gives_no_queen_points() -> None:
    m = singles()
    m.push(st(W))
    m.push(st(Q, W))  # covered by Asha (law 97 a)
    m.push(ForfeitBoard(by="Asha"))
    board = m.state.games[0].boards[0]
    assert board.winner == "Bina" and board.points == 7 and board.queen == "Asha"
