"""The backgammon match clock with simple delay (rules 3.5, 4.1 (v)-(vi), 4.3), fake time."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.clocks.countdown import ClockError
from kiosk.clocks.match_clock import Flag, MatchClock, bank_for

A, B = "Nikos", "Eleni"


def clock(bank: float = 840.0, delay: float = 12.0) -> MatchClock:
    return MatchClock((A, B), {A: bank, B: bank}, delay)


def test_rule_3_5_vi_bank_for_a_fresh_7_point_match_is_14_minutes() -> None:
    assert bank_for((7, 7), 2) == 14 * 60


def test_rule_3_5_vi_bank_for_a_match_in_progress_at_3_1_is_10_minutes() -> None:
    assert bank_for((7 - 3, 7 - 1), 2) == 10 * 60


def test_rule_3_5_vi_bank_needs_at_least_a_point() -> None:
    with pytest.raises(ClockError, match="at least 1"):
        bank_for((0, 3))


def test_rule_3_5_v_simple_delay_spends_the_delay_first_then_the_bank() -> None:
    c = clock()
    c.start(A, 0.0)
    assert c.bank(A, 11.0) == 840.0 and c.delay_left(11.0) == 1.0
    assert c.bank(A, 20.0) == 832.0 and c.delay_left(20.0) == 0.0


def test_rule_3_5_v_unused_delay_is_lost() -> None:
    c = clock()
    c.start(A, 0.0)
    c.press(A, 3.0)
    assert c.bank(A, 3.0) == 840.0  # 9 s of delay unused, not added
    c.press(B, 5.0)
    assert c.delay_left(5.0) == 12.0  # a fresh delay each turn, never more


def test_rule_4_1_vi_b_press_ends_the_turn_and_starts_the_opponent() -> None:
    c = clock()
    c.start(A, 0.0)
    assert c.press(A, 20.0)
    assert c.running == B and c.delay_left(20.0) == 12.0
    assert not c.press(A, 21.0)  # not A's side: nothing changes
    assert c.running == B and c.bank(A, 21.0) == 832.0


def test_rule_4_3_ii_pause_and_resume_keep_the_delay_left() -> None:
    c = clock()
    c.start(A, 0.0)
    c.pause(5.0)
    assert c.running is None and c.paused == A
    assert c.delay_left(100.0) == 7.0 and c.bank(A, 100.0) == 840.0
    c.resume(100.0)
    assert c.delay_left(104.0) == 3.0
    assert c.bank(A, 110.0) == 837.0


def test_rule_4_3_v_invalid_roll_restarts_the_delay() -> None:
    c = clock()
    c.start(A, 0.0)
    c.restart_delay(15.0)  # 12 s delay and 3 s of bank spent
    assert c.bank(A, 15.0) == 837.0 and c.delay_left(15.0) == 12.0
    assert c.bank(A, 27.0) == 837.0


def test_clause_4_1_v_b_early_pickup_makes_the_player_wait_out_the_delay() -> None:
    c = clock()
    c.start(A, 0.0)
    c.early_pickup(B, 2.0)
    assert c.must_wait_next(B) and c.must_wait(2.0) is None
    c.press(A, 4.0)
    # The clock runs as on any turn: the delay, then the bank; only the use is lost.
    assert c.delay_left(4.0) == 12.0 and c.bank(B, 5.0) == 840.0
    assert c.must_wait(5.0) == B and c.must_wait(15.9) == B
    assert c.must_wait(16.0) is None  # the delay has run out: B may play
    assert c.bank(B, 20.0) == 836.0
    c.press(B, 20.0)
    c.press(A, 21.0)
    assert c.delay_left(21.0) == 12.0 and c.must_wait(21.0) is None  # only that one turn


def test_clause_4_1_v_b_the_wait_survives_a_pause_and_ends_with_the_game() -> None:
    c = clock()
    c.start(A, 0.0)
    c.early_pickup(B, 1.0)
    c.press(A, 2.0)
    c.pause(5.0)
    assert c.must_wait(50.0) == B and c.delay_left(50.0) == 9.0
    c.resume(60.0)
    assert c.must_wait(68.9) == B and c.must_wait(69.0) is None
    c.early_pickup(A, 70.0)
    c.stop(71.0)
    assert not c.must_wait_next(A)  # a new game: nobody's dice were picked up


def test_rule_4_1_v_b_early_pickup_by_the_running_side_is_refused() -> None:
    c = clock()
    c.start(A, 0.0)
    with pytest.raises(ClockError, match="own side"):
        c.early_pickup(A, 1.0)


def test_rule_4_3_iv_director_adjusts_a_bank() -> None:
    c = clock()
    c.start(A, 0.0)
    c.adjust(A, 600.0, 20.0)
    assert c.bank(A, 20.0) == 600.0
    assert c.bank(A, 25.0) == 595.0


def test_rule_4_3_iii_flag_falls_when_the_running_bank_reaches_zero() -> None:
    c = clock(bank=30.0, delay=12.0)
    c.start(A, 0.0)
    assert c.next_deadline() == 42.0
    assert c.advance(41.999) == []
    assert c.advance(50.0) == [Flag(A, 42.0)]
    assert c.running is None and c.flagged == A and c.bank(A, 50.0) == 0.0
    assert c.advance(60.0) == []


def test_clause_4_3_iii_overrule_keeps_the_flag_and_the_clock_stopped() -> None:
    c = clock(bank=10.0, delay=2.0)
    c.start(A, 0.0)
    c.advance(20.0)
    c.check_overrule(A, 21.0)  # the match declares A the winner; the clock is done
    assert c.flagged == A and c.running is None and c.bank(A, 100.0) == 0.0


def test_match_clock_overrule_of_a_player_not_flagged_is_refused() -> None:
    with pytest.raises(ClockError, match="not run out"):
        clock().check_overrule(A, 0.0)


def test_clause_3_5_v_second_leg_restarts_the_bank_once() -> None:
    c = MatchClock((A, B), {A: 30.0, B: 30.0}, 12.0, second_leg=60.0)
    c.start(A, 0.0)
    assert c.next_deadline() == 42.0
    assert c.advance(50.0) == []  # the first leg ran out at 42: the second began
    assert c.on_second_leg(A) and not c.on_second_leg(B)
    assert c.running == A and c.bank(A, 50.0) == 52.0 and c.delay_left(50.0) == 0.0
    assert c.advance(200.0) == [Flag(A, 102.0)]  # the second leg has no third
    assert c.flagged == A and c.bank(A, 200.0) == 0.0


def test_clause_3_5_v_second_leg_is_per_player() -> None:
    c = MatchClock((A, B), {A: 5.0, B: 5.0}, 0.0, second_leg=10.0)
    c.start(A, 0.0)
    c.press(A, 7.0)  # A is on the second leg: 8 s left
    c.press(B, 9.0)
    assert c.bank(A, 9.0) == 8.0 and c.bank(B, 9.0) == 3.0
    assert not c.on_second_leg(B)


def test_clause_3_5_v_second_leg_must_be_positive() -> None:
    with pytest.raises(ClockError, match="second_leg"):
        MatchClock((A, B), {A: 5.0, B: 5.0}, 0.0, second_leg=0.0)


def test_match_clock_refuses_time_going_backwards_and_unknown_players() -> None:
    c = clock()
    c.start(A, 10.0)
    with pytest.raises(ClockError, match="backwards"):
        c.press(A, 9.0)
    with pytest.raises(ClockError, match="unknown player 'Kostas'"):
        c.press("Kostas", 11.0)
    with pytest.raises(ClockError, match="while Nikos's side is running"):
        c.start(B, 12.0)


def test_match_clock_banks_carry_across_games() -> None:
    c = clock()
    c.start(A, 0.0)
    c.press(A, 20.0)
    c.stop(25.0)
    assert c.running is None and c.bank(A, 99.0) == 832.0
    c.start(B, 100.0)
    assert c.bank(A, 100.0) == 832.0 and c.delay_left(100.0) == 12.0


ACTIONS = st.sampled_from(
    ["press_a", "press_b", "pause", "resume", "restart_delay", "pickup_a", "pickup_b"]
)


def drive(c: MatchClock, steps: list[tuple[str, float]]) -> float:
    """Run random presses; return the time the clock ran (both sides)."""
    now = 0.0
    c.start(A, now)
    ran = 0.0
    for action, gap in steps:
        if c.running is not None:
            deadline = c.next_deadline()  # a flag stops the clock at its exact time
            ran += gap if deadline is None or deadline > now + gap else deadline - now
        now += gap
        c.advance(now)
        try:
            if action == "press_a":
                c.press(A, now)
            elif action == "press_b":
                c.press(B, now)
            elif action == "pause":
                c.pause(now)
            elif action == "resume":
                c.resume(now)
            elif action == "restart_delay":
                c.restart_delay(now)
            elif action == "pickup_a":
                c.early_pickup(A, now)
            else:
                c.early_pickup(B, now)
        except ClockError:
            pass  # refused in this state: nothing changed
        assert c.bank(A, now) >= 0.0 and c.bank(B, now) >= 0.0
    c.stop(now)
    return ran


STEPS = st.lists(st.tuples(ACTIONS, st.floats(0.0, 30.0)), max_size=40)


@settings(max_examples=150, deadline=None)
@given(STEPS)
def test_match_clock_banks_never_negative_and_spent_is_elapsed_minus_delay(
    steps: list[tuple[str, float]],
) -> None:
    c = clock(bank=120.0, delay=12.0)
    ran = drive(c, steps)
    end = 10.0**6
    spent = sum(c.spent.values())
    used = sum(c.delay_used.values())
    assert spent == pytest.approx(ran - used, abs=1e-6)
    for p in (A, B):
        assert c.bank(p, end) >= 0.0
        assert c.bank(p, end) == pytest.approx(120.0 - c.spent[p], abs=1e-6)


@settings(max_examples=150, deadline=None)
@given(STEPS, st.floats(0.0, 30.0), st.floats(0.0, 500.0))
def test_match_clock_pause_and_resume_never_change_a_bank(
    steps: list[tuple[str, float]], before: float, paused_for: float
) -> None:
    c = clock(bank=300.0, delay=12.0)
    drive(c, steps)
    now = 10.0**4
    c.start(B, now)
    now += before
    c.advance(now)
    if c.running is None:  # the flag fell
        return
    banks = {p: c.bank(p, now) for p in (A, B)}
    delay = c.delay_left(now)
    c.pause(now)
    assert {p: c.bank(p, now + paused_for) for p in (A, B)} == banks
    c.resume(now + paused_for)
    assert {p: c.bank(p, now + paused_for) for p in (A, B)} == banks
    assert c.delay_left(now + paused_for) == delay
