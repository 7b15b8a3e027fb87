"""The camera feed: a thread that reads frames, hands them to the board watcher, and posts
what it saw to the session as kiosk/tables/carrom_inputs.py events.

The vision package (vision/capture.py, vision/watcher.py) turns frames into facts; this thread
only moves them along and watches the camera itself: every `alive_every_s` it posts
`CameraAlive` while frames arrive, and after `lost_after` failed reads in a row it posts
`CameraLost` and tries again after a pause, so a camera that comes back is used again. The
session also notices silence on its own (no `CameraAlive` for a while), so a thread that
hangs inside a driver still shows as a fault.
"""

from __future__ import annotations

import importlib
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, cast

from kiosk.config import Settings
from kiosk.tables.carrom_inputs import CameraAlive, CameraDiff, CameraLost, CameraMotion, CameraRest
from kiosk.tables.fusion import DiffLike

Sink = Callable[[object], None]
ReadFrame = Callable[[], Any]
Watch = Callable[[float, Any], Iterable[object]]


def translate(event: object, t: float) -> object | None:
    """A vision event as a session input (by the event's kind; None for events the session
    does not use). The event's own time is used when it has one."""
    at = float(getattr(event, "t", t))
    name = type(event).__name__
    if name == "StrokeStarted":
        return CameraMotion(at)
    if name == "CoinsAtRest":
        return CameraRest(at)
    if all(hasattr(event, a) for a in ("gone", "striker_gone", "off_board")):
        return CameraDiff(at, cast(DiffLike, event))
    return None


class CameraFeed:
    """Reads `read()` (a frame, or None / an exception when the camera fails) in a thread,
    passes each frame with its time to `watch(t, frame)`, posts the results to `sink`."""

    def __init__(
        self,
        read: ReadFrame,
        watch: Watch,
        sink: Sink,
        *,
        clock: Callable[[], float] = time.monotonic,
        alive_every_s: float = 0.5,
        lost_after: int = 10,
        retry_s: float = 2.0,
        reopen: Callable[[], ReadFrame] | None = None,
        pace_s: float = 0.0,
        source: Any = None,
        name: str = "camera",
    ) -> None:
        self._read = read
        self._watch = watch
        self._sink = sink
        self._clock = clock
        self.alive_every_s = alive_every_s
        self.lost_after = lost_after
        self.retry_s = retry_s
        self._reopen = reopen
        self.pace_s = pace_s
        #: The capture source (vision/capture.py), e.g. for `make run` to reach the
        #: simulated board (`source.board.strike(...)`) or the calibration screen.
        self.source = source
        self.frames = 0
        #: The latest image (BGR array) for the calibration screen's live picture.
        self.latest: Any = None
        self.watcher: Any = None
        self.lost = False
        self.last_error: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        failures = 0
        next_alive = 0.0
        while not self._stop.is_set():
            try:
                frame = self._read()
                problem = None if frame is not None else "no frame"
            except Exception as exc:
                frame, problem = None, f"{type(exc).__name__}: {exc}"
            now = self._clock()
            if frame is not None and hasattr(frame, "image"):
                now = float(getattr(frame, "t", now))  # a capture Frame carries its time
            if frame is None:
                failures += 1
                self.last_error = problem
                if failures >= self.lost_after and not self.lost:
                    self.lost = True
                    self._sink(CameraLost(now, f"no frames ({problem})"))
                if self.lost:
                    self._stop.wait(self.retry_s)
                    if self._reopen is not None:
                        try:
                            self._read = self._reopen()
                        except Exception as exc:
                            self.last_error = f"reopen: {exc}"
                continue
            failures = 0
            self.frames += 1
            self.latest = getattr(frame, "image", frame)
            if self.lost or now >= next_alive:
                self.lost = False
                self._sink(CameraAlive(now))
                next_alive = now + self.alive_every_s
            try:
                for event in self._watch(now, frame):
                    item = translate(event, now)
                    if item is not None:
                        self._sink(item)
            except Exception as exc:  # a frame the watcher chokes on is skipped, not fatal
                self.last_error = f"watcher: {type(exc).__name__}: {exc}"
            if self.pace_s:
                # A rendered or recorded source delivers at once: keep to a camera's rate.
                self._stop.wait(max(0.0, self.pace_s - (self._clock() - now)))

    def close(self) -> None:
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        close = getattr(self.source, "close", None)
        if callable(close):
            close()


def start_camera(
    source: str,
    settings: Settings,
    sink: Sink,
    *,
    clock: Callable[[], float] = time.monotonic,
    journal: Path | None = None,
) -> CameraFeed:
    """The camera of `source` ("usb:N", "picamera2", "file:PATH", "synthetic") with the board
    watcher of vision/watcher.py; raises (vision's CameraError names the source) when the
    camera cannot be opened, so the kiosk records it as a fault and goes on without it.
    With the `journal`'s path, the watcher keeps protest stills beside it (`camera.stills_keep`
    strokes), and each camera diff the table journals names its two stills."""
    # Imported by name: OpenCV loads only on a kiosk that has a camera.
    capture: Any = importlib.import_module("vision.capture")
    watcher: Any = importlib.import_module("vision.watcher")
    size = {"width": settings.camera.width, "height": settings.camera.height, "clock": clock}
    camera = capture.open_camera(source, **size)
    calibration = [list(p) for p in settings.camera.calibration] or None
    stills = None
    if journal is not None and settings.camera.stills_keep:
        kept: Any = importlib.import_module("vision.stills")
        stills = kept.Stills(kept.stills_folder(journal), settings.camera.stills_keep)
    board = watcher.BoardWatcher(calibration, stills=stills)
    paced = source == "synthetic" or source.startswith("file:")
    feed = CameraFeed(
        camera.read,
        board.feed,
        sink,
        clock=clock,
        reopen=lambda: capture.open_camera(source, **size).read,
        pace_s=1 / 15 if paced else 0.0,
        source=camera,
    )
    feed.watcher = board
    return feed
