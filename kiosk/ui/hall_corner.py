"""The hall's corner on every umpire screen: the "Call director" button and the small
"hall: offline" mark (docs/hall.md). Only added when the kiosk has a hall publisher."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from kiosk.engine.outputs import Output
from kiosk.ui.i18n import tr
from kiosk.ui.words import N_

#: The screens an umpire runs a table from.
UMPIRE_SCREENS = ("carrom", "backgammon", "bhukhar")


class HallCorner(BoxLayout):
    def __init__(self, publisher: Any, **kw: Any) -> None:
        unit = getattr(App.get_running_app(), "unit", 10.0)
        super().__init__(
            orientation="horizontal",
            size_hint=(None, None),
            size=(unit * 30, unit * 3.6),
            pos_hint={"center_x": 0.5, "top": 1},
            spacing=unit * 0.5,
            **kw,
        )
        self.publisher = publisher
        self.call: int | None = None
        self.mark = Label(text="", font_size=unit * 1.6, color=(1, 0.75, 0.3, 1))
        self.button = Button(text="", font_size=unit * 1.8)
        self.button.bind(on_release=lambda *_: self.call_director())
        self.add_widget(self.mark)
        self.add_widget(self.button)
        self.refresh()
        tr.on_switch(self.refresh)  # held weakly: the corner goes with its screen
        self._event = Clock.schedule_interval(lambda _dt: self.refresh(), 1.0)

    def call_director(self) -> None:
        self.call = self.publisher.call_director()
        self.refresh()

    def refresh(self) -> None:
        """The mark and the button in the console's language (again at a switch)."""
        if self.call is not None and self.publisher.call_acked == self.call:
            mark = N_("director coming")
        elif self.call is not None:
            mark = N_("director called")
        else:
            mark = "" if self.publisher.online else N_("hall: offline")
        self.mark.text = tr._(mark) if mark else ""
        self.button.text = tr._("Call director")


def add_hall_corner(screen: Screen, outputs: Iterable[Output]) -> HallCorner | None:
    """Put the corner on an umpire screen when a hall publisher is among the outputs."""
    publisher = next((o for o in outputs if getattr(o, "name", "") == "hall"), None)
    if publisher is None or screen.name not in UMPIRE_SCREENS:
        return None
    corner = HallCorner(publisher)
    screen.add_widget(corner)
    return corner
