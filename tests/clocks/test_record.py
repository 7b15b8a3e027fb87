"""The clock record's form (shared/spec/clock-record.md): parse, write, refuse."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.clocks.record import (
    Adjust,
    ClockEvent,
    ClockHeader,
    ClockRecordError,
    GameEnd,
    Query,
    Start,
    parse_clock_record,
    write_clock_record,
)

HEAD = '{"event": "clock", "players": ["Nikos", "Eleni"], "match_length": 7}'


def test_clock_record_defaults_of_the_first_line() -> None:
    rec = parse_clock_record(HEAD + "\n")
    assert rec.header == ClockHeader(("Nikos", "Eleni"), 7, (0, 0), 2.0, 12.0, False)
    assert rec.events == ()


def test_clock_record_round_trip() -> None:
    header = ClockHeader(("Nikos", "Eleni"), 7, (2, 1), 1.5, 10.0, True)
    events = [
        Start(0.0, "Nikos"),
        Adjust(5.5, "Eleni", 600.0),
        GameEnd(9.0, "Nikos", 2),
        Query(9.0),
    ]
    rec = parse_clock_record(write_clock_record(header, events))
    assert rec.header == header
    assert [e for _, e in rec.events] == events
    assert [line for line, _ in rec.events] == [2, 3, 4, 5]


def test_clock_record_blank_lines_keep_their_numbers() -> None:
    rec = parse_clock_record(HEAD + '\n\n{"t": 1, "event": "query"}\n')
    assert rec.events == ((3, Query(1.0)),)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"t": -1, "event": "query"}', '"t" must be a non-negative number'),
        ('{"event": "query"}', '"t" is missing'),
        ('{"t": true, "event": "query"}', '"t" must be'),
        ('{"t": 1, "event": "flip"}', "unknown event 'flip'"),
        ('{"t": 1, "event": "adjust", "player": "Nikos", "bank": -5}', '"bank" must be'),
        ('{"t": 1, "event": "game_end", "winner": "Nikos", "points": 0}', '"points" must be'),
        ('{"t": 1, "event": "game_end", "winner": "Nikos", "points": 1.5}', '"points" must be'),
        ("[1, 2]", "must be a JSON object"),
        (HEAD, 'a second "clock" line'),
    ],
)
def test_clock_record_bad_line_is_refused_with_its_number(line: str, reason: str) -> None:
    with pytest.raises(ClockRecordError) as exc:
        parse_clock_record(HEAD + '\n{"t": 0, "event": "query"}\n' + line + "\n")
    assert exc.value.line == 3
    assert reason in exc.value.reason


@pytest.mark.parametrize(
    ("head", "reason"),
    [
        ('{"event": "clock", "players": ["A"], "match_length": 7}', '"players" must be'),
        ('{"event": "clock", "players": ["A", "A"], "match_length": 7}', "two different"),
        ('{"event": "clock", "players": ["A", "B"], "match_length": 0}', '"match_length"'),
        ('{"event": "clock", "players": ["A", "B"], "match_length": 7, "delay": -1}', '"delay"'),
        (
            '{"event": "clock", "players": ["A", "B"], "match_length": 7, "minutes_per_point": 0}',
            '"minutes_per_point"',
        ),
    ],
)
def test_clock_record_bad_first_line_is_refused(head: str, reason: str) -> None:
    with pytest.raises(ClockRecordError) as exc:
        parse_clock_record(head)
    assert exc.value.line == 1 and reason in exc.value.reason


def test_clock_record_empty_is_refused() -> None:
    with pytest.raises(ClockRecordError, match="empty"):
        parse_clock_record("\n")


NAMES = st.sampled_from(["Nikos", "Eleni"])
TIMES = st.floats(0.0, 1e5, allow_nan=False)
EVENTS = st.one_of(
    st.builds(Start, TIMES, NAMES),
    st.builds(Adjust, TIMES, NAMES, st.floats(0.0, 1e4)),
    st.builds(GameEnd, TIMES, NAMES, st.integers(1, 64)),
    st.builds(Query, TIMES),
)


@settings(max_examples=100, deadline=None)
@given(st.lists(EVENTS, max_size=20))
def test_clock_record_write_then_parse_gives_the_same_events(events: list[ClockEvent]) -> None:
    events = sorted(events, key=lambda e: e.t)
    header = ClockHeader(("Nikos", "Eleni"), 7)
    rec = parse_clock_record(write_clock_record(header, events))
    assert [e for _, e in rec.events] == events
