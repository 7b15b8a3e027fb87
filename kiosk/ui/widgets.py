"""Shared widgets and styles: big touch targets readable at arm's length.

Sizes follow `app.unit` (a sixtieth of the window's height), so the same
layout reads well on an 800x480 and a 1024x600 touchscreen.
"""

from __future__ import annotations

import copy
from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

from kiosk.ui.kvload import load_kv
from kiosk.ui.scale import MIN_TEXT_PX


def words_kept(laid: list[Any], text: str) -> bool:
    """Whether the lines a core label laid out (`_cached_lines`) keep every word of `text`
    whole: Kivy breaks a word longer than the line inside it ("Dimitri" / "s")."""
    got = [t for line in laid for t in "".join(word.text for word in line.words).split()]
    return got == text.split()


class FitText:
    """Text that shows whole in its box, whatever its words (a name, a translation, a
    refusal): when the text at the size its rule gives (`font_size`, in units) would not fit
    (wider than its box, more lines than its height holds, a word broken across two lines)
    its size steps down, to the floor of kiosk/ui/scale.py at the least; it wraps only between
    words (where the rule gives it a `text_size` width), and is never shortened with "…".
    The rule's size comes back whenever the text, the box or the rule's size change."""

    def __init__(self, **kw: Any) -> None:
        self._design: float | None = None
        self._fitting = False
        self._refit = Clock.create_trigger(self._fit, -1)
        super().__init__(**kw)
        self._design = float(self.font_size)  # type: ignore[attr-defined]
        for name in ("text", "size", "text_size", "markup", "bold"):
            self.fbind(name, self._refit)  # type: ignore[attr-defined]
        self.fbind("font_size", self._sized)  # type: ignore[attr-defined]
        self._refit()

    def _sized(self, *_: object) -> None:
        if not self._fitting:  # the rule's size changed (the unit did): fit from it again
            self._design = float(self.font_size)  # type: ignore[attr-defined]
            self._refit()

    def fits(self, size: float) -> bool:
        """Whether the text shows whole at `size` pixels in the box as it is now."""
        label: Any = self
        width, height = label.text_size
        room_w = label.width if width is None else width
        room_h = label.height if height is None else height
        return self.measure(label.text, size, width, room_w, room_h)

    def fits_box(self, text: str, width: float, height: float) -> bool:
        """Whether `text` would show whole at the floor's size in a box of `width` by
        `height` (a rule may give a crowded line more room: the ruling strip's newest)."""
        return self.measure(text, MIN_TEXT_PX, width, width, height)

    def measure(
        self, text: str, size: float, wrap: float | None, room_w: float, room_h: float
    ) -> bool:
        label: Any = self
        if not text.strip():
            return True
        core = copy.copy(label._label)
        options = dict(core.options)
        options.update(font_size=size, shorten=False, max_lines=0)
        core.options = options
        core._text_size = (wrap, None)
        core.text = text
        core.render()
        used_w, used_h = core._internal_size
        if used_w > room_w + 1 or used_h > room_h + 1:
            return False
        return words_kept(core._cached_lines, core.text if not label.markup else text)

    def _fit(self, *_: object) -> None:
        label: Any = self
        design = self._design if self._design is not None else float(label.font_size)
        size = design
        shown = label.text.strip() and label.width > 1 and design > MIN_TEXT_PX
        if shown and not self.fits(design):
            lo, hi = MIN_TEXT_PX, int(design)
            size = float(lo)
            while lo < hi:  # the largest whole size that fits, at the floor if none does
                mid = (lo + hi + 1) // 2
                if self.fits(mid):
                    lo, size = mid, float(mid)
                else:
                    hi = mid - 1
        if abs(size - float(label.font_size)) > 0.01:
            self._fitting = True
            try:
                label.font_size = size
            finally:
                self._fitting = False


class FitLabel(FitText, Label):
    """A label whose text shows whole (FitText): names, translated lines, refusals."""


#: The scoresheet's columns, as shares of its width: game, board, breaker, winner, points,
#: queen, note (the names and the note take most: a doubles side's names wrap between words).
SHEET_COLUMNS = (0.8, 0.85, 1.7, 1.7, 0.8, 1.7, 1.8)


class SheetCell(Label):
    """One cell of the carrom scoresheet (carrom.py `SheetGrid`): wrapped between words in
    its column's width, as high as its lines; a row is as high as its highest cell."""

    column = NumericProperty(0)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.fbind("column", self._share)
        self._share()

    def _share(self, *_: object) -> None:
        self.size_hint_x = SHEET_COLUMNS[int(self.column)]


class BigButton(FitText, Button):
    """A button a thumb hits at once (styled in widgets.kv); `tint` is its colour at rest."""

    tint = ColorProperty((0.22, 0.25, 0.31, 1))


class ToggleChip(FitText, Button):
    """A button that shows whether it is chosen (`state` is not used: one tap, one action)."""

    chosen = BooleanProperty(False)


class Caption(FitText, Label):
    """Small grey text that names what is below it."""


class Banner(FitText, Label):
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
