"""Giving memory back after the moments that make or drop many objects at once: a screen
built, the home screen first drawn, a language switch (every label's texture drawn again).

Two things kept the kiosk's resident memory about 8 MB over what it used (bench/bench_i18n.py):
glibc keeps freed heap (the old textures and shaped runs of a switch) instead of giving it
back, and `gc.freeze()` made permanent whatever cyclic garbage was waiting for a collection.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from collections.abc import Callable

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
