"""The session record (docs/bhukhar.md) and `tableside bhukhar standings`."""

import argparse
import json
import re
from pathlib import Path

import pytest

from kiosk.commands import bhukhar_standings
from kiosk.rules.bhukhar.record import (
    Cancel,
    GameEntry,
    RecordError,
    Session,
    SessionError,
    TimerEntry,
    event_from_dict,
    parse_session,
    write_session,
)
from kiosk.rules.bhukhar.report import session_to_json
from kiosk.rules.bhukhar.scoresheet import End, Game, TotalsSheet
from tests.refusals import raises_code

from .helpers import game

DATA = Path(__file__).resolve().parents[2] / "data" / "bhukhar"
BAD = sorted(DATA.glob("bad_*.jsonl"))


def _expectation(path: Path) -> tuple[int, str]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    line, _, fragment = first.removeprefix("# expect: ").partition(": ")
    return int(line), fragment


def test_record_known_session_gives_known_standings() -> None:
    session = parse_session((DATA / "session.jsonl").read_text(encoding="utf-8"))
    expected = json.loads((DATA / "session.expected.json").read_text(encoding="utf-8"))
    assert session_to_json(session) == expected
    assert [(r.team, r.master, r.bonus, r.best) for r in session.standings()] == [
        ("A", 4, 5, 495),
        ("D", 4, 2, 340),
        ("B", 0, 2, 240),
        ("C", 0, 1, 325),
    ]


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_record_bad_entries_refused_with_line_and_reason(path: Path) -> None:
    line, fragment = _expectation(path)
    with pytest.raises(RecordError) as exc:
        parse_session(path.read_text(encoding="utf-8"))
    assert exc.value.line == line
    assert fragment in exc.value.reason


def test_record_write_then_parse_round_trips() -> None:
    text = (DATA / "session.jsonl").read_text(encoding="utf-8")
    session = parse_session(text)
    again = parse_session(write_session(session.start, session.events))
    assert again.events == session.events
    assert again.standings() == session.standings()


def test_record_cancelled_game_is_left_out_and_may_be_entered_again() -> None:
    session = parse_session((DATA / "session.jsonl").read_text(encoding="utf-8"))
    a_c = [r for e, r in session.games() if e.round == 2 and e.table == 1]
    assert len(a_c) == 1 and a_c[0].winner == "A"
    assert sum(isinstance(e, Cancel) for e in session.events) == 1


def test_record_refused_event_leaves_the_session_unchanged() -> None:
    session = parse_session((DATA / "session.jsonl").read_text(encoding="utf-8"))
    before = (list(session.events), session.standings(), session.timer)
    sheets = {"C": TotalsSheet(True, 300, 0), "D": TotalsSheet(False, 0, 0)}
    again = GameEntry(1, 2, Game(sheets, End.TIME))
    with raises_code(SessionError, "table_played", law="11"):
        session.push(again)
    with raises_code(SessionError, "rounds_go_up"):
        session.push(TimerEntry(1, "start", 1800, 1763740000.0))
    assert (list(session.events), session.standings(), session.timer) == before


def test_record_timer_state_follows_the_timer_lines() -> None:
    session = parse_session((DATA / "session.jsonl").read_text(encoding="utf-8"))
    assert session.timer is not None
    assert (session.timer.round, session.timer.running, session.timer.left) == (2, True, 1800)


GAME = {"event": "game", "round": 1, "table": 1, "end": "time", "teams": {"A": {}, "B": {}}}


@pytest.mark.parametrize(
    ("obj", "why"),
    [
        ({"event": "nonsense"}, "unknown event"),
        ({"event": "session"}, "second 'session'"),
        ({**GAME, "end": "won"}, "end"),
        ({**GAME, "round": 0}, "round"),
        ({**GAME, "teams": {"A": {}}}, "two teams"),
        (
            {"event": "game", "round": 1, "table": 1, "end": "time",
             "teams": {"A": {"licence": True, "table": 300}, "B": {}}},
            "teams.A.hand",
        ),
        (
            {"event": "game", "round": 1, "table": 1, "end": "time", "teams": {"A": {}, "B": {}},
             "penalties": [{"team": "A", "kind": "rude"}]},
            "penalties[1].kind",
        ),
        ({"event": "timer", "round": 1, "action": "stop", "left": 5, "at": 1.0}, "action"),
        ({"event": "timer", "round": 1, "action": "start", "left": -5, "at": 1.0}, "negative"),
    ],
)  # fmt: skip
def test_record_malformed_events_name_the_field(obj: dict[str, object], why: str) -> None:
    with pytest.raises(SessionError, match=re.escape(why)):
        event_from_dict(obj)


def _run(path: Path, *extra: str) -> int:
    args = argparse.Namespace(file=str(path), json="--json" in extra)
    return bhukhar_standings.main(args)


def test_standings_command_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(DATA / "session.jsonl") == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Club night, 21 November"
    assert lines[2].split()[:2] == ["1", "A"]
    assert "round 2 table 2: B 240 - 310 D (time, D wins)" in out


