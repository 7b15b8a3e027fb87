"""Scoring one game: bonuses (13.4-13.6), the end (16), penalties (17), master points (18, 19)."""

import pytest

from kiosk.rules.bhukhar.scoresheet import (
    End,
    Penalty,
    PenaltyKind,
    ScoreError,
    TotalsSheet,
    score_game,
    to_totals,
)
from tests.refusals import raises_code

from .helpers import FOURS7, NINES7, SEQ7, full, game

LIC = (SEQ7,)  # a licence worth 300
NO = full(hand="2H 3H KD")  # no licence: 20 in hand


def test_rule_18_table_cards_count_for_hand_cards_against() -> None:
    r = score_game(game(full(LIC, ("QD KD AD",), hand="2S 9H"), NO))
    a, b = r.scores
    assert (a.table, a.hand, a.licence, a.total) == (330, 15, 50, 365)
    assert (b.table, b.hand, b.licence, b.total) == (0, 20, 0, -20)


def test_rule_18_4_higher_total_two_master_points_lower_none() -> None:
    r = score_game(game(full(LIC), NO))
    assert r.winner == "A"
    assert [s.master for s in r.scores] == [2, 0]


def test_rule_19_tie_one_master_point_each() -> None:
    r = score_game(game(full(hand="9S"), full(hand="10H")))
    assert r.winner is None
    assert [s.master for s in r.scores] == [1, 1]
    assert [s.total for s in r.scores] == [-10, -10]


def test_rule_13_4_licence_earns_50_and_a_bonus_point() -> None:
    a = score_game(game(full(LIC), NO)).score("A")
    assert (a.licence, a.bonus) == (50, 1)


def test_rule_13_5_bhukhar_earns_50_and_a_bonus_point() -> None:
    queens7 = "QC QD QH QS QS QS QH"
    r = score_game(game(full(LIC), full((queens7, "5C 6C 7C")), bhukhar="B"))
    b = r.score("B")
    assert (b.bhukhar, b.bonus) == (50, 2)
    assert b.total == 200 + 15 + 50 + 50


def test_rule_13_6_closing_earns_50_and_a_bonus_point() -> None:
    r = score_game(game(full(LIC), full(LIC), End.OUT, bhukhar="A", closed_by="B"))
    a, b = r.scores
    assert (a.closing, a.bonus, a.total) == (0, 2, 400)
    assert (b.closing, b.bonus, b.total) == (50, 2, 400)
    assert r.winner is None


def test_rule_14_bhukhar_needs_a_licence() -> None:
    with raises_code(ScoreError, "bhukhar_no_licence", law="14"):
        score_game(game(full(LIC), NO, bhukhar="B"))


def test_rule_16_1_going_out_names_the_closing_team() -> None:
    with raises_code(ScoreError, "out_closed_by"):
        score_game(game(full(LIC), NO, End.OUT, bhukhar="A"))


def test_rule_16_1_nobody_closes_before_the_bhukhar_is_taken() -> None:
    with raises_code(ScoreError, "closed_before_bhukhar", law="16.1"):
        score_game(game(full(LIC), NO, End.OUT, closed_by="A"))


def test_rule_16_1_closing_team_has_a_licence() -> None:
    with raises_code(ScoreError, "closed_no_licence"):
        score_game(game(full(LIC), NO, End.OUT, bhukhar="A", closed_by="B"))


@pytest.mark.parametrize("end", [End.STOCK, End.TIME])
def test_rule_16_2_and_16_3_stock_or_time_closes_nobody(end: End) -> None:
    with raises_code(ScoreError, "closed_not_out"):
        score_game(game(full(LIC), NO, end, bhukhar="A", closed_by="A"))
    r = score_game(game(full(LIC, hand="AS AS"), NO, end, bhukhar="A"))
    assert r.score("A").closing == 0
    assert r.score("A").hand == 20  # rule 16.3: hands are not laid after time


@pytest.mark.parametrize(
    ("kind", "points"),
    [(PenaltyKind.SIGNAL, -50), (PenaltyKind.ASK, -50), (PenaltyKind.UNFAIR, -100)],
)
def test_rule_17_penalties_taken_from_the_offender(kind: PenaltyKind, points: int) -> None:
    r = score_game(game(full(LIC), NO, penalties=(Penalty("A", kind),)))
    assert r.score("A").penalties == points
    assert r.score("A").total == 350 + points
    assert r.score("B").penalties == 0


def test_rule_17_1_false_licence_gives_100_to_the_opponents() -> None:
    r = score_game(game(full(LIC), NO, penalties=(Penalty("B", PenaltyKind.FALSE_LICENCE),)))
    assert r.score("A").penalties == 100 and r.score("A").total == 450
    assert r.score("B").penalties == 0


def test_rule_17_1_false_licence_player_may_not_lay_the_licence() -> None:
    p = Penalty("A", PenaltyKind.FALSE_LICENCE, "Ravi")
    with raises_code(ScoreError, "false_licence_player", law="17.1"):
        score_game(game(full(LIC, licence_by="Ravi"), NO, penalties=(p,)))
    r = score_game(game(full(LIC, licence_by="Mina"), NO, penalties=(p,)))
    assert r.score("B").penalties == 100


