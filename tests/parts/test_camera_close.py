"""The camera's thread ends before what it uses. `CameraFeed.close()` waits for the
frame in progress, then closes the source; a thread that does not come back from its driver
is said, and its source is closed by the thread itself once it does, never under a read.
Every wait here is on an event."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from kiosk.parts.camera import CameraFeed


class Source:
    """A capture source that knows whether it was closed while a frame was being read."""

    def __init__(self) -> None:
        self.reading = threading.Event()
        self.release = threading.Event()
        self.closed = threading.Event()
        self.closed_while_reading = False
        self.frames = 0

    def read(self) -> Any:
        self.frames += 1
        if self.frames == 2:  # the second frame: a driver that takes its time
            self.reading.set()
            self.release.wait()
            self.reading.clear()
        return object()

    def close(self) -> None:
        self.closed_while_reading = self.reading.is_set()
        self.closed.set()


def feed(source: Source) -> CameraFeed:
    return CameraFeed(source.read, lambda _t, _f: [], lambda _e: None, source=source)


def test_camera_close_waits_for_the_frame_in_progress_then_closes_the_source() -> None:
    source = Source()
    camera = feed(source)
    assert source.reading.wait(10)
    closing = threading.Thread(target=camera.close)
    closing.start()
    # close() is waiting for the frame: the source is not closed under it
    assert not source.closed.wait(0.0)
    source.release.set()
    closing.join(30)
    assert not closing.is_alive()
    assert not camera.running and source.closed.is_set()
    assert not source.closed_while_reading


def test_camera_close_never_closes_the_source_under_a_stuck_read(
    caplog: pytest.LogCaptureFixture,
) -> None:
    source = Source()
    camera = feed(source)
    camera.stop_wait_s = 0.05  # the driver does not come back in time: close() stops waiting
    assert source.reading.wait(10)
    camera.close()
    assert camera.running and not source.closed.is_set()  # not closed under the read
    assert "still inside a frame" in caplog.text
    source.release.set()  # the driver comes back: the thread ends and closes its source
    assert source.closed.wait(10)
    assert not source.closed_while_reading
    camera._thread.join(10)
    assert not camera.running
