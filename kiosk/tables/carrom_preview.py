"""What an umpire's call would do, asked of the rules core before it is made.

A destructive call (concede, forfeit a board, void it) is confirmed by the umpire with its
consequence in words, and the foul dialog says per player whether the foul is technical
(law 63) or ends the turn (law 64). Neither is guessed by the screen: the core takes the
event, is read and is set back exactly (push, look, pop), as `timing.turn_goes_on` does.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.errors import Reason
from kiosk.rules.carrom.calls import FOUL_CALLS
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import Event
from kiosk.rules.carrom.match import Match
from kiosk.rules.carrom.state import MatchState, Outcome


@dataclass(frozen=True, slots=True)
class Preview:
    """The match as it would be after the event (`state`, `outcome`, the core's `calls`),
    or `refused`: the core's reason it cannot be, as facts for the interface to word (then
    `state` and `outcome` are None)."""

    state: MatchState | None
    outcome: Outcome | None
    calls: tuple[Reason, ...]
    refused: Reason | None = None


def preview(match: Match, event: Event) -> Preview:
    """`event` pushed, read and popped: the match is left exactly as it was."""
    try:
        match.push(event)
    except IllegalEvent as exc:
        return Preview(None, None, (), exc.reason or Reason.of("refused", str(exc)))
    try:
        state = match.state
        return Preview(state, match.outcome(), state.calls)
    finally:
        match.pop()


def foul_law(calls: tuple[Reason, ...]) -> str | None:
    """The law the core called a foul on a player by ("63 a", "63 b", "64 a", "club IV i"),
    or None: the law of its foul call (calls.FOUL_CALLS)."""
    return next((call.law for call in calls if call.code in FOUL_CALLS), None)
