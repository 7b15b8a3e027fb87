"""What the buzzer sounds, as data: a pattern is a tuple of tones played in order.

The timers decide *which* pattern is due and when; the buzzer driver
(drivers/buzzer.py) plays it later without blocking the caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True, slots=True)
class Tone:
    """`seconds` of sound at `hz` (None: silence; a plain buzzer ignores the pitch)."""

    seconds: float
    hz: float | None = 2000.0


Pattern: TypeAlias = tuple[Tone, ...]

SHORT_BEEP: Pattern = (Tone(0.08),)
TICK: Pattern = (Tone(0.05, 2500.0),)
LONG_BUZZ: Pattern = (Tone(1.2, 1500.0),)
DOUBLE_BEEP: Pattern = (Tone(0.1), Tone(0.1, None), Tone(0.1))


def duration(pattern: Pattern) -> float:
    """How long the pattern takes to play, silences included."""
    return sum(tone.seconds for tone in pattern)
