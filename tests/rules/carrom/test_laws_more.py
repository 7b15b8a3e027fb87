"""Laws 39, 47, 62, 79-82, 85, 90, 113, 114: what the record models of them.

Placing dues is physical; the umpire enters a foul while placing (82 a, 85,
114) or an early break (47) as a `foul` event, and laws 63/64 then apply. The
placer is `Now.placer` (79 b, 81, 90); declining to place is a `waive` (80).
"""

from __future__ import annotations

from kiosk.rules.carrom.events import Foul, Waive

from .helpers import B, Q, W, bina_to_play, doubles, now_of, singles, st


def test_law_39_the_break_goes_to_whom_the_toss_gives_it_and_seats_stay() -> None:
    # Doubles: the toss winners chose their places, so Dev's side breaks (39 b, c).
    m = doubles(first="Dev")
    now = now_of(m)
    assert now.breaker == "Dev" and now.turn == "Dev" and now.is_break
    assert now.white == "Bina & Dev"
    turns = []
    for _ in range(5):
        turns.append(now_of(m).turn)
        m.push(st())
    # The seats taken stay for the match (39 d): the turn keeps the record's seating.
    assert turns == ["Dev", "Asha", "Bina", "Chitra", "Dev"]


def test_law_47_a_break_before_play_is_entered_as_a_foul_and_the_break_is_replayed() -> None:
    # The umpire puts back what the early break pocketed and enters only the foul.
    m = singles()
    m.push(Foul())
    now = now_of(m)
    assert now.is_break and now.turn == "Asha" and now.breaker == "Asha"
    assert now.owed == {"Asha": 1, "Bina": 0}  # nothing pocketed yet: the penalty is owed
    assert any(call.law == "63 a" for call in m.state.calls)
    m.push(st(W))  # the proper break pockets a white: it pays the penalty at once
    now = now_of(m)
    assert not now.is_break and now.turn == "Asha"
    assert now.owed == {"Asha": 0, "Bina": 0} and now.on_board["white"] == 9
    assert now.placer == "Bina"


def test_law_62_a_foul_is_technical_before_the_first_stroke_and_a_foul_after() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(Foul())
    assert any(call.law == "63 a" for call in m.state.calls)
    assert now_of(m).turn == "Bina"
    m.pop()
    m.push(st(B))
    m.push(Foul())
    assert any(call.law == "64 a" for call in m.state.calls)
    assert now_of(m).turn == "Asha"


def test_law_79_b_doubles_only_the_entitled_opponent_places() -> None:
    m = doubles()
    m.push(st())  # Asha breaks
    m.push(st(B))  # Bina: one black in, her turn goes on
    m.push(st())  # Chitra is at turn
    m.push(Foul(by="Dev"))  # out of turn: Dev's side returns a black
    now = now_of(m)
    assert now.turn == "Chitra" and now.on_board["black"] == 9
    assert now.placer == "Asha"  # to Dev's right, not her partner Chitra at turn


def test_law_80_a_due_the_placer_declines_is_cancelled_for_good() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    m.push(st(striker=True))  # Bina's due, to be placed by Asha
    assert now_of(m).on_board["black"] == 8 and now_of(m).placer == "Asha"
    m.push(Waive(by="Asha"))  # Asha declines to place it
    now = now_of(m)
    assert now.on_board["black"] == 7 and now.owed == {"Asha": 0, "Bina": 0}
    m.push(st())  # Asha
    m.push(st(B))  # Bina's next coin stays pocketed: the right to place is gone
    now = now_of(m)
    assert now.on_board["black"] == 6 and now.placer is None


def test_law_81_the_entitled_player_places_the_due_at_once_in_his_turn() -> None:
    m = doubles()
    m.push(st())  # Asha breaks
    m.push(st(B))  # Bina: one black in
    m.push(st(striker=True))  # Bina's due: Chitra, next at turn, places it now
    now = now_of(m)
    assert now.turn == "Chitra" and now.placer == "Chitra"
    assert now.placing == {"Asha & Chitra": 0, "Bina & Dev": 1}
    assert now.owed == {"Asha & Chitra": 0, "Bina & Dev": 0} and now.on_board["black"] == 9


def test_law_82_a_placing_an_own_coin_by_mistake_is_a_foul_on_the_placer() -> None:
    m = doubles()
    m.push(st(W, W))  # Asha breaks: two whites in, her turn goes on
    m.push(st())
    m.push(st(B))  # Bina: one black in
    m.push(st(striker=True))  # Bina's due: Chitra places it
    assert now_of(m).placer == "Chitra"
    m.push(Foul(by="Chitra"))  # she put down a white; the umpire corrects it
    now = now_of(m)
    assert now.on_board == {"white": 8, "black": 9, "queen": True}
    assert now.turn == "Chitra" and now.strokes_in_turn == 0  # technical foul (63 a)
    assert now.placer == "Dev"


def test_law_85_placing_outside_the_outer_circle_is_a_foul_out_of_turn() -> None:
    m = singles()
    m.push(st(W, W))  # Asha breaks: 7 whites left, her turn goes on
    m.push(st())
    m.push(st(striker=True))  # Bina owes a due
    m.push(st())  # Asha
    m.push(st(B))  # Bina pockets one: Asha places it back now, Bina plays on
    assert now_of(m).placer == "Asha" and now_of(m).turn == "Bina"
    m.push(Foul(by="Asha"))  # Asha put it outside the outer circle
    now = now_of(m)
    assert now.on_board == {"white": 8, "black": 9, "queen": True}
    assert now.turn == "Bina" and now.strokes_in_turn == 1 and now.placer == "Bina"
    assert any(call.law == "63 b" for call in m.state.calls)


def test_law_90_doubles_the_one_who_pocketed_the_coin_places_not_his_partner() -> None:
    m = doubles()
    m.push(st())  # Asha breaks
    m.push(st(striker=True))  # Bina & Dev owe a due
    m.push(st(B))  # Chitra pockets a black: she places it herself
    now = now_of(m)
    assert now.owed == {"Asha & Chitra": 0, "Bina & Dev": 0} and now.on_board["black"] == 9
    assert now.placer == "Chitra" and now.turn == "Dev"


def test_law_113_a_hanging_queen_that_falls_on_a_stroke_counts_as_pocketed() -> None:
    m = singles()
    bina_to_play(m, blacks=2)
    # The queen hanging on a pocket falls as Bina pockets a black: the umpire enters both.
    m.push(st(B, Q))
    now = now_of(m)
    assert now.queen == "covered" and now.queen_by == "Bina" and now.on_board["queen"] is False
    assert now.turn == "Bina" and now.on_board["black"] == 6


def test_law_114_placing_a_due_to_set_up_the_queen_costs_the_placer_a_coin() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(striker=True))  # Bina's due: Asha places it, with no white pocketed
    m.push(Foul(by="Asha"))  # she set it up for a shot at the queen
    now = now_of(m)
    assert now.turn == "Asha" and now.owed == {"Asha": 1, "Bina": 0}
    m.push(st(W))  # her first white pays it at once; her turn goes on
    now = now_of(m)
    assert now.owed == {"Asha": 0, "Bina": 0} and now.on_board["white"] == 9
    assert now.turn == "Asha" and now.placer == "Bina"
