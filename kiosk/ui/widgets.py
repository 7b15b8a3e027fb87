"""Shared widgets and styles: big touch targets readable at arm's length.

Sizes follow `app.unit` (a sixtieth of the window's height), so the same
layout reads well on an 800x480 and a 1024x600 touchscreen.
"""

from __future__ import annotations

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
    """A panel over a screen: `shown` brings it in; while in, it takes every touch that lands
    on it, so nothing underneath is pressed by mistake."""

    shown = BooleanProperty(False)

    def on_touch_down(self, touch: object) -> bool:
        if super().on_touch_down(touch):
            return True
        return bool(self.collide_point(*touch.pos))  # type: ignore[attr-defined]


load_kv(__file__)
