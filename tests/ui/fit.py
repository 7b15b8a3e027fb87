"""What "fits" means for a laid-out screen, checked widget by widget (used by test_zz_fit.py).

A problem is named by the screen's state, the widget's id (or class) and its text:
- a label (a button is one) whose text does not show whole inside its box: its text is laid
  out again by its own core label, with its font and options, wrapped at its `text_size`
  width, never shortened and never cut to a height, then drawn (Pillow, as the kiosk draws
  it) and its ink placed where the label would put its texture. Ink cut off by the texture
  (a text_size too small: a line or a descender lost), ink outside the label's box (drawn
  over its neighbours), a text shortened with "…" (Kivy's "...", read from the lines the
  label laid out itself) and a word broken across two lines are each a problem;
- a widget that reaches outside the window (the contents of a scroll view may: they scroll);
- at the smallest screen, text drawn under MIN_TEXT_PX, or a tap target (a button, a text
  field) under MIN_TAP_PX on a side.
Widgets that are not seen are skipped: opacity 0, or a closed Overlay (parked outside the
window by its pos_hint until opened).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
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
#: A pixel of a drawn text is ink when its alpha is over this (anti-aliasing's faint edge is
#: not counted: a cut through it does not show).
INK_ALPHA = 96
#: Kivy's markup tags, left out of the words compared with the lines laid out.
_TAG = re.compile(r"\[/?[a-z_]+(?:=[^\]]*)?\]")


@dataclass(frozen=True, slots=True)
class Ink:
    """Where a label's whole text puts ink, in window pixels, beside the texture's box."""

    ink: tuple[float, float, float, float] | None  # x0, y0, x1, y1 (None: nothing drawn)
    texture: tuple[float, float, float, float]
    shortened: bool
    broken: str  # a word broken across two lines ("" if none)


_CACHE: dict[tuple[object, ...], tuple[tuple[int, int, int, int] | None, int, int, int, str]] = {}


def _laid_out(label: Label) -> tuple[tuple[int, int, int, int] | None, int, int, int, str]:
    """`label`'s text laid out whole (wrapped at its text_size width, no height limit, not
    shortened) and drawn: the ink's box in the drawing (x0, top, x1, bottom; None: no ink),
    the drawing's width and height, the text's own height, and a word broken across lines."""
    core = copy.copy(label._label)
    options = dict(core.options)
    options["shorten"] = False
    options["max_lines"] = 0
    options["color"] = (1, 1, 1, 1)
    width = label.text_size[0]
    key = (type(core), label.text, width, repr(sorted(options.items())))
    if key in _CACHE:
        return _CACHE[key]
    core.options = options
    core._text_size = (width, None)
    core.text = label.text
    w, h = core.render()
    ih = int(core._internal_size[1])
    box: tuple[int, int, int, int] | None = None
    if w > 1 and h > 1:
        core._size = (w, h)
        lines = core._cached_lines
        line_options = core._default_line_options(lines)
        if line_options is not None:
            core._render_begin()
            core.render_lines(
                lines, line_options, core._render_text, int(options["padding"][1]), (w, h)
            )
            data = core._render_end()
            inked = np.frombuffer(data.data, np.uint8).reshape(h, w, 4)[:, :, 3] > INK_ALPHA
            rows, cols = np.flatnonzero(inked.any(axis=1)), np.flatnonzero(inked.any(axis=0))
            if rows.size:
                box = (int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1)
    said = _TAG.sub("", label.text) if label.markup else label.text
    laid = [
        token
        for line in core._cached_lines
        for token in "".join(word.text for word in line.words).split()
    ]
    if label.markup:
        laid = _TAG.sub("", " ".join(laid)).split()
    broken = ""
    if laid != said.split():
        extra = [t for t in laid if t not in said.split()]
        broken = extra[0] if extra else "?"
    found = (box, int(w), int(h), ih, broken)
    if len(_CACHE) > 20000:
        _CACHE.clear()
    _CACHE[key] = found
    return found


def ink(label: Label) -> Ink:
    """Where `label` would draw its whole text, in window pixels: its texture's box is the
    text_size (or the text's own size) centred on the label, the text placed in it by valign
    as Kivy's core label places it (kivy/core/text `_render_real`)."""
    box, w, h, ih, broken = _laid_out(label)
    tw, th = label.text_size
    tex_w = float(tw) if tw is not None else float(w)
    tex_h = float(th) if th is not None else float(h)
    pad_top = float(label.padding[1]) if len(label.padding) > 1 else float(label.padding[0])
    valign = label.valign
    if valign == "bottom":
        offset = tex_h - ih + pad_top
    elif valign == "top":
        offset = pad_top
    else:
        offset = (tex_h - ih + 2 * pad_top) / 2
    if th is None:
        offset = pad_top  # the texture is the text's own height
    cx, cy = label.to_window(label.center_x, label.center_y)
    left = int(cx - tex_w / 2.0)
    top = int(cy - tex_h / 2.0) + tex_h
    texture = (float(left), top - tex_h, left + tex_w, top)
    if box is None:
        return Ink(None, texture, False, broken)
    x0, y0, x1, y1 = box
    where = (left + x0, top - offset - y1 + pad_top, left + x1, top - offset - y0 + pad_top)
    shortened = bool(label.shorten) and tw is not None and w > tw + SLACK
    return Ink(where, texture, shortened or cut_short(label), broken)


def cut_short(label: Label) -> bool:
    """Whether Kivy drew `label` shortened: its lines as laid out (by the real shaper, at the
    label's own size and options) hold a "…" that its text does not. A shortened label lays
    out one line of the width it is given, so the whole-text layout above does not see it."""
    if not label.shorten:
        return False
    drawn = "".join(w.text for line in label._label._cached_lines for w in line.words)
    return any(drawn.count(mark) > label.text.count(mark) for mark in ("…", "..."))


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
            found.extend(f"{name} {line}" for line in label_problems(widget))
        if not smallest:
            continue
        drawn = text_px(widget.font_size) if isinstance(widget, (Label, TextInput)) else 0
        if drawn and widget.text.strip() and drawn < MIN_TEXT_PX:
            found.append(f"{name} text {drawn} px < {MIN_TEXT_PX}")
        tappable = isinstance(widget, (ButtonBehavior, TextInput))
        if tappable and min(widget.width, widget.height) < MIN_TAP_PX - 0.5:
            found.append(f"{name} tap target {widget.width:.0f}x{widget.height:.0f} < {MIN_TAP_PX}")
    return found


def label_problems(label: Label) -> list[str]:
    """What keeps `label`'s text from showing whole: cut, over its box, shortened, broken."""
    seen_ink = ink(label)
    if seen_ink.ink is None:
        return []
    out = []
    x0, y0, x1, y1 = seen_ink.ink
    t0, u0, t1, u1 = seen_ink.texture
    b0, c0 = label.to_window(label.x, label.y)
    b1, c1 = label.to_window(label.right, label.top)
    where = f"ink ({x0:.0f},{y0:.0f})-({x1:.0f},{y1:.0f})"
    if x0 < t0 - SLACK or y0 < u0 - SLACK or x1 > t1 + SLACK or y1 > u1 + SLACK:
        out.append(f"clipped: {where} cut by its text box ({t0:.0f},{u0:.0f})-({t1:.0f},{u1:.0f})")
    elif x0 < b0 - SLACK or y0 < c0 - SLACK or x1 > b1 + SLACK or y1 > c1 + SLACK:
        out.append(f"clipped: {where} over its box ({b0:.0f},{c0:.0f})-({b1:.0f},{c1:.0f})")
    if seen_ink.shortened:
        out.append("clipped: shortened")
    if seen_ink.broken:
        out.append(f"clipped: a word broken across lines ({seen_ink.broken!r})")
    return out


def describe(found: dict[str, str]) -> str:
    """One line a problem, after where it was seen first."""
    return "\n".join(f"{where}: {line}" for line, where in found.items())
