"""What a carrom table shows: the view every output gets (the screen, the player display,
the buzzer, the hall's publisher), made fresh by the table at each change."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from kiosk.clocks.turn import TurnTimers
from kiosk.engine.faults import Fault, fault_to_json
from kiosk.rules.carrom.errors import Reason
from kiosk.rules.carrom.events import Event
from kiosk.rules.carrom.record import state_to_json
from kiosk.rules.carrom.state import MatchState, Outcome, ProtestState
from kiosk.tables.fusion import Proposal


@dataclass(frozen=True, slots=True)
class TimerView:
    """The timer running now: which (kiosk/clocks/turn.py kinds), seconds left (to the tenth,
    rounded up so a screen never shows less time than there is), its length."""

    kind: str
    remaining: float
    length: float
    held: bool

    @property
    def low(self) -> bool:
        """The last 5 seconds of a player's timer (the screens flash it)."""
        return self.remaining <= LOW_S and self.kind in ("stroke", "break", "placing", "waive")


#: A player's timer is low in its last seconds.
LOW_S = 5.0


@dataclass(frozen=True, slots=True)
class CarromView:
    """All a carrom screen needs at one moment.

    `phase`: "no_match", "aiming" (waiting for a stroke), "moving" (a stroke under way),
    "at_rest" (the proposal waits for the umpire), "over" (the match has a winner).
    `awaiting_lift`: the next count starts when the striker is lifted (law 124 b).
    `expired`: the timer that ran out, for the umpire to rule on (the kiosk never calls a
    time foul itself), until the next command. `refusal`: why the last command was refused, as
    facts (a code, the law, the facts: the core's reason or the table's own), which each screen
    words in its console's language; a view carries no English. `auto_confirm_in`: seconds
    before the proposal confirms itself, or None. `history`: the confirmed events that stand,
    oldest first (the ruling strip words an undo by the event it took back).
    """

    #: The version of the view (kiosk/tables/commands.py `ViewVersion`): a command made from
    #: this view carries it, and is refused once the table has moved on.
    version: int
    match_id: int | None
    state: MatchState | None
    outcome: Outcome | None
    proposal: Proposal
    phase: str
    timer: TimerView | None
    awaiting_lift: bool
    expired: str | None
    faults: tuple[Fault, ...]
    events: int
    can_undo: bool
    auto_confirm_in: float | None
    beams: tuple[int, ...]
    camera: bool
    t: float
    refusal: Reason | None = None
    history: tuple[Event, ...] = ()
    protest_minutes: int | None = None
    #: The camera's board is calibrated: until it is, the camera is no source of a stroke.
    calibrated: bool = True
    #: The words and fee receipt of each protest that stands: (game, board, words, receipt).
    protest_texts: tuple[tuple[int, int, str, str], ...] = ()
    #: The core's calls on the last few events, oldest first (a console that starts again
    #: shows them on its ruling strip).
    recent_calls: tuple[Reason, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The view as the publisher sends it (kiosk/engine/outputs.py `JsonOutput`): the match as
        `tableside replay --json` shows it, and the table."""
        p = self.proposal
        timer = self.timer
        return {
            "game": "carrom",
            "match": None if self.state is None else state_to_json(self.state),
            "phase": self.phase,
            "proposal": {
                "pocketed": list(p.pocketed),
                "striker": p.striker,
                "off_board": list(p.off_board),
                "source": p.source,
                "review": p.review,
                "notes": [str(note) for note in p.notes],
            },
            "timer": None
            if timer is None
            else {
                "kind": timer.kind,
                "remaining": timer.remaining,
                "length": timer.length,
                "held": timer.held,
            },
            "expired": self.expired,
            "faults": [fault_to_json(f) for f in self.faults],
            "t": self.t,
            # Minutes left of the officials' hour while a protest waits (151 c), else null.
            "protest_minutes": self.protest_minutes,
        }


#: The officials decide a protest within the hour (law 151 c).
DECISION_WITHIN_S = 3600.0


def decision_left(protest: ProtestState, t: float) -> float | None:
    """Seconds left at match time `t` of the hour the officials have to decide `protest`
    (151 c; never below 0), or None when it is decided or was lodged without a time."""
    if protest.decision is not None or protest.t is None:
        return None
    return max(0.0, protest.t + DECISION_WITHIN_S - t)


def hour_left(state: MatchState, t: float) -> int | None:
    """Whole minutes left (rounded up) of the hour for the oldest protest that waits, or
    None when none waits: what the view carries, so it changes once a minute."""
    left = [s for p in state.protests if (s := decision_left(p, t)) is not None]
    return None if not left else math.ceil(min(left) / 60 - 1e-9)


def timer_view(timers: TurnTimers, now: float) -> TimerView | None:
    """The timer running (or held) now, or None."""
    kind = timers.active
    remaining = timers.remaining(now)
    if kind is None or remaining is None:
        return None
    return TimerView(
        kind, math.ceil(remaining * 10 - 1e-9) / 10, timers.settings.length(kind), timers.held
    )


def tenths_left(at: float | None, now: float) -> float | None:
    """Seconds from `now` to `at` in tenths, rounded up (None: nothing is due)."""
    return None if at is None else math.ceil(max(0.0, at - now) * 10) / 10
