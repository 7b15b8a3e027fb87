"""Long names on the player display keep their 12 mm cap height on a 7-inch 800x480 panel,
in Hindi, Greek and Gujarati, at a carrom and a backgammon table: a name too long for its
share of the row is drawn in a shorter readable form (initials, the surname, an abbreviation
with a full stop), whole inside its box, never shrunk and never cut with "…".

Measured on the text as drawn: each name label's own core label (Kivy's PIL provider,
Pillow's raqm, the Noto fonts) renders a capital "H" at the label's font and size; the ink's
height is the cap height, in mm on the panel (tests/ui/test_players_read_at_3m.py)."""

from __future__ import annotations

import unicodedata

import pytest
from kivy.uix.label import Label

from .fit import SLACK, ink
from .harness import Kiosk, name_players, pump
from .test_players_read_at_3m import _mm, cap_mm

#: Two long names a side in each script, as typed at the setup.
NAMES = {
    "hi": ("राजेन्द्र प्रसाद श्रीवास्तव", "अमिताभ हरिवंश बच्चन"),
    "el": ("Κωνσταντίνος Παπαδόπουλος", "Σταυρούλα Καραγιάννη"),
    "gu": ("ભાર્ગવ પ્રવીણચંદ્ર પટેલ", "હર્ષિદા મહેશ્વરી"),
}


def _bases(text: str) -> str:
    """`text` without its marks: a word's start is compared letter by letter."""
    return "".join(ch for ch in text if unicodedata.category(ch) not in ("Mn", "Mc"))


def readable(shown: str, name: str) -> bool:
    """Whether `shown` is a readable form of `name`: each of its words is a word of the name
    or the start of one closed by a full stop (an initial, an abbreviation)."""
    words = name.split()
    for word in shown.split():
        if word in words:
            continue
        start = word.removesuffix(".")
        if word == start or not any(_bases(w).startswith(_bases(start)) for w in words):
            return False
    return bool(shown.split())


def check_names(kiosk: Kiosk, names: tuple[str, str]) -> None:
    players = kiosk.screen()
    mm = _mm(kiosk)
    for key, name in zip(("left_name", "right_name"), names, strict=True):
        label: Label = players.ids[key]
        shown = label.text.removeprefix("> ")
        assert "…" not in shown and "..." not in shown, shown
        assert readable(shown, name), (shown, name)
        height = cap_mm(label, "H", mm)
        assert height >= 12.0, f"{shown!r}: cap height {height:.1f} mm"
        drawn = ink(label)  # laid out whole at the label's size, as drawn
        assert drawn.ink is not None and not drawn.shortened and not drawn.broken, shown
        x0, _y0, x1, _y1 = drawn.ink
        assert label.x - SLACK <= x0 and x1 <= label.right + SLACK, f"{shown!r} spills over"


@pytest.mark.parametrize("language", sorted(NAMES))
def test_long_names_keep_12_mm_at_800x480_carrom_and_backgammon(
    small: Kiosk, language: str
) -> None:
    from kiosk.ui.i18n import apply_languages

    kiosk = small
    app = kiosk.app
    names = NAMES[language]
    apply_languages("en", language)  # the player display's language
    app.choose_game("carrom_club")
    pump(2)
    name_players(kiosk, *names)
    app.start_carrom(kiosk.screen("setup_carrom"))
    pump(4)
    kiosk.tap("play")
    app.show("players")
    kiosk.advance(1.0)
    assert kiosk.screen().left_turn
    check_names(kiosk, names)
    kiosk.shot(f"players_long_names_carrom_800x480_{language}")

    app.choose_game("backgammon")
    setup = kiosk.screen("setup_backgammon")
    setup.set_name(0, names[1])
    setup.set_name(1, names[0])
    pump(2)
    app.start_backgammon(setup)
    pump(4)
    kiosk.screen("backgammon").start_side(0)
    pump(2)
    app.show("players")
    kiosk.advance(1.0)
    check_names(kiosk, (names[1], names[0]))
    kiosk.shot(f"players_long_names_backgammon_800x480_{language}")
