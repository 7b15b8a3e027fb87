"""The round timer of a Bhukhar card table (rules 10 and 16.3).

Rule 10: each game lasts 30 to 35 minutes, as the organisers decide. Rule
16.3: when the organisers call time the game ends at once and nobody may lay
cards from the hand. The timer counts the round down on the generic countdown
(kiosk/clocks/countdown.py), sounds a double beep at each warning (by default
5 minutes and 1 minute before the end) and calls time with three long buzzes.

Pure: every method takes `now`, float seconds from one monotonic clock.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Final

from kiosk.clocks.countdown import (
    ClockError,
    Countdown,
    CountdownEvent,
    Expired,
    Phase,
    WarningAt,
)
from kiosk.clocks.patterns import DOUBLE_BEEP, LONG_BUZZ, Pattern, Tone

#: Rule 10: the organisers choose the length of a game within these minutes.
MIN_MINUTES: Final = 30.0
MAX_MINUTES: Final = 35.0
#: A warning: a double beep, loud enough over a card table but not taken for time.
WARNING: Final[Pattern] = DOUBLE_BEEP
#: Rule 16.3, time called: three long buzzes, so every table in the hall hears it.
TIME_CALLED: Final[Pattern] = (*LONG_BUZZ, Tone(0.4, None), *LONG_BUZZ, Tone(0.4, None), *LONG_BUZZ)


def check_minutes(minutes: float) -> float:
    """Rule 10: a round of 30 to 35 minutes; ClockError otherwise."""
    m = float(minutes)
    if not math.isfinite(m) or not MIN_MINUTES <= m <= MAX_MINUTES:
        raise ClockError(
            f"round_minutes: {minutes!r} is outside {MIN_MINUTES:g}-{MAX_MINUTES:g} "
            "(rule 10: each game lasts 30 to 35 minutes)"
        )
    return m


class RoundTimer:
    """One round's countdown: start, pause, resume, the time left and what to sound.

    `warn_minutes`: minutes before the end at which a warning sounds (one number
    or several); each must be shorter than the round.
    """

    def __init__(
        self, minutes: float = MIN_MINUTES, warn_minutes: float | Iterable[float] = (5.0, 1.0)
    ) -> None:
        self.minutes = check_minutes(minutes)
        warn = (warn_minutes,) if isinstance(warn_minutes, int | float) else tuple(warn_minutes)
        for w in warn:
            if not math.isfinite(w) or not 0 < w < self.minutes:
                raise ClockError(
                    f"warn_minutes: {w!r} must be more than 0 and less than the round's "
                    f"{self.minutes:g} minutes"
                )
        self.warn_minutes = tuple(sorted(set(warn), reverse=True))
        self._countdown = self._new()

    def _new(self) -> Countdown:
        return Countdown(
            self.minutes * 60.0,
            [WarningAt(w * 60.0, WARNING) for w in self.warn_minutes],
            expiry_pattern=TIME_CALLED,
            name="round",
        )

    @property
    def length(self) -> float:
        """The round's length in seconds."""
        return self._countdown.length

    @property
    def phase(self) -> Phase:
        return self._countdown.phase

    @property
    def running(self) -> bool:
        return self._countdown.running

    @property
    def paused(self) -> bool:
        return self._countdown.phase is Phase.STOPPED

    def start(self, now: float) -> None:
        """A new round from the full length."""
        self._countdown.start(now)

    def pause(self, now: float) -> None:
        """Stop the clock (the organisers hold the round); what is left is kept."""
        self._countdown.stop(now)

    def resume(self, now: float) -> None:
        """Go on from what was left; ClockError after time was called."""
        if self._countdown.phase is Phase.IDLE:
            raise ClockError("round: resume before the round was started")
        self._countdown.resume(now)

    def remaining(self, now: float) -> float:
        """Seconds left at `now` (0 once time is called)."""
        return self._countdown.remaining(now)

    def time_called(self, now: float) -> bool:
        """Rule 16.3: the round's time is over."""
        return self._countdown.expired(now)

    def face(self, now: float) -> str:
        """The time left as the screen shows it: "29:59", rounding up so "0:00" means time."""
        left = math.ceil(self.remaining(now) - 1e-9)
        return f"{left // 60}:{left % 60:02d}"

    def next_deadline(self) -> float | None:
        """When `advance` next has a warning or the final buzzer to report."""
        return self._countdown.next_deadline()

    def advance(self, now: float) -> list[CountdownEvent]:
        """The warnings and the final buzzer due by `now`, once each, oldest first."""
        return self._countdown.advance(now)

    def due_patterns(self, now: float) -> list[Pattern]:
        """Just the patterns `advance` reports: what the buzzer plays now."""
        return [e.pattern for e in self.advance(now)]

    def restore(self, now: float, left: float, running: bool) -> None:
        """Take up a round as a record left it: `left` seconds at `now`, running or paused.

        Warnings and the final buzzer that fell due before `now` (while the kiosk
        was down) are passed silently: sounding them late would mislead the hall.
        """
        if not math.isfinite(left) or left < 0:
            raise ClockError(f"round: cannot restore {left!r} seconds left")
        left = min(left, self.length)
        self._countdown = self._new()
        if left == 0:
            self._countdown.start(now - self.length)
        elif running:
            self._countdown.start(now - (self.length - left))
        else:
            self._countdown.start(now)
            self._countdown.stop(now)
            if left < self.length:
                self._countdown.set_remaining(now, left)
        self._countdown.advance(now)


def is_time_called(event: CountdownEvent) -> bool:
    """The final buzzer (rule 16.3) rather than a warning."""
    return isinstance(event, Expired)
