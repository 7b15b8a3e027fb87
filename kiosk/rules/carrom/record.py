"""Carrom match records (shared/spec/match-record.md, format 1): read, write, replay.

A record is JSON Lines, one event per line, oldest first; blank lines and lines
whose first non-blank character is `#` are skipped, unknown fields are ignored,
an unknown event type is an error. Every error is a `RecordError` that names the
line (1-based, counting skipped lines too, so it matches the file in an editor).

`replay` pushes the events into the rules core (`Match`, laws 39-151); the core
decides what each event means, this module only adds what the record format
itself requires: the first line is the match, the names are the match's
players, nothing follows the end of the match.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import (
    AnyEvent,
    Concede,
    EventError,
    ForfeitBoard,
    Foul,
    MatchStart,
    Toss,
    Waive,
    event_from_dict,
    event_to_dict,
)
from kiosk.rules.carrom.match import Match
from kiosk.rules.carrom.state import BoardResult, Ending, GameResult, MatchState, Now
from kiosk.safe_read import UnsafeInput, loads_json

__all__ = [
    "RecordError",
    "match_to_json",
    "parse_numbered",
    "parse_record",
    "replay",
    "replay_text",
    "state_to_json",
    "write_record",
]


class RecordError(ValueError):
    """A record that cannot be read or replayed: `line` (1-based) and the `reason`."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


def _lines(text: str) -> Iterable[tuple[int, str]]:
    # JSON Lines separates records by "\n" only; str.splitlines() would also
    # split on form feeds and U+2028 and so shift the line numbers.
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.removesuffix("\r")
        if number == 1:
            line = line.removeprefix("\ufeff")
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, line


def parse_numbered(text: str) -> list[tuple[int, AnyEvent]]:
    """Every event of a record with its line number; raises RecordError.

    Only the format is checked here (JSON, known events, typed fields, the
    first event being the match and no second match); the laws are the core's.
    """
    out: list[tuple[int, AnyEvent]] = []
    for number, line in _lines(text):
        try:
            obj: Any = loads_json(line)
        except UnsafeInput as exc:
            raise RecordError(number, exc.reason) from None
        try:
            event = event_from_dict(obj)
        except EventError as exc:
            raise RecordError(number, str(exc)) from None
        if not out and not isinstance(event, MatchStart):
            kind = obj.get("event") if isinstance(obj, dict) else None
            raise RecordError(number, f'the first event must be "match", not {kind!r}')
        if out and isinstance(event, MatchStart):
            raise RecordError(number, 'a record holds one "match" event, on its first line')
        out.append((number, event))
    if not out:
        raise RecordError(1, 'the record is empty: its first event must be "match"')
    return out


def parse_record(text: str) -> list[AnyEvent]:
    """The events of a record, oldest first; raises RecordError(line, reason)."""
    return [event for _, event in parse_numbered(text)]


def write_record(events: Iterable[AnyEvent]) -> str:
    """The record text of `events`: one JSON object per line, each line ended by "\\n"."""
    return "".join(
        json.dumps(event_to_dict(event), ensure_ascii=False, allow_nan=False) + "\n"
        for event in events
    )


def _names(event: AnyEvent) -> list[tuple[str, str]]:
    """The player names an event mentions, with the field that holds each."""
    if isinstance(event, Foul | Waive) and event.by is not None:
        return [("by", event.by)]
    if isinstance(event, ForfeitBoard | Concede):
        return [("by", event.by)]
    if isinstance(event, Toss):
        return [("winner", event.winner)]
    return []


def replay(events: Sequence[AnyEvent], *, lines: Sequence[int] | None = None) -> Match:
    """Rebuild the match by pushing every event into a `Match`; raises RecordError.

    `lines[i]` is the line number reported for `events[i]` (default: i + 1).
    """
    if lines is not None and len(lines) != len(events):
        raise ValueError("replay: one line number is needed for each event")

    def line_of(index: int) -> int:
        return lines[index] if lines is not None else index + 1

    if not events:
        raise RecordError(1, 'the record is empty: its first event must be "match"')
    start = events[0]
    if not isinstance(start, MatchStart):
        raise RecordError(line_of(0), 'the first event must be "match"')
    try:
        match = Match(start)
    except ValueError as exc:
        raise RecordError(line_of(0), str(exc)) from None
    players = set(start.players)
    for index in range(1, len(events)):
        event = events[index]
        if isinstance(event, MatchStart):
            raise RecordError(line_of(index), 'a record holds one "match" event, on its first line')
        for key, name in _names(event):
            if name not in players:
                known = ", ".join(start.players)
                raise RecordError(
                    line_of(index), f"{key} {name!r} is not a player of this match ({known})"
                )
        if match.is_over():
            raise RecordError(
                line_of(index), f"the match is over ({match.state.winner} won): nothing may follow"
            )
        try:
            match.push(event)
        except IllegalEvent as exc:
            raise RecordError(line_of(index), str(exc)) from None
    return match


def replay_text(text: str) -> Match:
    """Parse and replay a record in one go, errors naming the file's own line numbers."""
    numbered = parse_numbered(text)
    return replay([event for _, event in numbered], lines=[number for number, _ in numbered])


def _board(board: BoardResult) -> dict[str, Any]:
    return {
        "breaker": board.breaker,
        "winner": board.winner,
        "points": board.points,
        "queen": board.queen,
        "void": board.void,
        "law": board.law,
        "change_sides": board.change_sides,
    }


def _game(game: GameResult) -> dict[str, Any]:
    return {
        "winner": game.winner,
        "points": dict(game.points),
        "boards": [_board(board) for board in game.boards],
    }


def _now(now: Now) -> dict[str, Any]:
    return {
        "game": now.game,
        "board": now.board,
        "breaker": now.breaker,
        "turn": now.turn,
        "white": now.white,
        "on_board": dict(now.on_board),
        "queen": now.queen,
        "queen_by": now.queen_by,
        "owed": dict(now.owed),
        "break_attempts": now.break_attempts,
        "change_sides": now.change_sides,
    }


def state_to_json(state: MatchState, ending: Ending | None = None) -> dict[str, Any]:
    """The spec's `tableside replay --json` object for a match state.

    The required keys come first, in the spec's order and with its types; then
    `players`, `board_limit`, `games_won` and `ending` (how the match ended:
    the law and the reason, null while it goes on); the spec allows more keys.
    Each board also carries `law`, the law that decided it, and `change_sides`, the
    law by which the players changed sides after it (null when they did not).
    """
    return {
        "rules": state.rules,
        "sides": list(state.sides),
        "winner": state.winner,
        "games": [_game(game) for game in state.games],
        "now": None if state.winner is not None or state.now is None else _now(state.now),
        "players": list(state.players),
        "board_limit": state.board_limit,
        "games_won": dict(state.games_won),
        "ending": None
        if ending is None or state.winner is None
        else {"law": ending.law, "reason": ending.reason},
    }


def match_to_json(match: Match) -> dict[str, Any]:
    """The spec's `tableside replay --json` object for a match."""
    return state_to_json(match.state, match.outcome().match)
