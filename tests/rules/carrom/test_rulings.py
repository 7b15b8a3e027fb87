"""The points the laws leave open, as shared/RULES.md rules them (2026-11-23).

Three corrections: the break after three failed breaks passes to the next
player (definition 6, 45 a-b); owed dues in doubles wait for the right-hand
opponent's turn (78 b i) and club penalties for the end of the turn (IV iii);
the change of sides (58-61) is shown in `--json` and on the scoresheet.
"""

from __future__ import annotations

import pytest

from kiosk.rules.carrom import IllegalEvent, Match
from kiosk.rules.carrom.events import Foul, MatchStart, Pass
from kiosk.rules.carrom.record import match_to_json
from kiosk.rules.carrom.scoresheet import render

from .helpers import B, Q, W, doubles, now_of, singles, st, win_board


def three_misses(m: Match) -> None:
    for _ in range(3):
        m.push(st(touched=False))


# -- the break after three failed breaks (definition 6, 45 a-c, 49) ---------------------


def test_law_45_a_the_next_player_has_three_attempts_to_break() -> None:
    m = singles()
    three_misses(m)
    m.push(st(touched=False))
    now = now_of(m)
    assert now.turn == "Bina" and now.is_break
    assert now.break_attempts == 4 and now.break_attempts_in_turn == 1
    m.push(st(touched=False))
    assert now_of(m).turn == "Bina"
    m.push(st(touched=False))  # her third: the break passes back the same way (45 b)
    now = now_of(m)
    assert now.turn == "Asha" and now.is_break and now.break_attempts_in_turn == 0
    assert now.breaker == "Asha" and now.white == "Asha"


def test_law_45_b_doubles_the_break_passes_to_the_right_after_each_three_misses() -> None:
    m = doubles()
    three_misses(m)
    assert now_of(m).turn == "Bina" and now_of(m).is_break
    three_misses(m)
    now = now_of(m)
    assert now.turn == "Chitra" and now.is_break and now.break_attempts == 6
    assert now.breaker == "Asha" and now.white == "Asha & Chitra"


def test_law_45_a_the_next_players_break_touching_nothing_cannot_pocket() -> None:
    m = singles()
    three_misses(m)
    with pytest.raises(IllegalEvent, match="law 44"):
        m.push(st(B, touched=False))


def test_law_46_the_next_players_break_cannot_be_passed() -> None:
    m = singles()
    three_misses(m)
    with pytest.raises(IllegalEvent, match="law 46"):
        m.push(Pass())


def test_law_45_c_striker_on_the_next_players_break_ends_the_turn_without_a_due() -> None:
    m = singles()
    three_misses(m)
    m.push(st(B, striker=True))
    now = now_of(m)
    assert now.turn == "Asha" and not now.is_break
    assert now.owed == {"Asha": 0, "Bina": 0} and now.placer is None
    assert now.on_board[B] == 8  # the improper break keeps the coins it pocketed
    assert any(call.law == "45 c" for call in m.state.calls)


def test_law_45_c_improper_break_by_the_next_player_costs_no_penalty() -> None:
    m = singles()
    three_misses(m)
    m.push(st(W, B, improper=True))
    now = now_of(m)
    assert now.turn == "Asha" and now.owed == {"Asha": 0, "Bina": 0}
    # The white counts for Asha (74, 76), the black stays pocketed.
    assert now.on_board == {"white": 8, "black": 8, "queen": True}


def test_law_45_c_a_proper_break_by_the_next_player_plays_on_as_any_stroke() -> None:
    m = singles()
    three_misses(m)
    m.push(st(B))
    now = now_of(m)
    assert now.turn == "Bina" and not now.is_break and now.strokes_in_turn == 1


def test_law_95_d_queen_with_the_striker_on_the_next_players_break_costs_a_due() -> None:
    m = singles()
    three_misses(m)
    m.push(st(Q, striker=True))
    now = now_of(m)
    assert now.queen == "on_board" and now.owed["Bina"] == 1 and now.turn == "Asha"


def test_law_97_b_queen_and_one_coin_on_the_next_players_break_must_be_covered() -> None:
    m = singles()
    three_misses(m)
    m.push(st(Q, B))
    now = now_of(m)
    assert now.queen == "pending" and now.queen_by == "Bina" and now.turn == "Bina"


def test_law_49_the_board_breaker_and_white_stay_with_the_player_entitled_to_break() -> None:
    m = singles()
    three_misses(m)
    m.push(st(B))  # Bina breaks the board Asha was entitled to break
    now = now_of(m)
    assert now.breaker == "Asha" and now.white == "Asha" and now.colours["Bina"] == "black"
    win_board(m, "Bina")
    board = m.state.games[0].boards[0]
    assert board.breaker == "Asha" and board.winner == "Bina"
    assert now_of(m).breaker == "Bina"  # the next board alternates from Asha (49 a)


# -- owed dues in doubles (78 b i, 78 b ii) and under club rules (IV iii) --------------


