"""The events of a carrom match, one dataclass per event of the match record.

shared/spec/match-record.md is the contract: each class here is one `"event"`
of a record line, with the same field names and defaults. `event_from_dict`
reads a decoded JSON object (unknown fields ignored, unknown events refused);
`event_to_dict` writes one back. Nothing here knows the laws: the rules core
decides what an event means.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal, TypeAlias, get_args

from kiosk.errors import N_, Refused

Coin: TypeAlias = Literal["white", "black", "queen"]
#: What can leave the playing surface: a coin, or the striker (a foul under club rules).
OffBoard: TypeAlias = Literal["white", "black", "queen", "striker"]
RuleSet: TypeAlias = Literal["icf", "club"]

COINS: tuple[str, ...] = get_args(Coin)
OFF_BOARD: tuple[str, ...] = get_args(OffBoard)
RULE_SETS: tuple[str, ...] = get_args(RuleSet)


#: The journal's refusals of a match's lines (kiosk/tables/carrom_table.py replays them).
FIRST_NOT_MATCH = N_("the first line is not the match")
SECOND_MATCH = N_("a second match line")


class EventError(Refused, ValueError):
    """A record line that is not a well-formed event: the message names the field, `reason`
    (when given) holds the same as facts for the interface to word."""


@dataclass(frozen=True, slots=True)
class MatchStart:
    """The first line: who plays, under which rules, who breaks first (laws 39, 42)."""

    rules: RuleSet
    players: tuple[str, ...]
    first_break: str
    board_limit: int | None = 8
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Stroke:
    """One stroke by the player at turn, as the umpire confirmed it."""

    pocketed: tuple[Coin, ...] = ()
    striker: bool = False
    off_board: tuple[OffBoard, ...] = ()
    improper: bool = False
    touched: bool = True
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Foul:
    """A foul called outside a stroke (laws 63, 64); `by` None means the player at turn."""

    by: str | None = None
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Waive:
    """The placing side gives up everything the opponent owes (law 87 a)."""

    by: str | None = None
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    """The player at turn passes (law 137: three rounds of passes void the board)."""

    t: float | None = None


@dataclass(frozen=True, slots=True)
class VoidBoard:
    """The umpire voids the board in progress (laws 137, 140, 142)."""

    t: float | None = None


@dataclass(frozen=True, slots=True)
class ForfeitBoard:
    """`by` loses the board in progress (laws 51, 91, 121, 126)."""

    by: str
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Toss:
    """The toss for the extra board after a tie at the board limit (law 56 b)."""

    winner: str
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Concede:
    """`by`'s side concedes the match or loses it by a disciplinary decision (laws 139, 143)."""

    by: str
    t: float | None = None


Event: TypeAlias = Stroke | Foul | Waive | Pass | VoidBoard | ForfeitBoard | Toss | Concede
AnyEvent: TypeAlias = MatchStart | Event

EVENT_TYPES: dict[str, type[AnyEvent]] = {
    "match": MatchStart,
    "stroke": Stroke,
    "foul": Foul,
    "waive": Waive,
    "pass": Pass,
    "void_board": VoidBoard,
    "forfeit_board": ForfeitBoard,
    "toss": Toss,
    "concede": Concede,
}
EVENT_NAMES: dict[type[AnyEvent], str] = {cls: name for name, cls in EVENT_TYPES.items()}


def _name(value: object, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise EventError.of(
            "not_a_name",
            N_("{key!r} must be a non-empty name, not {value!r}"),
            key=key,
            value=value,
        )
    return value


def _flag(value: object, key: str) -> bool:
    if not isinstance(value, bool):
        raise EventError.of(
            "not_a_flag", N_("{key!r} must be true or false, not {value!r}"), key=key, value=value
        )
    return value


def _coins(value: object, key: str, allowed: tuple[str, ...]) -> tuple[Any, ...]:
    if not isinstance(value, list):
        raise EventError.of(
            "not_colours",
            N_("{key!r} must be a list of colours, not {value!r}"),
            key=key,
            value=value,
        )
    for coin in value:
        if coin not in allowed:
            raise EventError.of(
                "unknown_colour",
                N_("{key!r} holds {coin!r}; expected one of {allowed}"),
                key=key,
                coin=coin,
                allowed=", ".join(allowed),
            )
    return tuple(value)


def _time(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise EventError.of(
            "bad_time",
            N_("'t' must be seconds since the match started, not {value!r}"),
            value=value,
        )
    return float(value)


def _match(obj: dict[str, Any], t: float | None) -> MatchStart:
    rules = obj.get("rules")
    if rules not in RULE_SETS:
        raise EventError.of(
            "unknown_rules",
            N_("'rules' must be one of {allowed}, not {value!r}"),
            allowed=", ".join(RULE_SETS),
            value=rules,
        )
    players = obj.get("players")
    if not isinstance(players, list) or len(players) not in (2, 4):
        raise EventError.of(
            "player_count", N_("'players' must list 2 or 4 names, not {value!r}"), value=players
        )
    names = tuple(_name(p, "players") for p in players)
    if len(set(names)) != len(names):
        raise EventError.of(
            "player_twice", N_("'players' names a player twice: {value!r}"), value=players
        )
    first = _name(obj.get("first_break"), "first_break")
    if first not in names:
        raise EventError.of(
            "breaker_not_playing",
            N_("'first_break' {name!r} is not one of the players"),
            name=first,
        )
    limit = obj.get("board_limit", 8)
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise EventError.of(
            "bad_board_limit",
            N_("'board_limit' must be a number of boards or null, not {value!r}"),
            value=limit,
        )
    return MatchStart(rules, names, first, limit, t)


def event_from_dict(obj: object) -> AnyEvent:
    """Read one decoded record line; raises EventError with the reason."""
    if not isinstance(obj, dict):
        raise EventError.of(
            "not_an_object",
            N_("a record line must be a JSON object, not {kind}"),
            kind=type(obj).__name__,
        )
    kind = obj.get("event")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        raise EventError.of("unknown_event", N_("unknown event {kind!r}"), kind=kind)
    t = _time(obj.get("t"))
    if kind == "match":
        return _match(obj, t)
    if kind == "stroke":
        return Stroke(
            pocketed=_coins(obj.get("pocketed", []), "pocketed", COINS),
            striker=_flag(obj.get("striker", False), "striker"),
            off_board=_coins(obj.get("off_board", []), "off_board", OFF_BOARD),
            improper=_flag(obj.get("improper", False), "improper"),
            touched=_flag(obj.get("touched", True), "touched"),
            t=t,
        )
    if kind in ("foul", "waive"):
        by = obj.get("by")
        cls = Foul if kind == "foul" else Waive
        return cls(by=None if by is None else _name(by, "by"), t=t)
    if kind == "pass":
        return Pass(t=t)
    if kind == "void_board":
        return VoidBoard(t=t)
    if kind == "forfeit_board":
        return ForfeitBoard(by=_name(obj.get("by"), "by"), t=t)
    if kind == "toss":
        return Toss(winner=_name(obj.get("winner"), "winner"), t=t)
    return Concede(by=_name(obj.get("by"), "by"), t=t)


def event_to_dict(event: AnyEvent) -> dict[str, Any]:
    """The record line of an event: `"event"` first, then its fields; `t` only when known."""
    out: dict[str, Any] = {"event": EVENT_NAMES[type(event)]}
    for f in fields(event):
        value = getattr(event, f.name)
        if f.name == "t" and value is None:
            continue
        out[f.name] = list(value) if isinstance(value, tuple) else value
    return out
