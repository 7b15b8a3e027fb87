"""What the app needs from the engine: the clock, the PIN check, the settings and the sessions.

`kiosk/startup.py` builds one from the settings file with the parts; the UI tests
build one with a fake clock and a temporary folder. Nothing here imports Kivy, so the
wiring can be checked without a window. Every callable here does the file, pin or camera
work so that no widget has to.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drivers.hits import POCKETS
from kiosk.config import Settings, with_values
from kiosk.engine.journal import Journal
from kiosk.rules.bhukhar.record import SessionStart
from kiosk.tables.backgammon_table import ClockTable
from kiosk.tables.bhukhar_migrate import migrate_sessions
from kiosk.tables.bhukhar_table import KIND as BHUKHAR
from kiosk.tables.bhukhar_table import BhukharTable
from kiosk.tables.carrom_inputs import PartFault
from kiosk.tables.carrom_table import CarromSession
from kiosk.tables.unfinished import Unfinished, unfinished_tables

log = logging.getLogger(__name__)


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
    #: Keeps a picture (RGB) as the camera's empty board (kiosk/engine/camera.py).
    keep_empty: Callable[[Any], None] = lambda _rgb: None
    #: The buzzer, the player display, ...: engine Outputs every table session speaks to.
    outputs: list[Any] = field(default_factory=list)
    #: Simulated beams: a coin through pocket 1-4 (keys 1-4); None on a real table.
    press_pocket: Callable[[int], None] | None = None
    #: The pockets with a beam fitted, and whether a camera watches the board.
    beams: tuple[int, ...] = POCKETS
    camera: bool = False
    #: Wakes the UI thread at once (the app sets it: Clock.schedule_once), so a sensor's
    #: input is drawn at the next frame rather than at the next tick.
    wake: Callable[[], None] = lambda: None
    #: Parts that did not start, as (part, message): shown as faults on the carrom table.
    startup_faults: list[tuple[str, str]] = field(default_factory=list)
    #: Starts the parts again (the start screen's Retry) and returns those still missing;
    #: None where there is nothing to retry (tests, a kiosk built by hand).
    retry_parts: Callable[[], list[tuple[str, str]]] | None = None
    #: The console's lock (kiosk/engine/roles.py); None: no roles, every action is allowed
    #: (tests and benches that build Services themselves; `start_kiosk` always sets one).
    authority: Any = None
    #: No umpire or director PIN yet: the app opens on the first-start screen.
    first_start: bool = False
    _journal: Journal | None = None
    _clock_table: ClockTable | None = None
    _carrom: CarromSession | None = None

    @property
    def journal_path(self) -> Path:
        return self.data_dir / "journal.db"

    def journal(self) -> Journal:
        """The kiosk's one journal (opened at first use)."""
        if self._journal is None:
            j = self.settings.journal
            self._journal = Journal(
                self.journal_path,
                backup_dir=j.backup_dir or None,
                backup_every=j.backup_every,
                backup_keep=j.backup_keep,
                clock=self.clock,
            )
            # The Bhukhar session files of before the one store, moved in once.
            for problem in migrate_sessions(self._journal, self.data_dir):
                log.warning("Bhukhar session file left as it is: %s", problem)
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

    def carrom_session(self, stroke_s: float | None = None) -> CarromSession:
        """The carrom table session; a new one when the match's stroke timer differs from
        the current session's (the timers are fixed when a session is made)."""
        session = self._carrom
        settings = self.settings
        if stroke_s is not None and stroke_s != settings.timers.stroke_s:
            settings = with_values(settings, timers={"stroke_s": stroke_s})
        if session is None or session.settings.timers != settings.timers:
            session = CarromSession(
                self.journal(),
                settings,
                clock=self.clock,
                outputs=list(self.outputs),
                beams=self.beams,
                camera=self.camera,
            )
            for part, message in self.startup_faults:
                session.post(PartFault(self.clock(), part, message))
            self._carrom = session
        return session

    def turn_colour(self) -> str | None:
        """The colour of the side at turn at the carrom table (for simulated coins), or None."""
        session = self._carrom
        state = None if session is None or session.match is None else session.match.state
        if state is None or state.now is None:
            return None
        return state.now.turn_colour

    def post(self, item: object) -> None:
        """A sensor's input (any thread): to the carrom session, if one is open."""
        session = self._carrom
        if session is not None:
            session.post(item)
            self.wake()

    # -- Bhukhar sessions: journal matches of kind "bhukhar" ---------------------------
    def new_bhukhar(self, start: SessionStart) -> BhukharTable:
        """A new Bhukhar session in the journal; an unfinished one is closed first (home
        asked before setting it aside), so one session at most is offered to resume."""
        journal = self.journal()
        old = journal.unfinished(BHUKHAR)
        if old is not None:
            journal.finish(old.id)
        return BhukharTable.create(journal, start, clock=self.clock, outputs=list(self.outputs))

    def open_bhukhar(self) -> BhukharTable | None:
        """The latest unfinished Bhukhar session, resumed; None if there is none."""
        return BhukharTable.open(self.journal(), clock=self.clock, outputs=list(self.outputs))

    def unfinished(self) -> str | None:
        """What to resume, from the journal alone: "carrom" or "backgammon" (an unfinished
        match), else "bhukhar" (an unfinished session), else None."""
        rows = [m for m in self.journal().matches() if not m.finished]
        matches = [m for m in rows if m.kind != BHUKHAR]
        if matches:
            return str(matches[-1].kind)
        return BHUKHAR if rows else None

    def unfinished_tables(self) -> list[Unfinished]:
        """Every unfinished table, one per game at most, for home (JournalError if the journal
        cannot be read)."""
        return unfinished_tables(self.journal())

    def close_table(self, match_id: int) -> None:
        """The director closes an unfinished match: it is no longer offered for resuming (the
        journal keeps its record). A session holding it in memory is let go."""
        self.journal().finish(match_id)
        if self._carrom is not None and self._carrom.match_id == match_id:
            self._carrom = None
        if self._clock_table is not None and self._clock_table.match_id == match_id:
            self._clock_table = None

    def close(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None
