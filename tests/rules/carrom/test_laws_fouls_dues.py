"""Laws 62-91: technical fouls, fouls, coins off the board, dues and penalties, waiving."""

from __future__ import annotations

import pytest

from kiosk.rules.carrom import IllegalEvent, Match
from kiosk.rules.carrom.events import ForfeitBoard, Foul, MatchStart, Waive

from .helpers import B, Q, W, bina_to_play, now_of, off, singles, st


def test_law_63_a_technical_foul_before_the_first_stroke_turn_goes_on() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(Foul())
    now = now_of(m)
    assert now.turn == "Bina" and now.on_board["black"] == 8
    assert now.placing == {"Asha": 0, "Bina": 1} and now.placer == "Asha"
    assert any(call.law == "63 a" for call in m.state.calls)


def test_law_63_a_technical_foul_with_nothing_pocketed_is_owed() -> None:
    m = singles()
    bina_to_play(m)
    m.push(Foul(by="Bina"))
    now = now_of(m)
    assert now.turn == "Bina" and now.owed == {"Asha": 0, "Bina": 1}


def test_law_63_b_foul_out_of_turn_is_technical() -> None:
    m = singles()
    m.push(st(W))  # Asha: 8 whites, still at turn
    m.push(st())
    m.push(Foul(by="Asha"))  # Bina is at turn
    now = now_of(m)
    assert now.turn == "Bina" and now.on_board["white"] == 9
    assert now.placer == "Bina"


def test_law_64_a_foul_after_the_first_stroke_ends_the_turn() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(B))
    assert now_of(m).turn == "Bina"
    m.push(Foul())
    now = now_of(m)
    assert now.turn == "Asha" and now.on_board["black"] == 8


def test_law_64_b_improper_stroke_returns_the_coins_pocketed_and_one_more() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(B, improper=True))
    now = now_of(m)
    assert now.turn == "Asha"
    assert now.on_board["black"] == 8  # 7 - 1 + the pocketed one + one penalty coin
    assert now.placing["Bina"] == 2


def test_law_65_coins_off_the_board_go_back_to_the_centre() -> None:
    m = singles()
    bina_to_play(m)
    m.push(off(B, W, Q))
    now = now_of(m)
    assert now.on_board == {"white": 9, "black": 9, "queen": True}
    assert now.turn == "Asha" and now.owed == {"Asha": 0, "Bina": 0}


def test_law_66_an_own_coin_pocketed_while_another_jumps_off_keeps_the_turn() -> None:
    m = singles()
    bina_to_play(m)
    m.push(off(W, pocketed=(B,)))
    now = now_of(m)
    assert now.turn == "Bina" and now.on_board == {"white": 9, "black": 8, "queen": True}


def test_law_65_more_coins_off_than_on_the_board_is_refused() -> None:
    m = singles()
    m.push(st(*[W] * 8))
    with pytest.raises(IllegalEvent, match="only 1 white"):
        m.push(off(W, pocketed=(W,)))
    assert now_of(m).on_board["white"] == 1


def test_law_72_a_striker_pocketed_one_due_and_the_turn_ends() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(striker=True))
    now = now_of(m)
    assert now.turn == "Asha" and now.on_board["black"] == 8
    assert now.placing == {"Asha": 0, "Bina": 1} and now.placer == "Asha"


def test_law_72_c_a_due_before_any_coin_is_pocketed_is_owed() -> None:
    m = singles()
    bina_to_play(m)
    m.push(st(striker=True))
    now = now_of(m)
    assert now.owed == {"Asha": 0, "Bina": 1} and now.on_board["black"] == 9


def test_law_73_striker_with_own_coin_turn_goes_on() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(B, striker=True))
    now = now_of(m)
    assert now.turn == "Bina"
    assert now.on_board["black"] == 8  # 7 - 1 + the coin + one due
    assert now.placing["Bina"] == 2


def test_law_74_striker_with_opponent_coin_ends_the_turn_and_the_coin_counts() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(W, striker=True))
    now = now_of(m)
    assert now.turn == "Asha"
    assert now.on_board == {"white": 8, "black": 9, "queen": True}


def test_law_75_striker_with_own_and_opponent_coins_turn_goes_on() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(B, W, striker=True))
    now = now_of(m)
    assert now.turn == "Bina"
    assert now.on_board == {"white": 8, "black": 9, "queen": True}


def test_law_76_opponent_coin_pocketed_by_an_improper_stroke_counts_plus_a_penalty() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(W, improper=True))
    now = now_of(m)
    assert now.turn == "Asha"
    assert now.on_board == {"white": 8, "black": 9, "queen": True}


def test_law_77_a_improper_stroke_with_the_striker_costs_a_due_and_a_penalty() -> None:
    m = singles()
    bina_to_play(m, blacks=3)
    m.push(st(striker=True, improper=True))
    now = now_of(m)
    assert now.turn == "Asha" and now.on_board["black"] == 8


