"""The kiosk as an installer gets it: the wheel built from the project, installed into a clean
virtual environment, run from a folder that is not the checkout.

One wheel and one virtual environment per test run, shared by the workers (building and
installing take most of this file's time; the durations are printed with -s). Nothing of the
checkout is imported or read after the wheel is built: the commands run from a temporary
folder with a clean environment, so only what the wheel ships (code, .kv files, default
settings) is there.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import pytest

from tests.install.once import once
from vision.sim import render as S
from vision.sim.variations import random_home_scene

READY_TIMEOUT_S = 90.0

if shutil.which("xvfb-run") is None:
    pytest.skip("xvfb-run is missing: `make setup` installs it", allow_module_level=True)


@dataclass(frozen=True)
class Installed:
    venv: Path
    wheel: Path
    home: Path  # an empty folder to run from, and HOME (Kivy writes its settings there)

    @property
    def tableside(self) -> str:
        return str(self.venv / "bin" / "tableside")

    def env(self, **extra: str) -> dict[str, str]:
        """A clean environment: no PYTHONPATH, no virtual environment of the checkout."""
        keep = ("PATH", "LANG", "LC_ALL", "TMPDIR", "PIP_FIND_LINKS", "PIP_CERT")
        env = {k: os.environ[k] for k in keep if k in os.environ}
        env["PATH"] = f"{self.venv / 'bin'}:/usr/local/bin:/usr/bin:/bin"
        env.update(HOME=str(self.home), KIVY_HOME=str(self.home / "kivy"), KIVY_NO_ARGS="1")
        env.update(extra)
        return env


def _run(argv: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, check=False, **kw)  # type: ignore[call-overload, no-any-return]


@pytest.fixture(scope="session")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    def install(base: Path) -> None:
        started = time.monotonic()
        venv = base / "venv"
        # Without its own pip (ensurepip takes a while): this pip installs into it (--python).
        argv = [sys.executable, "-m", "venv", "--clear", "--without-pip", str(venv)]
        made = _run(argv, timeout=120)
        assert made.returncode == 0, made.stderr
        # The dependencies come from pip's cache or the index, as on a Pi.
        python = str(venv / "bin" / "python")
        done = _run(
            [sys.executable, "-m", "pip", "--python", python, "install", "-q", str(wheel)],
            timeout=600,
        )
        assert done.returncode == 0, done.stderr
        print(f"\nclean venv installed in {time.monotonic() - started:.1f} s")

    venv = once(tmp_path_factory, "venv", install) / "venv"  # one a run, for both workers
    home = tmp_path_factory.mktemp("home")  # each worker's own (Kivy writes its settings)
    return Installed(venv, wheel, home)


def test_wheel_ships_the_defaults_and_the_kv_files(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    assert "kiosk/defaults/default.toml" in names
    assert "kiosk/ui/home.kv" in names
    assert not any(name.startswith(("config/", "tests/", "docs/")) for name in names)


def test_wheel_vision_detect_runs_the_shipped_model(installed: Installed) -> None:
    """The learned stage's model is read from the installed package: a rendered home board
    (rendered here, by the checkout) counted by the installed command, from another folder."""
    assert "vision/models/coin_net.onnx" in zipfile.ZipFile(installed.wheel).namelist()
    scene = random_home_scene(3)
    photo = installed.home / "board.png"
    cv2.imwrite(str(photo), S.render(scene))
    pockets = ",".join(f"{x:.1f},{y:.1f}" for x, y in S.pocket_centres_image(scene.look))
    argv = [installed.tableside, "vision", "detect", str(photo), "--pockets", pockets, "--json"]
    done = _run(argv, cwd=installed.home, env=installed.env())
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout)
    for colour in ("white", "black", "queen", "striker"):
        assert counts[colour] == sum(p.colour == colour for p in scene.pieces), colour
    photo.unlink()


def test_wheel_config_check_of_the_shipped_defaults(installed: Installed) -> None:
    done = _run([installed.tableside, "config", "check"], cwd=installed.home, env=installed.env())
    assert done.returncode == 0, done.stderr
    shipped = "/site-packages/kiosk/defaults/default.toml: OK"
    assert shipped in done.stdout
    assert str(installed.venv) in done.stdout  # the venv's copy, not the checkout's


def test_wheel_config_init_then_check(installed: Installed) -> None:
    target = installed.home / "settings.toml"
    env = installed.env()
    done = _run([installed.tableside, "config", "init", str(target)], cwd=installed.home, env=env)
    assert done.returncode == 0, done.stderr
    assert "[pockets]" in target.read_text(encoding="utf-8")
    done = _run([installed.tableside, "config", "check", str(target)], cwd=installed.home, env=env)
    assert done.returncode == 0, done.stderr
    target.unlink()


@pytest.fixture
def notify(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """The systemd side of the notify protocol: a datagram socket this test owns."""
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        yield sock, path


class Kiosk:
    """`tableside run` under its own Xvfb; stopped (the whole process group) afterwards."""

    def __init__(self, installed: Installed, notify_path: str, screen: str, *args: str) -> None:
        # Xvfb must not inherit NOTIFY_SOCKET: it speaks the protocol too and would send its
        # own READY=1; only the kiosk gets it.
        inner = (
            'n="$1" t="$2" d="$3"; shift 3; '
            'exec env NOTIFY_SOCKET="$n" "$t" run --simulate --data "$d" "$@"'
        )
        data = installed.home / f"data-{time.monotonic_ns()}"
        argv = ["xvfb-run", "-a", "-s", f"-screen 0 {screen}x24", "sh", "-c", inner]
        argv += ["kiosk", notify_path, installed.tableside, str(data), *args]
        self.proc = subprocess.Popen(
            argv,
            cwd=installed.home,
            env=installed.env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )

    def stop(self) -> str:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=15)
        out = self.proc.stdout.read() if self.proc.stdout else ""
        return out


def wait_ready(sock: socket.socket, kiosk: Kiosk) -> list[str]:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if kiosk.proc.poll() is not None:
            pytest.fail(f"the kiosk stopped ({kiosk.proc.returncode}):\n{kiosk.stop()}")
        sock.settimeout(1.0)
        try:
            lines = sock.recv(4096).decode().split("\n")
        except TimeoutError:
            continue
        if "READY=1" in lines:
            return lines
    pytest.fail(f"no READY=1 within {READY_TIMEOUT_S:g} s:\n{kiosk.stop()}")


def test_wheel_run_simulate_reports_ready_on_the_notify_socket(
    installed: Installed, notify: tuple[socket.socket, str]
) -> None:
    sock, path = notify
    started = time.monotonic()
    kiosk = Kiosk(installed, path, "1024x600")
    try:
        lines = wait_ready(sock, kiosk)
        ready_s = time.monotonic() - started
    finally:
        output = kiosk.stop()
    assert "STATUS=home screen shown" in lines
    assert "cannot start" not in output
    print(f"\nREADY=1 {ready_s:.1f} s after the start")


def test_wheel_run_fullscreen_takes_the_screen_size(
    installed: Installed, notify: tuple[socket.socket, str]
) -> None:
    # The official 7" touchscreen's 800x480: the window takes the screen's own size (the size
    # SDL reports; without a window manager Xvfb does not resize the X window itself).
    sock, path = notify
    kiosk = Kiosk(installed, path, "800x480", "--fullscreen")
    try:
        wait_ready(sock, kiosk)
    finally:
        output = kiosk.stop()
    assert "tableside: fullscreen, 800x480" in output, output


def test_wheel_run_size_opens_a_window_of_that_size(
    installed: Installed, notify: tuple[socket.socket, str]
) -> None:
    sock, path = notify
    kiosk = Kiosk(installed, path, "1280x800", "--size", "900x500")
    try:
        wait_ready(sock, kiosk)
    finally:
        output = kiosk.stop()
    assert "tableside: a window, 900x500" in output, output
