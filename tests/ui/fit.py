"""What "fits" means for a laid-out screen, checked widget by widget (used by test_fit.py).

A problem is named by the screen's state, the widget's id (or class) and its text:
- a label (a button is one) whose text needs more room than its box has: measured again with
  the label's own font and options, wrapped at its `text_size` width, never shortened;
- a widget that reaches outside the window (the contents of a scroll view may: they scroll);
- at the smallest screen, text drawn under MIN_TEXT_PX, or a tap target (a button, a text
  field) under MIN_TAP_PX on a side.
Widgets that are not seen are skipped: opacity 0, or a closed Overlay (parked outside the
window by its pos_hint until opened).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator

from kivy.core.window import Window
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from kiosk.ui.scale import MIN_TAP_PX, MIN_TEXT_PX, text_px
from kiosk.ui.widgets import Overlay

#: Pixels a measure may be off by (Kivy rounds sizes and positions to whole pixels).
SLACK = 1.5
#: The part of a font's size a label's box may cut off its line's height unseen: the space
#: above the tallest ascender and below the lowest descender.
LEADING = 0.3


def seen(root: Widget) -> Iterator[tuple[Widget, bool]]:
    """Every widget under `root` a person can see, with whether it sits in a scroll view."""
    stack: list[tuple[Widget, bool]] = [(root, False)]
    while stack:
        widget, scrolled = stack.pop()
        if widget.opacity == 0 or (isinstance(widget, Overlay) and not widget.is_open()):
            continue
        yield widget, scrolled
        inner = scrolled or isinstance(widget, ScrollView)
        stack.extend((child, inner) for child in widget.children)


def needed(label: Label) -> tuple[float, float]:
    """The room `label`'s text takes: laid out again by its own core label, at its
    `text_size` width (none: one line per line of text), with no height limit and no
    shortening."""
    core = copy.copy(label._label)
    core.options = dict(core.options)
    core.options["shorten"] = False
    core.options["max_lines"] = 0
    width = label.text_size[0]
    core._text_size = (width, None)
    core.text = label.text
    w, h = core.render()
    if width is not None:
        # A word longer than the wrapping width sticks out of it.
        inner = getattr(core, "_internal_size", (w, h))
        w = max(inner[0], 0)
    return float(w), float(h)


def name_of(widget: Widget, ids: dict[int, str]) -> str:
    wid = ids.get(id(widget))
    text = getattr(widget, "text", "")
    label = f"{type(widget).__name__}" + (f"#{wid}" if wid else "")
    return f"{label} {text!r}" if text else label


def widget_ids(root: Widget) -> dict[int, str]:
    """The kv ids of every widget under `root` (from every rule's `ids`), to name them."""
    names: dict[int, str] = {}
    for widget in root.walk(restrict=True):
        for key, value in getattr(widget, "ids", {}).items():
            names.setdefault(id(getattr(value, "__self__", value)), key)  # ids hold proxies
    return names


def problems(root: Widget, smallest: bool) -> list[str]:
    """What does not fit on `root` as it is laid out now; `smallest`: the 800x480 rules too."""
    found: list[str] = []
    # Behind an open dialog the screen was checked in its own state: check the dialog.
    opened = [
        w
        for w in root.walk(restrict=True)
        if isinstance(w, Overlay) and w is not root and w.is_open()
    ]
    if opened and not isinstance(root, Overlay):
        return [line for overlay in opened for line in problems(overlay, smallest)]
    ids = widget_ids(root)
    win_w, win_h = Window.size
    for widget, scrolled in seen(root):
        if widget.width < 1 or widget.height < 1:
            continue
        x0, y0 = widget.to_window(widget.x, widget.y)
        x1, y1 = widget.to_window(widget.right, widget.top)
        name = name_of(widget, ids)
        if not scrolled and (
            x0 < -SLACK or y0 < -SLACK or x1 > win_w + SLACK or y1 > win_h + SLACK
        ):
            found.append(f"{name} outside the window: ({x0:.0f},{y0:.0f})-({x1:.0f},{y1:.0f})")
        if isinstance(widget, Label) and widget.text.strip():
            w, h = needed(widget)
            # A line's box is the font's ascent and descent (about 1.36 em in Noto Sans), the
            # ink well inside it: a box may cut up to LEADING of it and nothing shows.
            leading = LEADING * text_px(widget.font_size)
            if w > widget.width + SLACK or h > widget.height + SLACK + leading:
                has = f"{widget.width:.0f}x{widget.height:.0f}"
                found.append(f"{name} clipped: needs {w:.0f}x{h:.0f}, has {has}")
        if not smallest:
            continue
        drawn = text_px(widget.font_size) if isinstance(widget, (Label, TextInput)) else 0
        if drawn and widget.text.strip() and drawn < MIN_TEXT_PX:
            found.append(f"{name} text {drawn} px < {MIN_TEXT_PX}")
        tappable = isinstance(widget, (ButtonBehavior, TextInput))
        if tappable and min(widget.width, widget.height) < MIN_TAP_PX - 0.5:
            found.append(f"{name} tap target {widget.width:.0f}x{widget.height:.0f} < {MIN_TAP_PX}")
    return found


def describe(found: dict[str, str]) -> str:
    """One line a problem, after where it was seen first."""
    return "\n".join(f"{where}: {line}" for line, where in found.items())