def test_standings_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(DATA / "session.jsonl", "--json") == 0
    out = json.loads(capsys.readouterr().out)
    assert [row["team"] for row in out["standings"]] == ["A", "D", "B", "C"]


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_standings_command_bad_file_names_file_and_line(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line, fragment = _expectation(path)
    assert _run(path, "--json") == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"{path}:{line}: ")
    assert fragment in captured.err


def test_standings_command_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(tmp_path / "nope.jsonl") == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "cannot read" in captured.err


def test_standings_command_empty_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("# nothing yet\n", encoding="utf-8")
    assert _run(empty) == 1
    assert capsys.readouterr().err.startswith(f"{empty}:1: empty record")


def test_record_shared_place_when_all_tiebreaks_equal() -> None:
    teams = [{"id": t, "players": [t + "1", t + "2", t + "3"]} for t in "ABCD"]
    sheet = {"licence": True, "table": 300, "hand": 10}

    def tie(table: int, a: str, b: str) -> str:
        return json.dumps({**GAME, "table": table, "teams": {a: sheet, b: sheet}})

    start = json.dumps({"event": "session", "teams": teams})
    text = "\n".join([start, tie(1, "A", "B"), tie(2, "C", "D")])
    rows = parse_session(text).standings()
    assert [(r.place, r.team, r.shared) for r in rows] == [
        (1, "A", True), (1, "B", True), (1, "C", True), (1, "D", True)
    ]  # fmt: skip


def test_record_session_push_returns_the_result() -> None:
    session = Session(parse_session((DATA / "session.jsonl").read_text("utf-8")).start)
    entry = GameEntry(1, 1, game(TotalsSheet(True, 300, 0), TotalsSheet(False, 0, 35)))
    result = session.push(entry)
    assert result is not None and result.winner == "A"


def test_standings_command_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    from kiosk.cli import main

    assert main(["bhukhar", "standings", str(DATA / "session.jsonl"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["standings"][0]["team"] == "A"
    assert main(["bhukhar", "standings", str(BAD[0])]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(f"{BAD[0]}:")


HEAD = (
    '{"event": "session", "round_minutes": 30, "teams": [{"id": "A", "players": ["Ravi", '
    '"Mina", "Anil"]}, {"id": "B", "players": ["Uma", "Jay", "Dev"]}]}\n'
)


def _timer(action: str, left: float, at: float, rnd: int = 1) -> str:
    line = {"event": "timer", "round": rnd, "action": action, "left": left, "at": at}
    return json.dumps(line) + "\n"


def test_rule_10_a_timer_starting_with_40_minutes_is_refused_with_its_line() -> None:
    with raises_code(RecordError, "round_too_long", law="10") as exc:
        parse_session(HEAD + _timer("start", 2400, 0.0))
    assert exc.value.line == 2 and dict(exc.value.why.facts)["left"] == "40:00"


def test_rule_10_the_organisers_choose_30_to_35_minutes() -> None:
    long = HEAD.replace('"round_minutes": 30', '"round_minutes": 35')
    assert parse_session(long + _timer("start", 2100, 0.0)).timer is not None
    with raises_code(RecordError, "round_too_long", law="10"):
        parse_session(HEAD + _timer("start", 2100, 0.0))  # the session chose 30
    assert parse_session(HEAD + _timer("start", 1790, 0.0)).timer is not None


def test_rule_10_time_left_that_grows_between_lines_is_refused() -> None:
    text = HEAD + _timer("start", 1800, 0.0) + _timer("pause", 1200, 600.0)
    assert parse_session(text + _timer("resume", 1200, 700.0)).timer is not None
    with raises_code(RecordError, "time_grows", law="10") as exc:
        parse_session(text + _timer("resume", 1500, 700.0))
    assert exc.value.line == 4
    with raises_code(RecordError, "time_grows", law="10"):
        parse_session(text + _timer("resume", 1200, 700.0) + _timer("pause", 1300, 800.0))
    # A new round starts from its full length again.
    nxt = text + _timer("resume", 1200, 700.0) + _timer("start", 1800, 3000.0, rnd=2)
    assert parse_session(nxt).timer is not None


def test_rule_17_2_a_record_that_relays_the_void_cards_is_accepted() -> None:
    line = {
        "event": "game",
        "round": 1,
        "table": 1,
        "end": "time",
        "teams": {
            "A": {
                "licence": [["3S", "4S", "5S", "6S", "7S", "8S", "9S"]],
                "melds": [["5H", "6H", "7H"], ["5H", "6H", "7H"], ["5H", "6H", "7H"]],
                "void": [["5H", "6H", "8H"]],
                "hand": [],
            },
            "B": {"licence": False, "table": 0, "hand": 40},
        },
    }
    session = parse_session(HEAD + json.dumps(line) + "\n")
    (_, result), *_ = session.games()
    assert result.score("A").table == 345  # 300 + three times 5H 6H 7H (15)
