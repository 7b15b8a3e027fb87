"""Reading and writing carrom match records (shared/spec/match-record.md, format 1)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.rules.carrom.events import (
    COINS,
    OFF_BOARD,
    RULE_SETS,
    AnyEvent,
    Concede,
    ForfeitBoard,
    Foul,
    MatchStart,
    Pass,
    Stroke,
    Toss,
    VoidBoard,
    Waive,
)
from kiosk.rules.carrom.record import (
    MatchRecordError,
    parse_numbered,
    parse_record,
    replay,
    replay_text,
    write_record,
)

MATCH = '{"event": "match", "rules": "icf", "players": ["Asha", "Bina"], "first_break": "Asha"}'
START = MatchStart("icf", ("Asha", "Bina"), "Asha", 8)


def test_record_blank_and_comment_lines_are_skipped_but_counted() -> None:
    text = "\n".join(
        [
            "# a match record",
            MATCH,
            "",
            "   # an indented comment",
            "   ",
            '{"event": "stroke", "pocketed": ["white"]}',
        ]
    )
    assert parse_numbered(text) == [(2, START), (6, Stroke(pocketed=("white",)))]


def test_record_unknown_fields_are_ignored() -> None:
    text = MATCH + '\n{"event": "pass", "umpire": "Dev", "pocket": 3, "t": 4}\n'
    assert parse_record(text) == [START, Pass(t=4.0)]


def test_record_defaults_follow_the_spec() -> None:
    (_, stroke) = parse_record(MATCH + '\n{"event": "stroke"}')
    assert stroke == Stroke(pocketed=(), striker=False, off_board=(), improper=False, touched=True)
    (start,) = parse_record(
        '{"event": "match", "rules": "club", "players": ["A", "B"], "first_break": "B"}'
    )
    assert start == MatchStart("club", ("A", "B"), "B", 8)


def test_record_crlf_and_byte_order_mark_are_read() -> None:
    text = "\ufeff" + MATCH + "\r\n" + '{"event": "pass"}\r\n'
    assert parse_record(text) == [START, Pass()]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"event": "stroke", "pocketed": [', "not JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"event": "smash"}', "unknown event 'smash'"),
        ('{"pocketed": ["white"]}', "unknown event None"),
        ('{"event": "stroke", "pocketed": ["red"]}', "'red'"),
        ('{"event": "stroke", "striker": "yes"}', "'striker' must be true or false"),
        ('{"event": "forfeit_board"}', "'by' must be a non-empty name"),
        ('{"event": "pass", "t": -1}', "'t'"),
        ('{"event": "pass", "t": NaN}', "NaN is not a JSON number"),
        ('{"event": "pass", "t": Infinity}', "Infinity is not a JSON number"),
        (MATCH, 'one "match" event'),
    ],
)
def test_record_bad_line_is_refused_with_its_number(line: str, reason: str) -> None:
    text = "# header\n" + MATCH + '\n{"event": "pass"}\n\n' + line + "\n"
    with pytest.raises(MatchRecordError) as exc:
        parse_record(text)
    assert exc.value.line == 5
    assert reason in exc.value.reason
    assert str(exc.value).startswith("line 5: ")


def test_record_first_event_must_be_the_match() -> None:
    with pytest.raises(MatchRecordError) as exc:
        parse_record('\n# nothing yet\n{"event": "pass"}\n' + MATCH)
    assert exc.value.line == 3
    assert '"match"' in exc.value.reason


def test_record_empty_is_refused() -> None:
    with pytest.raises(MatchRecordError, match="empty"):
        parse_record("# only a comment\n\n")


def test_record_match_line_is_checked() -> None:
    bad = '{"event": "match", "rules": "icf", "players": ["A", "B"], "first_break": "C"}'
    with pytest.raises(MatchRecordError) as exc:
        parse_record(bad)
    assert exc.value.line == 1
    assert "first_break" in exc.value.reason


ALL_EVENTS: list[AnyEvent] = [
    MatchStart("icf", ("Asha", "Bina", "Chitra", "Dev"), "Bina", None, t=0.0),
    Stroke(pocketed=("white", "queen"), striker=True, off_board=("black",), improper=True, t=1.5),
    Stroke(touched=False),
    Foul(),
    Foul(by="Dev", t=12.25),
    Waive(by="Asha"),
    Pass(),
    VoidBoard(t=99.0),
    ForfeitBoard(by="Chitra"),
    Toss(winner="Bina"),
    Concede(by="Asha", t=3600.0),
]


def test_record_write_then_parse_round_trips_every_event_type() -> None:
    text = write_record(ALL_EVENTS)
    assert text.endswith("\n")
    assert len(text.splitlines()) == len(ALL_EVENTS)
    assert parse_record(text) == ALL_EVENTS


def test_record_written_lines_are_the_spec_objects() -> None:
    lines = write_record([START, Stroke(pocketed=("white", "queen")), Foul(by="Bina", t=2.0)])
    objects = [json.loads(line) for line in lines.splitlines()]
    assert objects[0] == {
        "event": "match",
        "rules": "icf",
        "players": ["Asha", "Bina"],
        "first_break": "Asha",
        "board_limit": 8,
    }
    assert objects[1]["event"] == "stroke"
    assert objects[1]["pocketed"] == ["white", "queen"]
    assert "t" not in objects[1]
    assert objects[2] == {"event": "foul", "by": "Bina", "t": 2.0}


def test_record_names_are_written_as_utf8_text() -> None:
    start = MatchStart("icf", ("आशा", "Βίνα"), "आशा", 8)
    text = write_record([start])
    assert "आशा" in text
    assert parse_record(text) == [start]


def test_record_replay_refuses_a_name_not_in_the_match() -> None:
    text = MATCH + '\n{"event": "stroke"}\n# a comment\n{"event": "waive", "by": "Chitra"}\n'
    with pytest.raises(MatchRecordError) as exc:
        replay_text(text)
    assert exc.value.line == 4
    assert "'Chitra' is not a player of this match" in exc.value.reason


def test_record_replay_refuses_events_after_the_match_ended() -> None:
    events: list[AnyEvent] = [START, Concede(by="Bina"), Pass()]
    with pytest.raises(MatchRecordError) as exc:
        replay(events, lines=[1, 5, 9])
    assert exc.value.line == 9
    assert "over" in exc.value.reason


def test_record_replay_numbers_events_from_one_without_line_numbers() -> None:
    with pytest.raises(MatchRecordError) as exc:
        replay([START, Stroke(), Toss(winner="Chitra")])
    assert exc.value.line == 3


def test_record_replay_needs_the_match_first() -> None:
    with pytest.raises(MatchRecordError, match="first event"):
        replay([Pass()])
    with pytest.raises(MatchRecordError, match="empty"):
        replay([])


def test_record_replay_pushes_every_event() -> None:
    events: list[AnyEvent] = [START, Stroke(pocketed=("white",)), Stroke(), Pass()]
    match = replay(events)
    assert tuple(match.events)[-3:] == tuple(events[1:])


NAMES = st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=12).filter(
    lambda name: name.strip() != ""
)
TIMES = st.none() | st.floats(min_value=0, max_value=1e7, allow_nan=False, allow_infinity=False)
COIN_LISTS = st.lists(st.sampled_from(COINS), max_size=6).map(tuple)
OFF_LISTS = st.lists(st.sampled_from(OFF_BOARD), max_size=3).map(tuple)


@st.composite
def records(draw: st.DrawFn) -> list[AnyEvent]:
    players = tuple(draw(st.lists(NAMES, min_size=2, max_size=2, unique=True)))
    if draw(st.booleans()):
        players += tuple(
            draw(
                st.lists(
                    NAMES.filter(lambda n: n not in players), min_size=2, max_size=2, unique=True
                )
            )
        )
    start = MatchStart(
        draw(st.sampled_from(RULE_SETS)),
        players,
        draw(st.sampled_from(players)),
        draw(st.none() | st.integers(1, 20)),
        draw(TIMES),
    )
    name = st.sampled_from(players)
    event = st.one_of(
        st.builds(
            Stroke,
            pocketed=COIN_LISTS,
            striker=st.booleans(),
            off_board=OFF_LISTS,
            improper=st.booleans(),
            touched=st.booleans(),
            t=TIMES,
        ),
        st.builds(Foul, by=st.none() | name, t=TIMES),
        st.builds(Waive, by=st.none() | name, t=TIMES),
        st.builds(Pass, t=TIMES),
        st.builds(VoidBoard, t=TIMES),
        st.builds(ForfeitBoard, by=name, t=TIMES),
        st.builds(Toss, winner=name, t=TIMES),
        st.builds(Concede, by=name, t=TIMES),
    )
    return [start, *draw(st.lists(event, max_size=30))]


@settings(max_examples=150, deadline=None)
@given(records())
def test_record_any_events_round_trip_through_text(events: list[AnyEvent]) -> None:
    text = write_record(events)
    assert text.count("\n") == len(events)
    assert parse_record(text) == events


def test_record_an_event_name_that_is_not_a_string_is_refused_by_its_line() -> None:
    with pytest.raises(MatchRecordError) as exc:
        replay_text('{"event": []}\n')
    assert exc.value.line == 1 and "unknown event []" in exc.value.reason
