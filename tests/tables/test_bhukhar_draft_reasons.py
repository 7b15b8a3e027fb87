"""The Bhukhar draft's refusals carry a Reason the screen words in the umpire's language: a
meld closed nowhere, a meld with no cards, a spoiled mark on a licence meld that is not there,
a meld still being laid when the game is entered."""

from __future__ import annotations

from kiosk.tables.bhukhar_draft import CardsEntry, Draft, DraftError
from kiosk.ui.words import reason_words
from tests.parts.test_part_faults import words_in
from tests.refusals import raises_code


def test_bhukhar_draft_a_meld_closed_under_the_hand_is_refused_by_its_code() -> None:
    with raises_code(DraftError, "meld_section"):
        CardsEntry().add("9S", "licence").close_meld("hand")


def test_bhukhar_draft_closing_no_cards_is_refused_by_its_code() -> None:
    with raises_code(DraftError, "nothing_laid"):
        CardsEntry().close_meld("melds")


def test_bhukhar_draft_17_2_no_such_licence_meld_to_mark_spoiled() -> None:
    entry = CardsEntry().add("9S", "licence").add("9H", "licence").add("9D", "licence")
    with raises_code(DraftError, "no_licence_meld", law="17.2") as caught:
        entry.close_meld("licence").toggle_spoiled(1)
    assert dict(caught.value.reason.facts) == {"count": 1, "n": 2}


def test_bhukhar_draft_a_meld_still_being_laid_is_named_in_gujarati() -> None:
    with raises_code(DraftError, "meld_being_laid") as caught:
        CardsEntry().add("9S", "melds").sheet("A")
    worded = reason_words(caught.value.reason, words_in("gu"))
    assert worded.startswith("ટીમ A:") and "\u2660" in worded  # the card's suit sign


def test_bhukhar_draft_an_unknown_total_is_refused_by_its_code() -> None:
    with raises_code(DraftError, "no_such_total"):
        Draft(("A", "B")).step("bonus", 0, 5)
