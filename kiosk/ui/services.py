"""What the app needs from outside: the clock, the PIN check, and the table sessions.

`kiosk/commands/run.py` builds one from the settings; the tests build one with a
fake clock and a temporary folder. Nothing here imports Kivy, so the wiring can be
checked without a window.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Services:
    """The kiosk's parts as the screens see them (time always from `clock`)."""

    data_dir: Path
    check_pin: Callable[[str], bool]
    clock: Callable[[], float] = time.monotonic
    extras: dict[str, object] = field(default_factory=dict)
