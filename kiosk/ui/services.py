"""What the app needs from outside: the clock, the PIN check, the settings and the sessions.

`kiosk/commands/run.py` builds one from the settings file; the tests build one with
a fake clock and a temporary folder. Nothing here imports Kivy, so the wiring can be
checked without a window. Every callable here does the file, pin or camera work so
that no widget has to.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.config import Settings


def _keep(_settings: Settings) -> None:
    """Settings kept in memory only (tests, or a kiosk started without a settings file)."""


@dataclass
class Services:
    """The kiosk's parts as the screens see them (time always from `clock`)."""

    data_dir: Path
    check_pin: Callable[[str], bool]
    clock: Callable[[], float] = time.monotonic
    settings: Settings = field(default_factory=Settings)
    #: Writes the settings where the kiosk reads them at start (raises OSError).
    save_settings: Callable[[Settings], None] = _keep
    #: The camera's latest frame (an RGB numpy array) or None; for the calibration screen.
    grab_frame: Callable[[], Any] = lambda: None
    extras: dict[str, object] = field(default_factory=dict)
