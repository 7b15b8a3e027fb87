"""`tableside doctor`: the installer's one command. One line per check, OK or FAIL, and on FAIL
the fix. Exit status 0 only when every check is OK.

The checks, in order: the GPIO pin factory, the pins free (beams and buzzer), camera frames
arriving and their size, the player display answering a frame, the journal folder writable
and its free space, the clock synchronised (timedatectl's NTPSynchronized, else the kernel's
adjtimex state), the fonts for the four scripts (Latin and Greek in Noto Sans, Devanagari,
Gujarati; fc-list), and the service's state (systemctl is-active). `--simulate` checks the
simulated parts (mock pins, the synthetic camera, a display on a pseudo-terminal, a temporary
journal folder); the clock, fonts and service are this machine's.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import shutil
import subprocess
import tempfile
import time
import warnings
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.config import Settings
from kiosk.startup import StartRefused, find_settings
from kiosk.ui.text import FAMILIES

#: A journal folder with less room than this cannot hold a day's matches and their frames.
MIN_FREE_BYTES = 200 * 1024 * 1024
#: The font families `fc-list` must name: the ones the shaped text path draws with.
FONT_FAMILIES = tuple(family for _stem, family in FAMILIES.values())
SERVICE = "tableside.service"
Run = Callable[[Sequence[str]], "subprocess.CompletedProcess[str]"]


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def line(self) -> str:
        text = f"{'OK  ' if self.ok else 'FAIL'} {self.name}: {self.detail}"
        return text if self.ok or not self.fix else f"{text} -> {self.fix}"


def run_command(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(argv), capture_output=True, text=True, check=False, timeout=10)


def check_pin_factory(settings: Settings, simulate: bool) -> tuple[Check, Any]:
    from gpiozero import Device
    from gpiozero.exc import PinFactoryFallback

    from drivers.pinfactory import make_pin_factory

    name = "mock" if simulate else settings.pockets.pin_factory
    fix = 'on a laptop use --simulate; on the Pi [pockets] pin_factory = "lgpio" (python3-lgpio)'
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PinFactoryFallback)
            # "" leaves the choice to gpiozero: what its devices would get (its own order).
            factory = make_pin_factory(name) or Device._default_pin_factory()
    except Exception as exc:  # DriverError, gpiozero's BadPinFactory, a chip that refused
        return Check("GPIO pin factory", False, str(exc), fix), None
    return Check("GPIO pin factory", True, type(factory).__name__), factory


def check_pins(settings: Settings, factory: Any) -> Check:
    """Each beam's and the buzzer's pin can be claimed (nothing else holds it)."""
    from gpiozero import DigitalInputDevice

    name = "pins free"
    if factory is None:
        return Check(name, False, "no pin factory", "fix the pin factory first")
    pins = [(f"pocket {i}", pin) for i, pin in enumerate(settings.pockets.pins, start=1)]
    if settings.pockets.source != "gpio":
        pins = []
    pins.append(("buzzer", settings.buzzer.pin))
    busy: list[str] = []
    for part, pin in pins:
        try:
            DigitalInputDevice(pin, pin_factory=factory).close()
        except Exception as exc:  # GPIOPinInUse, PinInvalidPin, a chip that refused
            busy.append(f"GPIO {pin} ({part}): {exc}")
    if busy:
        fix = "stop whatever holds them (is the kiosk running? systemctl stop tableside)"
        return Check(name, False, "; ".join(busy), fix)
    return Check(name, True, "GPIO " + ", ".join(str(pin) for _, pin in pins))


def check_camera(settings: Settings, simulate: bool, wait_s: float = 3.0) -> Check:
    from vision.capture import open_camera

    c = settings.camera
    source = "synthetic" if simulate else c.source
    if source == "none":
        return Check("camera", True, 'none fitted (camera.source = "none")')
    fix = "check the cable and [camera] source (usb:N, picamera2); v4l2-ctl --list-devices"
    try:
        camera = open_camera(source, width=c.width, height=c.height)
    except Exception as exc:  # CameraError, or OpenCV's own
        return Check("camera", False, f"{source}: {exc}", fix)
    frames, size, end = 0, (0, 0), time.monotonic() + wait_s
    try:
        while time.monotonic() < end and frames < 10:
            frame = camera.read()
            if frame is None:
                if camera.stopped:
                    break
                time.sleep(0.02)
                continue
            frames += 1
            size = (int(frame.image.shape[1]), int(frame.image.shape[0]))
    finally:
        camera.close()
    if not frames:
        return Check("camera", False, f"{source}: no frame in {wait_s:g} s", fix)
    return Check("camera", True, f"{source}: frames arriving, {size[0]}x{size[1]}")


def check_display(port: str, baud: int, wait_s: float = 2.0) -> Check:
    from drivers.display import PlayerDisplay
    from drivers.display_protocol import DisplayFrame

    if not port:
        return Check("player display", True, 'none configured (display.port = "")')
    frame = DisplayFrame(0, 0, "0:00", "-", 0, "DOCTOR")
    display = PlayerDisplay(port, baud=baud)
    try:
        display.show(frame)
        if display.wait_shown(frame, wait_s):
            return Check("player display", True, f"{port} answered")
        detail = display.status.detail
    finally:
        display.close()
    fix = "check the USB cable and [display] port (ls /dev/serial/by-id/) and baud"
    return Check("player display", False, f"{port}: {detail}", fix)


def check_journal(folder: Path, min_free: int = MIN_FREE_BYTES) -> Check:
    name = "journal folder"
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-"):
            pass
        free = shutil.disk_usage(folder).free
    except OSError as exc:
        fix = f"sudo install -d -o tableside -g tableside -m 0750 {folder}"
        return Check(name, False, f"{folder} is not writable: {exc.strerror or exc}", fix)
    text = f"{folder} writable, {free / 2**30:.1f} GiB free"
    if free < min_free:
        return Check(name, False, text, f"free at least {min_free // 2**20} MiB")
    return Check(name, True, text)


def adjtimex_state() -> int | None:
    """The kernel clock's state from adjtimex(2) (modes 0: read only); 5 is TIME_ERROR, not
    synchronised. None where libc has no adjtimex."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    if not hasattr(libc, "adjtimex"):
        return None
    buffer = ctypes.create_string_buffer(512)  # struct timex, zeroed: modes = 0
    state = int(libc.adjtimex(buffer))
    return None if state < 0 else state


