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

`runner` polls `in_play` (kiosk/runner.py reads it at each step). `fitted` is what a new
table is made with (the settings in force, the outputs, the parts that started): one
immutable `Fitted`, replaced whole when the settings are saved (`use_settings`) or the parts
are started again (`refit`, the start screen's Retry), never changed field by field.

`Services` is what the app's screens use of the kiosk beside its tables, built once: the
clock, where the settings are saved, the parts' hooks (the camera's frame, a simulated coin,
the start screen's Retry), the console's authority, and the `tables` (the settings and the
parts fitted are theirs). `kiosk/startup.py` builds one from the settings file with the
parts; the UI tests build one with a fake clock and a temporary folder. Kivy-free.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import fields, is_dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from drivers.hits import POCKETS
from kiosk.access.authority import Authority, Role
from kiosk.access.settings_authority import needs_pins
from kiosk.config import Settings
from kiosk.engine.journal import Journal, JournalError
from kiosk.engine.outputs import Output
from kiosk.kinds import KINDS
from kiosk.tables.base import close_match
from kiosk.tables.bhukhar_migrate import migrate_sessions
from kiosk.tables.bhukhar_table import KIND as BHUKHAR
from kiosk.tables.registry import AnyTable, Fitted, Start, create, kind_of, resume
from kiosk.tables.unfinished import Unfinished, unfinished_tables

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

log = logging.getLogger(__name__)


class Tables:
    """The tables of one kiosk (see the module docstring). `fitted` is what a new table is
    made with, replaced whole (`use_settings`, `refit`); its clock is the one monotonic
    clock."""

    def __init__(
        self,
        data_dir: Path,
        fitted: Fitted | None = None,
        *,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.data_dir = data_dir
        self._fitted = fitted or Fitted()
        self.clock = self._fitted.clock
        self.wall = wall
        #: The table in play (polled by the runner, fed by the sensors), or None.
        self.in_play: AnyTable | None = None
        #: Wakes the UI thread at once (the app sets it), so a sensor's input is drawn at the
        #: next frame rather than at the next tick.
        self.wake: Callable[[], None] = lambda: None
        self._journal: Journal | None = None

    # -- what a table is made with -------------------------------------------------------
    @property
    def fitted(self) -> Fitted:
        """What a new table is made with now."""
        return self._fitted

    @property
    def settings(self) -> Settings:
        """The settings in force."""
        return self._fitted.settings

    def use_settings(self, settings: Settings) -> None:
        """The settings saved (the settings screen, the first start): the next table and the
        screens read them; the table in play keeps those it was made with."""
        self._fitted = replace(self._fitted, settings=settings)

    def refit(self, fitted: Fitted) -> None:
        """The parts started again (the start screen's Retry, before any table is open)."""
        self._fitted = fitted

    # -- the journal ---------------------------------------------------------------------
    @property
    def journal_path(self) -> Path:
        return self.data_dir / "journal.db"

    def journal(self) -> Journal:
        """The kiosk's one journal (opened at first use; JournalError if it cannot be)."""
        if self._journal is None:
            j = self._fitted.settings.journal
            try:
                self._journal = Journal(
                    self.journal_path,
                    backup_dir=j.backup_dir or None,
                    backup_every=j.backup_every,
                    backup_keep=j.backup_keep,
                    clock=self.clock,
                    table=self._fitted.settings.hall.table_id or None,  # journal's identity
                )
            except JournalError as exc:  # said on screen too; the log keeps each refusal
                log.error("journal not opened: %s", exc)
                raise
            # The Bhukhar session files of before the one store, moved in once.
            for problem in migrate_sessions(self._journal, self.data_dir):
                log.warning("Bhukhar session file left as it is: %s", problem)
        return self._journal

    # -- the lifecycle -------------------------------------------------------------------
    def create(self, start: Start, role: Role) -> AnyTable:
        """A new table for `start`, over the unfinished one of its game (closing it is
        journaled with `role`); it is now in play. The table's own refusal (IllegalEvent,
        IllegalAction, SessionError) or JournalError: nothing changed."""
        table = create(self.journal(), self._fitted, start, role)
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
        found = resume(self.journal(), self._fitted, kind)
        if found is not None:
            self.in_play = found
        return found

    def close(self, match_id: int, role: Role) -> None:
        """Close an unfinished table (the director's): a "closed" entry with the role, and it
        is no longer offered for resuming (the journal keeps its record). Held in play, it
        stops being polled."""
        close_match(self.journal(), match_id, role, self.wall(), "closed")
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
        if table is not None and KINDS[table.kind].sensors:
            table.post(item)
            self.wake()

    def turn_colour(self) -> str | None:
        """The colour of the side at turn at the carrom table in play (simulated coins)."""
        table = self.in_play
        return None if table is None else KINDS[table.kind].turn_colour(table)

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


def _no_frame() -> Frame:
    return None


def _drop_frame(_rgb: Frame) -> None:
    """No camera: a picture kept as the empty board goes nowhere."""


class Services:
    """The kiosk's parts as the screens see them, built once (time always from `clock`).
    Nothing here is replaced afterwards: the settings and the parts fitted are the tables'
    (`tables.fitted`, replaced whole), the hooks read the parts in place when called.

    `save_settings` writes the settings where the kiosk reads them at start (raises OSError);
    `grab_frame` gives the camera's latest frame (RGB) or None, for the calibration screen;
    `keep_empty` keeps a picture (RGB) as the camera's empty board (kiosk/parts/camera.py),
    what the detector judges against from then on;
    `press_pocket` (simulated beams, keys 1-4) a coin through a pocket, None on a real table;
    `retry_parts` starts the parts again (the start screen's Retry) and returns those still
    missing, None where there is nothing to retry; `authority` is the console's lock
    (kiosk/access/settings_authority.py), None: no roles, every command carries the role it
    needs (tests and benches that build Services themselves; `start_kiosk` always gives one);
    `ask_pins`: the app opens on the first-start screen while the umpire's or the director's
    PIN is missing.
    `settings`, `outputs` (the buzzer, the player display, the hall: what every table speaks
    to), `beams`, `camera` and `startup_faults` (the parts that did not start, shown as faults
    on the carrom table) make the tables' first `Fitted`, unless `tables` are given (made with
    their own: kiosk/startup.py).
    """

    __slots__ = (
        "ask_pins",
        "authority",
        "check_pin",
        "clock",
        "data_dir",
        "grab_frame",
        "keep_empty",
        "press_pocket",
        "retry_parts",
        "save_settings",
        "tables",
    )

    data_dir: Path
    check_pin: Callable[[str], bool]
    clock: Callable[[], float]
    save_settings: Callable[[Settings], None]
    grab_frame: Callable[[], Frame]
    keep_empty: Callable[[Frame], None]
    press_pocket: Callable[[int], None] | None
    retry_parts: Callable[[], list[tuple[str, str]]] | None
    authority: Authority | None
    ask_pins: bool
    tables: Tables

    def __init__(
        self,
        data_dir: Path,
        check_pin: Callable[[str], bool],
        clock: Callable[[], float] = time.monotonic,
        settings: Settings | None = None,
        *,
        save_settings: Callable[[Settings], None] = _keep,
        grab_frame: Callable[[], Frame] = _no_frame,
        keep_empty: Callable[[Frame], None] = _drop_frame,
        press_pocket: Callable[[int], None] | None = None,
        retry_parts: Callable[[], list[tuple[str, str]]] | None = None,
        authority: Authority | None = None,
        ask_pins: bool = False,
        outputs: tuple[Output, ...] | list[Output] = (),
        beams: tuple[int, ...] = POCKETS,
        camera: bool = False,
        startup_faults: tuple[tuple[str, str], ...] | list[tuple[str, str]] = (),
        tables: Tables | None = None,
    ) -> None:
        fitted = Fitted(
            clock=clock,
            outputs=tuple(outputs),
            settings=settings or Settings(),
            beams=beams,
            camera=camera,
            faults=tuple(startup_faults),
        )
        values: dict[str, object] = {
            "data_dir": data_dir,
            "check_pin": check_pin,
            "clock": clock,
            "save_settings": save_settings,
            "grab_frame": grab_frame,
            "keep_empty": keep_empty,
            "press_pocket": press_pocket,
            "retry_parts": retry_parts,
            "authority": authority,
            "ask_pins": ask_pins,
            "tables": tables or Tables(data_dir, fitted),
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Services is built once: {name} is not replaced")

    def but(self, **hooks: object) -> Services:
        """A new record with these hooks instead (`press_pocket=`, `authority=`, ...), over
        the same tables: for a harness that fits its own parts."""
        unknown = set(hooks) - set(self.__slots__)
        if unknown:
            raise TypeError(f"Services has no {', '.join(sorted(unknown))}")
        other = object.__new__(Services)
        for name in self.__slots__:
            object.__setattr__(other, name, hooks.get(name, getattr(self, name)))
        return other

    # -- read from the tables' Fitted ------------------------------------------------------
    @property
    def settings(self) -> Settings:
        return self.tables.settings

    @property
    def outputs(self) -> tuple[Output, ...]:
        return self.tables.fitted.outputs

    @property
    def beams(self) -> tuple[int, ...]:
        return self.tables.fitted.beams

    @property
    def camera(self) -> bool:
        return self.tables.fitted.camera

    @property
    def startup_faults(self) -> tuple[tuple[str, str], ...]:
        return self.tables.fitted.faults

    @property
    def first_start(self) -> bool:
        """The first-start screen comes first: no umpire or director PIN yet."""
        return self.ask_pins and needs_pins(self.settings)

    @property
    def journal_path(self) -> Path:
        return self.tables.journal_path

    def journal(self) -> Journal:
        """The kiosk's one journal (opened at first use)."""
        return self.tables.journal()

    def close(self) -> None:
        self.tables.close_all()


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
