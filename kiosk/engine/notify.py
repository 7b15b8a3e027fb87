"""systemd's notify protocol, spoken with the socket module (no extra package).

With `Type=notify` systemd passes the path of an AF_UNIX datagram socket in NOTIFY_SOCKET
and waits for "READY=1"; with `WatchdogSec=` it passes WATCHDOG_USEC and restarts the
service when no "WATCHDOG=1" arrives within that time (sd_notify(3), sd_watchdog_enabled(3)).
Outside systemd (no NOTIFY_SOCKET) every call does nothing, so the same code runs on a laptop.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping


class Notifier:
    """Sends state lines to systemd; `environ` is injected so tests need no real service."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        # "@name" is a socket in the abstract namespace, written with a leading NUL.
        self.address = "\0" + address[1:] if address.startswith("@") else address
        self.watchdog_s: float | None = None
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            self.watchdog_s = int(usec) / 1_000_000
        self.error: str | None = None

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    @property
    def ping_every_s(self) -> float | None:
        """How often to ping: half the watchdog time, as sd_watchdog_enabled(3) advises."""
        return None if self.watchdog_s is None else self.watchdog_s / 2

    def send(self, *lines: str) -> bool:
        """Send one datagram of `KEY=value` lines; False (and `error` set) if it failed.
        A failure never raises: the kiosk keeps running without its supervisor's ear."""
        if not self.address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.connect(self.address)
                sock.sendall("\n".join(lines).encode())
        except OSError as exc:
            self.error = f"NOTIFY_SOCKET {self.address!r}: {exc}"
            return False
        self.error = None
        return True

    def ready(self, status: str = "ready") -> bool:
        return self.send("READY=1", f"STATUS={status}")

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")
