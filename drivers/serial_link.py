"""A serial port kept open by a worker thread, whatever the device does.

Both serial parts (the player display, the sensor bridge) must never stop
the kiosk: an unplugged device, a port that vanishes or a device that goes
quiet becomes a `DeviceStatus` the engine can show, and the worker reopens
the port with back-off (0.5 s doubling to 8 s). No exception reaches the
caller. Subclasses say what to send on opening, on each line and when idle.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

import serial

from drivers.closing import Closing
from drivers.lines import MAX_LINE

LinkStatus: TypeAlias = Literal["connecting", "ok", "silent", "unplugged", "closed"]


@dataclass(frozen=True, slots=True)
class DeviceStatus:
    """How a serial part is doing: `state`, a `detail` for the umpire's screen
    and the log, and `since` (kiosk clock) when it entered that state."""

    state: LinkStatus
    detail: str
    since: float

    @property
    def ok(self) -> bool:
        return self.state == "ok"


Opener = Callable[..., Any]


class SerialWorker(Closing):
    """Opens `url` (a device path, `loop://`, a pty path) and runs the
    subclass's protocol on a daemon thread until `close()`."""

    name = "serial device"

    def __init__(
        self,
        url: str,
        *,
        baud: int,
        clock: Callable[[], float] = time.monotonic,
        backoff_s: tuple[float, float] = (0.5, 8.0),
        read_timeout_s: float = 0.02,
        opener: Opener = serial.serial_for_url,
    ) -> None:
        self.url = url
        self.baud = baud
        self._clock = clock
        self._backoff = backoff_s
        self._read_timeout = read_timeout_s
        self._opener = opener
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._port: Any = None
        self._status = DeviceStatus("connecting", f"opening {url}", clock())
        self.reconnects = 0
        self._thread = threading.Thread(target=self._run, name=f"serial {url}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def status(self) -> DeviceStatus:
        with self._lock:
            return self._status

    def _set_status(self, state: LinkStatus, detail: str) -> None:
        with self._lock:
            if self._status.state != state or self._status.detail != detail:
                self._status = DeviceStatus(state, detail, self._clock())

    # -- the protocol, for subclasses --------------------------------------------------
    def on_open(self, now: float) -> bytes:
        return b""

    def on_line(self, line: bytes, now: float) -> bytes:
        return b""

    def on_idle(self, now: float) -> bytes:
        return b""

    def protocol_status(self, now: float) -> tuple[LinkStatus, str]:
        return "ok", "open"

    # -- the worker ---------------------------------------------------------------------
    def _run(self) -> None:
        wait = self._backoff[0]
        while not self._stop.is_set():
            try:
                self._session()
                wait = self._backoff[0]
            except Exception as exc:  # any trouble with the port: report, retry later
                self._drop_port()
                if self._stop.is_set():
                    break
                self._set_status("unplugged", f"{self.name} on {self.url}: {exc}")
                self._stop.wait(wait)
                wait = min(wait * 2, self._backoff[1])
                self.reconnects += 1
        self._drop_port()
        self._set_status("closed", f"{self.name} closed")

    def _session(self) -> None:
        # A write timeout, so a wedged device becomes an error and a reopen, not a hang.
        port = self._opener(
            self.url, baudrate=self.baud, timeout=self._read_timeout, write_timeout=0.5
        )
        with self._lock:
            self._port = port
        buffer = b""
        self._write(self.on_open(self._clock()))
        while not self._stop.is_set():
            chunk = port.read(max(1, port.in_waiting))
            if chunk:
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if len(line) < MAX_LINE:
                        self._write(self.on_line(line, self._clock()))
                if len(buffer) >= MAX_LINE:
                    buffer = b""  # noise without newlines: not a line
            now = self._clock()
            self._write(self.on_idle(now))
            state, detail = self.protocol_status(now)
            self._set_status(state, detail)

    def _write(self, data: bytes) -> None:
        if data:
            with self._lock:
                port = self._port
            if port is not None:
                port.write(data)

    def _drop_port(self) -> None:
        with self._lock:
            port, self._port = self._port, None
        if port is not None:
            # Closing a vanished port may fail; it is gone either way.
            with contextlib.suppress(Exception):
                port.close()

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        self._drop_port()
        self._set_status("closed", f"{self.name} closed")
