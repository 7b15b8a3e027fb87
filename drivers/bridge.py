"""The sensor bridge: beams timed by a microcontroller, reported over serial.

An alternative to GPIO for tables wired that way. `SensorBridge(port_url,
sink=queue.put)` reads the bridge's lines (drivers/bridge_protocol.py), maps
its microsecond stamps onto the kiosk's monotonic clock (drivers/clockmap.py)
and posts the same BeamHit/BeamFault as the GPIO beams. A bridge unplugged
or quiet is a status ("unplugged", "silent"), retried, never an exception.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import serial
from serial.tools import list_ports

from drivers.bridge_protocol import (
    Hello,
    RawFault,
    RawHit,
    Settings,
    encode_settings,
    parse_bridge_line,
)
from drivers.clockmap import ClockMap
from drivers.hits import POCKETS, BeamFault, BeamHit
from drivers.lines import LineError
from drivers.pockets import BeamState, Sink
from drivers.serial_link import LinkStatus, Opener, Ports, SerialWorker


class SensorBridge(SerialWorker):
    """The bridge on `port_url`; hits and faults go to `sink` from the worker thread."""

    name = "sensor bridge"

    def __init__(
        self,
        port_url: str,
        *,
        sink: Sink,
        baud: int = 115200,
        clock: Callable[[], float] = time.monotonic,
        glitch_s: float = 0.0005,
        merge_s: float = 0.005,
        stuck_s: float = 2.0,
        silent_s: float = 1.5,
        backoff_s: tuple[float, float] = (0.5, 8.0),
        opener: Opener = serial.serial_for_url,
        start: bool = True,
        ports: Ports = list_ports.comports,
    ) -> None:
        super().__init__(
            port_url, baud=baud, clock=clock, backoff_s=backoff_s, opener=opener, ports=ports
        )
        self._sink = sink
        self._settings = (glitch_s, merge_s, stuck_s)
        self.silent_s = silent_s
        self.clockmap = ClockMap()
        self.boot_id: str | None = None
        self.confirmed: Settings | None = None  # settings the bridge says it uses
        self.garbled = 0  # lines that failed the checksum or made no sense
        self.last_error = ""
        self._last_line: float | None = None
        self._beams: dict[int, BeamState] = dict.fromkeys(POCKETS, "clear")
        self._state_lock = threading.Lock()
        if start:
            self.start()

    def states(self) -> dict[int, BeamState]:
        """Each pocket as the bridge last reported it (broken is not reported
        live by the bridge, so only clear and stuck show here)."""
        with self._state_lock:
            return dict(self._beams)

    def on_open(self, now: float) -> bytes:
        self._last_line = now  # give a fresh port its full silence allowance
        return encode_settings(*self._settings)

    def on_line(self, line: bytes, now: float) -> bytes:
        try:
            msg = parse_bridge_line(line)
        except LineError as exc:
            self.garbled += 1
            self.last_error = str(exc)
            return b""
        self._last_line = now
        if isinstance(msg, Hello):
            self.clockmap.reset()  # a restarted bridge counts from zero again
            self.boot_id = msg.boot_id
            self.clockmap.observe(msg.now_us, now)
            return encode_settings(*self._settings)
        self.clockmap.observe(msg.now_us, now)
        if isinstance(msg, RawHit):
            start = self.clockmap.to_kiosk(msg.start_us)
            self._sink(BeamHit(msg.pocket, start, msg.duration_us / 1e6))
        elif isinstance(msg, RawFault):
            with self._state_lock:
                self._beams[msg.pocket] = "clear" if msg.kind == "cleared" else "stuck"
            self._sink(BeamFault(msg.pocket, msg.kind, self.clockmap.to_kiosk(msg.at_us)))
        elif isinstance(msg, Settings):
            self.confirmed = msg
        return b""

    def protocol_status(self, now: float) -> tuple[LinkStatus, str]:
        last = self._last_line
        if last is None or now - last > self.silent_s:
            return "silent", f"sensor bridge on {self.url} sends nothing"
        if self.boot_id is None and not self.clockmap.synced:
            return "connecting", f"waiting for the sensor bridge on {self.url}"
        return "ok", "sensor bridge reporting"
