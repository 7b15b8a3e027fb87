"""The carrom table's turn timers (kiosk/clocks/turn.py; the [timers] settings are its own
`TimerSettings`), moved by the rules' calls (kiosk/rules/carrom/timing.py)."""

from __future__ import annotations

from typing import assert_never

from kiosk.clocks.turn import TurnTimers
from kiosk.rules.carrom.timing import TimerCall


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
