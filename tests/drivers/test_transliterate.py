"""Names the player display cannot draw go to it in Latin letters (docs/display-protocol.md)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers.display_protocol import DisplayFrame, decode_frame, encode_frame
from drivers.lines import unseal
from drivers.transliterate import initials, to_latin
from kiosk.parts.display_frames import message


@pytest.mark.parametrize(
    ("name", "latin"),
    [
        ("अमित", "Amit"),  # the final inherent a is not said
        ("आशा राव", "Asha Rav"),
        ("प्रिया", "Priya"),  # a conjunct: the virama drops the a
        ("हिंदी", "Hindi"),  # anusvara
        ("क्षत्रिय", "Kshatriy"),
        ("ભાવેશ", "Bhavesh"),  # Gujarati: the same layout as Devanagari
        ("માસ્ટર", "Mastar"),
        ("ગુજરાતી", "Gujarati"),
        ("Νίκος", "Nikos"),  # accents dropped, final sigma
        ("Γιώργος Παπαδόπουλος", "Giorgos Papadopoulos"),  # ου
        ("Ευάγγελος", "Evangelos"),  # ευ, γγ
        ("Χρήστος", "Christos"),
        ("José", "Jose"),
        ("Asha", "Asha"),
    ],
)
def test_names_in_four_scripts_in_latin(name: str, latin: str) -> None:
    assert to_latin(name) == latin


def test_initials_for_a_two_letter_display() -> None:
    assert initials("अमित शाह") == "AS"
    assert initials("Νίκος Παππάς") == "NP"
    assert initials("ભાવેશ") == "B"


def test_a_winner_in_hindi_reaches_the_display_in_its_font() -> None:
    text = message("अमित WINS")
    assert text == "AMIT WINS"
    frame = DisplayFrame(12, 9, "-", "L", 3, text)
    assert decode_frame(unseal(encode_frame(5, frame)))[1].message == "AMIT WINS"
    assert message("Νίκος WINS") == "NIKOS WINS"
    assert message("ભાવેશ WINS") == "BHAVESH WINS"


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x1FFF), max_size=40))
def test_any_text_becomes_something_the_display_accepts(text: str) -> None:
    """Whatever a name holds, the message is a valid frame field (no refusal at the port)."""
    assert to_latin(text).isascii()
    DisplayFrame(message=message(text))


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x1FFF), max_size=40))
def test_any_name_gives_initials_the_display_accepts(name: str) -> None:
    """Any side's name (in doubles two joined by " & ") makes a valid `N` field."""
    from kiosk.parts.display_frames import side_initials

    DisplayFrame(left_name=side_initials(name), right_name=side_initials(f"{name} & {name}"))
