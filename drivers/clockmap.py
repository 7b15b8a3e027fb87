"""Mapping a device's microsecond counter onto the kiosk's monotonic clock.

The sensor bridge stamps hits with its own `micros()`: a 32-bit counter that
wraps every 71.6 minutes and restarts when the board resets. Each line the
kiosk receives gives a pair (device time, arrival time); arrival is later by
the transmission delay, never earlier, so the smallest `arrival - device` over
recent pairs is the best offset (the lower envelope). Recent only, so the
crystal's drift (tens of ppm) cannot build up: pairs older than `window_s`
are forgotten. Pure: times are passed in.
"""

from __future__ import annotations

from collections import deque

WRAP_US = 1 << 32


class ClockMap:
    """Unwraps a 32-bit microsecond counter and maps it to kiosk seconds."""

    def __init__(self, *, window_s: float = 30.0, wrap_us: int = WRAP_US) -> None:
        self.window_s = window_s
        self.wrap_us = wrap_us
        self._epoch = 0  # wraps seen, times wrap_us
        self._last_raw: int | None = None
        self._pairs: deque[tuple[float, float]] = deque()  # (arrival, arrival - device_s)
        self._offset: float | None = None

    def reset(self) -> None:
        """The device restarted: its counter means nothing any more."""
        self._epoch = 0
        self._last_raw = None
        self._pairs.clear()
        self._offset = None

    @property
    def synced(self) -> bool:
        return self._offset is not None

    def unwrap(self, raw_us: int) -> int:
        """The counter extended past its wraps. Call in arrival order for
        the counter's *current* time (heartbeats); event times that may lie a
        little in the past go through `device_seconds` instead."""
        if self._last_raw is not None and raw_us < self._last_raw - self.wrap_us // 2:
            self._epoch += self.wrap_us
        self._last_raw = raw_us
        return self._epoch + raw_us

    def device_seconds(self, raw_us: int) -> float:
        """An event's counter value in device seconds, nearest to the current
        counter (so a hit stamped just before a wrap lands before it)."""
        if self._last_raw is None:
            return raw_us / 1e6
        now_us = self._epoch + self._last_raw
        t_us = self._epoch + raw_us
        if t_us - now_us > self.wrap_us // 2:
            t_us -= self.wrap_us
        elif now_us - t_us > self.wrap_us // 2:
            t_us += self.wrap_us
        return t_us / 1e6

    def observe(self, raw_us: int, arrival: float) -> None:
        """The device said its counter read `raw_us` when the line left it;
        the line arrived at `arrival` (kiosk seconds)."""
        device_s = self.unwrap(raw_us) / 1e6
        self._pairs.append((arrival, arrival - device_s))
        while self._pairs and self._pairs[0][0] < arrival - self.window_s:
            self._pairs.popleft()
        self._offset = min(offset for _, offset in self._pairs)

    def to_kiosk(self, raw_us: int) -> float:
        """An event time from the device on the kiosk's clock."""
        if self._offset is None:
            raise ValueError("the device clock is not synchronised yet (no time seen)")
        return self.device_seconds(raw_us) + self._offset
