"""The Bhukhar session record: JSON Lines, a first line then one event per line.

docs/bhukhar.md is the format's documentation. The lines themselves are
events.py's values; the checks against the rules are session.py's `Session`.
This module reads a whole record (`parse_session`, naming the line of the
first bad entry) and writes one (`write_session`, `dump_line`).

Events: "game" (one game's scoresheet at a table in a round), "cancel" (the
umpire withdraws a game entered by mistake; it may be entered again) and
"timer" (the round timer started, paused or resumed, with the seconds left
and the wall-clock time, so a restarted kiosk resumes the round). Standings
need only the games; the timer lines are checked and kept.

Every name the record module held before it was split is importable from here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kiosk.errors import Reason, TablesideError
from kiosk.rules.bhukhar.events import (
    FORMAT,
    PLAYERS_PER_TEAM,
    ROUND_MINUTES,
    TIMER_ACTIONS,
    Cancel,
    Event,
    GameEntry,
    SessionError,
    SessionStart,
    Team,
    TimerEntry,
    event_from_dict,
    event_to_dict,
    sheet_from_dict,
    sheet_to_dict,
    start_from_dict,
    start_to_dict,
)
from kiosk.rules.bhukhar.session import Session, TimerState
from kiosk.safe_read import UnsafeInput, loads_json

__all__ = [
    "FORMAT",
    "PLAYERS_PER_TEAM",
    "ROUND_MINUTES",
    "TIMER_ACTIONS",
    "Cancel",
    "Event",
    "GameEntry",
    "RecordError",
    "Session",
    "SessionError",
    "SessionStart",
    "Team",
    "TimerEntry",
    "TimerState",
    "dump_line",
    "event_from_dict",
    "event_to_dict",
    "parse_session",
    "record_lines",
    "sheet_from_dict",
    "sheet_to_dict",
    "start_from_dict",
    "start_to_dict",
    "team_names",
    "write_session",
]


class RecordError(TablesideError, ValueError):
    """A record line that cannot be read: `line` is 1-based, `reason` the English words, `why`
    the session's refusal as facts when the line broke a rule (None: not JSON, no session)."""

    def __init__(self, line: int, reason: str, why: Reason | None = None) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason
        self.why = why


def dump_line(obj: Mapping[str, Any]) -> str:
    """One record line, newline included."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": ")) + "\n"


def write_session(start: SessionStart, events: Iterable[Event]) -> str:
    return dump_line(start_to_dict(start)) + "".join(dump_line(event_to_dict(e)) for e in events)


def record_lines(text: str) -> Iterable[tuple[int, Any]]:
    """Each line of a record that is not blank or a `#` comment, decoded: (line number, JSON
    object); RecordError names a line that is not JSON."""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            yield number, loads_json(line)
        except UnsafeInput as exc:
            raise RecordError(number, exc.reason) from None


def parse_session(text: str) -> Session:
    """Read a whole session record; RecordError names the first bad line."""
    session: Session | None = None
    for number, obj in record_lines(text):
        try:
            if session is None:
                session = Session(start_from_dict(obj))
            else:
                session.push(event_from_dict(obj))
        except SessionError as exc:
            raise RecordError(number, str(exc), exc.reason) from None
    if session is None:
        raise RecordError(1, 'empty record: the first line is {"event": "session", ...}')
    return session


def team_names(start: SessionStart) -> Sequence[tuple[str, str]]:
    """(id, display name) for each team, in session order."""
    return [(t.id, t.name or t.id) for t in start.teams]
