"""Cards (rules 3, 12), melds (rules 9, 13.1-13.3) and the licence (rule 13.4)."""

import pytest

from kiosk.rules.bhukhar.cards import (
    CardError,
    check_three_decks,
    full_pack,
    parse_card,
    parse_cards,
)
from kiosk.rules.bhukhar.melds import (
    Kind,
    LicenceForm,
    MeldError,
    check_running_sets,
    licence_form,
    meld,
)
from tests.refusals import raises_code

from .helpers import FOURS7, NINES7, SEQ7, cards


def test_rule_12_two_to_seven_are_five_eight_to_ace_ten() -> None:
    assert [parse_card(r + "S").value for r in ["2", "3", "4", "5", "6", "7"]] == [5] * 6
    assert [parse_card(r + "H").value for r in ["8", "9", "10", "J", "Q", "K", "A"]] == [10] * 7


def test_cards_read_in_any_case_and_t_for_ten() -> None:
    assert parse_card("td") == parse_card("10D")
    assert str(parse_card(" qs ")) == "QS"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "not_a_card"),
        ("1S", "unknown_rank"),
        ("9X", "unknown_suit"),
        ("ZS", "unknown_rank"),
        ("10", "unknown_rank"),
        ("S", "not_a_card"),
        (9, "card_not_text"),
    ],
)
def test_cards_bad_text_is_refused_with_the_card(text: str, code: str) -> None:
    with raises_code(CardError, code) as caught:
        parse_card(text)
    assert dict(caught.value.reason.facts)["text"] == repr(text)


def test_cards_a_bad_card_in_a_list_is_named_by_its_place() -> None:
    with raises_code(CardError, "unknown_suit") as caught:
        parse_cards(["9S", "9X"])
    assert dict(caught.value.reason.facts)["n"] == 2


def test_rule_3_three_decks_hold_each_card_three_times() -> None:
    assert len(full_pack()) == 156
    check_three_decks(full_pack())
    with raises_code(CardError, "three_decks", law="3"):
        check_three_decks(cards("9S 9S 9S 9S"))


def test_rule_13_1_seven_card_sequence_of_one_suit_is_300() -> None:
    m = meld(cards(SEQ7))
    assert m.kind is Kind.SEQUENCE and m.complete and m.value == 300


def test_rule_13_2_seven_high_cards_of_one_rank_are_200_with_identical_cards() -> None:
    m = meld(cards(NINES7))  # three nines of spades, from three decks
    assert m.kind is Kind.SET and m.value == 200


def test_rule_13_3_seven_low_cards_of_one_rank_are_100() -> None:
    assert meld(cards(FOURS7)).value == 100


def test_rule_13_shorter_melds_count_their_cards() -> None:
    assert meld(cards("KH AH QH")).value == 30  # in any order
    assert meld(cards("6D 7D 8D 9D")).value == 30
    assert meld(cards("2C 2C 2S")).value == 15


def test_13_1_the_ace_is_low_or_high_never_turning_the_corner() -> None:
    # Ruling of 2026-11-27: the text is silent on the ace; as in Indian rummy it is low
    # (A-2-3) or high (Q-K-A), never both in one sequence (no K-A-2).
    high = meld(cards("KS AS QS"))
    assert [str(c) for c in high.cards] == ["QS", "KS", "AS"]
    low = meld(cards("3S AS 2S"))
    assert low.kind is Kind.SEQUENCE and [str(c) for c in low.cards] == ["AS", "2S", "3S"]
    assert low.value == 20 and meld(cards("AS 2S 3S 4S 5S 6S 7S")).value == 300
    for corner in ("KS AS 2S", "QS KS AS 2S 3S"):
        with pytest.raises(MeldError) as caught:
            meld(cards(corner))
        assert caught.value.why.code == "sequence_corner" and caught.value.rule == "13.1"
    with raises_code(MeldError, "sequence_gap"):
        meld(cards("AS 2S 4S"))
    with raises_code(MeldError, "sequence_gap"):
        meld(cards("JS QS AS"))


