"""The device's end of a pseudo-terminal, served by a worker thread.

The simulated serial parts (the sensor bridge, the player display) each own
one: the kiosk opens `port_path` with pyserial exactly as it would open the
real part's `/dev/serial/by-id/...`, and the subclass's `_run` answers on the
other end until `close()`.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import tty
from abc import abstractmethod

from drivers.closing import Closing


class PtyDevice(Closing):
    """A raw pty (`port_path` for the kiosk) and a daemon thread running `_run`;
    the subclass calls `_start()` once everything `_run` reads is set."""

    def __init__(self, thread_name: str) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no line editing, before anyone writes
        self.port_path = os.ttyname(self._slave)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=thread_name, daemon=True)

    def _start(self) -> None:
        self._thread.start()

    @abstractmethod
    def _run(self) -> None:
        """The worker: serves the port until `_stop` is set."""

    def _read(self, timeout_s: float) -> bytes:
        """What the kiosk wrote, waiting up to `timeout_s`; b"" when nothing came
        (or the read failed: the worker just tries again)."""
        ready, _, _ = select.select([self._master], [], [], timeout_s)
        if not ready:
            return b""
        try:
            return os.read(self._master, 4096)
        except OSError:
            return b""

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=1.0)
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)
