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
from kiosk.engine.clock_table import ClockTable
from kiosk.engine.journal import Journal


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
    #: The buzzer, the player display, ...: engine Outputs every table session speaks to.
    outputs: list[Any] = field(default_factory=list)
    extras: dict[str, object] = field(default_factory=dict)
    _journal: Journal | None = None
    _clock_table: ClockTable | None = None

    @property
    def journal_path(self) -> Path:
        return self.data_dir / "journal.db"

    def journal(self) -> Journal:
        """The kiosk's one journal (opened at first use)."""
        if self._journal is None:
            self._journal = Journal(self.journal_path)
        return self._journal

    def clock_table(self) -> ClockTable:
        """The backgammon table session on the journal."""
        if self._clock_table is None:
            self._clock_table = ClockTable(
                self.journal(),
                clock=self.clock,
                outputs=list(self.outputs),
                settings=self.settings.backgammon,
            )
        return self._clock_table

    def unfinished(self) -> str | None:
        """The kind of the unfinished match to resume ("carrom", "backgammon", ...), or None."""
        row = self.journal().unfinished()
        return None if row is None else str(row.kind)

    def close(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None
