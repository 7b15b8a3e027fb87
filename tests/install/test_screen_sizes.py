"""The kiosk fills the Pi's screens: fullscreen at the screen's own size (the official 7"
touchscreen's 800x480, a 1024x600 panel, an HDMI screen at 1920x1080), each under its own
Xvfb screen of that size. The home screen is saved as tests/artifacts/home_WxH.png (the
800x480 and 1920x1080 shots are in docs/install.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
SHOT = Path(__file__).with_name("home_shot.py")

if shutil.which("xvfb-run") is None:
    pytest.skip("xvfb-run is missing: `make setup` installs it", allow_module_level=True)


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (1920, 1080)], ids=str)
def test_window_fullscreen_fills_the_screen(size: tuple[int, int], tmp_path: Path) -> None:
    width, height = size
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = ARTIFACTS / f"home_{width}x{height}.png"
    env = {**os.environ, "KIVY_HOME": str(tmp_path / "kivy")}
    env.pop("DISPLAY", None)
    screen = f"-screen 0 {width}x{height}x24"
    done = subprocess.run(
        ["xvfb-run", "-a", "-s", screen, sys.executable, str(SHOT), str(target)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert f"window {width}x{height}" in lines
    assert f"home home {width}x{height}" in lines
    (x11,) = [line for line in lines if line.startswith("x11 ")]
    assert "Position: 0,0" in x11 and f"Geometry: {width}x{height}" in x11, x11
    made = next(line[5:] for line in lines if line.startswith("shot "))
    os.replace(made, target)
    image = cv2.imread(str(target))
    assert image.shape[:2] == (height, width)
    # The home screen is drawn across it: its tiles reach the right and the bottom edge.
    assert image[: height // 2].std() > 10 and image[height // 2 :].std() > 10
    assert image[:, width * 9 // 10 :].std() > 10
