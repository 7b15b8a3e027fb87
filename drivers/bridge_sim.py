"""A simulated sensor bridge on a pseudo-terminal, for tests and `make run`.

It keeps its own 32-bit microsecond counter (start value and drift chosen by
the caller, so wrap-around and a fast crystal can be tried), sends a heartbeat
every 250 ms, and writes the hits it is told about as the firmware would.
`reboot()` restarts the counter and says HELLO; `mute` stops all output.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable

from drivers.bridge_protocol import (
    PROTOCOL_VERSION,
    BridgeMessage,
    Heartbeat,
    Hello,
    RawFault,
    RawHit,
    Settings,
    parse_settings_command,
)
from drivers.bridge_protocol import encode_bridge_message as encode
from drivers.hits import FaultKind
from drivers.lines import LineError
from drivers.pty_device import PtyDevice


class SimulatedBridge(PtyDevice):
    """The bridge's side of the protocol; `port_path` is what the kiosk opens."""

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        start_us: int = 0,
        drift_ppm: float = 0.0,
        heartbeat_s: float = 0.25,
        boot_id: str = "sim1",
    ) -> None:
        self._clock = clock
        self._drift = 1.0 + drift_ppm * 1e-6
        self._boot_at = clock()
        self._start_us = start_us
        self.heartbeat_s = heartbeat_s
        self.boot_id = boot_id
        self.mute = False
        self.settings: tuple[int, int, int] | None = None  # what the kiosk asked for
        self._lock = threading.Lock()
        super().__init__("bridge-sim")
        self._start()
        self._say(Hello(self.micros(), boot_id, PROTOCOL_VERSION))

    def micros(self, at: float | None = None) -> int:
        """The bridge's counter at kiosk time `at` (default now), wrapped to 32 bits."""
        t = self._clock() if at is None else at
        return (self._start_us + int((t - self._boot_at) * 1e6 * self._drift)) % (1 << 32)

    def hit(self, pocket: int, duration_s: float, *, start: float | None = None) -> float:
        """A hit that broke at kiosk time `start` (default: `duration_s` ago) and is
        reported now; returns the true start on the kiosk clock, for comparison."""
        t0 = self._clock() - duration_s if start is None else start
        self._say(RawHit(self.micros(), pocket, self.micros(t0), round(duration_s * 1e6)))
        return t0

    def fault(self, pocket: int, kind: FaultKind) -> None:
        now = self.micros()
        self._say(RawFault(now, pocket, kind, now))

    def send_raw(self, data: bytes) -> None:
        """Bytes as they are (a garbled line, noise on the wire)."""
        os.write(self._master, data)

    def reboot(self, *, start_us: int = 0, boot_id: str = "sim2") -> None:
        with self._lock:
            self._boot_at = self._clock()
            self._start_us = start_us
            self.boot_id = boot_id
        self._say(Hello(self.micros(), boot_id, PROTOCOL_VERSION))

    def _say(self, msg: BridgeMessage) -> None:
        if not self.mute and not self._stop.is_set():
            with self._lock, contextlib.suppress(OSError):
                os.write(self._master, encode(msg))

    def _run(self) -> None:
        buffer = b""
        next_beat = self._clock()
        while not self._stop.is_set():
            if self._clock() >= next_beat:
                self._say(Heartbeat(self.micros()))
                next_beat += self.heartbeat_s
            chunk = self._read(0.02)
            if not chunk:
                continue
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                with contextlib.suppress(LineError):
                    glitch_us, merge_us, stuck_ms = parse_settings_command(line)
                    self.settings = (glitch_us, merge_us, stuck_ms)
                    self._say(Settings(self.micros(), glitch_us, merge_us, stuck_ms))
