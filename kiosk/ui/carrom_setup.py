"""Match setup for a carrom table: players, the toss, the board limit, the timer lengths.

The screen only gathers choices; `match_start()` turns them into the record's
first line (kiosk/rules/carrom/events.MatchStart, laws 39 and 42: the toss
winner breaks first; law 56: 8 boards a game before the quarter-final, none
from it) and the app hands that to the engine's session.
"""

from __future__ import annotations

from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    OptionProperty,
    StringProperty,
)
from kivy.uix.screenmanager import Screen

from kiosk.errors import TablesideError
from kiosk.rules.carrom.events import MatchStart
from kiosk.rules.carrom.variants import rule_set_names
from kiosk.ui.i18n import tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.setup_names import default_name

#: The timer lengths the umpire can pick at setup (law 50: 15 s; some events use 10 s).
STROKE_CHOICES = (10.0, 15.0)


class SetupError(TablesideError, ValueError):
    """The choices cannot start a match (the message says which field)."""


class CarromSetupScreen(Screen):
    """Choices for `MatchStart`; names come from on-screen text fields in seating order."""

    rules = OptionProperty("icf", options=list(rule_set_names()))
    doubles = BooleanProperty(False)
    #: As typed; a blank one plays under its hint (`default_name`).
    names = ListProperty(["", "", "", ""])
    first_break = NumericProperty(0)
    #: 0: no board limit (quarter-final onward, law 56); else boards per game.
    board_limit = NumericProperty(8)
    stroke_s = NumericProperty(15.0)
    message = StringProperty("")

    def seats(self) -> int:
        return 4 if self.doubles else 2

    def set_name(self, seat: int, text: str) -> None:
        names = list(self.names)
        names[seat] = text.strip()
        self.names = names

    def set_doubles(self, doubles: bool) -> None:
        self.doubles = doubles
        if self.first_break >= self.seats():
            self.first_break = 0

    def match_start(self) -> MatchStart:
        """The record's first line for these choices; raises SetupError naming the field."""
        players = tuple(n or default_name(i) for i, n in enumerate(self.names[: self.seats()]))
        for seat, name in enumerate(players, start=1):
            if not name:
                raise SetupError(tr._("player {seat} has no name", seat=seat))
        if len(set(players)) != len(players):
            raise SetupError(tr._("two players have the same name"))
        limit = int(self.board_limit) or None if self.rules == "icf" else None
        return MatchStart(
            rules=self.rules,
            players=players,
            first_break=players[int(self.first_break)],
            board_limit=limit,
        )


load_kv(__file__)
