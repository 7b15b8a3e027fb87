"""The Bhukhar screen's totals panel: how the last game's totals were added up, line by line
with the rules (layout in bhukhar_totals_panel.kv; the words in bhukhar_words.py)."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty, StringProperty

from kiosk.ui.kvload import load_kv
from kiosk.ui.widgets import Overlay


class BhukharTotalsPanel(Overlay):
    """Over the Bhukhar screen after a game is entered, until the umpire closes it."""

    target: Any = ObjectProperty(None, allownone=True)
    lines = StringProperty("")


load_kv(__file__)
