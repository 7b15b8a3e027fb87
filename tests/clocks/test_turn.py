"""The carrom timers, law by law, on a fake clock (numbers passed in, never a sleep)."""

from __future__ import annotations

import pytest

from kiosk.clocks.countdown import ClockError, Expired, WarningDue
from kiosk.clocks.patterns import LONG_BUZZ, SHORT_BEEP, TICK
from kiosk.clocks.turn import TimerSettings, TurnTimers
from tests.refusals import raises_code


def times(events: list[WarningDue | Expired]) -> list[tuple[str, str, float]]:
    return [(e.timer, type(e).__name__, e.t) for e in events]


def test_law_46_break_within_15_seconds_of_play() -> None:
    tt = TurnTimers()
    tt.play_called(100.0)
    assert tt.active == "break" and tt.remaining(100.0) == 15.0
    assert tt.next_deadline() == 110.0
    assert times(tt.advance(115.0)) == [
        ("break", "WarningDue", 110.0),
        ("break", "WarningDue", 112.0),
        ("break", "WarningDue", 113.0),
        ("break", "WarningDue", 114.0),
        ("break", "Expired", 115.0),
    ]


def test_law_46_break_struck_in_time_stops_the_count() -> None:
    tt = TurnTimers()
    tt.play_called(0.0)
    tt.stroke_started(7.5)
    assert tt.active is None and tt.next_deadline() is None
    assert tt.advance(100.0) == []


def test_law_50_stroke_timer_default_warnings_and_long_buzz() -> None:
    tt = TurnTimers()
    tt.coins_at_rest(0.0, turn_goes_on=True)
    events = tt.advance(15.0)
    assert [(type(e).__name__, getattr(e, "left", 0.0), e.pattern) for e in events] == [
        ("WarningDue", 5.0, SHORT_BEEP),
        ("WarningDue", 3.0, TICK),
        ("WarningDue", 2.0, TICK),
        ("WarningDue", 1.0, TICK),
        ("Expired", 0.0, LONG_BUZZ),
    ]


def test_law_124_a_own_coin_pocketed_count_starts_when_coins_rest() -> None:
    tt = TurnTimers()
    tt.coins_at_rest(10.0, turn_goes_on=True)
    assert tt.active == "stroke" and tt.remaining(12.0) == 13.0
    tt.striker_lifted(12.0)  # the player picks up the striker: the count already runs
    assert tt.remaining(12.0) == 13.0


def test_law_124_b_nothing_pocketed_opponents_count_starts_at_the_lift() -> None:
    tt = TurnTimers()
    tt.coins_at_rest(10.0, turn_goes_on=False)
    assert tt.active is None and tt.awaiting_lift
    assert tt.next_deadline() is None
    tt.striker_lifted(13.0)
    assert tt.active == "stroke" and tt.remaining(13.0) == 15.0
    assert tt.next_deadline() == 23.0


def test_law_50_dues_placed_or_waived_start_the_stroke_timer() -> None:
    tt = TurnTimers()
    tt.placing_called(0.0)
    tt.dues_done(6.0)
    assert tt.active == "stroke" and tt.remaining(6.0) == 15.0
    tt.waive_called(30.0)
    tt.dues_done(31.0)
    assert tt.active == "stroke" and tt.remaining(31.0) == 15.0


def test_law_88_a_placing_timer_15_seconds_from_the_call() -> None:
    tt = TurnTimers()
    tt.placing_called(50.0)
    assert tt.active == "placing"
    assert times(tt.advance(65.0))[-1] == ("placing", "Expired", 65.0)


def test_law_87_a_waive_decision_15_seconds() -> None:
    tt = TurnTimers()
    tt.waive_called(0.0)
    assert tt.active == "waive"
    assert times(tt.advance(15.0))[-1] == ("waive", "Expired", 15.0)


def test_law_61_change_of_sides_two_minutes() -> None:
    tt = TurnTimers()
    tt.change_sides(0.0)
    assert tt.remaining(0.0) == 120.0
    assert times(tt.advance(120.0))[-1] == ("change_sides", "Expired", 120.0)


def test_law_138_interval_ten_minutes() -> None:
    tt = TurnTimers()
    tt.interval(0.0)
    assert tt.active == "interval" and tt.remaining(0.0) == 600.0
    assert tt.next_deadline() == 595.0
    assert times(tt.advance(600.0))[-1] == ("interval", "Expired", 600.0)


def test_law_121_umpire_stops_the_count_and_play_resumes_it() -> None:
    tt = TurnTimers()
    tt.coins_at_rest(0.0, turn_goes_on=True)
    tt.umpire_stop(4.0)
    assert tt.held and tt.next_deadline() is None
    assert tt.remaining(500.0) == 11.0
    tt.umpire_play(500.0)
    assert not tt.held and tt.next_deadline() == 506.0
    assert times(tt.advance(511.0))[-1] == ("stroke", "Expired", 511.0)


def test_law_121_umpire_restarts_a_timer_from_full_length() -> None:
    tt = TurnTimers()
    tt.placing_called(0.0)
    tt.umpire_restart(12.0)
    assert tt.remaining(12.0) == 15.0
    # The warnings due by the restart (at 10 and 12) are reported once, then the rerun's.
    assert times(tt.advance(22.0)) == [
        ("placing", "WarningDue", 10.0),
        ("placing", "WarningDue", 12.0),
        ("placing", "WarningDue", 22.0),
    ]


def test_turn_expiry_is_only_reported_and_the_timer_stays_stopped() -> None:
    tt = TurnTimers()
    tt.coins_at_rest(0.0, turn_goes_on=True)
    assert isinstance(tt.advance(20.0)[-1], Expired)
    assert tt.advance(40.0) == [] and tt.remaining(40.0) == 0.0
    assert tt.active == "stroke"  # still shown at 0 until the umpire rules


def test_turn_switching_timers_keeps_events_already_due() -> None:
    tt = TurnTimers()
    tt.coins_at_rest(0.0, turn_goes_on=True)
    tt.placing_called(11.0)  # the stroke's 5 s warning fell due at 10, not yet collected
    assert tt.next_deadline() == 10.0
    assert times(tt.advance(11.0)) == [("stroke", "WarningDue", 10.0)]
    assert tt.next_deadline() == 21.0


def test_turn_lengths_are_settings_some_events_use_10_seconds() -> None:
    tt = TurnTimers(TimerSettings(stroke_s=10.0, break_s=10.0, warn_at_s=None, beep_from_s=2))
    tt.play_called(0.0)
    assert times(tt.advance(10.0)) == [
        ("break", "WarningDue", 8.0),
        ("break", "WarningDue", 9.0),
        ("break", "Expired", 10.0),
    ]


def test_turn_umpire_restart_without_a_timer_is_refused() -> None:
    with raises_code(ClockError, "no_timer_to_restart", law="121"):
        TurnTimers().umpire_restart(0.0)


@pytest.mark.parametrize(
    ("key", "value"),
    [("stroke_s", 0.0), ("interval_s", -5.0), ("warn_at_s", -1.0), ("beep_from_s", 2.5)],
)
def test_turn_bad_settings_name_the_key(key: str, value: float) -> None:
    with pytest.raises(ClockError, match=f"timers.{key}"):
        TimerSettings(**{key: value})  # type: ignore[arg-type]
