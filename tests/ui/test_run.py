"""`tableside run`: a bad settings file stops the start; `--simulate` opens the window and
tells systemd it is ready once the home screen is drawn (the notify protocol, for real)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest


def _tableside(*args: str) -> list[str]:
    return [sys.executable, "-m", "kiosk.cli", *args]


def test_run_refuses_a_bad_settings_file_naming_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[timers]\nstroke_s = "fast"\n', encoding="utf-8")
    done = subprocess.run(
        _tableside("run", "--config", str(bad), "--data", str(tmp_path / "data")),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert f"{bad}:2: timers.stroke_s" in done.stderr
    assert not (tmp_path / "data" / "journal.db").exists()


def test_run_simulate_reaches_the_home_screen_and_says_ready(tmp_path: Path) -> None:
    address = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(address)
    listener.settimeout(1.0)
    env = {**os.environ, "NOTIFY_SOCKET": address, "KIVY_HOME": str(tmp_path / "kivy")}
    started = time.monotonic()
    proc = subprocess.Popen(
        _tableside("run", "--simulate", "--data", str(tmp_path / "data")),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        message = ""
        while "READY=1" not in message and time.monotonic() - started < 60:
            if proc.poll() is not None:
                pytest.fail(f"tableside run exited {proc.returncode}: {proc.stderr.read()}")  # type: ignore[union-attr]
            try:
                message = listener.recv(4096).decode()
            except TimeoutError:
                continue
        assert "READY=1" in message and "STATUS=home screen shown" in message
        assert (tmp_path / "data" / "journal.db").exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        listener.close()
