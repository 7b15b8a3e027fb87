"""Camera capture: a thin layer that hands BGR frames and their times to the watcher.

Sources (`[camera] source` in the config):

- `usb:N`: a USB (UVC) camera through `cv2.VideoCapture(N)`;
- `picamera2`: the Raspberry Pi camera through Picamera2, imported only here
  (`cv2.VideoCapture` cannot open a CSI camera on the libcamera stack);
- `file:PATH`: a video file, frame by frame (tests, replaying a match);
- `synthetic`: the simulated board (vision.sim.live), for `make run`.

`open_camera` raises `CameraError` naming the source when it cannot open it.
`open_camera_or_stopped` returns a source that reports it stopped instead,
so the kiosk carries on without a camera. A source that fails later stops:
`read()` returns None from then on and `error` says why.
"""

from __future__ import annotations

import importlib
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy.typing as npt

from vision.sim.live import SimulatedBoard, default_board

Array = npt.NDArray[Any]
Clock = Callable[[], float]


class CameraError(RuntimeError):
    """A camera that cannot be opened or has stopped; the message names the source."""


@dataclass(frozen=True, slots=True)
class Frame:
    t: float  # seconds on the kiosk's monotonic clock
    image: Array  # BGR, uint8


class FrameSource(ABC):
    """Where frames come from. `read()` returns the next frame, or None once the
    source has stopped (then `stopped` is True and `error` says why)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.error: str | None = None

    @property
    def stopped(self) -> bool:
        return self.error is not None

    def _stop(self, reason: str) -> None:
        if self.error is None:
            self.error = f"camera {self.name}: {reason}"

    @abstractmethod
    def read(self) -> Frame | None: ...

    def close(self) -> None:
        self._stop("closed")

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class StoppedSource(FrameSource):
    """No camera: the kiosk runs on beams and taps alone."""

    def __init__(self, name: str, error: str) -> None:
        super().__init__(name)
        self.error = error

    def read(self) -> Frame | None:
        return None


class VideoCaptureSource(FrameSource):
    """A USB camera or a video file through cv2.VideoCapture."""

    def __init__(
        self, name: str, target: int | str, *, width: int, height: int, clock: Clock
    ) -> None:
        super().__init__(name)
        self._clock = clock
        self._cap = cv2.VideoCapture(target)
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraError(f"camera {name}: cannot be opened")
        if isinstance(target, int):
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def read(self) -> Frame | None:
        if self.stopped:
            return None
        ok, image = self._cap.read()
        if not ok or image is None:
            self._stop("stopped delivering frames")
            self._cap.release()
            return None
        return Frame(self._clock(), image)

    def close(self) -> None:
        self._cap.release()
        super().close()


class PicameraSource(FrameSource):
    """The Raspberry Pi camera through Picamera2 (BGR frames: "RGB888" is B, G, R)."""

    def __init__(self, *, width: int, height: int, clock: Clock) -> None:
        super().__init__("picamera2")
        self._clock = clock
        try:
            module = importlib.import_module("picamera2")
        except ImportError as exc:
            raise CameraError(
                f"camera picamera2: the picamera2 module is not installed ({exc})"
            ) from None
        try:
            self._cam = module.Picamera2()
            config = self._cam.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"}
            )
            self._cam.configure(config)
            self._cam.start()
        except Exception as exc:  # Picamera2 raises plain RuntimeErrors and more
            raise CameraError(f"camera picamera2: cannot be started ({exc})") from None

    def read(self) -> Frame | None:
        if self.stopped:
            return None
        try:
            image = self._cam.capture_array("main")
        except Exception as exc:
            self._stop(f"stopped delivering frames ({exc})")
            return None
        return Frame(self._clock(), image[:, :, :3])

    def close(self) -> None:
        try:
            self._cam.stop()
            self._cam.close()
        except Exception:
            pass
        super().close()


class SyntheticSource(FrameSource):
    """The simulated board, rendered at the clock's time."""

    def __init__(self, board: SimulatedBoard | None = None, *, clock: Clock) -> None:
        super().__init__("synthetic")
        self.board = board if board is not None else default_board()
        self._clock = clock

    def read(self) -> Frame | None:
        if self.stopped:
            return None
        t = self._clock()
        return Frame(t, self.board.frame(t))


def open_camera(
    source: str, *, width: int = 640, height: int = 480, clock: Clock = time.monotonic
) -> FrameSource:
    """Open a camera by its config name (see the module docstring)."""
    kind, _, arg = source.partition(":")
    if kind == "usb":
        if not arg.isdigit():
            raise CameraError(f"camera {source}: expected usb:N with N a device number")
        return VideoCaptureSource(source, int(arg), width=width, height=height, clock=clock)
    if kind == "file":
        if not arg:
            raise CameraError(f"camera {source}: expected file:PATH")
        if not Path(arg).is_file():
            raise CameraError(f"camera {source}: no such file {arg}")
        return VideoCaptureSource(source, arg, width=width, height=height, clock=clock)
    if source == "picamera2":
        return PicameraSource(width=width, height=height, clock=clock)
    if source == "synthetic":
        return SyntheticSource(clock=clock)
    raise CameraError(
        f"camera {source}: unknown source (use usb:N, picamera2, file:PATH or synthetic)"
    )


def open_camera_or_stopped(
    source: str, *, width: int = 640, height: int = 480, clock: Clock = time.monotonic
) -> FrameSource:
    """Like open_camera, but a camera that cannot be opened gives a stopped source
    carrying the error, so the kiosk starts without it."""
    try:
        return open_camera(source, width=width, height=height, clock=clock)
    except CameraError as exc:
        return StoppedSource(source, str(exc))
