"""The Bhukhar cards panel words what the table's draft reads, and computes no rule: each meld
and the licence as the rules core reads them (rules 12-13, 13.4), a slip with the core's
Reason."""

from __future__ import annotations

from kiosk.tables.bhukhar_draft import CardsEntry, read_meld


def test_rule_13_a_low_sequence_reads_in_the_cores_order_ace_first() -> None:
    reading = read_meld(("3H", "AH", "2H"))
    assert reading.cards == ("AH", "2H", "3H") and reading.kind == "sequence"
    assert reading.ace_low and reading.refused is None and reading.value > 0


def test_rule_13_4_too_few_cards_are_no_meld_with_the_cores_reason() -> None:
    reading = read_meld(("9S", "9H"))
    assert reading.kind is None and reading.cards == ("9S", "9H")
    assert reading.refused is not None and reading.refused.code == "meld_too_short"


def test_rule_13_4_the_licence_reads_as_its_form_or_why_not() -> None:
    seven = CardsEntry(licence=(("AH", "2H", "3H", "4H", "5H", "6H", "7H"),))
    assert seven.licence_reading().form == "a seven-card sequence"
    short = CardsEntry(licence=(("9S", "9H", "9D"),))
    reading = short.licence_reading()
    assert reading.form is None and reading.refused is not None
    assert reading.refused.code == "licence_short"
    assert CardsEntry().licence_reading().refused.code == "licence_empty"
