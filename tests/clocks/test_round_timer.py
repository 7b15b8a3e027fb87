"""The Bhukhar round timer (rules 10, 16.3) on the generic countdown, with a fake clock."""

import pytest

from kiosk.clocks.countdown import ClockError, Expired, WarningDue
from kiosk.clocks.patterns import DOUBLE_BEEP
from kiosk.clocks.round_timer import TIME_CALLED, RoundTimer, is_time_called

T0 = 5000.0


@pytest.mark.parametrize("minutes", [30, 32.5, 35])
def test_rule_10_round_of_30_to_35_minutes(minutes: float) -> None:
    timer = RoundTimer(minutes)
    timer.start(T0)
    assert timer.remaining(T0) == minutes * 60
    assert timer.face(T0) == f"{int(minutes)}:{'30' if minutes % 1 else '00'}"


@pytest.mark.parametrize("minutes", [29.9, 36, 60, float("nan")])
def test_rule_10_other_lengths_refused(minutes: float) -> None:
    with pytest.raises(ClockError, match="rule 10"):
        RoundTimer(minutes)


@pytest.mark.parametrize("warn", [0, 30, 45, [5, -1]])
def test_round_timer_warnings_must_fall_inside_the_round(warn: float | list[float]) -> None:
    with pytest.raises(ClockError, match="warn_minutes"):
        RoundTimer(30, warn)


def test_round_timer_warns_at_5_and_1_minutes_then_calls_time() -> None:
    timer = RoundTimer(30)
    timer.start(T0)
    assert timer.next_deadline() == T0 + 25 * 60
    assert timer.advance(T0 + 25 * 60 - 0.001) == []
    events = timer.advance(T0 + 25 * 60)
    assert events == [WarningDue("round", T0 + 1500, 300.0, DOUBLE_BEEP)]
    assert timer.next_deadline() == T0 + 29 * 60
    assert timer.due_patterns(T0 + 29 * 60 + 5) == [DOUBLE_BEEP]
    assert not timer.time_called(T0 + 1799.9)
    assert timer.face(T0 + 1799.9) == "0:01"
    assert timer.time_called(T0 + 1800)


def test_rule_16_3_time_called_with_the_final_buzzer_once() -> None:
    timer = RoundTimer(30, 5)
    timer.start(T0)
    events = timer.advance(T0 + 4000)  # a loop that woke late gets each event once
    assert [type(e) for e in events] == [WarningDue, Expired]
    assert is_time_called(events[-1]) and events[-1].t == T0 + 1800
    assert events[-1].pattern == TIME_CALLED
    assert timer.remaining(T0 + 4000) == 0 and timer.face(T0 + 4000) == "0:00"
    assert timer.advance(T0 + 5000) == []
    assert timer.next_deadline() is None


def test_round_timer_pause_keeps_the_time_left() -> None:
    timer = RoundTimer(30)
    timer.start(T0)
    timer.pause(T0 + 600)
    assert timer.paused and timer.remaining(T0 + 5000) == 1200
    assert timer.next_deadline() is None
    timer.resume(T0 + 5000)
    assert timer.remaining(T0 + 5060) == 1140
    assert timer.next_deadline() == T0 + 5000 + 1200 - 300


def test_round_timer_resume_before_start_refused() -> None:
    with pytest.raises(ClockError, match="before the round"):
        RoundTimer(30).resume(T0)


def test_round_timer_resume_after_time_called_refused() -> None:
    timer = RoundTimer(30)
    timer.start(T0)
    timer.advance(T0 + 1800)
    with pytest.raises(ClockError, match="expired"):
        timer.resume(T0 + 1801)


def test_round_timer_time_going_backwards_refused() -> None:
    timer = RoundTimer(30)
    timer.start(T0)
    with pytest.raises(ClockError, match="backwards"):
        timer.advance(T0 - 1)


def test_round_timer_restore_running_passes_missed_warnings_silently() -> None:
    timer = RoundTimer(30)
    timer.restore(T0, left=200.0, running=True)  # the 5-minute warning fell while down
    assert timer.running and timer.remaining(T0) == 200
    assert timer.advance(T0) == []
    assert timer.next_deadline() == T0 + 200 - 60
    assert timer.due_patterns(T0 + 200) == [DOUBLE_BEEP, TIME_CALLED]


def test_round_timer_restore_paused() -> None:
    timer = RoundTimer(30)
    timer.restore(T0, left=1000.0, running=False)
    assert timer.paused and timer.remaining(T0 + 99) == 1000
    timer.resume(T0 + 100)
    assert timer.advance(T0 + 100 + 700) == [WarningDue("round", T0 + 800, 300.0, DOUBLE_BEEP)]


def test_round_timer_restore_after_time_ran_out_while_down() -> None:
    timer = RoundTimer(30)
    timer.restore(T0, left=0.0, running=True)
    assert timer.time_called(T0)
    assert timer.advance(T0 + 1) == []  # the final buzzer is not sounded late


def test_round_timer_restore_refuses_negative_time() -> None:
    with pytest.raises(ClockError, match="restore"):
        RoundTimer(30).restore(T0, left=-1.0, running=True)
