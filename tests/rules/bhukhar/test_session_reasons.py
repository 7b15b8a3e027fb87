"""A session's refusals (rules 11, 13-19) as facts for the screen to word: the
code, the rule and the facts, with the same English words as before."""

from __future__ import annotations

import pytest

from kiosk.rules.bhukhar.events import start_from_dict, start_to_dict
from kiosk.rules.bhukhar.record import Cancel, GameEntry, Session, SessionError, SessionStart, Team
from kiosk.rules.bhukhar.scoresheet import Game, TotalsSheet
from tests.refusals import raises_code

from .helpers import game

START = SessionStart(
    (
        Team("A", ("Ravi", "Mina", "Anil")),
        Team("B", ("Uma", "Jay", "Dev")),
        Team("C", ("Kiran", "Nita", "Raj")),
    ),
    tables=(1, 2),
)
EVEN = game(TotalsSheet(True, 100, 0), TotalsSheet(True, 100, 0))


def refused(session: Session, event: GameEntry | Cancel) -> SessionError:
    with pytest.raises(SessionError) as caught:
        session.push(event)
    assert caught.value.reason is not None, "a refusal carries its facts"
    return caught.value


def test_rule_11_one_game_a_table_and_a_round_refusals_are_facts() -> None:
    session = Session(START)
    session.push(GameEntry(1, 1, EVEN))
    again = refused(session, GameEntry(1, 1, EVEN))
    assert again.reason is not None
    assert (again.reason.code, again.reason.law) == ("table_played", "11")
    assert str(again) == (
        "table 1 already has its game of round 1 (rule 11: one game a table; cancel it first "
        "to correct it)"
    )
    moved = refused(session, GameEntry(1, 2, EVEN))
    assert moved.reason is not None and moved.reason.code == "team_played"
    assert moved.reason.values() == {"team": "A", "round": 1, "table": 1, "law": "11"}


def code(session: Session, event: GameEntry | Cancel) -> str:
    reason = refused(session, event).reason
    assert reason is not None
    return reason.code


def test_session_table_team_and_cancel_refusals_are_facts() -> None:
    session = Session(START)
    assert code(session, GameEntry(1, 3, EVEN)) == "not_a_table"
    stranger = Game({"A": EVEN.sheets["A"], "Z": EVEN.sheets["B"]}, EVEN.end)
    assert code(session, GameEntry(1, 1, stranger)) == "not_a_team"
    assert code(session, Cancel(1, 1)) == "cancel_no_game"


def _header(**changed: object) -> dict[str, object]:
    header = start_to_dict(START)
    header.update(changed)
    return header


A, B = (
    {"id": "A", "players": ["Ravi", "Mina", "Anil"]},
    {"id": "B", "players": ["Uma", "Jay", "Dev"]},
)


@pytest.mark.parametrize(
    ("header", "code", "law"),
    [
        (_header(teams=[A]), "two_teams_or_more", ""),
        (_header(teams=[A, dict(B, id="A")]), "team_id_twice", ""),
        (_header(teams=[A, dict(B, players=["Uma", "Jay"])]), "team_of_three", "2"),
        (_header(round_minutes=40), "round_minutes", "10"),
        (_header(warn_minutes=[31]), "warn_minutes", ""),
        (_header(tables=[1, 1]), "tables", ""),
    ],
)
def test_session_header_refusals_carry_their_rule_as_facts(
    header: dict[str, object], code: str, law: str
) -> None:
    with raises_code(SessionError, code, law=law):
        start_from_dict(header)
