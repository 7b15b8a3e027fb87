"""Which turn timer runs after an event (kiosk/rules/carrom/timing.py), law by law, and the
core's own answer to whether the turn goes on at rest (push, look, pop)."""

from __future__ import annotations

from kiosk.rules.carrom import Match
from kiosk.rules.carrom.events import Event, Stroke, VoidBoard, Waive
from kiosk.rules.carrom.timing import TimerCall, timer_after, turn_goes_on

from .helpers import B, Q, W, bina_to_play, now_of, singles, st, to_turn_of, win_board


def call_after(m: Match, event: Event, **state: bool) -> TimerCall:
    before = m.state.now
    m.push(event)
    return timer_after(m, event, before, **state)


def board_but_last(m: Match, side: str) -> Stroke:
    """`side` covers the queen and pockets its coins but one stroke: the stroke that wins."""
    to_turn_of(m, side)
    own = now_of(m).colours[side]
    m.push(st(own))
    m.push(st(Q, own))
    return st(*[own] * int(now_of(m).on_board[own]))


def test_law_46_a_new_board_stops_the_count_until_play() -> None:
    m = singles()
    m.push(st())
    assert call_after(m, VoidBoard()) == "cancel"
    assert now_of(m).is_break


def test_law_50_dues_waived_start_the_next_stroke_count() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    m.push(st(striker=True, improper=True))
    assert call_after(m, Waive(by="Asha")) == "dues"


def test_law_61_a_change_of_sides_runs_two_minutes() -> None:
    m = singles()
    win_board(m, "Asha")
    win_board(m, "Asha")
    assert call_after(m, board_but_last(m, "Asha")) == "change_sides"
    assert m.state.change_sides


def test_law_88_a_dues_to_place_run_the_placing_count() -> None:
    m = singles()
    bina_to_play(m, blacks=1)
    assert call_after(m, st(striker=True)) == "placing"


def test_law_124_a_own_coin_in_counts_at_once() -> None:
    m = singles()
    m.push(st())
    m.push(st(B))  # Bina pockets her own coin: her turn goes on
    m.push(st(B))
    before = m.state.now
    m.push(st(B))
    assert timer_after(m, st(B), before) == "count"
    assert timer_after(m, st(B), before, counting=True) is None  # already counting


def test_law_124_b_the_next_count_waits_for_the_lift() -> None:
    m = singles()
    m.push(st())
    assert call_after(m, st()) == "await_lift"
    before = m.state.now
    m.push(st())
    assert timer_after(m, st(), before, awaiting_lift=True) is None


def test_law_138_ten_minutes_before_the_third_game() -> None:
    m = singles()
    while now_of(m).game == 1:
        win_board(m, "Asha")
    call: TimerCall = None
    while now_of(m).game == 2:
        call = call_after(m, board_but_last(m, "Bina"))
    assert call == "interval"


def test_law_124_a_turn_goes_on_is_the_cores_answer_and_leaves_the_match_as_it_was() -> None:
    m = singles()
    m.push(st())
    events, state = m.events, m.state
    assert turn_goes_on(m, st(B))  # Bina's own coin
    assert not turn_goes_on(m, st())  # nothing in (124 b)
    assert not turn_goes_on(m, st(W))  # only the opponent's coin
    assert not turn_goes_on(m, st(B, striker=True))  # a due to place first (law 88 a)
    assert m.events == events and m.state == state
