"""The setups' name fields start blank, their hint in the console's language: a field
pre-filled with an English "Player A" had to be erased with 8 backspaces on a Hindi or Greek
screen (Bhukhar's setup already used hints). A seat left blank plays under its hint."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kiosk.ui.i18n import apply_languages, tr

from .harness import Kiosk


@pytest.fixture
def english_after(kiosk: Kiosk) -> Iterator[Kiosk]:
    """The console back in English before the kiosk goes (its keyboard redraws on a switch)."""
    yield kiosk
    apply_languages("en")


@pytest.mark.parametrize(
    ("language", "game", "table"),
    [("hi", "backgammon", "backgammon"), ("el", "backgammon", "backgammon"),
     ("hi", "carrom_icf", "carrom"), ("el", "carrom_icf", "carrom")],
)  # fmt: skip
def test_setup_names_are_hints_in_the_consoles_language_not_english_text(
    english_after: Kiosk, language: str, game: str, table: str
) -> None:
    kiosk = english_after
    apply_languages(language)
    hints = [tr._("Player {letter}", letter=letter) for letter in "AB"]
    assert hints[0] != "Player A"  # translated
    kiosk.tap(game)
    for seat, hint in enumerate(hints):
        field = kiosk.widget(f"name_{seat}")
        assert field.text == "" and field.hint_text == hint
    kiosk.type("name_0", "Nikos")  # nothing to erase first
    kiosk.tap("start")
    assert kiosk.current == table
    assert list(kiosk.screen().names[:2]) == ["Nikos", hints[1]]
