"""Bhukhar's meld refusals as facts (kiosk/errors.py Reason): a code, the rule as the Bhukhar
text numbers it, the facts, and the same English words as before (records and outputs keep
them)."""

from __future__ import annotations

import pytest

from kiosk.rules.bhukhar import MeldError, licence_form, meld
from kiosk.rules.bhukhar.cards import parse_cards


def _refused(text: str) -> MeldError:
    with pytest.raises(MeldError) as caught:
        meld(parse_cards(text.split()))
    return caught.value


def test_rule_13_4_a_meld_of_two_cards_names_the_least() -> None:
    exc = _refused("5H 6H")
    assert (exc.why.code, exc.why.law, exc.rule) == ("meld_too_short", "13.4", "13.4")
    assert exc.why.values() == {"count": 3, "law": "13.4"}
    assert str(exc) == "5H 6H: a meld has at least 3 cards (rule 13.4)"
    assert exc.reason == "a meld has at least 3 cards (rule 13.4)" == exc.why.english()


def test_rule_9_a_meld_of_eight_cards_names_the_most() -> None:
    exc = _refused("2S 3S 4S 5S 6S 7S 8S 9S")
    assert (exc.why.code, exc.rule, exc.why.values()["count"]) == ("meld_too_long", "9", 7)
    assert exc.reason == "a meld has at most 7 cards (rule 9)"


def test_rule_13_1_mixed_suits_and_ranks() -> None:
    exc = _refused("5H 6S 7H")
    assert (exc.why.code, exc.rule) == ("meld_mixed", "13.1")
    assert exc.reason == "neither a set (one rank) nor a sequence (one suit, rule 13.1)"


def test_rule_13_1_a_sequence_with_a_gap_names_the_card() -> None:
    exc = _refused("5H 6H 8H")
    assert (exc.why.code, exc.why.values()) == ("sequence_gap", {"card": "6H", "law": "13.1"})
    assert str(exc) == "5H 6H 8H: a sequence of one suit has a gap after 6H (rule 13.1)"


def test_rule_13_1_a_sequence_repeating_a_rank() -> None:
    exc = _refused("5H 6H 6H 7H")
    assert exc.why.code == "sequence_repeats"
    assert exc.reason == "a sequence of one suit repeats a rank (rule 13.1)"


def test_rule_9_two_open_sets_of_a_rank_and_rule_13_4_short_licence() -> None:
    sets = [meld(parse_cards(["9S", "9H", "9D"])), meld(parse_cards(["9C", "9S", "9H"]))]
    with pytest.raises(MeldError) as caught:
        licence_form(sets)
    exc = caught.value
    assert (exc.why.code, exc.rule) == ("sets_open", "9")
    assert exc.why.values() == {"count": 2, "rank": "9", "law": "9"}
    assert (
        str(exc)
        == exc.reason
        == (
            "2 incomplete sets of 9s: a new set of a rank is begun only when the running one has "
            "seven cards (rule 9)"
        )
    )
    with pytest.raises(MeldError) as caught:
        licence_form([meld(parse_cards(["2S", "3S", "4S"]))])
    short = caught.value
    assert (short.why.code, short.why.values()["total"], short.why.values()["minimum"]) == (
        "licence_short",
        15,
        100,
    )
    assert str(short) == f"not a licence (rule 13.4): {short.reason}"
    with pytest.raises(MeldError) as caught:
        licence_form([])
    assert caught.value.why.code == "licence_empty"
    assert str(caught.value) == "a licence needs at least one meld (rule 13.4)"
