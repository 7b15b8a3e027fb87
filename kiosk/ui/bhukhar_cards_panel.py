"""The Bhukhar screen's cards panel: one team's cards, tapped on the 52 (layout in
bhukhar_cards_panel.kv). It draws what the screen gives it and sends the taps to `target`,
the screen, which sends them on to the table's draft."""

from __future__ import annotations

from typing import Any

from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)

from kiosk.ui import bhukhar_grid as _grid  # noqa: F401  (registers CardGrid for the .kv)
from kiosk.ui.kvload import load_kv
from kiosk.ui.widgets import Overlay


class BhukharCardsPanel(Overlay):
    """The panel over the Bhukhar screen while a team's cards are entered in full."""

    target: Any = ObjectProperty(None, allownone=True)
    team = StringProperty("")
    table_no = NumericProperty(1)
    section = StringProperty("licence")
    lines = StringProperty("")
    message = StringProperty("")
    can_take_back = BooleanProperty(False)
    #: The licence's melds, and those a wrong card spoiled later (17.2; 0 = the first).
    licence_count = NumericProperty(0)
    spoiled = ListProperty([])


load_kv(__file__)
