"""The carrom rules core: the ICF laws (2004) and the club rules, pure and undoable.

`Match(start)` takes the events of a match record (events.py) with `push`,
undoes them with `pop`, and shows the match as a frozen `MatchState`
(state.py); `outcome()` says what the last event ended. Standard library only.
"""

from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.match import Match
from kiosk.rules.carrom.state import (
    BoardResult,
    Ending,
    GameResult,
    MatchState,
    Now,
    Outcome,
    QueenState,
)
from kiosk.rules.carrom.variants import RULE_SETS, rules_for

__all__ = [
    "RULE_SETS",
    "BoardResult",
    "Ending",
    "GameResult",
    "IllegalEvent",
    "Match",
    "MatchState",
    "Now",
    "Outcome",
    "QueenState",
    "rules_for",
]
