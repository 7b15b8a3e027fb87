"""The Bhukhar screen's cards panel: one team's cards, tapped on the 52 (layout in
bhukhar_cards_panel.kv), and the panel over it that marks a licence meld spoiled later
(17.2). Each draws what the screen gives it and sends the taps to `target`, the screen,
which sends them on to the table's draft."""

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
    #: The licence's melds (for "Spoiled later": none, nothing to mark).
    licence_count = NumericProperty(0)


class BhukharSpoilPanel(Overlay):
    """Over the cards panel: which of the licence's melds a wrong card spoiled later
    (17.2), each by its cards; a tap marks it, or takes the mark off."""

    target: Any = ObjectProperty(None, allownone=True)
    #: Each licence meld's cards as shown (the panel has buttons for the first five), and
    #: the spoiled ones (0 = the first).
    melds = ListProperty([])
    spoiled = ListProperty([])


load_kv(__file__)
