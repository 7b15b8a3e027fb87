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
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, cast

from kiosk.config import Settings
from kiosk.engine.journal_rows import EVENT, Confirmed
from kiosk.engine.outputs import OutputBase
from kiosk.tables.carrom_inputs import CameraAlive, CameraDiff, CameraLost, CameraMotion, CameraRest
from kiosk.tables.fusion import DiffLike

log = logging.getLogger(__name__)

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

    #: How long `close` waits for the thread to finish its frame (seconds): a frame takes a
    #: fraction of a second, several under load on a Pi; a driver that does not return in
    #: this time is not waited for longer.
    stop_wait_s = 15.0

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
        #: Where the kept empty board is written (beside the journal), if anywhere.
        self.empty_path: Path | None = None
        self._empty_wanted: Any = None
        self._confirmed = threading.Event()
        self._stop = threading.Event()
        self._source_lock = threading.Lock()
        self._source_closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._frames()
        finally:
            if self._stop.is_set():
                self._close_source()  # asked to stop: the source goes once nothing reads it

    def _frames(self) -> None:
        failures = 0
        next_alive = 0.0
        while not self._stop.is_set():
            try:
                frame = self._read()
                problem = None if frame is not None else "no frame"
            except Exception as exc:
                frame, problem = None, f"{type(exc).__name__}: {exc}"
            if self._stop.is_set():
                break  # stopping: the frame is not judged
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
            wanted, self._empty_wanted = self._empty_wanted, None
            if wanted is not None:
                self._adopt_empty(wanted)
            if self._confirmed.is_set() and self.watcher is not None:
                self._confirmed.clear()
                self.watcher.confirm()
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

    def keep_empty(self, rgb: Any) -> None:
        """The calibration screen's "Keep empty board": the picture (RGB, as the screen
        shows it) becomes the board the detector judges against, from the next frame on
        (the camera's thread takes it over), and is kept beside the journal."""
        self._empty_wanted = rgb[..., ::-1].copy()  # RGB -> BGR, the camera's order

    def confirm(self) -> None:
        """The umpire confirmed the stroke the camera last diffed: the view after it
        teaches the detector the set's looks (the camera's thread takes it over)."""
        self._confirmed.set()

    def _adopt_empty(self, image: Any) -> None:
        watcher = self.watcher
        if watcher is None:
            return
        try:
            watcher.keep_empty([image])
        except ValueError as exc:  # no calibration yet
            self.last_error = f"empty board: {exc}"
            return
        if self.empty_path is not None:
            try:
                save_empty(self.empty_path, image, watcher.calibration.to_config(), self._clock())
            except OSError as exc:
                self.last_error = f"empty board: cannot keep it ({exc})"

    @property
    def running(self) -> bool:
        """Whether the camera's thread is still running (after `close`: stuck in a driver)."""
        return self._thread.is_alive()

    def close(self) -> None:
        """Stop the thread, wait for it to finish its frame, then close the source. A thread
        that does not come back within `stop_wait_s` is said in the log, and `running` stays
        True: it closes the source itself when it does."""
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=self.stop_wait_s)
            if self._thread.is_alive():
                log.error(
                    "camera: its thread is still inside a frame after %.1f s (a driver that"
                    " does not return?); its source is closed when it comes back",
                    self.stop_wait_s,
                )
                return
        self._close_source()

    def _close_source(self) -> None:
        with self._source_lock:
            if self._source_closed:
                return
            self._source_closed = True
        close = getattr(self.source, "close", None)
        if callable(close):
            close()


class StrokeConfirmations(OutputBase):
    """The camera hears of each carrom stroke the umpire confirmed, once it is on disk: the
    board at rest after it teaches the detector the set's looks (`CameraFeed.confirm`)."""

    name = "camera"

    def __init__(self, confirm: Callable[[], None]) -> None:
        self._confirm = confirm

    def confirmed(self, confirmed: Confirmed) -> None:
        entry = confirmed.entry
        if (
            confirmed.match.kind == "carrom"
            and entry.kind == EVENT
            and entry.data.get("event") == "stroke"
        ):
            self._confirm()


def empty_board_path(journal: Path) -> Path:
    """Where the kept empty board lies: beside the journal (`journal.db` ->
    `journal.db.empty.png`, its calibration and time in `journal.db.empty.json`)."""
    return journal.with_name(journal.name + ".empty.png")


def save_empty(path: Path, image: Any, calibration: list[list[float]], t: float) -> None:
    """Write the empty board's picture and a note of the calibration it was taken with."""
    import cv2

    tmp = path.with_name(path.name + ".tmp.png")
    if not cv2.imwrite(str(tmp), image):
        raise OSError(f"{path}: cannot write the picture")
    tmp.replace(path)
    note = {"calibration": calibration, "t": t}
    path.with_suffix(".json").write_text(json.dumps(note) + "\n", encoding="utf-8")


def load_empty(path: Path, calibration: list[list[float]]) -> Any:
    """The kept empty board's picture (BGR), or None when there is none, it cannot be
    read, or it was taken with another calibration (the camera moved: keep it again)."""
    import cv2

    note = path.with_suffix(".json")
    if not path.is_file() or not note.is_file():
        return None
    try:
        kept = json.loads(note.read_text(encoding="utf-8")).get("calibration")
    except (OSError, ValueError):
        return None
    if kept != [[round(x, 2), round(y, 2)] for x, y in calibration]:
        return None
    return cv2.imread(str(path), cv2.IMREAD_COLOR)


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
    strokes), and each camera diff the table journals names its two stills; the empty board
    kept at calibration is written beside it and used again at the next start (while the
    calibration is the same)."""
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
    empty_path = empty_board_path(journal) if journal is not None else None
    if empty_path is not None and calibration is not None:
        image = load_empty(empty_path, calibration)
        if image is not None:
            board.keep_empty([image])
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
    feed.empty_path = empty_path
    return feed
