"""The console's authority wired to the settings and the journal (kiosk/access/authority.py is the
pure model; this is where its PINs, limits and notes meet the kiosk's files).

- `SettingsAuthority` checks PINs against the hashes in the settings in force, and takes its
  idle lock and director window from them, so a change in the settings applies at once. With
  `state` (a file in the data folder) the wrong PINs in a row and the back-off survive a
  restart: pulling the plug does not buy new guesses. The file is written at the first start;
  one missing from a folder a kiosk ran in (its journal is there), one that cannot be read,
  or one that holds what no kiosk writes (`blocked_until_wall: 1e400`, NaN, a negative
  number, garbage) fails closed: the longest back-off, said in the log, and written back.
- `simulated_pins`: under `--simulate` a missing PIN is "1234" (umpire) or "4321" (director);
  a real kiosk has none until its first start asks (`needs_pins`).
- `journal_note`: one "authority" entry in the journal (an unlock, a lock, a refused PIN), in
  the match in play if any. A command journals its own entry with its role
  (kiosk/tables/commands.py): nothing is paired up afterwards.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from kiosk.access.authority import (
    BACKOFF_MAX_S,
    BACKOFF_S,
    FREE_TRIES,
    KIOSK_ACTIONS,
    Attempt,
    Authority,
    Note,
    Role,
)
from kiosk.access.pins import DEFAULT_PIN_HASH, SIMULATED_DIRECTOR_HASH
from kiosk.atomic import write_atomic
from kiosk.config import Settings, check_pin, with_values
from kiosk.engine.journal import Journal, JournalError
from kiosk.engine.journal_files import read_seal

#: The journal entries' kind for the notes.
KIND = "authority"
log = logging.getLogger(__name__)

#: Wrong PINs in a row a back-off file that cannot be trusted is taken for: enough that the
#: next wrong PIN is refused for the longest back-off too.
CLOSED_FAILURES = FREE_TRIES + math.ceil(math.log2(BACKOFF_MAX_S / BACKOFF_S))
#: Files beside the back-off file that say a kiosk ran in the folder before (a back-off file
#: missing there was deleted, not yet made).
_RAN_HERE = ("journal.db", ".journals")


def _ran_here(folder: Path) -> bool:
    """Whether a kiosk that makes the back-off file ran in `folder`: its journal (or the
    journal's marker) is there, and the journal's seal names its journal (a seal that does
    not is from a kiosk that made the file only after a wrong PIN: its first start makes it)."""
    if not any((folder / name).exists() for name in _RAN_HERE):
        return False
    try:
        seal = read_seal(folder / "journal.db")
    except JournalError:
        return True
    return seal is None or seal.journal_id is not None


class _Untrusted(ValueError):
    """The back-off file cannot be taken as it is (says why)."""


def _read_state(path: Path) -> tuple[int, float] | None:
    """The wrong PINs in a row and the wall time the back-off ends, as the file says; None:
    no file. `_Untrusted` for a file that cannot be read or holds what no kiosk writes."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _Untrusted(f"it cannot be read ({exc.strerror or exc})") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _Untrusted("it is not JSON") from None
    if not isinstance(data, dict):
        raise _Untrusted("it is not a JSON object")
    failures, until = data.get("failures"), data.get("blocked_until_wall")
    if type(failures) is not int or not 0 <= failures < 10**6:
        raise _Untrusted(f"its failures are {str(failures)[:20]!r}, not a count")
    if not isinstance(until, int | float) or isinstance(until, bool):
        raise _Untrusted(f"its blocked_until_wall is {str(until)[:20]!r}, not a time")
    if not math.isfinite(until) or until < 0:
        raise _Untrusted(f"its blocked_until_wall is {str(until)[:20]!r}, not a time")
    return failures, float(until)


class SettingsAuthority(Authority):
    """An Authority whose PINs and limits are those of `settings()` at each use."""

    def __init__(
        self,
        settings: Callable[[], Settings],
        note: Callable[[Note], None],
        *,
        state: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self._settings = settings
        umpire = settings().umpire
        super().__init__(
            self._check_pin,
            idle_s=umpire.lock_after_min * 60.0,
            director_s=umpire.director_window_s,
            note=note,
        )
        self._state, self._wall = state, wall
        self._load(clock())

    def _load(self, now: float) -> None:
        """The wrong PINs and the back-off a previous run left. No file in a new data folder:
        none, and the file is made. A file missing where a kiosk ran, unreadable or absurd:
        the longest back-off (fail closed), said in the log and written back."""
        path = self._state
        if path is None:
            return
        try:
            found = _read_state(path)
            if found is None and _ran_here(path.parent):
                raise _Untrusted("it is missing, though a kiosk ran in this folder (deleted?)")
        except _Untrusted as exc:
            self.failures = max(self.failures, CLOSED_FAILURES)
            self._blocked_until = now + BACKOFF_MAX_S
            log.error(
                "PIN back-off file %s: %s; the longest back-off (%d s) holds from now",
                path,
                exc,
                BACKOFF_MAX_S,
            )
            self._save(now)
            return
        if found is None:  # a new kiosk: the file is made, so that its absence is seen later
            self._save(now)
            return
        failures, until = found
        self.failures = failures
        left = min(BACKOFF_MAX_S, max(0.0, until - self._wall()))
        self._blocked_until = now + left

    def _save(self, now: float) -> None:
        if self._state is None:
            return
        until = self._wall() + self.wait_s(now)
        text = json.dumps({"failures": self.failures, "blocked_until_wall": until})
        # The journal notes every refusal; the back-off itself runs on in memory.
        try:
            write_atomic(self._state, text)
        except OSError as exc:
            log.error("PIN back-off file %s cannot be written: %s", self._state, exc)

    def enter(self, pin: str, wanted: Role, now: float, action: str = "") -> Attempt:
        before = self.failures
        attempt = super().enter(pin, wanted, now, action)
        if self.failures != before:
            self._save(now)
        return attempt

    def role(self, now: float) -> Role:
        umpire = self._settings().umpire
        self.idle_s, self.director_s = umpire.lock_after_min * 60.0, umpire.director_window_s
        return super().role(now)

    def _check_pin(self, role: Role, pin: str) -> bool:
        umpire = self._settings().umpire
        stored = umpire.director_pin_hash if role is Role.DIRECTOR else umpire.pin_hash
        return bool(stored) and check_pin(pin, stored)


def needs_pins(settings: Settings) -> bool:
    """Whether the umpire's or the director's PIN is still missing (the first start)."""
    return not (settings.umpire.pin_hash and settings.umpire.director_pin_hash)


def simulated_pins(settings: Settings) -> Settings:
    """`settings` with the simulation's PINs where none is set."""
    umpire = settings.umpire
    return with_values(
        settings,
        umpire={
            "pin_hash": umpire.pin_hash or DEFAULT_PIN_HASH,
            "director_pin_hash": umpire.director_pin_hash or SIMULATED_DIRECTOR_HASH,
        },
    )


class InPlay(Protocol):
    """What a note needs of the table in play: its match and its match time."""

    match_id: int | None

    def match_t(self, now: float) -> float:
        """Match seconds at monotonic `now` (the record's "t")."""


def journal_note(
    journal: Journal, table: InPlay | None, note: Note, wall: float | None = None
) -> None:
    """Journal `note` (an unlock, a lock, a refused PIN or tap) in the match of `table` (the
    table in play) at its match time, or outside any match at the kiosk's monotonic time.
    The source is the role that acted. A command's own entry carries its role: no note is
    written for it."""
    if table is not None and table.match_id is not None:
        match_id: int | None = table.match_id
        t = table.match_t(note.t)
    else:
        match_id, t = None, round(note.t, 6)
    journal.append(
        match_id, t, time.time() if wall is None else wall, note.role, KIND, note.as_dict()
    )


#: A lock's cause, in words.
_LOCKS = {"idle": "idle too long", "display": "the player display shown", "umpire": "by hand"}


def describe(data: dict[str, Any]) -> tuple[str, str]:
    """(class, words) of an "authority" entry, for the protest record."""
    what, role = data.get("what", ""), data.get("role", "")
    action, reason = data.get("action", ""), data.get("reason", "")
    if what == "unlock":
        return "tap", f"{role}'s PIN unlocks the console" + (f" for {action}" if action else "")
    if what == "lock":
        return "tap", f"console locked: {_LOCKS.get(reason, reason)}"
    if what == "director_done":
        return "tap", "the director's window ends: the console is the umpire's again"
    if what == "allowed":  # journals from before commands carried roles
        if action in KIOSK_ACTIONS:  # the kiosk's own act, not a change of the match
            return "tap", f"{role}'s PIN allows {action}"
        return "edit", f"correction by the {role}: {action}"
    words = {"wrong": "wrong PIN", "wrong_role": "not the director's PIN", "backoff": "back-off"}
    why = words.get(reason, reason)
    return "refused", f"refused {action or 'a PIN'} on a console held by the {role}: {why}"
