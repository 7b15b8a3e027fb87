"""The backgammon match's and the match clock's refusals as facts: a code, the rule as the
Greek tournament rules number it, the facts, and the same English words as before (the
clock replay's refusals and the records keep them)."""

from __future__ import annotations

import pytest

from kiosk.clocks.countdown import ClockError
from kiosk.clocks.match_clock import MatchClock
from kiosk.rules.backgammon.match import IllegalAction, Match

A, B = "Anna", "Βασίλης"


def test_rule_2_2_ii_breaks_only_between_games_reason() -> None:
    m = Match((A, B), 7)
    m.start_game()
    with pytest.raises(IllegalAction) as caught:
        m.take_break(A)
    reason = caught.value.reason
    assert reason is not None and (reason.code, reason.law) == ("break_in_game", "2.2 (ii)")
    assert str(caught.value) == "breaks are taken only between games (2.2 (ii))"


def test_rule_2_2_ii_no_break_left_names_the_match_and_the_emergency_rule() -> None:
    m = Match((A, B), 5, {A: 1})  # none up to 5 points; a game played
    with pytest.raises(IllegalAction) as caught:
        m.take_break(A)
    reason = caught.value.reason
    assert reason is not None and reason.code == "no_break_left"
    assert reason.values() == {
        "player": A,
        "due": 0,
        "length": 5,
        "emergency": "2.2 (v)",
        "law": "2.2 (ii)",
    }
    assert str(caught.value) == (
        f"{A} has no break left: 0 in a 5-point match (2.2 (ii)); only an emergency break (2.2 (v))"
    )


def test_rule_4_4_no_double_to_answer_and_a_player_unknown() -> None:
    m = Match((A, B), 7)
    m.start_game()
    with pytest.raises(IllegalAction) as caught:
        m.take(B)
    assert caught.value.reason is not None and caught.value.reason.code == "no_double"
    with pytest.raises(IllegalAction) as caught:
        m.take_break("Zed")
    assert str(caught.value) == f"unknown player 'Zed' (players: {A}, {B})"


def test_rule_4_3_ii_pause_of_a_stopped_clock_reason() -> None:
    clock = MatchClock((A, B), {A: 60.0, B: 60.0})
    with pytest.raises(ClockError) as caught:
        clock.pause(0.0)
    assert caught.value.reason is not None and caught.value.reason.code == "pause_stopped"
    assert str(caught.value) == "pause while the clock is stopped"
    clock.start(A, 0.0)
    with pytest.raises(ClockError) as caught:
        clock.start(B, 1.0)
    assert str(caught.value) == f"start while {A}'s side is running"
