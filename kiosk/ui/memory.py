"""Giving memory back after the moments that make or drop many objects at once: a screen
built, the home screen first drawn, a language switch (every label's texture drawn again).

Two things kept the kiosk's resident memory about 8 MB over what it used (bench/bench_i18n.py):
glibc keeps freed heap (the old textures and shaped runs of a switch) instead of giving it
back, and `gc.freeze()` made permanent whatever cyclic garbage was waiting for a collection.

`Trimmer` says when: half a second after the last frame of a row (the glass still), and a
language switch's old textures at once, two frames after the switch (the first draws the new
words, the second has released the old textures): with strokes drawn back to back the glass
is never still, and a switch's 6-10 MB of freed heap stayed resident through the match.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from collections.abc import Callable
from typing import Protocol

_trim: Callable[[int], int] | None = None
try:  # glibc only (the Pi's Raspberry Pi OS, Debian): elsewhere trimming is skipped
    _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    _trim = _libc.malloc_trim
except (OSError, AttributeError):
    pass


def trim() -> None:
    """Collect the cyclic garbage not frozen, then hand glibc's free heap back to the system
    (a few milliseconds; call it when no input is waiting, not in the middle of a redraw)."""
    gc.collect()
    if _trim is not None:
        _trim(0)


def settle() -> None:
    """After building what lives as long as the app: its garbage collected first, then the
    rest frozen out of the collector's sight (no full collection stalls the loop later)."""
    gc.collect()
    gc.freeze()
    if _trim is not None:
        _trim(0)


class _Trigger(Protocol):
    """Kivy's `Clock.create_trigger` result: calling it schedules, `cancel()` unschedules."""

    def __call__(self) -> None: ...
    def cancel(self) -> None: ...


class Trimmer:
    """When the app gives memory back (see the module docstring): `drawn()` after every frame,
    `switched()` after a language switch. `still` is a trigger that calls `trim()` once the
    glass has been still long enough (the app makes it with Kivy's clock)."""

    #: Frames after a switch before its freed textures are given back.
    AFTER_SWITCH = 2

    def __init__(self, still: _Trigger) -> None:
        self._still = still
        self._frames_left = 0

    def switched(self) -> None:
        self._frames_left = self.AFTER_SWITCH

    def stop(self) -> None:
        """The app stopped: no trim is left waiting."""
        self._still.cancel()
        self._frames_left = 0

    def drawn(self, *_window: object) -> None:
        self._still.cancel()  # half a second after the last frame of a row
        self._still()
        if self._frames_left:
            self._frames_left -= 1
            if not self._frames_left:
                trim()
