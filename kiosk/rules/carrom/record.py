"""Carrom match records (shared/spec/match-record.md, format 1): read, write, replay.

A record is JSON Lines, one event per line, oldest first; blank lines and lines
whose first non-blank character is `#` are skipped, unknown fields are ignored,
an unknown event type is an error. Every error is a `MatchRecordError` that names the
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

from kiosk.errors import N_, Reason, Refused, TablesideError
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import (
    AnyEvent,
    Concede,
    EventError,
    ForfeitBoard,
    Foul,
    MatchStart,
    Protest,
    ProtestDecided,
    Toss,
    Waive,
    event_from_dict,
    event_to_dict,
)
from kiosk.rules.carrom.match import Match
from kiosk.rules.carrom.state import (
    BoardResult,
    Ending,
    GameResult,
    MatchState,
    Now,
    ProtestState,
)
from kiosk.safe_read import UnsafeInput, loads_json

__all__ = [
    "MatchRecordError",
    "match_to_json",
    "parse_numbered",
    "parse_record",
    "replay",
    "replay_text",
    "state_to_json",
    "write_record",
]


class MatchRecordError(TablesideError, ValueError):
    """A record that cannot be read or replayed: `line` (1-based) and the `reason` in English
    words; `why` the same as facts (None when the error gave none), for the interface."""

    def __init__(self, line: int, reason: str | Reason) -> None:
        text = reason.english() if isinstance(reason, Reason) else reason
        super().__init__(f"line {line}: {text}")
        self.line = line
        self.reason = text
        self.why = reason if isinstance(reason, Reason) else None


def _why(exc: Exception) -> str | Reason:
    """A refusal's facts when its core gave them, else its words."""
    if isinstance(exc, Refused) and exc.reason is not None:
        return exc.reason
    return str(exc)


#: What the record format itself refuses (shared/spec/match-record.md).
_EMPTY = Reason.of("empty_record", N_('the record is empty: its first event must be "match"'))
_SECOND = Reason.of("second_match", N_('a record holds one "match" event, on its first line'))


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
    """Every event of a record with its line number; raises MatchRecordError.

    Only the format is checked here (JSON, known events, typed fields, the
    first event being the match and no second match); the laws are the core's.
    """
    out: list[tuple[int, AnyEvent]] = []
    for number, line in _lines(text):
        try:
            obj: Any = loads_json(line)
        except UnsafeInput as exc:
            raise MatchRecordError(number, exc.reason) from None
        try:
            event = event_from_dict(obj)
        except EventError as exc:
            raise MatchRecordError(number, _why(exc)) from None
        if not out and not isinstance(event, MatchStart):
            kind = obj.get("event") if isinstance(obj, dict) else None
            first = Reason.of(
                "first_not_match", N_('the first event must be "match", not {kind!r}'), kind=kind
            )
            raise MatchRecordError(number, first)
        if out and isinstance(event, MatchStart):
            raise MatchRecordError(number, _SECOND)
        out.append((number, event))
    if not out:
        raise MatchRecordError(1, _EMPTY)
    return out


def parse_record(text: str) -> list[AnyEvent]:
    """The events of a record, oldest first; raises MatchRecordError(line, reason)."""
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
    if isinstance(event, ForfeitBoard | Concede | Protest):
        return [("by", event.by)]
    if isinstance(event, Toss):
        return [("winner", event.winner)]
    return []


def replay(events: Sequence[AnyEvent], *, lines: Sequence[int] | None = None) -> Match:
    """Rebuild the match by pushing every event into a `Match`; raises MatchRecordError.

    `lines[i]` is the line number reported for `events[i]` (default: i + 1).
    """
    if lines is not None and len(lines) != len(events):
        raise ValueError("replay: one line number is needed for each event")

    def line_of(index: int) -> int:
        return lines[index] if lines is not None else index + 1

    if not events:
        raise MatchRecordError(1, _EMPTY)
    start = events[0]
    if not isinstance(start, MatchStart):
        first = Reason.of("first_not_match", N_('the first event must be "match"'))
        raise MatchRecordError(line_of(0), first)
    try:
        match = Match(start)
    except ValueError as exc:
        raise MatchRecordError(line_of(0), _why(exc)) from None
    players = set(start.players)
    for index in range(1, len(events)):
        event = events[index]
        if isinstance(event, MatchStart):
            raise MatchRecordError(line_of(index), _SECOND)
        for key, name in _names(event):
            if name not in players:
                stranger = Reason.of(
                    "not_a_player",
                    N_("{key} {name!r} is not a player of this match ({known})"),
                    key=key,
                    name=name,
                    known=", ".join(start.players),
                )
                raise MatchRecordError(line_of(index), stranger)
        # A protest and its decision may follow the last board (laws 146, 150, 151).
        if match.is_over() and not isinstance(event, Protest | ProtestDecided):
            over = Reason.of(
                "after_the_end",
                N_("the match is over ({winner} won): nothing may follow"),
                winner=match.state.provisional_winner,
            )
            raise MatchRecordError(line_of(index), over)
        try:
            match.push(event)
        except IllegalEvent as exc:
            raise MatchRecordError(line_of(index), _why(exc)) from None
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
        "protest": board.protest,
    }


def _game(game: GameResult) -> dict[str, Any]:
    return {
        "winner": game.winner,
        "points": dict(game.points),
        "boards": [_board(board) for board in game.boards],
    }


def _protest(protest: ProtestState) -> dict[str, Any]:
    return {"by": protest.by, "board": list(protest.board), "decision": protest.decision}


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

    The required keys come first, in the spec's order and with its types (`protests` and
    `provisional_winner`, laws 144-151, after `now`); then
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
        "protests": [_protest(protest) for protest in state.protests],
        "provisional_winner": state.provisional_winner,
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