def check_clock(run: Run = run_command) -> Check:
    name = "clock synchronised"
    fix = "connect the network and enable NTP: sudo timedatectl set-ntp true"
    try:
        done = run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"])
        answer = done.stdout.strip() if done.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        answer = ""
    if answer in ("yes", "no"):
        return Check(name, answer == "yes", f"NTPSynchronized={answer} (timedatectl)", fix)
    state = adjtimex_state()
    if state is None:
        return Check(name, False, "neither timedatectl nor adjtimex answered", fix)
    return Check(name, state != 5, f"kernel clock state {state} (adjtimex; 5: unsynchronised)", fix)


def check_fonts(run: Run = run_command) -> Check:
    name = "fonts"
    fix = "sudo apt install fonts-noto-core"
    try:
        done = run(["fc-list", "--format", "%{family}\n"])
    except (OSError, subprocess.SubprocessError) as exc:
        return Check(name, False, f"fc-list: {exc}", "sudo apt install fontconfig")
    families = {f.strip() for line in done.stdout.splitlines() for f in line.split(",")}
    missing = [f for f in FONT_FAMILIES if f not in families]
    if missing:
        return Check(name, False, "missing " + ", ".join(missing), fix)
    return Check(name, True, "Latin and Greek (Noto Sans), Devanagari, Gujarati")


def check_service(run: Run = run_command) -> Check:
    name = "service"
    try:
        done = run(["systemctl", "is-active", SERVICE])
        said = (done.stdout.strip() or done.stderr.strip()).splitlines()
        state = said[0] if said else f"exit {done.returncode}"
    except (OSError, subprocess.SubprocessError) as exc:
        state = str(exc)
    if state == "active":
        return Check(name, True, f"{SERVICE} active")
    fix = f"sudo systemctl enable --now {SERVICE}; journalctl -u {SERVICE} says why it stopped"
    return Check(name, False, f"{SERVICE} {state}", fix)


def run_checks(settings: Settings, data_dir: Path, *, simulate: bool) -> list[Check]:
    checks: list[Check] = []
    with ExitStack() as stack:
        factory_check, factory = check_pin_factory(settings, simulate)
        checks += [factory_check, check_pins(settings, factory)]
        if factory is not None:
            stack.callback(factory.close)
        checks.append(check_camera(settings, simulate))
        port = settings.display.port
        if simulate:
            from drivers.display_sim import SimulatedDisplay

            port = stack.enter_context(SimulatedDisplay()).port_path
        checks.append(check_display(port, settings.display.baud))
    checks += [check_journal(data_dir), check_clock(), check_fonts(), check_service()]
    return checks


def main(args: argparse.Namespace) -> int:
    simulate = bool(args.simulate)
    try:
        settings, data_dir, _ = find_settings(args.config, args.data, simulate=simulate)
    except StartRefused as exc:
        print(f"FAIL settings: {exc}")
        return 1
    checks = run_checks(settings, data_dir, simulate=simulate)
    for check in checks:
        print(check.line(), flush=True)
    failed = sum(not c.ok for c in checks)
    print("doctor: all OK" if not failed else f"doctor: {failed} check(s) failed")
    return 0 if not failed else 1
