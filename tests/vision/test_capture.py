"""Capture: a video file through cv2.VideoCapture, the simulated camera, missing cameras."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibration import auto_calibrate
from vision.capture import CameraError, Frame, open_camera, open_camera_or_stopped
from vision.diff import StrokeDiff
from vision.sim.live import SimulatedBoard
from vision.watcher import BoardWatcher


class FakeClock:
    def __init__(self, step: float = 1 / 30) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        t = self.now
        self.now += self.step
        return t


def write_video(path: Path, frames: list[np.ndarray], fps: float = 30.0) -> None:
    h, w = frames[0].shape[:2]
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (w, h))
    assert out.isOpened()
    for f in frames:
        out.write(f)
    out.release()


def test_capture_reads_a_video_file_then_stops(tmp_path: Path) -> None:
    board = SimulatedBoard()
    frames = [board.frame(0.0)] * 5
    path = tmp_path / "board.avi"
    write_video(path, frames)
    clock = FakeClock()
    cam = open_camera(f"file:{path}", clock=clock)
    got = []
    while (frame := cam.read()) is not None:
        got.append(frame)
    assert len(got) == 5
    assert all(f.image.shape == (480, 640, 3) and f.image.dtype == np.uint8 for f in got)
    assert [f.t for f in got] == pytest.approx([k / 30 for k in range(5)])
    # JPEG-compressed, but the same picture.
    assert float(np.abs(got[0].image.astype(int) - frames[0].astype(int)).mean()) < 4.0
    assert cam.stopped
    assert cam.error is not None and f"file:{path}" in cam.error
    assert cam.read() is None


def test_capture_video_of_a_stroke_through_the_watcher(tmp_path: Path) -> None:
    board = SimulatedBoard()
    empty = board.empty_frame()
    board.strike(0.5, [("white", 4)], duration=0.6)
    path = tmp_path / "stroke.avi"
    write_video(path, [board.frame(k / 30) for k in range(60)])
    watcher = BoardWatcher.from_empty_board(auto_calibrate(empty), [empty])
    events = []
    with open_camera(f"file:{path}", clock=FakeClock()) as cam:
        while (frame := cam.read()) is not None:
            events.extend(watcher.feed(frame.t, frame))
    names = [type(e).__name__ for e in events]
    assert names == ["StrokeStarted", "CoinsAtRest", "StrokeDiff"]
    diff = events[2]
    assert isinstance(diff, StrokeDiff)
    assert [(g.colour, g.pocket) for g in diff.gone] == [("white", 4)]


def test_capture_missing_usb_camera_is_a_clear_error() -> None:
    with pytest.raises(CameraError, match="camera usb:97: cannot be opened"):
        open_camera("usb:97")


def test_capture_missing_camera_lets_the_kiosk_carry_on() -> None:
    cam = open_camera_or_stopped("usb:97")
    assert cam.stopped
    assert cam.read() is None
    assert cam.error is not None and "usb:97" in cam.error


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ("file:/nonexistent/board.avi", "no such file"),
        ("usb:x", "expected usb:N"),
        ("webcam", "unknown source"),
    ],
)
def test_capture_bad_source_names_it(source: str, words: str) -> None:
    with pytest.raises(CameraError) as exc:
        open_camera(source)
    assert source in str(exc.value) and words in str(exc.value)


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None, reason="picamera2 installed")
def test_capture_picamera2_missing_is_a_clear_error() -> None:
    with pytest.raises(
        CameraError, match="camera picamera2: the picamera2 module is not installed"
    ):
        open_camera("picamera2")


def test_capture_synthetic_source_follows_the_clock() -> None:
    clock = FakeClock(step=0.5)
    cam = open_camera("synthetic", clock=clock)
    first = cam.read()
    second = cam.read()
    assert isinstance(first, Frame) and isinstance(second, Frame)
    assert (first.t, second.t) == (0.0, 0.5)
    assert first.image.shape == (480, 640, 3)
    cam.close()
    assert cam.stopped and cam.read() is None