def test_law_77_b_improper_stroke_own_coin_and_striker_three_coins_back() -> None:
    m = singles()
    bina_to_play(m, blacks=3)
    m.push(st(B, striker=True, improper=True))
    now = now_of(m)
    assert now.turn == "Asha" and now.on_board["black"] == 8  # 6 - 1 + 3
    assert now.placing["Bina"] == 3


def test_law_78_a_owed_due_returned_as_soon_as_a_coin_is_pocketed() -> None:
    m = singles()
    bina_to_play(m)
    m.push(st(striker=True))  # Bina owes one
    m.push(st())  # Asha
    m.push(st(B))  # Bina pockets one: it goes back at once, her turn goes on
    now = now_of(m)
    assert now.turn == "Bina" and now.owed["Bina"] == 0
    assert now.on_board["black"] == 9 and now.placer == "Asha"


def test_law_78_b_the_opponent_who_pockets_the_offenders_coin_places_the_due() -> None:
    m = singles()
    bina_to_play(m)
    m.push(st(striker=True))  # Bina owes one
    m.push(st(B))  # Asha pockets Bina's coin: Asha places it back herself
    now = now_of(m)
    assert now.owed["Bina"] == 0 and now.on_board["black"] == 9
    assert now.placer == "Asha" and now.turn == "Bina"


def test_law_78_b_i_doubles_the_opponent_to_the_offenders_right_places_in_his_turn() -> None:
    m = Match(MatchStart("icf", ("Asha", "Bina", "Chitra", "Dev"), "Asha"))
    m.push(st())  # Asha breaks
    m.push(st(striker=True))  # Bina: Bina & Dev owe one
    m.push(st())  # Chitra
    m.push(st(B))  # Dev pockets a black: still owed while Dev's turn goes on
    now = now_of(m)
    assert now.owed == {"Asha & Chitra": 0, "Bina & Dev": 1}
    assert now.placer is None and now.turn == "Dev" and now.on_board[B] == 8
    m.push(st())  # Dev's turn ends: Asha, to his right, places it as her turn starts
    now = now_of(m)
    assert now.owed == {"Asha & Chitra": 0, "Bina & Dev": 0}
    assert now.placer == "Asha" and now.turn == "Asha" and now.on_board[B] == 9
    assert any(call.law == "78 b i" for call in m.state.calls)


def test_law_83_what_cannot_be_returned_yet_stays_owed() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(striker=True, improper=True))
    now = now_of(m)
    assert now.on_board["black"] == 9 and now.owed["Bina"] == 1


def test_law_87_a_waiving_cancels_the_coins_to_place_and_the_owed_ones() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(striker=True, improper=True))  # one back, one owed
    m.push(Waive(by="Asha"))
    now = now_of(m)
    assert now.on_board["black"] == 8 and now.owed["Bina"] == 0
    assert any(call.law == "87 a" for call in m.state.calls)


def test_law_87_a_waive_defaults_to_the_side_with_something_to_waive() -> None:
    m = singles()
    bina_to_play(m)
    m.push(st(striker=True))
    m.push(Waive())
    assert now_of(m).owed == {"Asha": 0, "Bina": 0}


def test_law_87_a_nothing_to_waive_is_refused() -> None:
    m = singles()
    bina_to_play(m)
    with pytest.raises(IllegalEvent, match="nothing to waive"):
        m.push(Waive(by="Asha"))


def test_law_89_a_dues_of_the_two_sides_do_not_cancel() -> None:
    m = singles()
    m.push(st())
    m.push(st(striker=True))  # Bina owes
    m.push(st(striker=True))  # Asha owes
    assert now_of(m).owed == {"Asha": 1, "Bina": 1}


def test_law_86_a_foul_while_placing_a_due_costs_the_placer_a_coin() -> None:
    m = singles()
    m.push(st(W, W))  # Asha: 7 whites, at turn
    m.push(st())
    m.push(st(B))  # Bina: one black in
    m.push(st(striker=True))  # Bina's due: Asha places it
    assert now_of(m).placer == "Asha" and now_of(m).turn == "Asha"
    m.push(Foul(by="Asha"))  # Asha disturbs a coin while placing (laws 86, 114): before her stroke
    now = now_of(m)
    assert now.turn == "Asha" and now.on_board["white"] == 8


def test_law_116_striker_off_the_board_after_an_own_coin_turn_goes_on() -> None:
    m = singles()
    bina_to_play(m)
    m.push(off("striker", pocketed=(B,)))
    now = now_of(m)
    assert now.turn == "Bina" and now.owed == {"Asha": 0, "Bina": 0}


def test_law_121_forfeit_with_the_queen_waiting_for_its_cover_gives_the_queen() -> None:
    m = singles()
    bina_to_play(m, blacks=3)
    m.push(st(Q))  # Bina's queen waits for its cover
    m.push(ForfeitBoard(by="Bina"))
    board = m.state.games[0].boards[0]
    assert (board.winner, board.points, board.queen) == ("Asha", 6 + 3, None)
