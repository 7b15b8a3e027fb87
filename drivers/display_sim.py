"""A simulated player display that speaks docs/display-protocol.md.

It owns a pseudo-terminal: the kiosk opens `port_path` with pyserial exactly
as it would open the real display's `/dev/serial/by-id/...`. `make run` uses
it, and the tests use its faults: `mute` (stops answering, like a display
unplugged at the far end), `corrupt_next(n)` (garbles frames in transit) and
`reset()` (a power cycle: blank, then "R").
"""

from __future__ import annotations

import os
import threading

from drivers.display_protocol import DisplayFrame, Reply, decode_frame, encode_reply
from drivers.lines import MAX_LINE, LineError, unseal
from drivers.pty_device import PtyDevice


class SimulatedDisplay(PtyDevice):
    """The display's side: checks each frame, shows it, acknowledges it."""

    def __init__(self, *, boot_id: str = "sim", announce: bool = True) -> None:
        self.boot_id = boot_id
        self.shown: DisplayFrame | None = None
        self.frames = 0  # good frames received
        self.refused = 0  # garbled frames answered with N
        self.mute = False
        self._corrupt = 0
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        super().__init__("display-sim")
        self._start()
        if announce:
            self._send(encode_reply(Reply("R", boot=boot_id)))

    def handle(self, line: bytes) -> bytes:
        """One received line in, the reply out (b"" for none). Pure of I/O, so
        it also answers over any port (a test drives it over loop://)."""
        with self._lock:
            if self.mute:
                return b""
            if self._corrupt > 0 and line.startswith(b"F"):
                self._corrupt -= 1
                line = line[:3] + bytes([line[3] ^ 0x01]) + line[4:]
            try:
                seq, frame = decode_frame(unseal(line))
            except LineError:
                self.refused += 1
                return encode_reply(Reply("N"))
            self.shown = frame
            self.frames += 1
            self._changed.notify_all()
            return encode_reply(Reply("A", seq))

    def corrupt_next(self, n: int) -> None:
        with self._lock:
            self._corrupt = n

    def reset(self) -> None:
        """A power cycle: the picture is gone, and the display says so."""
        with self._lock:
            self.shown = None
        self._send(encode_reply(Reply("R", boot=self.boot_id)))

    def wait_for(self, frame: DisplayFrame, timeout: float) -> bool:
        """Blocks until `frame` is on the display (tests, hw-test)."""
        with self._changed:
            return self._changed.wait_for(lambda: self.shown == frame, timeout)

    def _send(self, data: bytes) -> None:
        if data and not self._stop.is_set():
            os.write(self._master, data)

    def _run(self) -> None:
        buffer = b""
        while not self._stop.is_set():
            chunk = self._read(0.05)
            if not chunk:
                continue
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                if len(line) < MAX_LINE:
                    self._send(self.handle(line))
            if len(buffer) >= MAX_LINE:
                buffer = b""