def test_rule_17_2_false_meld_is_void_and_uncounted() -> None:
    r = score_game(game(full(LIC, void=("9S 10H JS",)), NO))
    assert r.score("A").table == 300
    with raises_code(ScoreError, "false_meld", law="17.2"):
        score_game(game(full(LIC, ("9S 10H JS",)), NO))


def test_rule_9_no_melds_without_a_licence() -> None:
    with raises_code(ScoreError, "no_licence_melds"):
        score_game(game(full(later=("QD KD AD",)), NO))


def test_rule_13_4_false_licence_on_the_sheet_is_refused() -> None:
    with raises_code(ScoreError, "false_licence") as caught:
        score_game(game(full((NINES7,)), NO))
    meld = dict(caught.value.reason.facts)["meld"]  # the licence's own refusal, inside
    assert meld.code == "licence_short" and dict(meld.facts)["why"].law == "13.4"


def test_rule_13_4_licence_layer_named_for_a_team_without_a_licence_is_refused() -> None:
    with raises_code(ScoreError, "licence_by_without", law="13.4"):
        score_game(game(full(LIC), full(hand="2H 3H KD", licence_by="Mina")))
    with raises_code(ScoreError, "licence_by_without"):
        score_game(game(full(LIC), TotalsSheet(False, 0, 20, "Mina")))


def test_rule_9_running_sets_across_licence_and_later_melds() -> None:
    with raises_code(ScoreError, "false_melds") as caught:
        score_game(game(full((SEQ7, "AS AH AD"), ("AC AC AS",)), NO))
    assert dict(caught.value.reason.facts)["meld"].law == "9"


def test_rule_3_a_game_holds_each_card_at_most_three_times() -> None:
    with raises_code(ScoreError, "three_decks", law="3"):
        score_game(game(full(LIC, hand="9S 9S"), full(hand="9S 9S")))


def test_scoresheet_rosters_check_named_players() -> None:
    rosters = {"A": ("Ravi", "Mina", "Anil"), "B": ("Uma", "Jay", "Dev")}
    with raises_code(ScoreError, "not_in_team"):
        score_game(game(full(LIC, licence_by="Uma"), NO), rosters)


def test_scoresheet_totals_entry_gives_the_same_result() -> None:
    g = game(
        full((NINES7, "5C 6C 7C"), ("QD KD AD", FOURS7), hand="2S 9H", licence_by="Ravi"),
        full(("2D 3D 4D 5D 6D 7D 8D",), hand="AS"),
        End.OUT,
        bhukhar="A",
        closed_by="A",
        penalties=(Penalty("B", PenaltyKind.SIGNAL),),
    )
    t = to_totals(g)
    assert t.sheets["A"] == TotalsSheet(True, 200 + 15 + 30 + 100, 15, "Ravi")
    assert score_game(t) == score_game(g)


@pytest.mark.parametrize(
    ("sheet", "why"),
    [
        (TotalsSheet(False, 35, 0), "table_no_licence"),
        (TotalsSheet(True, 95, 0), "licence_short"),
        (TotalsSheet(True, 303, 0), "not_fives"),
        (TotalsSheet(True, 300, -5), "not_fives"),
    ],
)
def test_scoresheet_totals_entry_bad_sums_refused(sheet: TotalsSheet, why: str) -> None:
    with raises_code(ScoreError, why):
        score_game(game(sheet, NO))


def test_scoresheet_a_game_is_between_two_teams() -> None:
    from kiosk.rules.bhukhar.scoresheet import Game

    with raises_code(ScoreError, "two_teams"):
        score_game(Game({"A": NO}, End.TIME))


# Rule 17.2: «નકામા પત્તા ખેલાડી પાછા પોતાના હાથમાં લઈ લેવા પડશે»: the void meld's cards go
# back into the hand, and the player may lay them again properly.
RELAID = ("5H 6H 7H", "5H 6H 7H", "5H 6H 7H")  # duplicate sequences are allowed (rule 9)


def test_rule_17_2_void_cards_laid_again_properly_are_accepted() -> None:
    # Three decks hold three 5H, 6H and 7H; the void copies are those very cards.
    r = score_game(game(full(LIC, RELAID, void=("5H 6H 7H 9H",)), NO))
    a = r.score("A")
    assert a.table == 300 + 3 * 15 and a.hand == 0  # the re-laid melds count for the team


def test_rule_17_2_void_cards_still_count_neither_for_nor_against() -> None:
    plain = score_game(game(full(LIC, hand="2S"), NO)).score("A")
    void = score_game(game(full(LIC, hand="2S", void=("9S 10H JS",)), NO)).score("A")
    assert (void.table, void.hand, void.total) == (plain.table, plain.hand, plain.total)


def test_rule_17_2_void_cards_held_in_hand_may_be_listed_there_too() -> None:
    r = score_game(game(full(LIC, hand="9S 10H", void=("9S 10H JS",)), NO))
    assert r.score("A").hand == 20


def test_rule_17_2_more_copies_than_three_decks_are_still_refused() -> None:
    with raises_code(ScoreError, "three_decks", law="3"):
        score_game(game(full(LIC, RELAID, hand="5H", void=("5H 6H 7H 9H",)), NO))
    with raises_code(ScoreError, "three_decks", law="3"):
        score_game(game(full(LIC, RELAID), full(hand="5H", void=("5H 6H 8H",))))
