"""Match time: the record's "t", seconds since the match started, from the monotonic clock.

The monotonic clock starts again at every boot, so `t` is kept as an offset: at the start
of a match `t` is 0; after a restart it goes on from the last journaled entry plus the time
the kiosk was down, measured on the wall clock (never negative, so a wall clock set back
cannot make `t` go backwards).
"""

from __future__ import annotations

from kiosk.engine.journal import Entry


class MatchTime:
    """`t(now)`: match seconds at monotonic `now`; never less than the last `t` handed out."""

    def __init__(self, now: float, t0: float = 0.0) -> None:
        self._mono0 = now
        self._t0 = t0
        self._last = t0

    @classmethod
    def resumed(cls, now: float, wall_now: float, last: Entry | None) -> MatchTime:
        """After a restart: go on from the match's last journal entry (none: from 0), adding
        the downtime on the wall clock."""
        if last is None:
            return cls(now, 0.0)
        down = max(0.0, wall_now - last.wall)
        return cls(now, last.t + down)

    def at(self, mono: float) -> float:
        """Match seconds of an input stamped `mono` (a beam hit may be a little older than
        the last `t` handed out; it keeps its own time)."""
        return round(max(0.0, self._t0 + (mono - self._mono0)), 6)

    def t(self, now: float) -> float:
        # Rounded to the microsecond so the record's numbers stay short and exact in JSON.
        value = round(max(self._last, self._t0 + (now - self._mono0)), 6)
        self._last = value
        return value
