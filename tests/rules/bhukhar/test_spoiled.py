"""Rule 17.2 after a licence (ruling of 2026-11-27, shared/seeds/002_636b25d23b96cd1c.txt):
a meld that a wrong card spoils later is void and its cards do not count at the end, while
the team's licence, judged when it was laid (13.4), stands. The scoresheet takes such a
game at either level of entry, and the session record and `tableside bhukhar standings`
keep it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from kiosk.commands import bhukhar_standings
from kiosk.rules.bhukhar.record import (
    GameEntry,
    Session,
    SessionError,
    SessionStart,
    Team,
    event_from_dict,
    event_to_dict,
    parse_session,
    write_session,
)
from kiosk.rules.bhukhar.scoresheet import (
    FullSheet,
    ScoreError,
    TotalsSheet,
    score_game,
    to_totals,
)

from .helpers import NINES7, SEQ7, cards, game, melds


def spoiled(
    licence: tuple[str, ...],
    positions: tuple[int, ...],
    later: tuple[str, ...] = (),
    hand: str = "",
) -> FullSheet:
    return FullSheet(melds(*licence), melds(*later), (), cards(hand), licence_spoiled=positions)


NOTHING = TotalsSheet(False, 0, 40)


def test_17_2_a_licence_meld_spoiled_later_is_void_and_the_licence_stands() -> None:
    # Ravi laid the 300 sequence as the licence; later a partner laid a wrong card on it.
    sheet = spoiled((SEQ7,), (0,), later=("QD KD AD",), hand="2C")
    a = score_game(game(sheet, NOTHING)).score("A")
    assert (a.table, a.hand, a.licence, a.bonus) == (30, 5, 50, 1)
    assert a.total == 30 - 5 + 50


def test_17_2_the_licence_is_judged_as_laid_not_as_it_stands() -> None:
    # 13.4 form 2: a seven-card set with a sequence. The sequence is spoiled later; what
    # stands (the set alone) would not be a licence, but the licence was judged when laid.
    sheet = spoiled((NINES7, "5H 6H 7H"), (1,))
    a = score_game(game(sheet, NOTHING)).score("A")
    assert (a.table, a.licence) == (200, 50)


def test_17_2_a_licence_false_when_laid_is_still_refused() -> None:
    with pytest.raises(ScoreError) as caught:
        score_game(game(spoiled(("2S 3S 4S",), (0,)), NOTHING))
    assert caught.value.reason is not None and caught.value.reason.code == "false_licence"


def test_17_2_totals_entry_takes_a_spoiled_licence_below_100() -> None:
    totals = TotalsSheet(True, 0, 20, licence_spoiled=True)
    a = score_game(game(totals, NOTHING)).score("A")
    assert (a.table, a.licence, a.total, a.bonus) == (0, 50, 30, 1)
    with pytest.raises(ScoreError) as caught:  # without the mark: not a licence's worth
        score_game(game(TotalsSheet(True, 0, 20), NOTHING))
    assert caught.value.reason is not None and caught.value.reason.code == "licence_short"


def test_17_2_full_and_totals_entries_of_a_spoiled_licence_agree() -> None:
    full_game = game(spoiled((NINES7, "5H 6H 7H"), (1,), later=("AC 2C 3C",), hand="KH"), NOTHING)
    totals_game = to_totals(full_game)
    sheet = totals_game.sheets["A"]
    assert isinstance(sheet, TotalsSheet) and sheet.licence_spoiled and sheet.table == 220
    assert score_game(full_game) == score_game(totals_game)


@pytest.mark.parametrize(
    ("sheet", "code"),
    [
        (spoiled((SEQ7,), (1,)), "licence_spoiled_position"),
        (spoiled((SEQ7,), (0, 0)), "licence_spoiled_position"),
        (TotalsSheet(False, 0, 0, licence_spoiled=True), "spoiled_without_licence"),
    ],
)
def test_17_2_a_spoiled_mark_without_its_licence_meld_is_refused(
    sheet: FullSheet | TotalsSheet, code: str
) -> None:
    with pytest.raises(ScoreError) as caught:
        score_game(game(sheet, NOTHING))
    assert caught.value.reason is not None and caught.value.reason.code == code
    assert caught.value.reason.law == "17.2"


def test_17_2_a_spoiled_set_no_longer_runs_for_rule_9() -> None:
    # The licence's set of nines was spoiled: a new set of nines may be begun (rule 9).
    sheet = spoiled(("9C 9D 9H", SEQ7), (0,), later=("9S 9S 9H",))
    assert score_game(game(sheet, NOTHING)).score("A").table == 300 + 30


START = SessionStart((Team("A", ("Ravi", "Mina", "Anil")), Team("B", ("Uma", "Jay", "Dev"))))


def test_17_2_the_record_keeps_the_spoiled_melds_at_both_levels() -> None:
    line = {
        "event": "game",
        "round": 1,
        "table": 1,
        "end": "stock",
        "bhukhar": None,
        "closed_by": None,
        "teams": {
            "A": {"licence": [SEQ7.split()], "licence_spoiled": [1], "hand": ["2C"]},
            "B": {"licence": True, "table": 0, "hand": 0, "licence_spoiled": True},
        },
    }
    entry = event_from_dict(line)
    assert isinstance(entry, GameEntry)
    a, b = entry.game.sheets["A"], entry.game.sheets["B"]
    assert isinstance(a, FullSheet) and a.licence_spoiled == (0,)
    assert isinstance(b, TotalsSheet) and b.licence_spoiled
    out = event_to_dict(entry)
    assert out["teams"]["A"]["licence_spoiled"] == [1]
    assert out["teams"]["B"]["licence_spoiled"] is True
    assert event_from_dict(out) == entry
    # An entry without the field is written as before: the format only gains a field.
    plain = event_to_dict(GameEntry(1, 1, game(TotalsSheet(True, 100, 0), NOTHING)))
    assert "licence_spoiled" not in plain["teams"]["A"]
    for bad in (0, "1", True):
        with pytest.raises(SessionError, match="licence_spoiled"):
            event_from_dict({**line, "teams": {**line["teams"], "A": {"licence_spoiled": [bad]}}})


def test_17_2_standings_of_a_record_with_a_spoiled_licence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sheet = spoiled((SEQ7,), (0,), hand="2C")
    entry = GameEntry(1, 1, game(sheet, TotalsSheet(True, 0, 10, licence_spoiled=True)))
    path = tmp_path / "s.jsonl"
    path.write_text(write_session(START, [entry]), encoding="utf-8")
    args = argparse.Namespace(file=str(path), json=True)
    assert bhukhar_standings.main(args) == 0
    out = json.loads(capsys.readouterr().out)
    a, b = out["games"][0]["scores"]
    assert (a["table"], a["licence"], a["total"]) == (0, 50, 45)
    assert (b["table"], b["licence"], b["total"]) == (0, 50, 40)
    assert out["standings"][0]["team"] == "A"
    assert bhukhar_standings.main(argparse.Namespace(file=str(path), json=False)) == 0
    text = capsys.readouterr().out
    assert "round 1 table 1: A 45 - 40 B (time, A wins; licence spoiled later (17.2): A, B)" in text


def test_17_2_a_session_refusal_keeps_its_facts_for_the_screen() -> None:
    session = Session(START)
    with pytest.raises(SessionError) as caught:
        session.push(GameEntry(1, 1, game(TotalsSheet(True, 0, 20), NOTHING)))
    reason = caught.value.reason
    assert reason is not None and (reason.code, reason.law) == ("licence_short", "13.4")
    assert parse_session(write_session(START, [])).games() == []


# Ruling of 2026-12-01 (17.2, «નકામા પત્તા ખેલાડી પાછા પોતાના હાથમાં લઈ લેવા પડશે»): a meld
# spoiled after the licence returns its cards to the hand, however it is entered, so the
# three-deck count (rule 3) takes its copies once. Three decks hold three 2H: the spoiled
# meld's 2H and the three relaid are the same three cards. The one game, entered both ways:
RELAID_2H = ("2H 3H 4H", "2H 3H 4H", "2H 3H 4H")
AS_VOID = FullSheet(melds(SEQ7), melds(*RELAID_2H), melds("2H 3H 4H"), ())
AS_SPOILED = spoiled((SEQ7, "2H 3H 4H"), (1,), later=RELAID_2H)


def test_17_2_rule_3_entered_as_void_the_relaid_cards_count_once_as_when_spoiled() -> None:
    a = score_game(game(AS_VOID, NOTHING)).score("A")
    assert (a.table, a.licence) == (300 + 3 * 15, 50)
    assert score_game(game(AS_VOID, NOTHING)) == score_game(game(AS_SPOILED, NOTHING))


def test_17_2_rule_3_entered_as_licence_spoiled_the_relaid_cards_count_once() -> None:
    a = score_game(game(AS_SPOILED, NOTHING)).score("A")
    assert (a.table, a.licence) == (300 + 3 * 15, 50)


@pytest.mark.parametrize(
    "sheet",
    [
        FullSheet(AS_VOID.licence, AS_VOID.melds, AS_VOID.void, cards("2H")),
        spoiled((SEQ7, "2H 3H 4H"), (1,), later=RELAID_2H, hand="2H"),
    ],
    ids=["void", "licence_spoiled"],
)
def test_17_2_rule_3_a_fourth_copy_beside_the_void_cards_is_refused_in_either_form(
    sheet: FullSheet,
) -> None:
    with pytest.raises(ScoreError) as caught:
        score_game(game(sheet, NOTHING))
    reason = caught.value.reason
    assert reason is not None and (reason.code, reason.law) == ("three_decks", "3")
    assert dict(reason.facts)["cards"] == "2H x4"
