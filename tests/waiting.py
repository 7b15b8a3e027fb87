"""The one way the tests wait for another thread (a serial link, a camera feed): poll a
condition every 10 ms of real time until it holds or `timeout` passes. Deadlines of the
tables are never waited for: they run on a fake clock (drivers.simulated.ManualClock)."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_until(condition: Callable[[], object], timeout: float = 5.0) -> bool:
    """True as soon as `condition()` holds; False if it still does not after `timeout` s."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return bool(condition())