def test_13_4_an_ace_low_sequence_makes_a_licence() -> None:
    assert licence_form([meld(cards("AH 2H 3H 4H 5H 6H 7H"))]) is LicenceForm.SEQUENCE_7


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("9S 9H", "meld_too_short"),
        ("2S 3S 4S 5S 6S 7S 8S 9S", "meld_too_long"),
        ("9S 10H JS", "meld_mixed"),
        ("9S 10S 10S", "sequence_repeats"),
        ("9S 10S QS", "sequence_gap"),
    ],
)
def test_rule_13_false_melds_are_refused_with_the_reason(text: str, why: str) -> None:
    with raises_code(MeldError, why):
        meld(cards(text))


def test_rule_9_second_set_of_a_rank_waits_for_the_first_to_complete() -> None:
    check_running_sets([meld(cards(NINES7)), meld(cards("9D 9D 9C"))])
    check_running_sets([meld(cards(SEQ7)), meld(cards(SEQ7))])  # duplicate sequences allowed
    with raises_code(MeldError, "sets_open", law="9"):
        check_running_sets([meld(cards("9S 9H 9D")), meld(cards("9C 9C 9S"))])


def test_rule_13_4_licence_first_form_seven_card_sequence() -> None:
    assert licence_form([meld(cards("2H 3H 4H 5H 6H 7H 8H"))]) is LicenceForm.SEQUENCE_7


def test_rule_13_4_licence_second_form_seven_set_and_a_sequence() -> None:
    form = licence_form([meld(cards("2C 2D 2H 2S 2S 2C 2H")), meld(cards("3D 4D 5D"))])
    assert form is LicenceForm.SET_7_AND_SEQUENCE  # cards total only 50


def test_rule_13_4_licence_third_form_melds_worth_100() -> None:
    ms = [meld(cards("10S JS QS KS")), meld(cards("AH AD AC")), meld(cards("8D 8C 8H"))]
    assert licence_form(ms) is LicenceForm.HUNDRED  # 40 + 30 + 30


def test_rule_13_4_licence_under_100_is_false() -> None:
    with raises_code(MeldError, "licence_short"):
        licence_form(
            [meld(cards("10S JS QS KS")), meld(cards("AH AD AC")), meld(cards("2D 3D 4D 5D 6D"))]
        )


def test_rule_13_4_licence_seven_set_alone_is_not_a_licence() -> None:
    # The second form pairs the seven-card set with a sequence: alone its cards are 70.
    with raises_code(MeldError, "licence_short", law="13.4"):
        licence_form([meld(cards(NINES7))])
    with raises_code(MeldError, "licence_short", law="13.4"):
        licence_form([meld(cards(FOURS7)), meld(cards("5S 5H 5D"))])


def test_rule_13_4_licence_with_two_open_sets_of_a_rank_is_false() -> None:
    with raises_code(MeldError, "sets_open", law="9"):
        licence_form([meld(cards("AS AH AD AC")), meld(cards("AS AH AD AC")), meld(cards(SEQ7))])


def test_rule_13_4_meld_error_carries_its_reason_and_rule() -> None:
    with pytest.raises(MeldError) as short:
        meld(cards("9S 10S"))
    assert (short.value.rule, short.value.reason) == (
        "13.4",
        "a meld has at least 3 cards (rule 13.4)",
    )
    assert str(short.value) == "9S 10S: a meld has at least 3 cards (rule 13.4)"
    with pytest.raises(MeldError) as gap:
        meld(cards("9S 10S QS"))
    assert gap.value.rule == "13.1" and gap.value.reason.startswith(
        "a sequence of one suit has a gap"
    )
    with pytest.raises(MeldError) as low:
        licence_form([meld(cards("2S 3S 4S"))])
    assert low.value.rule == "13.4"
    assert low.value.reason.endswith("the cards total 15 < 100")
    assert str(low.value) == f"not a licence (rule 13.4): {low.value.reason}"
