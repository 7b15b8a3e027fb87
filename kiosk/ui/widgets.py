"""Shared widgets and styles: big touch targets readable at arm's length.

Sizes follow `app.unit` (a sixtieth of the window's height), so the same
layout reads well on an 800x480 and a 1024x600 touchscreen.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ColorProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from kiosk.ui.kvload import load_kv


class BigButton(Button):
    """A button a thumb hits at once (styled in widgets.kv); `tint` is its colour at rest."""

    tint = ColorProperty((0.22, 0.25, 0.31, 1))


class ToggleChip(Button):
    """A button that shows whether it is chosen (`state` is not used: one tap, one action)."""

    chosen = BooleanProperty(False)


class Caption(Label):
    """Small grey text that names what is below it."""


class Banner(Label):
    """A coloured strip across the screen for what everyone must see (change sides, interval)."""

    background = ColorProperty((0.80, 0.45, 0.05, 1))


class Overlay(BoxLayout):
    """A dialog or panel over a screen: it is open while it stands inside the window (closed
    ones are parked outside it by their `pos_hint`); `shown` brings some of them in.

    An open overlay is modal: it takes every touch, on it or beside it, so that a stray tap
    never acts on the screen behind it (a tap on Void board behind "Who concedes the
    match?" once voided the board)."""

    shown = BooleanProperty(False)

    def is_open(self) -> bool:
        window = self.get_root_window()
        if window is None:
            return False
        x, y = self.to_window(*self.center)
        return bool(0 <= x <= window.width and 0 <= y <= window.height)

    def on_touch_down(self, touch: Any) -> bool:
        if super().on_touch_down(touch):
            return True
        return bool(self.collide_point(*touch.pos)) or self.is_open()

    def on_touch_move(self, touch: Any) -> bool:
        return bool(super().on_touch_move(touch)) or self.is_open()

    def on_touch_up(self, touch: Any) -> bool:
        return bool(super().on_touch_up(touch)) or self.is_open()


load_kv(__file__)
