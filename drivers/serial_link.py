"""A serial port kept open by a worker thread, whatever the device does.

Both serial parts (the player display, the sensor bridge) must never stop
the kiosk: an unplugged device, a port that vanishes or a device that goes
quiet becomes a `DeviceStatus` the engine can show, and the worker reopens
the port with back-off (0.5 s doubling to 8 s). No exception reaches the
caller. Subclasses say what to send on opening, on each line and when idle.

A USB device may come back on another path (/dev/ttyUSB0 becomes /dev/ttyUSB1 after a
replug). The port is found again at every reopen: by its USB vendor, product and serial
number, given as `usb:VID:PID[:SERIAL]` (hex ids, as `lsusb` prints them) or learnt from
the path the first time the device is seen there (pyserial's list_ports). `stable_path`
names the device for people: its /dev/serial/by-id link when udev made one.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

import serial
from serial.tools import list_ports

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
    #: The port's URL, and the exception that dropped it ("unplugged"): the facts the
    #: interface words the detail from (kiosk/parts/faults.py).
    port: str = ""
    cause: BaseException | None = field(default=None, compare=False)

    @property
    def ok(self) -> bool:
        return self.state == "ok"


class DeviceGone(serial.SerialException):
    """The USB device last seen at the port is not plugged in anywhere now."""

    def __init__(self, identity: UsbIdentity) -> None:
        super().__init__(f"{identity} is not plugged in")
        self.identity = identity


Opener = Callable[..., Any]
#: The serial ports there are now (pyserial's `list_ports.comports`).
Ports = Callable[[], Sequence[Any]]
BY_ID = "/dev/serial/by-id"


@dataclass(frozen=True, slots=True)
class UsbIdentity:
    """A USB serial device by what it is, not where the kernel put it."""

    vid: int
    pid: int
    serial: str | None = None

    def __str__(self) -> str:
        return f"usb:{self.vid:04x}:{self.pid:04x}" + (f":{self.serial}" if self.serial else "")

    def matches(self, port: Any) -> bool:
        return bool(
            port.vid == self.vid
            and port.pid == self.pid
            and (self.serial is None or port.serial_number == self.serial)
        )


_USB = re.compile(r"usb:([0-9A-Fa-f]{4}):([0-9A-Fa-f]{4})(?::(.+))?")


def parse_usb(url: str) -> UsbIdentity | None:
    """`usb:2341:0043[:SERIAL]` as an identity; None for a path or another URL."""
    match = _USB.fullmatch(url)
    if match is None:
        return None
    return UsbIdentity(int(match.group(1), 16), int(match.group(2), 16), match.group(3))


def identity_at(device: str, ports: Ports) -> UsbIdentity | None:
    """The USB identity of the device at path `device` now (None: not a USB device)."""
    real = os.path.realpath(device)
    for port in ports():
        if port.vid is not None and os.path.realpath(port.device) == real:
            return UsbIdentity(port.vid, port.pid, port.serial_number)
    return None


def find_device(identity: UsbIdentity, ports: Ports) -> str | None:
    """Where the device with `identity` is now."""
    for port in ports():
        if identity.matches(port):
            return str(port.device)
    return None


def by_id_link(device: str, folder: str = BY_ID) -> str | None:
    """The udev /dev/serial/by-id link to `device`, if there is one."""
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return None
    real = os.path.realpath(device)
    for name in names:
        link = os.path.join(folder, name)
        if os.path.realpath(link) == real:
            return link
    return None


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
        ports: Ports = list_ports.comports,
        by_id: str = BY_ID,
    ) -> None:
        self.url = url
        self._ports = ports
        self._by_id = by_id
        #: What the device is (from `usb:...`, or learnt at its path); None: not USB.
        self.identity = parse_usb(url)
        #: The path in use now (None: not found yet).
        self.device: str | None = None
        self.baud = baud
        self._clock = clock
        self._backoff = backoff_s
        self._read_timeout = read_timeout_s
        self._opener = opener
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._port: Any = None
        self._status = DeviceStatus("connecting", f"opening {url}", clock(), url)
        self.reconnects = 0
        self._thread = threading.Thread(target=self._run, name=f"serial {url}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def status(self) -> DeviceStatus:
        with self._lock:
            return self._status

    def _set_status(
        self, state: LinkStatus, detail: str, cause: BaseException | None = None
    ) -> None:
        with self._lock:
            if self._status.state != state or self._status.detail != detail:
                self._status = DeviceStatus(state, detail, self._clock(), self.url, cause)

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
                self._set_status("unplugged", f"{self.name} on {self.url}: {exc}", exc)
                self._stop.wait(wait)
                wait = min(wait * 2, self._backoff[1])
                self.reconnects += 1
        self._drop_port()
        self._set_status("closed", f"{self.name} closed")

    def _resolve(self) -> str:
        """Where to open the device now (raises SerialException if it is not there)."""
        url = self.url
        if parse_usb(url) is None and "://" in url:
            return url  # loop://, socket://, ...: not a device that moves
        if parse_usb(url) is None and os.path.exists(url):
            here = identity_at(url, self._ports)
            if self.identity is None or here == self.identity or here is None:
                self.identity = self.identity or here  # learn what lives at the path
                return url
        if self.identity is None:
            return url  # not there, never seen: the open fails and names it
        found = find_device(self.identity, self._ports)
        if found is None:
            raise DeviceGone(self.identity)
        return found

    @property
    def stable_path(self) -> str:
        """The device's name for people: its /dev/serial/by-id link, else its USB identity,
        else the configured path."""
        link = by_id_link(self.device, self._by_id) if self.device else None
        if link is not None:
            return link
        return str(self.identity) if self.identity is not None else self.url

    def _session(self) -> None:
        device = self._resolve()
        self.device = device
        # A write timeout, so a wedged device becomes an error and a reopen, not a hang.
        port = self._opener(
            device, baudrate=self.baud, timeout=self._read_timeout, write_timeout=0.5
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
