"""Bhukhar's refusals worded in the umpire's language: a false meld on the 52-card panel
(rule 13.1, its Reason worded with reason_words), and the "Not entered" line worded again on
a language switch (Said)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kiosk.ui.i18n import apply_languages, tr

from .harness import Kiosk


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    apply_languages("en")


def _open_cards(kiosk: Kiosk) -> Any:
    kiosk.tap("bhukhar")
    kiosk.tap("start")
    screen = kiosk.screen()
    kiosk.tap(screen.ids.side_0.ids.full)
    kiosk.tap(screen.ids.side_0.ids.cards)
    return screen


def test_rule_13_1_false_meld_worded_in_gujarati_and_greek(kiosk: Kiosk) -> None:
    screen = _open_cards(kiosk)
    for card in ("5H", "6H", "8H"):
        kiosk.tap(screen.ids.card_grid.buttons[card])
    kiosk.tap("close_meld")
    shown = screen.cards_lines + screen.cards_message
    assert "has a gap after 6H (rule 13.1)" in shown
    apply_languages("gu")
    kiosk.advance(0.1)
    shown = screen.cards_lines + screen.cards_message
    assert "6H પછી ખાલી જગ્યા છે (રુલ 13.1)" in shown and "gap" not in shown
    apply_languages("el")
    kiosk.advance(0.1)
    assert "έχει κενό μετά το 6H (κανόνας 13.1)" in screen.cards_lines + screen.cards_message


def test_not_entered_line_rewords_on_a_language_switch(kiosk: Kiosk) -> None:
    screen = _open_cards(kiosk)
    for card in ("JH", "QH", "KH"):
        kiosk.tap(screen.ids.card_grid.buttons[card])
    kiosk.tap("cards_done")
    kiosk.tap("end_stock")
    kiosk.tap("enter")
    assert screen.refused and screen.message.startswith("Not entered: team A:")
    apply_languages("hi")
    kiosk.advance(0.1)
    hindi = tr._("Not entered: {reason}", reason="")
    assert hindi != "Not entered: " and screen.message.startswith(hindi)
    apply_languages("en")
    assert screen.message.startswith("Not entered: team A: a meld is still being laid")
