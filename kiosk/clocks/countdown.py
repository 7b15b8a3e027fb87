"""The generic countdown every timer of the kiosk is built on.

Pure: the caller passes `now`, float seconds from one monotonic clock. The
time left is always computed from timestamps (a deadline while running, the
seconds left while stopped), never by counting ticks, so nothing drifts however
late or often the caller looks.

Warnings are data: at which seconds left which buzzer pattern is due. A loop
asks `next_deadline()`, sleeps until then, and calls `advance(now)`, which
returns every warning and the expiry that fell due, once each, in order, each
stamped with the exact time it was scheduled for (not the time the loop woke).

Expiry is only reported; what it means (a time foul, a lost match) is for the
umpire or the rules core to rule on (ICF law 121: the umpire stops and restarts
the timers).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TypeAlias

from kiosk.clocks.patterns import LONG_BUZZ, SHORT_BEEP, TICK, Pattern
from kiosk.errors import Refused


class ClockError(Refused, ValueError):
    """A timer used wrongly: time going backwards, a negative length, a bad state (`reason`:
    the facts, when the clock gave them, for the interface to word)."""


@dataclass(frozen=True, slots=True)
class WarningAt:
    """Sound `pattern` when `left` seconds remain (`left` > 0; the expiry has its own)."""

    left: float
    pattern: Pattern


@dataclass(frozen=True, slots=True)
class WarningDue:
    """A warning fell due at `t`, with `left` seconds remaining."""

    timer: str
    t: float
    left: float
    pattern: Pattern


@dataclass(frozen=True, slots=True)
class Expired:
    """The countdown reached 0 at `t` (the exact scheduled time)."""

    timer: str
    t: float
    pattern: Pattern


CountdownEvent: TypeAlias = WarningDue | Expired


class Phase(Enum):
    IDLE = "idle"  # never started, or reset
    RUNNING = "running"
    STOPPED = "stopped"
    EXPIRED = "expired"


def standard_warnings(
    warn_at_s: float | None = 5.0, beep_from_s: int | None = 3
) -> tuple[WarningAt, ...]:
    """The default warnings: a short beep at `warn_at_s` left, a tick each second from
    `beep_from_s` down to 1 (the long buzz at 0 is the expiry's pattern)."""
    warnings: list[WarningAt] = []
    if warn_at_s is not None:
        warnings.append(WarningAt(float(warn_at_s), SHORT_BEEP))
    if beep_from_s is not None:
        warnings.extend(
            WarningAt(float(s), TICK) for s in range(beep_from_s, 0, -1) if s != warn_at_s
        )
    return tuple(sorted(warnings, key=lambda w: -w.left))


def _check_seconds(name: str, value: float, *, positive: bool) -> float:
    value = float(value)
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        need = "a positive" if positive else "a non-negative"
        raise ClockError(f"{name} must be {need} number of seconds, not {value!r}")
    return value


class Countdown:
    """A countdown of `length` seconds with warnings and an expiry.

    start(now) runs it from the full length; stop(now) keeps what is left;
    resume(now) goes on from there; restart(now) runs it again from the full
    length (law 121: the umpire restarts a timer). Each warning and the expiry
    is reported once per run by `advance`; a warning whose moment was skipped
    over by `set_remaining` is not reported.
    """

    def __init__(
        self,
        length: float,
        warnings: Iterable[WarningAt] = (),
        expiry_pattern: Pattern = LONG_BUZZ,
        name: str = "countdown",
    ) -> None:
        self.name = name
        self._length = _check_seconds(f"{name} length", length, positive=True)
        ws = tuple(warnings)
        for w in ws:
            _check_seconds(f"{name} warning", w.left, positive=True)
        self.warnings: tuple[WarningAt, ...] = tuple(sorted(ws, key=lambda w: -w.left))
        self.expiry_pattern = expiry_pattern
        self._phase = Phase.IDLE
        self._left = self._length  # seconds left when stopped, or when this stretch began
        self._run_from = 0.0  # when the current running stretch began
        self._ran = 0.0  # seconds run in earlier stretches of this run
        self._last = -math.inf  # latest time seen, to refuse time going backwards
        self._next_warning = len(self.warnings)  # index of the next warning to report
        self._pending: list[CountdownEvent] = []  # fell due before a stop, not yet returned

    # -- what it is --------------------------------------------------------------

    @property
    def length(self) -> float:
        return self._length

    @length.setter
    def length(self, seconds: float) -> None:
        """A new length, used from the next start or restart."""
        self._length = _check_seconds(f"{self.name} length", seconds, positive=True)
        if self._phase is Phase.IDLE:
            self._left = self._length

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def running(self) -> bool:
        """Started and not stopped (it may be past its deadline until `advance` sees it)."""
        return self._phase is Phase.RUNNING

    def remaining(self, now: float) -> float:
        """Seconds left at `now` (never below 0)."""
        if self._phase is Phase.RUNNING:
            return max(0.0, self._left - (now - self._run_from))
        return self._left

    def elapsed(self, now: float) -> float:
        """Seconds run since the last start or restart, stops excluded, up to the expiry."""
        if self._phase is Phase.RUNNING:
            return self._ran + min(now - self._run_from, self._left)
        return self._ran

    def expired(self, now: float) -> bool:
        return self._phase is Phase.EXPIRED or (
            self._phase is Phase.RUNNING and now - self._run_from >= self._left
        )

    # -- the umpire's buttons ----------------------------------------------------

    def start(self, now: float) -> None:
        """Run from the full length (also from a stopped or expired state)."""
        self._seen(now)
        self._pending.clear()
        self._ran = 0.0
        self._run(now, self._length)
        self._next_warning = self._first_warning_below(self._length)

    restart = start

    def stop(self, now: float) -> None:
        """Stop and keep what is left; what fell due before `now` is still reported."""
        self._seen(now)
        if self._phase is not Phase.RUNNING:
            return
        self._pending.extend(self._due(now))
        if self._phase is Phase.RUNNING:  # not expired while collecting
            run = now - self._run_from
            self._ran += run
            self._left -= run
            self._phase = Phase.STOPPED

    def resume(self, now: float) -> None:
        """Go on from what was left; refused when nothing is left to run."""
        self._seen(now)
        if self._phase is Phase.RUNNING:
            return
        if self._phase is Phase.EXPIRED:
            raise ClockError(f"{self.name} has expired: restart it")
        if self._phase is Phase.IDLE:
            self.start(now)
            return
        self._run(now, self._left)

    def reset(self) -> None:
        """Back to idle at the full length; nothing pending."""
        self._phase = Phase.IDLE
        self._left = self._length
        self._ran = 0.0
        self._pending.clear()

    def set_remaining(self, now: float, seconds: float) -> None:
        """Set the seconds left (an umpire's correction); warnings above it are passed."""
        self._seen(now)
        seconds = _check_seconds(f"{self.name} remaining", seconds, positive=True)
        if self._phase is Phase.RUNNING:
            self._pending.extend(self._due(now))
        if self._phase is Phase.RUNNING:
            self._ran += now - self._run_from
            self._run(now, seconds)
        else:
            if self._phase is Phase.EXPIRED:
                self._phase = Phase.STOPPED
            elif self._phase is Phase.IDLE:
                self._phase = Phase.STOPPED
                self._ran = 0.0
            self._left = seconds
        self._next_warning = self._first_warning_below(seconds)

    # -- the loop's side ---------------------------------------------------------

    def next_deadline(self) -> float | None:
        """When `advance` next has something to report, or None if nothing is scheduled."""
        if self._pending:
            return self._pending[0].t
        if self._phase is not Phase.RUNNING:
            return None
        if self._next_warning < len(self.warnings):
            return self._run_from + (self._left - self.warnings[self._next_warning].left)
        return self._run_from + self._left

    def advance(self, now: float) -> list[CountdownEvent]:
        """Every warning and expiry due by `now`, once each, oldest first."""
        self._seen(now)
        events, self._pending = self._pending, []
        if self._phase is Phase.RUNNING:
            events.extend(self._due(now))
        return events

    # -- inside ------------------------------------------------------------------

    def _seen(self, now: float) -> None:
        if not math.isfinite(now):
            raise ClockError(f"{self.name}: time must be a finite number, not {now!r}")
        if now < self._last:
            raise ClockError(f"{self.name}: time went backwards from {self._last} to {now}")
        self._last = now

    def _run(self, now: float, left: float) -> None:
        self._phase = Phase.RUNNING
        self._run_from = now
        self._left = left

    def _first_warning_below(self, left: float) -> int:
        """Index of the first warning strictly below `left` seconds (those at or above
        it are passed: a 5 s warning is not sounded at the start of a 5 s timer)."""
        for i, w in enumerate(self.warnings):
            if w.left < left:
                return i
        return len(self.warnings)

    def _due(self, now: float) -> list[CountdownEvent]:
        """Collect what fell due by `now` while running; expire if the deadline passed."""
        out: list[CountdownEvent] = []
        while self._next_warning < len(self.warnings):
            w = self.warnings[self._next_warning]
            at = self._run_from + (self._left - w.left)
            if at > now:
                break
            out.append(WarningDue(self.name, at, w.left, w.pattern))
            self._next_warning += 1
        if now - self._run_from >= self._left:
            self._next_warning = len(self.warnings)
            out.append(Expired(self.name, self._run_from + self._left, self.expiry_pattern))
            self._ran += self._left
            self._left = 0.0
            self._phase = Phase.EXPIRED
        return out
