"""The 52-card panel of the Bhukhar screen's full entry: a button per card."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.gridlayout import GridLayout

from kiosk.ui.bhukhar_cards import ALL_CARDS, RED_SUITS, card_face
from kiosk.ui.widgets import BigButton


class CardButton(BigButton):
    """One of the 52 cards on the full-entry panel ("10H" shown as "10♥")."""

    card = StringProperty("")
    red = BooleanProperty(False)


class CardGrid(GridLayout):
    """The 52 cards, a row per suit, two to ace; `on_card(card)` when one is tapped.

    `buttons` maps "10H" to its button (the tests tap them)."""

    __events__ = ("on_card",)

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("cols", 13)
        super().__init__(**kw)
        self.buttons: dict[str, CardButton] = {}
        for card in ALL_CARDS:
            button = CardButton(card=card, text=card_face(card), red=card[-1] in RED_SUITS)
            button.bind(on_release=lambda b: self.dispatch("on_card", b.card))
            self.buttons[card] = button
            self.add_widget(button)

    def on_card(self, card: str) -> None:
        """Kivy's default handler of the event (the .kv binds the screen's)."""
