"""The carrom table's turn timers (kiosk/clocks/turn.py): made from the [timers] settings,
moved by the rules' calls (kiosk/rules/carrom/timing.py)."""

from __future__ import annotations

from typing import assert_never

from kiosk.clocks.turn import TimerSettings as TurnTimerSettings
from kiosk.clocks.turn import TurnTimers
from kiosk.config import Settings
from kiosk.rules.carrom.timing import TimerCall


def turn_timer_settings(settings: Settings) -> TurnTimerSettings:
    """The clocks' timer settings from the [timers] section (0 s: no such warning)."""
    s = settings.timers
    return TurnTimerSettings(
        stroke_s=s.stroke_s,
        break_s=s.break_s,
        placing_s=s.placing_s,
        waive_s=s.waive_s,
        change_sides_s=s.change_sides_s,
        interval_s=s.interval_s,
        warn_at_s=s.warn_at_s or None,
        beep_from_s=int(s.beep_from_s) or None,
    )


def follow_call(timers: TurnTimers, call: TimerCall, t: float) -> None:
    """Apply the rules' timer call at `t`."""
    match call:
        case "cancel":
            timers.cancel(t)
        case "interval":
            timers.interval(t)
        case "change_sides":
            timers.change_sides(t)
        case "placing":
            timers.placing_called(t)
        case "dues":
            timers.dues_done(t)
        case "count":
            timers.coins_at_rest(t, turn_goes_on=True)
        case "await_lift":
            timers.coins_at_rest(t, turn_goes_on=False)
        case None:
            pass
        case _:
            assert_never(call)
