"""Short-lived status lines are kept as their message and values: a language switch words
them again (the settings' "Saved" after a tap on a language chip, the calibration's hints)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kiosk.ui.i18n import Said, apply_languages, tr

from .harness import Kiosk


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    apply_languages("en")


def test_a_status_line_rewords_on_a_language_switch(kiosk: Kiosk) -> None:
    kiosk.app.show("calibration")
    kiosk.advance(0.1)
    kiosk.tap("save")
    screen = kiosk.screen()
    assert screen.message == "Mark all four pockets first"
    apply_languages("el")
    kiosk.advance(0.1)
    assert screen.message == tr._("Mark all four pockets first") != "Mark all four pockets first"
    assert kiosk.widget("message").text == screen.message
    apply_languages("en")
    assert screen.message == "Mark all four pockets first"


def test_a_worded_value_rewords_and_a_line_set_since_is_left_alone(kiosk: Kiosk) -> None:
    kiosk.app.show("calibration")
    kiosk.advance(0.1)
    screen = kiosk.screen()
    said = Said(screen)
    said.say("Not saved: {problem}. Clear and tap the four pockets", problem=("Board void", {}))
    apply_languages("hi")
    assert tr._("Board void") in screen.message and "Not saved" not in screen.message
    screen.message = ""  # another part of the screen cleared it
    apply_languages("gu")
    assert screen.message == ""
