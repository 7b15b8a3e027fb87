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


def test_law_46_refusal_is_worded_in_the_consoles_language_and_again_on_a_switch(
    kiosk: Kiosk,
) -> None:
    kiosk.tap("carrom_icf")
    kiosk.type("name_0", "Asha")
    kiosk.type("name_1", "Bina")
    kiosk.tap("break_0")
    kiosk.tap("start")
    screen = kiosk.screen()
    apply_languages("hi")
    kiosk.tap("pass_turn")  # the break cannot be passed (law 46)
    kiosk.advance(0.1)
    assert screen.error == "ब्रेक पास नहीं हो सकता: ब्रेक करने वाले को स्ट्रोक लेना होगा (नियम 46)"
    apply_languages("el")
    kiosk.advance(0.1)
    assert screen.error.startswith("Η έναρξη δεν γίνεται πάσο") and "(κανόνας 46)" in screen.error
    apply_languages("en")
    kiosk.advance(0.1)
    assert screen.error == "The break cannot be passed: the breaker must strike (law 46)"
    # The journal keeps the English words, as before.
    refused = screen.session.journal.entries(screen.session.match_id, ["refused"])
    assert any("the break cannot be passed" in str(row) for row in refused)


def test_rule_4_1_v_b_clock_refusal_is_worded_in_greek(kiosk: Kiosk) -> None:
    from .harness import start_backgammon

    screen = start_backgammon(kiosk)
    apply_languages("el")
    kiosk.tap("director")
    kiosk.tap("pickup_0")  # no side runs yet: refused (4.1 (v) b needs a running side)
    assert screen.message == "πρόωρο μάζεμα από τον Player A ενώ δεν τρέχει κανένα ρολόι"
    apply_languages("en")
    kiosk.tap("pickup_0")
    assert screen.message == "early_pickup by Player A while no side is running"
