"""Which turn timer runs after an event, read from the core's state: the laws of time.

- law 46: the break's 15 s start at the umpire's "play", so a new board stops the count;
- law 50: dues placed or waived, the next stroke within 15 s;
- law 61: a change of sides, two minutes;
- law 88 a: dues and penalties to place, 15 s from the umpire's call;
- law 124: when the turn goes on (124 a) the count starts as soon as the stroke is complete;
  otherwise the opponent's count waits for the striker to be lifted (124 b);
- law 138: ten minutes before the third game.

Pure: the table (kiosk/tables/carrom_table.py) applies the call to kiosk/clocks/turn.py's
timers. Whether the turn goes on is the core's own answer (push, look, pop), never a guess.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from kiosk.rules.carrom.errors import N_, IllegalEvent, Reason
from kiosk.rules.carrom.events import (
    Event,
    Protest,
    ProtestDecided,
    Stroke,
    Toss,
    VoidBoard,
    Waive,
)
from kiosk.rules.carrom.match import Match
from kiosk.rules.carrom.state import Now

#: "cancel": no timer; "interval", "change_sides", "placing": that timer starts; "dues": the
#: stroke's count after dues (law 50); "count": the stroke's count starts now (124 a);
#: "await_lift": the count waits for the striker to be lifted (124 b); None: as it is.
TimerCall: TypeAlias = (
    Literal["cancel", "interval", "change_sides", "placing", "dues", "count", "await_lift"] | None
)


def timer_after(
    match: Match,
    event: Event,
    before: Now | None,
    *,
    counting: bool = False,
    awaiting_lift: bool = False,
) -> TimerCall:
    """The timer call after `event` was pushed on `match` (`before`: the board's `Now` before
    it). `counting`: the stroke's count already runs; `awaiting_lift`: it already waits for the
    striker to be lifted (then nothing changes)."""
    state = match.state
    now = state.now
    if now is None:
        return "cancel"  # the match is over
    ended = match.outcome()
    if isinstance(event, Protest | ProtestDecided) and ended.board is None:
        return None  # play goes on where it stopped (law 150): the count as it was
    if ended.board is not None or isinstance(event, VoidBoard | Toss) or now.is_break:
        if ended.game is not None and now.game == 3:
            return "interval"  # law 138
        if state.change_sides:
            return "change_sides"  # law 61
        return "cancel"  # law 46: the umpire's "play" starts the break's count
    if any(now.placing.values()):
        return "placing"  # law 88 a
    if isinstance(event, Waive):
        return "dues"  # law 50
    goes_on = before is not None and now.turn == before.turn
    if isinstance(event, Stroke):
        if goes_on:
            return None if counting else "count"  # law 124 a
        return None if awaiting_lift else "await_lift"  # law 124 b
    return None if goes_on else "await_lift"


def turn_goes_on(match: Match, stroke: Stroke) -> bool:
    """Whether the count starts as the coins come to rest after `stroke`, before the umpire
    confirms it (law 124 a): the core plays the stroke, is read and is set back (push, look,
    pop). A stroke the core refuses does not go on."""
    before = match.state.now
    try:
        match.push(stroke)
    except IllegalEvent:
        return False
    try:
        return timer_after(match, stroke, before) == "count"
    finally:
        match.pop()


def dues_refusal(now: Now | None, *, placed: bool = False) -> Reason | None:
    """Why the umpire's "dues placed" (law 50: the next stroke's 15 s) cannot be taken now:
    no board is in play, or the core owes nothing to place (law 88), or they were said placed
    already since the last event (`placed`: a second tap would give the striker a fresh 15 s).
    None: it may be."""
    if now is None or not any(now.placing.values()):
        return Reason.of(
            "nothing_to_place",
            N_("Nothing to place: no dues or penalties are owed (law {law})"),
            law="88",
        )
    if placed:
        return Reason.of(
            "already_placed",
            N_("The dues are placed already: the stroke's 15 seconds run (law {law})"),
            law="50",
        )
    return None
