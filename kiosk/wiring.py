"""The kiosk's tables: one `Tables` owns the table in play and receives the sensors' input.

kiosk/engine is the infrastructure every table runs on (the journal, the outputs, the faults,
match time, systemd's notify); kiosk/tables holds the tables and their one lifecycle
(kiosk/tables/registry.py). This is where they meet, above both: the journal the kiosk
opened, the outputs every table speaks to, the parts fitted, and the one table in play.

- `create(start, role)`: a new table (the start's type names its kind) over the unfinished
  one of its game; it is now in play.
- `resume(kind)`: the unfinished table of `kind`, exactly where it was; now in play. The
  table already in play is kept as it is (the umpire only went home).
- `close(match_id, role)`: an unfinished table closed (the director's), journaled.
- `post(item)` from any thread: a sensor's input to the table in play (it only queues),
  then `wake()` asks the UI thread for a tick.
- `note(kind, role, data)`: a kiosk act outside any match (a settings save, a PIN change),
  journaled with its role.

`runner` polls `in_play` (kiosk/engine/runner.py reads it at each step).

`Services` is what the app's screens use of the kiosk beside its tables: the clock, the
settings and where they are saved, the parts' hooks (the camera's frame, a simulated coin,
the start screen's Retry), the console's authority; its `tables` are made from its fields at
each new table. `kiosk/startup.py` builds one from the settings file with the parts; the UI
tests build one with a fake clock and a temporary folder. Kivy-free.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from drivers.hits import POCKETS
from kiosk.authority import Authority, Role
from kiosk.config import Settings
from kiosk.engine.journal import Journal
from kiosk.engine.outputs import Output
from kiosk.tables.base import close_match
from kiosk.tables.bhukhar_migrate import migrate_sessions
from kiosk.tables.bhukhar_table import KIND as BHUKHAR
from kiosk.tables.carrom_table import CarromSession
from kiosk.tables.commands import source
from kiosk.tables.registry import AnyTable, Fitted, Start, create, kind_of, resume
from kiosk.tables.unfinished import Unfinished, unfinished_tables

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

log = logging.getLogger(__name__)


class Tables:
    """The tables of one kiosk (see the module docstring). `fitted` says what a new table is
    made with, read at each new table (the settings screen may have changed the settings,
    the start screen's Retry the parts); its clock is the one monotonic clock."""

    def __init__(
        self,
        data_dir: Path,
        fitted: Callable[[], Fitted] = Fitted,
        *,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.data_dir = data_dir
        self.fitted = fitted
        self.clock = fitted().clock
        self.wall = wall
        #: The table in play (polled by the runner, fed by the sensors), or None.
        self.in_play: AnyTable | None = None
        #: Wakes the UI thread at once (the app sets it), so a sensor's input is drawn at the
        #: next frame rather than at the next tick.
        self.wake: Callable[[], None] = lambda: None
        self._journal: Journal | None = None

    # -- the journal ---------------------------------------------------------------------
    @property
    def journal_path(self) -> Path:
        return self.data_dir / "journal.db"

    def journal(self) -> Journal:
        """The kiosk's one journal (opened at first use; JournalError if it cannot be)."""
        if self._journal is None:
            j = self.fitted().settings.journal
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

    # -- the lifecycle -------------------------------------------------------------------
    def create(self, start: Start, role: Role | None = None) -> AnyTable:
        """A new table for `start`, over the unfinished one of its game (closing it is
        journaled with `role`); it is now in play. The table's own refusal (IllegalEvent,
        IllegalAction, SessionError) or JournalError: nothing changed."""
        table = create(self.journal(), self.fitted(), start, role)
        self.in_play = table
        return table

    def resume(self, kind: str | None = None) -> AnyTable | None:
        """The unfinished table of `kind` (default: the latest), now in play; the table in
        play when it is that one. None: nothing to resume. JournalError: it cannot be
        replayed (named; it stays in the journal, and home offers to close it)."""
        kind = kind or self.latest_unfinished()
        if kind is None:
            return None
        table = self.in_play
        row = self.journal().unfinished(kind)
        if table is not None and row is not None and table.match_id == row.id:
            return table  # still in memory, exactly where it was
        found = resume(self.journal(), self.fitted(), kind)
        if found is not None:
            self.in_play = found
        return found

    def close(self, match_id: int, role: Role | None = None) -> None:
        """Close an unfinished table (the director's): a "closed" entry with the role, and it
        is no longer offered for resuming (the journal keeps its record). Held in play, it
        stops being polled."""
        close_match(self.journal(), match_id, source("close_table", role), self.wall(), "closed")
        if self.in_play is not None and self.in_play.match_id == match_id:
            self.in_play = None

    def unfinished(self) -> list[Unfinished]:
        """Every unfinished table, one per game at most, for home (JournalError if the journal
        cannot be read)."""
        return unfinished_tables(self.journal())

    def has_unfinished(self, kind: str) -> bool:
        """Whether a new table of `kind` would close an unfinished one (the director's)."""
        return self.journal().unfinished(kind) is not None

    def latest_unfinished(self) -> str | None:
        """What to resume, from the journal alone: the kind of the latest unfinished carrom or
        backgammon match, else "bhukhar" (an unfinished session), else None."""
        rows = [m for m in self.journal().matches() if not m.finished]
        matches = [m for m in rows if m.kind != BHUKHAR]
        if matches:
            return str(matches[-1].kind)
        return BHUKHAR if rows else None

    @staticmethod
    def kind_of(start: Start) -> str:
        return kind_of(start)

    # -- the sensors ---------------------------------------------------------------------
    def post(self, item: object) -> None:
        """A sensor's input (any thread): to the carrom table in play, if one is (the other
        tables take no sensor input); then a tick is asked for."""
        table = self.in_play
        if isinstance(table, CarromSession):
            table.post(item)
            self.wake()

    def turn_colour(self) -> str | None:
        """The colour of the side at turn at the carrom table in play (simulated coins)."""
        table = self.in_play
        if not isinstance(table, CarromSession):
            return None
        state = table.view().state
        now = None if state is None else state.now
        return None if now is None else now.turn_colour

    # -- the kiosk's own acts ------------------------------------------------------------
    def note(self, kind: str, role: Role, data: dict[str, object]) -> None:
        """A kiosk act outside any match (a settings save, a PIN change), journaled with its
        role at the kiosk's monotonic time."""
        self.journal().append(None, round(self.clock(), 6), self.wall(), role.word, kind, data)

    def close_all(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        self.in_play = None


#: A camera frame as the calibration screen draws it (RGB), or None. (numpy is imported by
#: the camera alone: a kiosk without one does not load it.)
Frame: TypeAlias = "npt.NDArray[np.uint8] | None"


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
    grab_frame: Callable[[], Frame] = lambda: None
    #: Keeps a picture (RGB) as the camera's empty board (kiosk/engine/camera.py).
    keep_empty: Callable[[Frame], None] = lambda _rgb: None
    #: The buzzer, the player display, the hall: engine Outputs every table speaks to.
    outputs: list[Output] = field(default_factory=list)
    #: Simulated beams: a coin through pocket 1-4 (keys 1-4); None on a real table.
    press_pocket: Callable[[int], None] | None = None
    #: The pockets with a beam fitted, and whether a camera watches the board.
    beams: tuple[int, ...] = POCKETS
    camera: bool = False
    #: Parts that did not start, as (part, message): shown as faults on the carrom table.
    startup_faults: list[tuple[str, str]] = field(default_factory=list)
    #: Starts the parts again (the start screen's Retry) and returns those still missing;
    #: None where there is nothing to retry (tests, a kiosk built by hand).
    retry_parts: Callable[[], list[tuple[str, str]]] | None = None
    #: The console's lock (kiosk/engine/roles.py); None: no roles, every command carries the
    #: role it needs (tests and benches that build Services themselves; `start_kiosk` always
    #: sets one).
    authority: Authority | None = None
    #: No umpire or director PIN yet: the app opens on the first-start screen.
    first_start: bool = False
    #: The tables, made at first use from the fields above.
    _tables: Tables | None = field(default=None, repr=False)

    def fitted(self) -> Fitted:
        """What a new table is made with, now."""
        return Fitted(
            clock=self.clock,
            outputs=tuple(self.outputs),
            settings=self.settings,
            beams=self.beams,
            camera=self.camera,
            faults=tuple(self.startup_faults),
        )

    @property
    def tables(self) -> Tables:
        if self._tables is None:
            self._tables = Tables(self.data_dir, self.fitted)
        return self._tables

    @property
    def journal_path(self) -> Path:
        return self.tables.journal_path

    def journal(self) -> Journal:
        """The kiosk's one journal (opened at first use)."""
        return self.tables.journal()

    def close(self) -> None:
        if self._tables is not None:
            self._tables.close_all()


def changed_keys(before: Settings, after: Settings) -> list[str]:
    """The settings' keys ("section.key") whose values differ, for the journal (the values
    themselves are not journaled: a PIN's hash is one of them)."""
    keys: list[str] = []
    for section in fields(before):
        old, new = getattr(before, section.name), getattr(after, section.name)
        if old == new:
            continue
        if is_dataclass(old) and is_dataclass(new):
            keys += [
                f"{section.name}.{f.name}"
                for f in fields(old)
                if getattr(old, f.name) != getattr(new, f.name)
            ]
        else:
            keys.append(section.name)
    return keys
