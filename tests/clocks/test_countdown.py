"""The generic countdown: fake time passed in, never a sleep."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.clocks.countdown import (
    ClockError,
    Countdown,
    Expired,
    Phase,
    WarningAt,
    WarningDue,
    standard_warnings,
)
from kiosk.clocks.patterns import LONG_BUZZ, SHORT_BEEP, TICK


def make(length: float = 15.0) -> Countdown:
    return Countdown(length, standard_warnings(), name="stroke")


def test_countdown_standard_warnings_beep_at_5_and_tick_from_3() -> None:
    ws = standard_warnings()
    assert [(w.left, w.pattern) for w in ws] == [
        (5.0, SHORT_BEEP),
        (3.0, TICK),
        (2.0, TICK),
        (1.0, TICK),
    ]


def test_countdown_remaining_and_elapsed_from_timestamps() -> None:
    c = make()
    assert c.remaining(100.0) == 15.0 and c.phase is Phase.IDLE
    c.start(100.0)
    assert c.remaining(104.25) == pytest.approx(10.75)
    assert c.elapsed(104.25) == pytest.approx(4.25)
    c.stop(106.0)
    assert c.remaining(500.0) == pytest.approx(9.0)
    assert c.elapsed(500.0) == pytest.approx(6.0)
    c.resume(600.0)
    assert c.remaining(601.0) == pytest.approx(8.0)
    assert c.elapsed(601.0) == pytest.approx(7.0)


def test_countdown_advance_reports_each_event_once_at_its_scheduled_time() -> None:
    c = make()
    c.start(10.0)
    assert c.next_deadline() == 20.0
    assert c.advance(19.9) == []
    # The loop woke late: everything due is reported, stamped with its own time.
    events = c.advance(26.0)
    assert events == [
        WarningDue("stroke", 20.0, 5.0, SHORT_BEEP),
        WarningDue("stroke", 22.0, 3.0, TICK),
        WarningDue("stroke", 23.0, 2.0, TICK),
        WarningDue("stroke", 24.0, 1.0, TICK),
        Expired("stroke", 25.0, LONG_BUZZ),
    ]
    assert c.advance(30.0) == []
    assert c.next_deadline() is None
    assert c.phase is Phase.EXPIRED and c.remaining(30.0) == 0.0
    assert c.elapsed(30.0) == 15.0


def test_countdown_next_deadline_walks_through_the_warnings() -> None:
    c = make()
    c.start(0.0)
    seen = []
    while (d := c.next_deadline()) is not None:
        seen.extend((type(e).__name__, e.t) for e in c.advance(d))
    assert seen == [
        ("WarningDue", 10.0),
        ("WarningDue", 12.0),
        ("WarningDue", 13.0),
        ("WarningDue", 14.0),
        ("Expired", 15.0),
    ]


def test_countdown_stop_keeps_events_already_due_and_shifts_the_rest() -> None:
    c = make()
    c.start(0.0)
    c.stop(11.0)  # the 5 s warning fell due at 10 and the loop had not collected it
    assert c.next_deadline() == 10.0
    assert c.advance(50.0) == [WarningDue("stroke", 10.0, 5.0, SHORT_BEEP)]
    assert c.next_deadline() is None
    c.resume(100.0)  # 4 s left
    assert c.next_deadline() == 101.0
    assert [e.t for e in c.advance(104.0)] == [101.0, 102.0, 103.0, 104.0]


def test_countdown_restart_runs_from_full_length_and_rearms_warnings() -> None:
    c = make(10.0)
    c.start(0.0)
    c.advance(10.0)
    assert c.phase is Phase.EXPIRED
    with pytest.raises(ClockError, match="expired"):
        c.resume(11.0)
    c.restart(12.0)
    assert c.remaining(12.0) == 10.0
    assert [e.t for e in c.advance(22.0)] == [17.0, 19.0, 20.0, 21.0, 22.0]


def test_countdown_warning_at_or_above_length_is_not_sounded() -> None:
    c = Countdown(5.0, standard_warnings(), name="short")
    c.start(0.0)
    assert [e.t for e in c.advance(5.0)] == [2.0, 3.0, 4.0, 5.0]


def test_countdown_length_is_settable_for_the_next_run() -> None:
    c = make()
    c.start(0.0)
    c.length = 10.0
    assert c.remaining(1.0) == 14.0
    c.restart(2.0)
    assert c.remaining(2.0) == 10.0


def test_countdown_set_remaining_passes_warnings_above_it() -> None:
    c = make()
    c.start(0.0)
    c.set_remaining(1.0, 2.5)
    assert c.advance(3.5) == [
        WarningDue("stroke", 1.5, 2.0, TICK),
        WarningDue("stroke", 2.5, 1.0, TICK),
        Expired("stroke", 3.5, LONG_BUZZ),
    ]


def test_countdown_time_going_backwards_is_refused() -> None:
    c = make()
    c.start(10.0)
    with pytest.raises(ClockError, match=r"backwards from 10\.0 to 9\.0"):
        c.stop(9.0)
    assert c.running and c.remaining(10.0) == 15.0


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan"), float("inf")])
def test_countdown_bad_length_is_refused(bad: float) -> None:
    with pytest.raises(ClockError, match="stroke length"):
        Countdown(bad, name="stroke")


def test_countdown_bad_warning_is_refused() -> None:
    with pytest.raises(ClockError, match="warning"):
        Countdown(10.0, [WarningAt(-1.0, TICK)])


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["stop", "resume", "advance"]), st.floats(0.0, 4.0)),
        max_size=30,
    )
)
def test_countdown_events_once_each_in_order_whatever_the_presses(
    steps: list[tuple[str, float]],
) -> None:
    c = make()
    now = 0.0
    c.start(now)
    events = []
    for action, gap in steps:
        now += gap
        if action == "stop":
            c.stop(now)
        elif action == "resume" and c.phase is not Phase.EXPIRED:
            c.resume(now)
        else:
            events.extend(c.advance(now))
        assert 0.0 <= c.remaining(now) <= 15.0
        assert c.elapsed(now) + c.remaining(now) == pytest.approx(15.0)
    events.extend(c.advance(now))
    times = [e.t for e in events]
    assert times == sorted(times)
    lefts = [e.left for e in events if isinstance(e, WarningDue)]
    assert lefts == sorted(set(lefts), reverse=True)
    assert sum(isinstance(e, Expired) for e in events) <= 1
