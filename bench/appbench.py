"""What the kiosk app's benchmarks share (bench/bench_ui.py, bench/bench_i18n.py): the cold
start to the home screen, the process's resident memory, a virtual screen when there is
no display, and a carrom match played stroke by stroke on the console. Not a benchmark
itself (`make bench` runs only bench/bench_*.py)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: Said on the first line of each app benchmark's output.
SHARED_CPU_NOTE = "(2 shared cores: other engineers' work ran at the same time)"


def time_to_home(runs: int, config_text: str | None = None) -> list[float]:
    """Seconds from spawning `tableside run --simulate` to its READY=1 on a notify socket (the
    kiosk sends it on the first frame drawn after the home screen is built), `runs` times.
    `config_text`: a settings file to start with (e.g. `[ui] language`), else the defaults."""
    out: list[float] = []
    for _ in range(runs):
        folder = Path(tempfile.mkdtemp(prefix="bench-start-"))
        address = str(folder / "notify.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listener.bind(address)
        listener.settimeout(0.2)
        env = {**os.environ, "NOTIFY_SOCKET": address, "KIVY_HOME": str(folder / "kivy")}
        command = [sys.executable, "-m", "kiosk.cli", "run", "--simulate"]
        if config_text is not None:
            config = folder / "settings.toml"
            config.write_text(config_text, encoding="utf-8")
            command += ["--config", str(config)]
        started = time.monotonic()
        proc = subprocess.Popen(
            [*command, "--data", str(folder / "data")],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            while time.monotonic() - started < 60:
                try:
                    if b"READY=1" in listener.recv(4096):
                        out.append(time.monotonic() - started)
                        break
                except TimeoutError:
                    if proc.poll() is not None:
                        raise RuntimeError(f"tableside run exited {proc.returncode}") from None
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
            listener.close()
            shutil.rmtree(folder, ignore_errors=True)
    return out


def rss_mb() -> float:
    """This process's resident memory (VmRSS), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def under_display(script: str, argv: list[str]) -> int | None:
    """Re-run `script` under xvfb-run when there is no display (its exit code); None: there
    is one, go on."""
    if os.environ.get("DISPLAY"):
        return None
    if shutil.which("xvfb-run") is None:
        print(f"{Path(script).stem}: no display and no xvfb-run", file=sys.stderr)
        return 1
    command = ["xvfb-run", "-a", "-s", "-screen 0 1024x600x24", sys.executable, script, *argv]
    return subprocess.call(command)


def load_average() -> str:
    """The machine's 1-minute load average, to print beside wall-clock figures."""
    return f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores"


def play_stroke(screen: Any, strokes: int) -> int | None:
    """One step of a carrom match on the console (the app's "carrom" screen), through its own
    commands: the toss, or a stroke pocketing the side's own men (with the queen while she is
    on the board, covered at once). `strokes`: those played so far; returns the new count
    (the toss is none), or None once the match is over (a winner, or past 1000 strokes)."""
    state = screen.session.view().state
    if state.winner is not None or strokes > 1000:
        return None
    if state.toss_due:
        screen.pick_action = "toss"
        screen.picked(state.players[0])
        return strokes
    now = state.now
    own = now.colours[now.turn_side]
    if now.on_board["queen"]:
        screen.coin(own, 1)
        screen.toggle_queen()
    else:
        for _ in range(int(now.on_board[own])):
            screen.coin(own, 1)
    screen.confirm()
    return strokes + 1
