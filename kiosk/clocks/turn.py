"""The carrom timers of the ICF laws (shared/seeds/000_182590910620177a.txt).

- law 46: the break within 15 s of the umpire's "play";
- law 50: each stroke within 15 s of the coins coming to rest, the striker being
  lifted, or dues/fouls being placed or waived; law 124 says which of these
  starts it: when the player's own coin or the queen went in, the turn goes on
  and the count starts as soon as the stroke is complete (124 a); otherwise the
  opponent's count starts when the player lifts the striker (124 b);
- law 87 a: 15 s to tell the umpire a due or penalty is waived;
- law 88 a: 15 s to place the dues and penalties from the umpire's call;
- law 61: two minutes to change sides;
- law 138: ten minutes between the second and third games;
- law 121 a: a complaint stops the count; it goes on at the umpire's "play".

One timer runs at a time. Lengths and warnings are settings (some events use
10 s). Expiry is only reported (`Expired`, with the buzzer's pattern): the
umpire rules on it; the kiosk never calls a time foul by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal, TypeAlias, get_args

from kiosk.clocks.countdown import (
    ClockError,
    Countdown,
    CountdownEvent,
    Phase,
    WarningAt,
    standard_warnings,
)
from kiosk.errors import N_

TimerKind: TypeAlias = Literal["stroke", "break", "placing", "waive", "change_sides", "interval"]
TIMER_KINDS: tuple[TimerKind, ...] = get_args(TimerKind)


@dataclass(frozen=True, slots=True)
class TimerSettings:
    """The [timers] settings, in seconds. By default a short beep at 5 s left, a tick
    each second from 3, a long buzz at 0."""

    stroke_s: float = 15.0  # law 50
    break_s: float = 15.0  # law 46
    placing_s: float = 15.0  # law 88 a
    waive_s: float = 15.0  # law 87 a
    change_sides_s: float = 120.0  # law 61
    interval_s: float = 600.0  # law 138
    warn_at_s: float | None = 5.0
    beep_from_s: int | None = 3

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            optional = f.name in ("warn_at_s", "beep_from_s")
            if value is None and optional:
                continue
            if not isinstance(value, int | float) or isinstance(value, bool) or not value > 0:
                raise ClockError(f"timers.{f.name} must be a positive number, not {value!r}")
        if self.beep_from_s is not None and not isinstance(self.beep_from_s, int):
            raise ClockError(
                f"timers.beep_from_s must be a whole number of seconds, not {self.beep_from_s!r}"
            )

    def length(self, kind: TimerKind) -> float:
        return float(getattr(self, f"{kind}_s"))

    def warnings(self) -> tuple[WarningAt, ...]:
        return standard_warnings(self.warn_at_s, self.beep_from_s)


class TurnTimers:
    """The timers of one carrom table, driven by what happens at it.

    Each method takes `now` (one monotonic clock). `advance(now)` returns the
    warnings and expiries due, once each, oldest first, each at its exact time;
    `next_deadline()` says when to look next.
    """

    def __init__(self, settings: TimerSettings | None = None) -> None:
        self.settings = settings or TimerSettings()
        warnings = self.settings.warnings()
        self._timers: dict[str, Countdown] = {
            kind: Countdown(self.settings.length(kind), warnings, name=kind) for kind in TIMER_KINDS
        }
        self._active: TimerKind | None = None
        self._awaiting_lift = False  # law 124 b: the opponent's count waits for the lift
        self._held = False  # law 121 a: stopped by the umpire
        self._pending: list[CountdownEvent] = []

    # -- reading them ------------------------------------------------------------

    @property
    def active(self) -> TimerKind | None:
        """The timer counting (or held by the umpire), or None."""
        return self._active

    @property
    def held(self) -> bool:
        """Stopped by the umpire (law 121 a) until "play"."""
        return self._held

    @property
    def awaiting_lift(self) -> bool:
        """The stroke timer waits for the striker to be lifted (law 124 b)."""
        return self._awaiting_lift

    def remaining(self, now: float) -> float | None:
        """Seconds left on the active timer, or None when none is active."""
        if self._active is None:
            return None
        return self._timers[self._active].remaining(now)

    def next_deadline(self) -> float | None:
        if self._pending:
            return self._pending[0].t
        if self._active is None:
            return None
        return self._timers[self._active].next_deadline()

    def advance(self, now: float) -> list[CountdownEvent]:
        """Warnings and expiries due by `now`, once each, oldest first."""
        out, self._pending = self._pending, []
        if self._active is not None:
            out.extend(self._timers[self._active].advance(now))
        return out

    # -- what happens at the table -----------------------------------------------

    def play_called(self, now: float) -> None:
        """The umpire calls "play" for a board: 15 s to break (law 46)."""
        self._start("break", now)

    def coins_at_rest(self, now: float, *, turn_goes_on: bool) -> None:
        """The stroke is complete (law 123). If the player's own coin or the queen went
        in, the next stroke's count starts now (law 124 a); otherwise it waits for the
        striker to be lifted (law 124 b)."""
        if turn_goes_on:
            self._start("stroke", now)
        else:
            self._stop_active(now)
            self._awaiting_lift = True

    def striker_lifted(self, now: float) -> None:
        """The striker was lifted after a stroke: the opponent's 15 s begin (laws 50,
        124 b). A lift while a count already runs changes nothing."""
        if self._awaiting_lift:
            self._start("stroke", now)

    def stroke_started(self, now: float) -> None:
        """The player strikes: the count stops."""
        self._stop_active(now)

    def placing_called(self, now: float) -> None:
        """The umpire calls for the dues and penalties to be placed: 15 s (law 88 a)."""
        self._start("placing", now)

    def waive_called(self, now: float) -> None:
        """The umpire asks whether the dues are waived: 15 s to say so (law 87 a)."""
        self._start("waive", now)

    def dues_done(self, now: float) -> None:
        """Dues placed or waived: the next stroke within 15 s (law 50)."""
        self._start("stroke", now)

    def change_sides(self, now: float) -> None:
        """The players change sides: two minutes (law 61)."""
        self._start("change_sides", now)

    def interval(self, now: float) -> None:
        """The interval between the second and third games: ten minutes (law 138)."""
        self._start("interval", now)

    def cancel(self, now: float) -> None:
        """No timer any more (the board or match ended)."""
        self._stop_active(now)

    # -- the umpire's buttons (law 121) ------------------------------------------

    def umpire_stop(self, now: float) -> None:
        """A complaint or objection: the count stops (law 121 a)."""
        if self._active is None or self._held:
            return
        self._timers[self._active].stop(now)
        self._held = True

    def umpire_play(self, now: float) -> None:
        """The umpire calls "play" after a stop: the count goes on where it stopped."""
        if self._active is None or not self._held:
            return
        timer = self._timers[self._active]
        self._held = False
        if timer.phase is Phase.STOPPED:
            timer.resume(now)

    def umpire_restart(self, now: float) -> None:
        """The umpire restarts the active timer from its full length."""
        if self._active is None:
            raise ClockError.of(
                "no_timer_to_restart",
                N_("No timer is running: there is none to restart (law {law})"),
                "121",
            )
        timer = self._timers[self._active]
        self._pending.extend(timer.advance(now))
        self._held = False
        timer.restart(now)

    # -- inside ------------------------------------------------------------------

    def _start(self, kind: TimerKind, now: float) -> None:
        self._stop_active(now)
        self._active = kind
        self._timers[kind].start(now)

    def _stop_active(self, now: float) -> None:
        """Stop the active timer, keeping what fell due before `now` for `advance`."""
        self._awaiting_lift = False
        self._held = False
        if self._active is None:
            return
        timer = self._timers[self._active]
        timer.stop(now)
        self._pending.extend(timer.advance(now))
        timer.reset()
        self._active = None
