"""Run by test_kiosk_exit.py under Xvfb: `tableside run --simulate` itself (kiosk.cli), with
its camera's thread caught inside OpenCV's C++ code when the kiosk stops, for certain.

Usage: kiosk_exit.py DATA_DIR MODE, MODE "window" (the window closes: the app stops itself) or
"sigterm" (the test sends SIGTERM, as systemd stops the service).

Once the home screen is up, the camera's next frame calls into OpenCV (a VideoCapture reading a
stream), and OpenCV calls back for the stream's bytes; the callback blocks. That is a camera
thread inside C++ with Python's lock released, as at every frame (a resize, a blur, a driver's
read), only held there until the process ends. "inside" is printed once it is there, and in
"window" mode the app is told to stop. If the kiosk lets the interpreter finalize while the
thread is still in OpenCV, the stream is let go during the finalization (from the flush of
sys.stdout, which the interpreter does after it stopped every other thread from running
Python): the thread wakes in C++, is unwound by the interpreter's thread exit through OpenCV's
frames, and the process aborts ("terminate called without an active exception" or "FATAL:
exception not rethrown", exit status 134) - what happened by chance under load when a frame
outlasted the camera's two-second join. A kiosk that ends its threads before it lets the
interpreter finalize never gets there.
"""

from __future__ import annotations

import io
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import cv2

data_dir, mode = sys.argv[1], sys.argv[2]

from kiosk.parts import camera as camera_module  # noqa: E402

# The kiosk waits for a frame this long at most before it stops waiting (the frame here never
# ends by itself: the kiosk must end without finalizing over it).
camera_module.CameraFeed.stop_wait_s = 0.5

started = threading.Event()
inside = threading.Event()
release = threading.Event()
native: list[int] = []


def said(line: str) -> None:
    os.write(1, f"{line}\n".encode())


class Stream(io.BufferedIOBase):
    """The bytes OpenCV asks for: held back until the process is ending."""

    def read(self, size: int | None = -1) -> bytes:
        if not inside.is_set():
            native.append(threading.get_native_id())
            inside.set()
            if mode == "window":
                from kivy.app import App
                from kivy.clock import Clock

                app = App.get_running_app()
                assert app is not None
                Clock.schedule_once(lambda _dt: app.stop())
            said("inside")
        release.wait()
        return b""

    def seek(self, offset: int, whence: int = 0) -> int:
        return 0


_feed_init = camera_module.CameraFeed.__init__


def feed_init(
    self: Any, read: Any, watch: Callable[..., Iterable[object]], *a: Any, **k: Any
) -> None:
    def watching(now: float, frame: Any) -> Iterable[object]:
        if started.is_set() and not inside.is_set():
            cv2.VideoCapture(Stream(), cv2.CAP_FFMPEG, [])  # in C++ until the process ends
        return watch(now, frame)

    _feed_init(self, read, watching, *a, **k)


camera_module.CameraFeed.__init__ = feed_init  # type: ignore[method-assign]

from kiosk.ui import window as window_module  # noqa: E402

_configure = window_module.configure_kivy


def configure_kivy(**kw: Any) -> None:
    """As `tableside run` sets Kivy up; then the app's start is heard (imported only now, as
    `tableside run` imports it)."""
    _configure(**kw)
    from kiosk.ui import app as app_module

    on_start = app_module.TablesideApp.on_start

    def started_too(self: Any) -> None:
        on_start(self)
        said("started")
        started.set()

    app_module.TablesideApp.on_start = started_too  # type: ignore[method-assign]


window_module.configure_kivy = configure_kivy


class Finalizing(io.TextIOBase):
    """sys.stdout, whose flush during the interpreter's finalization lets the stream go and
    waits for the camera's thread to be gone (it aborts the process, or ends)."""

    def __init__(self, out: Any) -> None:
        self.out = out

    def write(self, text: str) -> int:
        return int(self.out.write(text))

    def flush(self) -> None:
        if sys.is_finalizing() and inside.is_set() and not release.is_set():
            release.set()
            said("released while finalizing")
            deadline = time.monotonic() + 30.0
            while native and os.path.exists(f"/proc/self/task/{native[0]}"):
                if time.monotonic() > deadline:
                    break
                time.sleep(0.01)
        self.out.flush()


sys.stdout = Finalizing(sys.stdout)

from kiosk.cli import main  # noqa: E402

sys.exit(main(["run", "--simulate", "--data", data_dir]))
