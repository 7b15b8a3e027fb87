"""The console's authority wired to the settings and the journal (kiosk/authority.py is the
pure model; this is where its PINs, limits and notes meet the kiosk's files).

- `SettingsAuthority` checks PINs against the hashes in the settings in force, and takes its
  idle lock and director window from them, so a change in the settings applies at once. With
  `state` (a file in the data folder) the wrong PINs in a row and the back-off survive a
  restart: pulling the plug does not buy new guesses.
- `simulated_pins`: under `--simulate` a missing PIN is "1234" (umpire) or "4321" (director);
  a real kiosk has none until its first start asks (`needs_pins`).
- `journal_note`: one "authority" entry in the journal (an unlock, a lock, a refused PIN), in
  the match in play if any. A command journals its own entry with its role
  (kiosk/tables/commands.py): nothing is paired up afterwards.
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from kiosk.atomic import write_atomic
from kiosk.authority import BACKOFF_MAX_S, KIOSK_ACTIONS, Attempt, Authority, Note, Role
from kiosk.config import Settings, check_pin, with_values
from kiosk.engine.journal import Journal
from kiosk.pins import DEFAULT_PIN_HASH, SIMULATED_DIRECTOR_HASH

#: The journal entries' kind for the notes.
KIND = "authority"


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
        """The wrong PINs and the back-off a previous run left (a damaged file: none, but
        the file is kept for the log)."""
        if self._state is None:
            return
        try:
            data = json.loads(self._state.read_text(encoding="utf-8"))
            failures, until = int(data["failures"]), float(data["blocked_until_wall"])
        except (OSError, ValueError, KeyError, TypeError):
            return
        if not (0 <= failures < 10**6 and math.isfinite(until)):
            return
        self.failures = failures
        left = min(BACKOFF_MAX_S, max(0.0, until - self._wall()))
        self._blocked_until = now + left

    def _save(self, now: float) -> None:
        if self._state is None:
            return
        until = self._wall() + self.wait_s(now)
        text = json.dumps({"failures": self.failures, "blocked_until_wall": until})
        # The journal notes every refusal; the back-off itself runs on in memory.
        with contextlib.suppress(OSError):
            write_atomic(self._state, text)

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
    if what == "allowed":  # journals before issue 30
        if action in KIOSK_ACTIONS:  # the kiosk's own act, not a change of the match
            return "tap", f"{role}'s PIN allows {action}"
        return "edit", f"correction by the {role}: {action}"
    words = {"wrong": "wrong PIN", "wrong_role": "not the director's PIN", "backoff": "back-off"}
    why = words.get(reason, reason)
    return "refused", f"refused {action or 'a PIN'} on a console held by the {role}: {why}"
