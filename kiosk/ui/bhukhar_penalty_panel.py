"""The Bhukhar screen's penalty panel: rule 17's penalties of the game, by team, penalty and
player (layout in bhukhar_penalty_panel.kv; the points are the core's constants). It draws
what the screen gives it and sends the taps to `target`, the screen."""

from __future__ import annotations

from typing import Any

from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)

from kiosk.ui.kvload import load_kv
from kiosk.ui.widgets import Overlay


class BhukharPenaltyPanel(Overlay):
    """The panel over the Bhukhar screen while the game's penalties are added."""

    target: Any = ObjectProperty(None, allownone=True)
    table_no = NumericProperty(1)
    teams = ListProperty(["", ""])
    pen_side = NumericProperty(0)
    pen_kind = StringProperty("")
    pen_player = NumericProperty(-1)
    players = ListProperty(["", "", ""])
    lines = StringProperty("")
    message = StringProperty("")
    has_penalties = BooleanProperty(False)


load_kv(__file__)
