"""The player display: the LED score and clock display on a serial port.

`PlayerDisplay(port_url).show(frame)` returns at once; a worker thread sends
the latest frame by the protocol in drivers/display_protocol.py and keeps
`status` up to date ("ok", "silent" when the display does not answer,
"unplugged" when the port cannot be opened). Nothing here raises on device
trouble: the kiosk keeps going and retries.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import serial
from serial.tools import list_ports

from drivers.display_protocol import DisplayFrame, DisplayLink
from drivers.serial_link import LinkStatus, Opener, Ports, SerialWorker


class PlayerDisplay(SerialWorker):
    """The display on `port_url` (`/dev/serial/by-id/...`, a pty path, or a
    pyserial URL); the worker starts at once unless `start=False`."""

    name = "player display"

    def __init__(
        self,
        port_url: str,
        *,
        baud: int = 115200,
        clock: Callable[[], float] = time.monotonic,
        ack_timeout_s: float = 0.25,
        retries: int = 3,
        keepalive_s: float = 2.0,
        backoff_s: tuple[float, float] = (0.5, 8.0),
        opener: Opener = serial.serial_for_url,
        start: bool = True,
        ports: Ports = list_ports.comports,
    ) -> None:
        super().__init__(
            port_url, baud=baud, clock=clock, backoff_s=backoff_s, opener=opener, ports=ports
        )
        self.link = DisplayLink(
            ack_timeout_s=ack_timeout_s, retries=retries, keepalive_s=keepalive_s
        )
        self._frame_lock = threading.Lock()
        self._pending: DisplayFrame | None = None
        if start:
            self.start()

    def show(self, frame: DisplayFrame) -> None:
        """The new picture; the worker sends it within one read timeout (20 ms)."""
        with self._frame_lock:
            self._pending = frame

    @property
    def shown(self) -> DisplayFrame | None:
        """The frame the display last acknowledged (None: not known)."""
        with self._lock:
            return self.link.acked

    def wait_shown(self, frame: DisplayFrame, timeout: float) -> bool:
        """Blocks until the display acknowledged `frame` (for hw-test and tests)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.shown == frame:
                return True
            time.sleep(0.01)
        return self.shown == frame

    def on_open(self, now: float) -> bytes:
        with self._lock:
            self._take_pending(now)
            return self.link.connect(now)

    def on_line(self, line: bytes, now: float) -> bytes:
        with self._lock:
            return self.link.receive(line, now)

    def on_idle(self, now: float) -> bytes:
        with self._lock:
            return self._take_pending(now) + self.link.poll(now)

    def _take_pending(self, now: float) -> bytes:
        with self._frame_lock:
            frame, self._pending = self._pending, None
        return b"" if frame is None else self.link.show(frame, now)

    def protocol_status(self, now: float) -> tuple[LinkStatus, str]:
        with self._lock:
            state = self.link.state
        if state == "ok":
            return "ok", "display answering"
        if state == "silent":
            return "silent", f"player display on {self.url} does not answer"
        return "connecting", f"waiting for the player display on {self.url}"