def bina_and_dev_owe(m: Match) -> None:
    """Doubles: Asha breaks, Bina pockets the striker with nothing to give: owed; Chitra."""
    m.push(st())
    m.push(st(striker=True))
    m.push(st())
    assert now_of(m).owed["Bina & Dev"] == 1 and now_of(m).turn == "Dev"


def test_law_78_b_i_owed_due_placed_at_the_start_of_the_right_hand_opponents_turn() -> None:
    m = doubles()
    bina_and_dev_owe(m)
    m.push(st(B, B))
    now = now_of(m)
    assert now.turn == "Dev" and now.owed["Bina & Dev"] == 1 and now.on_board[B] == 7
    m.push(st(B))
    assert now_of(m).owed["Bina & Dev"] == 1
    m.push(st())  # Dev's turn ends: Asha places the owed coin as her turn starts
    now = now_of(m)
    assert now.turn == "Asha" and now.placer == "Asha" and now.placing["Bina & Dev"] == 1
    assert now.owed["Bina & Dev"] == 0 and now.on_board[B] == 7


def test_law_78_b_i_queen_pocketed_while_the_due_waits_goes_back_under_95_b() -> None:
    m = doubles()
    bina_and_dev_owe(m)
    m.push(st(B))  # the coin is there, but the due is still owed until Asha's turn
    m.push(st(Q, B))  # 95 b even with an own coin: queen back, the turn ends
    now = now_of(m)
    assert now.queen == "on_board" and now.on_board[Q]
    assert now.turn == "Asha" and now.owed["Bina & Dev"] == 0 and now.placer == "Asha"
    assert now.on_board[B] == 8  # two pocketed, one placed back
    assert any(call.law == "95 b" for call in m.state.calls)


def test_law_78_b_i_owed_side_has_not_pocketed_its_last_coin_while_the_due_waits() -> None:
    m = doubles()
    bina_and_dev_owe(m)
    m.push(st(*[B] * 8))
    m.push(st(B))  # the ninth black while the due is owed: no ending (78 a, 83)
    now = now_of(m)
    assert m.outcome().board is None and now.on_board[B] == 0 and now.turn == "Dev"
    m.push(st())
    assert now_of(m).on_board[B] == 1 and now_of(m).owed["Bina & Dev"] == 0


def test_law_78_b_ii_doubles_the_opponent_who_pockets_the_debtors_coin_places_it_at_once() -> None:
    m = doubles()
    bina_and_dev_owe(m)
    m.push(st())  # Dev
    m.push(st(B))  # Asha pockets a black: she places it back herself, at once
    now = now_of(m)
    assert now.owed["Bina & Dev"] == 0 and now.on_board[B] == 9 and now.placer == "Asha"


def test_law_78_a_singles_owed_due_still_returned_right_after_the_stroke() -> None:
    m = singles()
    m.push(st())
    m.push(st(striker=True))  # Bina owes one
    m.push(st())
    m.push(st(B))
    now = now_of(m)
    assert now.turn == "Bina" and now.owed["Bina"] == 0 and now.placer == "Asha"


def test_club_iv_iii_owed_penalty_returned_at_the_end_of_the_offenders_turn() -> None:
    m = singles(rules="club")
    m.push(st())  # Asha breaks
    m.push(st(striker=True))  # Bina: a foul with nothing pocketed: the penalty is owed
    m.push(st())  # Asha
    m.push(st(B))
    now = now_of(m)
    assert now.turn == "Bina" and now.owed["Bina"] == 1 and now.on_board[B] == 8
    m.push(st(B, B))
    assert now_of(m).owed["Bina"] == 1 and now_of(m).on_board[B] == 6
    m.push(st())  # the turn ends: the opponent returns one piece
    now = now_of(m)
    assert now.turn == "Asha" and now.owed["Bina"] == 0 and now.on_board[B] == 7
    assert now.placer == "Asha"
    assert any(call.law == "club IV iii" for call in m.state.calls)


def test_club_iv_iii_a_foul_ending_the_turn_returns_the_owed_penalty_too() -> None:
    m = singles(rules="club")
    m.push(st())
    m.push(st(striker=True))  # Bina owes one
    m.push(st())
    m.push(st(B))
    m.push(st(B, striker=True))  # a foul: one more penalty; the turn ends, both go back
    now = now_of(m)
    assert now.turn == "Asha" and now.owed["Bina"] == 0 and now.on_board[B] == 9


def test_club_iv_iii_doubles_the_penalty_waits_for_the_end_of_the_turn() -> None:
    m = doubles(rules="club")
    m.push(st())
    m.push(Foul(by="Bina"))  # at turn: a foul, the penalty owed, the turn ends (IV i)
    m.push(st())  # Chitra
    m.push(st(B))  # Dev pockets a black
    assert now_of(m).owed["Bina & Dev"] == 1
    m.push(st())
    now = now_of(m)
    assert now.owed["Bina & Dev"] == 0 and now.turn == "Asha" and now.placer == "Asha"


