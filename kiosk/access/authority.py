"""Who may do what at the console: players, the umpire, the director.

A pure model (standard library only; every time is passed in, never read): the console is
locked (a player's role) until the umpire's PIN unlocks it; it locks itself again after
`idle_s` without an action and whenever the player display is shown. The director's PIN
opens a window of `director_s` seconds (0: each director action asks for the PIN). After
`FREE_TRIES` wrong PINs in a row every further one is refused for a back-off that doubles
(`BACKOFF_S`, then twice that, ...; at most `BACKOFF_MAX_S`); the right PIN ends it.

Every unlock, lock and refusal is handed to `note` as a `Note`, for the journal; an action
that is allowed is journaled by the table that carries it out, with the role
(kiosk/tables/commands.py). Checking a PIN is injected (`check(role, pin)`): the hashing
lives in the config.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum


class Role(IntEnum):
    """Ordered: a higher role may do all a lower one may."""

    PLAYER = 0
    UMPIRE = 1
    DIRECTOR = 2

    @property
    def word(self) -> str:
        return self.name.lower()


#: What each console action needs. Unknown actions need the director (fail closed).
ACTIONS: dict[str, Role] = {
    # carrom (kiosk/ui/carrom.py): the umpire's calls
    "edit": Role.UMPIRE,
    "confirm": Role.UMPIRE,
    "foul": Role.UMPIRE,
    "waive": Role.UMPIRE,
    "pass_turn": Role.UMPIRE,
    "toss": Role.UMPIRE,
    "undo": Role.UMPIRE,
    "play": Role.UMPIRE,
    "striker_lifted": Role.UMPIRE,
    "dues_placed": Role.UMPIRE,
    "ask_waive": Role.UMPIRE,
    "stop_clock": Role.UMPIRE,
    "restart_clock": Role.UMPIRE,
    # carrom: the director's decisions (laws 137-143)
    "undo_past_board": Role.DIRECTOR,
    "void_board": Role.DIRECTOR,
    "forfeit_board": Role.DIRECTOR,
    "concede": Role.DIRECTOR,
    # carrom: protests (laws 144-151): lodged with the umpire, decided by the director
    "protest": Role.UMPIRE,
    "decide_protest": Role.DIRECTOR,
    # backgammon (kiosk/ui/backgammon.py): no umpire (RULES.md, rulings of 2026-11-27): the
    # players press, pause, resume, restart the delay, start and end a game (4.1, 4.3, 5.1)
    "press": Role.PLAYER,
    "start": Role.PLAYER,
    "pause": Role.PLAYER,
    "resume_clock": Role.PLAYER,
    "restart_delay": Role.PLAYER,
    "game_end": Role.PLAYER,
    # backgammon: the director's (2.2 (ii), (iv), 4.1 (v), 4.3): banks, overrules, penalty
    # and lateness points, breaks, the score and the match length
    "adjust": Role.DIRECTOR,
    "overrule": Role.DIRECTOR,
    "early_pickup": Role.DIRECTOR,
    "late": Role.DIRECTOR,
    "penalty": Role.DIRECTOR,
    "take_break": Role.DIRECTOR,
    "correct_score": Role.DIRECTOR,
    "match_length": Role.DIRECTOR,
    # Bhukhar (kiosk/ui/bhukhar.py): the umpire keeps the round timer and the scoresheet
    "bhukhar_round": Role.UMPIRE,
    "bhukhar_entry": Role.UMPIRE,
    "bhukhar_enter": Role.UMPIRE,
    # the kiosk's own acts (KIOSK_ACTIONS): a new match is the umpire's, but a backgammon
    # table has no umpire: its players set up and start their own match (RULES.md, rulings
    # of 2026-12-01); closing an unfinished one, the settings and the records, the director's
    "start_match": Role.UMPIRE,
    "start_backgammon": Role.PLAYER,
    "close_table": Role.DIRECTOR,
    "settings": Role.DIRECTOR,
    "records": Role.DIRECTOR,
}
#: The kiosk's own acts, not a table's commands: never a change of the match in play.
KIOSK_ACTIONS = frozenset({"start_match", "start_backgammon", "close_table", "settings", "records"})

#: How long the director's PIN typed for one action serves that action (seconds), when the
#: director's window is shorter: the confirmation it opens must be tapped within it.
GRANT_S = 60.0
#: Wrong PINs in a row allowed before the back-off starts.
FREE_TRIES = 5
#: The first back-off (seconds); each further wrong PIN doubles it, up to BACKOFF_MAX_S.
BACKOFF_S = 30.0
BACKOFF_MAX_S = 3600.0


def needs(action: str) -> Role:
    """The role `action` needs (the director for an action nobody listed)."""
    return ACTIONS.get(action, Role.DIRECTOR)


@dataclass(frozen=True, slots=True)
class Note:
    """One thing to journal. `what`: "unlock", "lock" or "refused" ("allowed", a director
    action, in journals written before commands carried their role); `role`: who acted (or
    was unlocked); `action`: the console action, if any;
    `reason`: why (a lock's cause, a refusal's)."""

    t: float
    what: str
    role: str
    action: str = ""
    reason: str = ""

    def as_dict(self) -> dict[str, str]:
        out = {"what": self.what, "role": self.role}
        if self.action:
            out["action"] = self.action
        if self.reason:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True, slots=True)
class Attempt:
    """A PIN's outcome: `role` unlocked (None: refused); `reason` for a refusal ("wrong",
    "wrong_role", "backoff"); `wait_s`: the back-off left, if any."""

    role: Role | None
    reason: str = ""
    wait_s: float = 0.0


class Authority:
    """The console's lock. `check(role, pin)` says whether `pin` is `role`'s PIN."""

    def __init__(
        self,
        check: Callable[[Role, str], bool],
        *,
        idle_s: float,
        director_s: float,
        note: Callable[[Note], None] = lambda _note: None,
    ) -> None:
        if idle_s <= 0 or director_s < 0:
            raise ValueError(
                f"idle_s must be above 0 and director_s at least 0: {idle_s}, {director_s}"
            )
        self._check = check
        self.idle_s = idle_s
        self.director_s = director_s
        self.note = note
        self._unlocked = False
        self._last_action = 0.0
        self._director_until = 0.0
        self.failures = 0
        self._blocked_until = 0.0
        #: The director action the director's PIN was just typed for: allowed once, even
        #: with no window (`director_s` 0), at the very next `may`.
        self._granted = ""
        self._granted_until = 0.0

    # -- the state ---------------------------------------------------------------------
    def role(self, now: float) -> Role:
        """The console's role at `now` (locking it if it has been idle too long)."""
        if self._unlocked and now - self._last_action >= self.idle_s:
            self.lock(self._last_action + self.idle_s, "idle")
        if not self._unlocked:
            return Role.PLAYER
        return Role.DIRECTOR if now < self._director_until else Role.UMPIRE

    def wait_s(self, now: float) -> float:
        """The back-off left at `now` (0: a PIN may be tried)."""
        return max(0.0, self._blocked_until - now)

    # -- actions -----------------------------------------------------------------------
    def may(self, action: str, now: float) -> bool:
        """Whether `action` (of `ACTIONS`) is allowed at `now` (see `allows`)."""
        return self.allows(needs(action), action, now) is not None

    def allows(self, wanted: Role, action: str, now: float, *, keep: bool = False) -> Role | None:
        """The role that acts for `action`, which needs `wanted`, at `now`; None: refused (the
        refusal is noted, nothing else changes). Allowed, the idle time starts again. The
        director's PIN typed for this very action serves once, even with no window; `keep`
        holds it for the tap that carries the action out (a confirmation asked first): the
        action is checked again then, and a lock in between takes it away."""
        have = self.role(now)
        granted = self._granted if now < self._granted_until else ""
        if not keep:
            self._granted = ""
        if have >= Role.UMPIRE and granted == action:
            have = Role.DIRECTOR
        if have < wanted:
            self.note(Note(now, "refused", have.word, action, f"needs the {wanted.word}"))
            return None
        if self._unlocked:
            self._last_action = now
        return have

    def enter(self, pin: str, wanted: Role, now: float, action: str = "") -> Attempt:
        """A PIN typed for `wanted` (the umpire's or the director's). The director's PIN
        also serves where the umpire's is asked; the umpire's never opens the director's
        window. While the back-off runs no PIN is even checked."""
        wait = self.wait_s(now)
        if wait > 0:
            self.note(Note(now, "refused", self.role(now).word, action, "backoff"))
            return Attempt(None, "backoff", wait)
        if self._check(Role.DIRECTOR, pin):
            got = Role.DIRECTOR
        elif self._check(Role.UMPIRE, pin):
            got = Role.UMPIRE
        else:
            return self._wrong(now, action, "wrong")
        if got < wanted:
            return self._wrong(now, action, "wrong_role")
        self.failures = 0
        self._unlocked = True
        self._last_action = now
        if got is Role.DIRECTOR:
            self._director_until = now + self.director_s
            self._granted = action
            self._granted_until = now + max(self.director_s, GRANT_S)
        self.note(Note(now, "unlock", got.word, action))
        return Attempt(got)

    def end_director(self, now: float, reason: str) -> None:
        """The director's screens closed (settings, PINs, calibration): the director's window
        ends with them, so what the console does next is journaled as the umpire's, the role
        that does it. The console stays unlocked for the umpire. Noted if a window was open."""
        was = now < self._director_until or bool(self._granted)
        self._director_until = 0.0
        self._granted = ""
        if was and self._unlocked:
            self.note(Note(now, "director_done", Role.UMPIRE.word, "", reason))

    def lock(self, now: float, reason: str) -> None:
        """Lock the console (the player display shown, idle, the umpire's own tap); the
        director's window closes with it. Noted only if it was unlocked."""
        was = self._unlocked
        self._unlocked = False
        self._director_until = 0.0
        self._granted = ""
        if was:
            self.note(Note(now, "lock", Role.PLAYER.word, "", reason))

    def _wrong(self, now: float, action: str, reason: str) -> Attempt:
        self.failures += 1
        over = self.failures - FREE_TRIES
        wait = 0.0
        if over >= 0:
            wait = min(BACKOFF_MAX_S, BACKOFF_S * 2.0 ** min(over, 32))
            self._blocked_until = now + wait
        self.note(Note(now, "refused", self.role(now).word, action, reason))
        return Attempt(None, reason, wait)
