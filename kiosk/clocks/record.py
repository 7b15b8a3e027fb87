"""The backgammon clock record (shared/spec/clock-record.md, format 1): parse and write.

JSON Lines: a `clock` line first, then one timed event a line, oldest first.
Parsing is pure (text in, events out) and checks the form of every line: known
events, field types, known players, `t` never decreasing. What an event means
for the clock (a start while running, ...) is checked when it is replayed
(kiosk/rules/backgammon/clocked.py), with the same line numbers.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias, TypeGuard

from kiosk.errors import Reason, TablesideError
from kiosk.safe_read import UnsafeInput, loads_json


class ClockRecordError(TablesideError, ValueError):
    """A bad line of a clock record: `line` is 1-based, `reason` the English words; `why`,
    when the rules refused the line, the same as facts (a `Reason`) for a screen to word."""

    def __init__(self, line: int, reason: str, why: Reason | None = None) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason
        self.why = why


@dataclass(frozen=True, slots=True)
class ClockHeader:
    """The first line: the players, the match, and the tournament's clock settings (3.5 (v)).

    `post_crawford` (default false): the Crawford game was played before the clock
    was introduced; `second_leg` (seconds, default none): the director's two-leg time
    control (3.5 (v)): that many seconds of each player's match time are held back for
    the second leg; `best_of_three` (default false): the match is one of a
    best-of-three series, whose breaks are taken between matches only (2.2 (ii)).
    `breaks_taken` and `penalty_points` (per player, in the order of `players`; default
    none): what was already given before a clock was introduced in the middle of a match
    (2.2 (ii), 2.2 (iv), 2.3); the penalty points are already in `score`."""

    players: tuple[str, str]
    match_length: int
    score: tuple[int, int] = (0, 0)
    minutes_per_point: float = 2.0
    delay: float = 12.0
    post_crawford: bool = False
    second_leg: float | None = None
    best_of_three: bool = False
    breaks_taken: tuple[int, int] = (0, 0)
    penalty_points: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class Start:
    t: float
    player: str


@dataclass(frozen=True, slots=True)
class Press:
    t: float
    player: str


@dataclass(frozen=True, slots=True)
class Pause:
    t: float


@dataclass(frozen=True, slots=True)
class Resume:
    t: float


@dataclass(frozen=True, slots=True)
class RestartDelay:
    t: float


@dataclass(frozen=True, slots=True)
class EarlyPickup:
    t: float
    player: str


@dataclass(frozen=True, slots=True)
class Adjust:
    t: float
    player: str
    bank: float


@dataclass(frozen=True, slots=True)
class GameEnd:
    t: float
    winner: str
    points: int


@dataclass(frozen=True, slots=True)
class Overrule:
    t: float
    player: str


@dataclass(frozen=True, slots=True)
class Late:
    t: float
    player: str
    minutes: float


@dataclass(frozen=True, slots=True)
class Penalty:
    t: float
    player: str
    points: int


@dataclass(frozen=True, slots=True)
class Break:
    t: float
    player: str
    emergency: bool = False


@dataclass(frozen=True, slots=True)
class CorrectScore:
    """The director corrects the score (4.7): it becomes `score` (both players named)."""

    t: float
    score: Mapping[str, int] = field(hash=False)


@dataclass(frozen=True, slots=True)
class MatchLength:
    """The director corrects a wrongly entered match length before the next game (4.8)."""

    t: float
    length: int


@dataclass(frozen=True, slots=True)
class Query:
    t: float


ClockEvent: TypeAlias = (
    Start
    | Press
    | Pause
    | Resume
    | RestartDelay
    | EarlyPickup
    | Adjust
    | GameEnd
    | Overrule
    | Late
    | Penalty
    | Break
    | CorrectScore
    | MatchLength
    | Query
)

#: event name -> (class, fields naming a player, other fields and their kinds)
_EVENTS: dict[str, tuple[type[Any], tuple[str, ...], dict[str, str]]] = {
    "start": (Start, ("player",), {}),
    "press": (Press, ("player",), {}),
    "pause": (Pause, (), {}),
    "resume": (Resume, (), {}),
    "restart_delay": (RestartDelay, (), {}),
    "early_pickup": (EarlyPickup, ("player",), {}),
    "adjust": (Adjust, ("player",), {"bank": "seconds"}),
    "game_end": (GameEnd, ("winner",), {"points": "points"}),
    "overrule": (Overrule, ("player",), {}),
    "late": (Late, ("player",), {"minutes": "minutes"}),
    "penalty": (Penalty, ("player",), {"points": "points"}),
    "break": (Break, ("player",), {"emergency": "flag"}),
    "correct_score": (CorrectScore, (), {"score": "score"}),
    "match_length": (MatchLength, (), {"length": "points"}),
    "query": (Query, (), {}),
}
_NAMES: dict[type[Any], str] = {cls: name for name, (cls, _, _) in _EVENTS.items()}


@dataclass(frozen=True, slots=True)
class ClockRecord:
    """A parsed record: the header, and each event with its line number."""

    header: ClockHeader
    events: tuple[tuple[int, ClockEvent], ...]


#: No time, bank or delay of a match is longer (seconds): beyond it the clock's arithmetic
#: overflows (1e308 minutes per point is an infinite bank).
LARGEST = 1e9


def _is_number(value: object) -> TypeGuard[float]:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and abs(value) <= LARGEST
    )


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _header(obj: dict[str, Any], line: int) -> ClockHeader:
    def bad(reason: str) -> ClockRecordError:
        return ClockRecordError(line, reason)

    if obj.get("event") != "clock":
        raise bad(f'the first line must be the "clock" event, not {obj.get("event")!r}')
    players = obj.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, str) and p for p in players)
    ):
        raise bad('"players" must be a list of two names')
    if players[0] == players[1]:
        raise bad(f'"players" must be two different names, not twice {players[0]!r}')
    length = obj.get("match_length")
    if not _is_int(length) or length < 1:
        raise bad(f'"match_length" must be a whole number of points, at least 1, not {length!r}')
    score = obj.get("score", [0, 0])
    if (
        not isinstance(score, list)
        or len(score) != 2
        or not all(_is_int(s) and 0 <= s < length for s in score)
    ):
        raise bad(f'"score" must be two whole numbers from 0 to {length - 1}, not {score!r}')
    mpp = obj.get("minutes_per_point", 2)
    if not _is_number(mpp) or mpp <= 0:
        raise bad(f'"minutes_per_point" must be a positive number, not {mpp!r}')
    delay = obj.get("delay", 12)
    if not _is_number(delay) or delay < 0:
        raise bad(f'"delay" must be a non-negative number of seconds, not {delay!r}')
    post = obj.get("post_crawford", False)
    if not isinstance(post, bool):
        raise bad(f'"post_crawford" must be true or false, not {post!r}')
    leg = obj.get("second_leg")
    if leg is not None and (not _is_number(leg) or leg <= 0):
        raise bad(f'"second_leg" must be a positive number of seconds, not {leg!r}')
    series = obj.get("best_of_three", False)
    if not isinstance(series, bool):
        raise bad(f'"best_of_three" must be true or false, not {series!r}')
    pair = (players[0], players[1])
    return ClockHeader(
        pair,
        length,
        (score[0], score[1]),
        float(mpp),
        float(delay),
        post,
        None if leg is None else float(leg),
        series,
        _per_player(obj, "breaks_taken", pair, line),
        _per_player(obj, "penalty_points", pair, line),
    )


def _per_player(
    obj: dict[str, Any], key: str, players: tuple[str, str], line: int
) -> tuple[int, int]:
    """A header field given per player: two whole numbers in the order of "players" (as
    "score" is), or an object naming both players; absent, none."""
    value = obj.get(key)
    if value is None:
        return (0, 0)
    if isinstance(value, dict) and set(value) == set(players):
        value = [value[players[0]], value[players[1]]]
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(_is_int(v) and v >= 0 for v in value)
    ):
        raise ClockRecordError(
            line,
            f'"{key}" must be two whole numbers of 0 or more (in the order of "players"), '
            f"or an object naming both players, not {value!r}",
        )
    return (value[0], value[1])


def _event(obj: dict[str, Any], line: int, header: ClockHeader, last_t: float) -> ClockEvent:
    def bad(reason: str) -> ClockRecordError:
        return ClockRecordError(line, reason)

    name = obj.get("event")
    if not isinstance(name, str) or name not in _EVENTS:
        known = ", ".join(_EVENTS)
        raise bad(f"unknown event {name!r} (known: {known})")
    if "t" not in obj:
        raise bad(f'{name}: "t" is missing')
    t = obj["t"]
    if not _is_number(t) or t < 0:
        raise bad(f'{name}: "t" must be a non-negative number of seconds, not {t!r}')
    if t < last_t:
        raise bad(f"{name}: time went backwards from {last_t:g} to {t:g}")
    cls, player_fields, others = _EVENTS[name]
    values: dict[str, Any] = {"t": float(t)}
    for f in player_fields:
        who = obj.get(f)
        if who not in header.players:
            raise bad(
                f'{name}: unknown player {who!r} in "{f}" (players: {", ".join(header.players)})'
            )
        values[f] = who
    for f, kind in others.items():
        value = obj.get(f)
        if kind == "seconds":
            if not _is_number(value) or value < 0:
                raise bad(f'{name}: "{f}" must be a non-negative number of seconds, not {value!r}')
            values[f] = float(value)
        elif kind == "minutes":
            if not _is_number(value) or value < 0:
                raise bad(f'{name}: "{f}" must be a non-negative number of minutes, not {value!r}')
            values[f] = float(value)
        elif kind == "flag":
            value = obj.get(f, False)
            if not isinstance(value, bool):
                raise bad(f'{name}: "{f}" must be true or false, not {value!r}')
            values[f] = value
        elif kind == "score":
            if (
                not isinstance(value, dict)
                or set(value) != set(header.players)
                or not all(_is_int(v) and v >= 0 for v in value.values())
            ):
                a, b = header.players
                raise bad(
                    f'{name}: "{f}" must name both players with whole numbers of 0 or more, '
                    f'like {{"{a}": 0, "{b}": 2}}, not {value!r}'
                )
            values[f] = {p: value[p] for p in header.players}
        else:
            if not _is_int(value) or value < 1:
                raise bad(
                    f'{name}: "{f}" must be a whole number of points, at least 1, not {value!r}'
                )
            values[f] = value
    event: ClockEvent = cls(**values)
    return event


def parse_clock_record(text: str) -> ClockRecord:
    """Read a clock record; raise `ClockRecordError` naming the first bad line."""
    header: ClockHeader | None = None
    events: list[tuple[int, ClockEvent]] = []
    last_t = 0.0
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = loads_json(raw, "at column {}")
        except UnsafeInput as exc:
            raise ClockRecordError(number, exc.reason) from None
        if not isinstance(obj, dict):
            raise ClockRecordError(number, "each line must be a JSON object")
        if header is None:
            header = _header(obj, number)
            continue
        if obj.get("event") == "clock":
            raise ClockRecordError(number, 'a second "clock" line')
        event = _event(obj, number, header, last_t)
        last_t = event.t
        events.append((number, event))
    if header is None:
        raise ClockRecordError(1, 'the record is empty: the first line must be the "clock" event')
    return ClockRecord(header, tuple(events))


def event_to_dict(event: ClockEvent) -> dict[str, Any]:
    """One event as its record line's object, `t` first."""
    out: dict[str, Any] = {"t": event.t, "event": _NAMES[type(event)]}
    for f in event.__slots__:
        if f == "emergency" and not getattr(event, f):
            continue  # the default: a break within the allowance
        if f == "score":
            out[f] = dict(getattr(event, f))
        elif f != "t":
            out[f] = getattr(event, f)
    return out


def write_clock_record(header: ClockHeader, events: list[ClockEvent]) -> str:
    """The record's text: the header line, then one line per event."""
    head: dict[str, Any] = {
        "event": "clock",
        "players": list(header.players),
        "match_length": header.match_length,
        "score": list(header.score),
        "minutes_per_point": header.minutes_per_point,
        "delay": header.delay,
    }
    if header.post_crawford:
        head["post_crawford"] = True
    if header.second_leg is not None:
        head["second_leg"] = header.second_leg
    if header.best_of_three:
        head["best_of_three"] = True
    if any(header.breaks_taken):
        head["breaks_taken"] = list(header.breaks_taken)
    if any(header.penalty_points):
        head["penalty_points"] = list(header.penalty_points)
    lines = [json.dumps(head, ensure_ascii=False)]
    lines.extend(json.dumps(event_to_dict(e), ensure_ascii=False) for e in events)
    return "\n".join(lines) + "\n"