# -- the change of sides (58-61) ---------------------------------------------------------


def game_won_by(m: Match, side: str) -> None:
    game = now_of(m).game
    while m.state.now is not None and m.state.now.game == game:
        win_board(m, side)


def test_law_58_change_sides_is_due_after_a_game_until_the_next_board_begins() -> None:
    m = singles()
    game_won_by(m, "Asha")
    data = match_to_json(m)
    assert data["now"]["change_sides"] is True and data["now"]["game"] == 2
    assert data["games"][0]["boards"][-1]["change_sides"] == "58"
    assert all(b["change_sides"] is None for b in data["games"][0]["boards"][:-1])
    assert m.state.change_sides and m.state.change_sides_law == "58"
    m.push(st())  # the first event of game 2's first board: the change is over
    assert not match_to_json(m)["now"]["change_sides"]
    m.pop()  # undo brings it back
    assert match_to_json(m)["now"]["change_sides"] is True


def test_law_58_a_foul_before_the_break_begins_the_board_and_ends_the_change() -> None:
    m = singles()
    game_won_by(m, "Asha")
    m.push(Foul())
    assert not now_of(m).change_sides and not m.state.change_sides


def test_law_58_the_scoresheet_prints_the_change_after_the_game() -> None:
    m = singles()
    game_won_by(m, "Asha")
    text = render(match_to_json(m))
    assert "change sides (law 58)" in text
    game_block = text.split("Now:")[0]  # game 2 has no board begun yet
    assert game_block.rstrip().endswith("change sides (law 58)")
    assert "Now: game 2, board 1" in text and "2 minutes (law 61)" in text


def test_law_58_no_change_after_the_game_that_wins_the_match() -> None:
    m = singles()
    game_won_by(m, "Asha")
    game_won_by(m, "Asha")
    data = match_to_json(m)
    assert data["winner"] == "Asha" and data["now"] is None
    assert data["games"][0]["boards"][-1]["change_sides"] == "58"
    assert data["games"][1]["boards"][-1]["change_sides"] is None
    assert not m.state.change_sides
    assert render(data).count("change sides (law 58)") == 1


def test_law_59_doubles_each_player_takes_the_seat_to_his_right() -> None:
    m = doubles()
    game_won_by(m, "Bina & Dev")
    data = match_to_json(m)
    assert data["now"]["change_sides"] is True
    assert data["games"][0]["boards"][-1]["change_sides"] == "59"
    assert "change sides (law 58), each player to the seat on his right (law 59)" in render(data)


def test_law_60_a_the_third_game_change_is_due_before_the_fifth_board() -> None:
    m = singles()
    game_won_by(m, "Asha")
    game_won_by(m, "Bina")
    for side in ("Asha", "Bina", "Asha"):
        win_board(m, side, opp_left=1)
        assert not now_of(m).change_sides
    win_board(m, "Bina", opp_left=1)
    data = match_to_json(m)
    assert data["now"]["change_sides"] is True and data["now"]["board"] == 5
    assert data["games"][2]["boards"][3]["change_sides"] == "60 a"
    text = render(data)
    assert "change sides (law 58) in the third game at 4 boards or 13 points (law 60 a)" in text
    win_board(m, "Asha", opp_left=1)
    assert not now_of(m).change_sides


def test_law_60_b_from_the_quarter_final_the_change_waits_for_13_points() -> None:
    m = singles(limit=None)
    game_won_by(m, "Asha")
    game_won_by(m, "Bina")
    win_board(m, "Asha")  # 12 points
    assert not now_of(m).change_sides
    win_board(m, "Bina", opp_left=1)
    win_board(m, "Asha", opp_left=1)  # 13 points
    data = match_to_json(m)
    assert data["now"]["change_sides"] is True
    assert data["games"][2]["boards"][-1]["change_sides"] == "60 b"


def test_law_60_the_third_games_change_is_made_once() -> None:
    m = singles()
    game_won_by(m, "Asha")
    game_won_by(m, "Bina")
    marks = []
    for side in ("Asha", "Bina") * 3:
        win_board(m, side, opp_left=1)
        marks.append(now_of(m).change_sides)
    assert marks == [False, False, False, True, False, False]


def test_law_61_the_state_names_the_law_for_the_screens() -> None:
    m = MatchStart("icf", ("Asha", "Bina"), "Asha")
    match = Match(m)
    assert match.state.change_sides_law is None and not match.state.change_sides
    game_won_by(match, "Bina")
    assert match.state.change_sides_law == "58"


def test_law_58_the_change_needs_no_event_and_changes_neither_score_nor_turn_order() -> None:
    m = singles()
    game_won_by(m, "Asha")
    events = len(m.events)
    now = now_of(m)
    assert now.change_sides and len(m.events) == events
    # Law 49: game 2 is broken first by Bina; the scores are the games' own.
    assert now.breaker == now.turn == "Bina" and m.state.score == {"Asha": 0, "Bina": 0}
    assert m.state.games_won == {"Asha": 1, "Bina": 0}
