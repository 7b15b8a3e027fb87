"""Where the tap was made, real taps under Xvfb at 800x480: Bhukhar's "Enter
the game" answers beside the button, in sight, its refusal whole; the side buttons show the
team's whole name and the players' names unbroken, in Latin and in Greek."""

from __future__ import annotations

from typing import Any

import pytest
from kivy.core.window import Window
from kivy.uix.scrollview import ScrollView

from kiosk.ui.i18n import apply_languages

from .fit import label_problems
from .harness import Kiosk, pump


def _rect(w: Any) -> tuple[float, float, float, float]:
    x, y = w.to_window(w.x, w.y)
    return x, y, x + w.width, y + w.height


def _in_sight(widget: Any) -> bool:
    """Whole inside the window and inside the scroll view's window (not below the fold)."""
    x0, y0, x1, y1 = _rect(widget)
    parent = widget.parent
    while parent is not None and not isinstance(parent, ScrollView):
        parent = parent.parent
    v0, w0, v1, w1 = _rect(parent) if parent is not None else (0, 0, *Window.size)
    return bool(x0 >= v0 - 1 and y0 >= w0 - 1 and x1 <= v1 + 1 and y1 <= w1 + 1)


def _start(kiosk: Kiosk) -> Any:
    kiosk.tap("bhukhar")
    assert kiosk.current == "setup_bhukhar"
    kiosk.type("team_name", "Lions of Surat")
    kiosk.type("player_0", "Dimitris")
    kiosk.tap("start")
    assert kiosk.current == "bhukhar"
    return kiosk.screen()


def test_bhukhar_enter_answers_where_the_tap_was_made_at_800x480(small: Kiosk) -> None:
    kiosk = small
    screen = _start(kiosk)
    side_b = screen.ids.side_1
    kiosk.tap(side_b.ids.licence)  # team B has no licence...
    kiosk.tap(side_b.ids.by_0)  # ...yet B1 is named as laying it: refused (rule 13.4)
    kiosk.tap("enter")
    message = screen.ids.message
    assert screen.refused and message.text.startswith("Not entered: team B: B1 is named")
    assert _in_sight(message), f"the refusal is below the fold: {_rect(message)}"
    assert _in_sight(screen.ids.enter)
    assert label_problems(message) == [], "the refusal is cut"
    kiosk.shot("bhukhar_refused_800x480")
    kiosk.tap(side_b.ids.by_0)  # the name taken off
    kiosk.tap("end_stock")  # the stock ran out (16.2): nobody closed
    kiosk.tap(screen.ids.side_0.ids.points_p50)
    kiosk.tap(screen.ids.side_0.ids.points_p50)  # team A's licence: 100 on the table
    kiosk.tap("enter")
    assert not screen.refused and message.text.startswith("Table 1 entered."), message.text
    assert _in_sight(message) and label_problems(message) == []


@pytest.mark.parametrize("language", ["en", "el"])
def test_bhukhar_side_buttons_show_whole_names_at_800x480(small: Kiosk, language: str) -> None:
    kiosk = small
    screen = _start(kiosk)
    apply_languages(language, "")
    pump(6)
    side_a = screen.ids.side_0
    team, by_0 = side_a.ids.team, side_a.ids.by_0
    assert "Lions of Surat" in team.text and by_0.text == "Dimitris"
    for widget in (team, by_0, screen.ids.side_1.ids.team, screen.ids.closed_by):
        assert label_problems(widget) == [], (widget.text, label_problems(widget))
    kiosk.shot(f"bhukhar_names_800x480_{language}")
