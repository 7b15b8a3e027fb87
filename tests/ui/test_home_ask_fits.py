"""Home's question before a new game, over three unfinished tables, was
clipped by 2 px at 800x480 when the state arose in Hindi (the fit story reaches it in
English and switches: that path fitted). The state reached in Hindi from the start."""

from __future__ import annotations

from kiosk.ui.i18n import apply_languages

from .fit import problems
from .harness import Kiosk, pump
from .tour import story


def test_home_asks_over_three_tables_in_hindi_at_800x480_and_it_fits(small: Kiosk) -> None:
    apply_languages("hi", "")
    pump(4)
    for state in story(small):
        if state == "home/ask_running_clock":
            break
    pump(6)
    home = small.screen("home")
    assert home.ask_text.count("\n") == 2  # the three tables, one line each
    assert problems(home, smallest=True) == []
