"""The Bhukhar session record's lines as values: the first line and the events.

docs/bhukhar.md documents the format. This module holds one dataclass per
kind of line and converts each to and from a decoded JSON object
(`start_from_dict`, `event_from_dict`, `start_to_dict`, `event_to_dict`);
SessionError names the field of a malformed one. Nothing here knows the
session's state: session.py checks each event against the rules, record.py
reads and writes whole records.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from kiosk.errors import N_, Refused
from kiosk.rules.bhukhar.cards import CardError, parse_cards
from kiosk.rules.bhukhar.scoresheet import (
    End,
    FullSheet,
    Game,
    Penalty,
    PenaltyKind,
    Sheet,
    TotalsSheet,
)

FORMAT = 1
PLAYERS_PER_TEAM = 3  # rule 2
ROUND_MINUTES = (30, 35)  # rule 10: the organisers choose within these
TIMER_ACTIONS = ("start", "pause", "resume")


class SessionError(Refused, ValueError):
    """An entry that is malformed or breaks the rules; the state is unchanged. Those the
    setup screen can meet carry a `reason` for the interface to word."""


@dataclass(frozen=True, slots=True)
class Team:
    id: str
    players: tuple[str, ...]
    name: str | None = None


@dataclass(frozen=True, slots=True)
class SessionStart:
    """The first line: the teams, the tables and the round length (rules 2, 10, 11)."""

    teams: tuple[Team, ...]
    round_minutes: float = 30
    warn_minutes: tuple[float, ...] = (5.0, 1.0)
    tables: tuple[int, ...] | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class GameEntry:
    round: int
    table: int
    game: Game
    t: float | None = None


@dataclass(frozen=True, slots=True)
class Cancel:
    round: int
    table: int
    reason: str | None = None
    t: float | None = None


@dataclass(frozen=True, slots=True)
class TimerEntry:
    """The round timer: `left` seconds remained at wall-clock time `at` (epoch seconds)."""

    round: int
    action: str
    left: float
    at: float


Event: TypeAlias = GameEntry | Cancel | TimerEntry


# -- reading JSON into events -------------------------------------------------------


def _int(obj: Mapping[str, Any], key: str, *, minimum: int | None = None, where: str = "") -> int:
    value = obj.get(key)
    name = f"{where}.{key}" if where else key
    if not isinstance(value, int) or isinstance(value, bool):
        raise SessionError(f"{name}: expected a whole number, not {value!r}")
    if minimum is not None and value < minimum:
        raise SessionError(f"{name}: must be at least {minimum}, not {value}")
    return value


def _number(value: Any, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise SessionError(f"{key}: expected a number, not {value!r}")
    return float(value)


def _opt_str(obj: Mapping[str, Any], key: str) -> str | None:
    value = obj.get(key)
    if value is not None and (not isinstance(value, str) or not value):
        raise SessionError(f"{key}: expected a name, not {value!r}")
    return value


def _list(value: Any, key: str) -> list[Any]:
    if not isinstance(value, list):
        raise SessionError(f"{key}: expected a list, not {value!r}")
    return value


def _melds(obj: Mapping[str, Any], key: str, where: str) -> tuple[tuple[Any, ...], ...]:
    out = []
    for i, item in enumerate(_list(obj.get(key, []), f"{where}.{key}")):
        try:
            out.append(parse_cards(_list(item, f"{where}.{key}[{i + 1}]")))
        except CardError as exc:
            raise SessionError(f"{where}.{key}[{i + 1}]: {exc}") from None
    return tuple(out)


def sheet_from_dict(obj: Any, where: str) -> Sheet:
    """A team's part of a game entry: totals when it has "table", else full."""
    if not isinstance(obj, dict):
        raise SessionError(f"{where}: expected an object, not {obj!r}")
    licence_by = _opt_str(obj, "licence_by")
    if "table" in obj:
        licence = obj.get("licence", False)
        if not isinstance(licence, bool):
            raise SessionError(f"{where}.licence: totals entry needs true or false")
        spoiled = obj.get("licence_spoiled", False)
        if not isinstance(spoiled, bool):
            raise SessionError(f"{where}.licence_spoiled: totals entry needs true or false")
        return TotalsSheet(
            licence,
            _int(obj, "table", where=where),
            _int(obj, "hand", where=where),
            licence_by=licence_by,
            licence_spoiled=spoiled,
        )
    licence = obj.get("licence") or []
    try:
        hand = parse_cards(_list(obj.get("hand", []), f"{where}.hand"))
    except CardError as exc:
        raise SessionError(f"{where}.hand: {exc}") from None
    positions = _list(obj.get("licence_spoiled", []), f"{where}.licence_spoiled")
    for n in positions:  # as a person counts them: 1 is the licence's first meld
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise SessionError(
                f"{where}.licence_spoiled: positions of licence melds from 1, not {n!r}"
            )
    sheet = FullSheet(
        licence=_melds({"licence": licence}, "licence", where),
        melds=_melds(obj, "melds", where),
        void=_melds(obj, "void", where),
        hand=hand,
        licence_by=licence_by,
        licence_spoiled=tuple(n - 1 for n in positions),
    )
    for i, cards in enumerate(sheet.void):
        if not cards:
            raise SessionError(f"{where}.void[{i + 1}]: a void meld lists its cards")
    return sheet


def event_from_dict(obj: Any) -> Event:
    """One decoded record line after the first; SessionError names the field."""
    if not isinstance(obj, dict):
        raise SessionError(f"expected a JSON object, not {obj!r}")
    kind = obj.get("event")
    t = None if obj.get("t") is None else _number(obj.get("t"), "t")
    if kind == "game":
        teams = obj.get("teams")
        if not isinstance(teams, dict) or len(teams) != 2:
            raise SessionError("teams: expected an object with the two teams of the game")
        sheets = {str(k): sheet_from_dict(v, f"teams.{k}") for k, v in teams.items()}
        try:
            end = End(obj.get("end"))
        except ValueError:
            raise SessionError(
                f"end: {obj.get('end')!r} is not 'out', 'stock' or 'time' (rule 16)"
            ) from None
        penalties = []
        for i, p in enumerate(_list(obj.get("penalties", []), "penalties")):
            where = f"penalties[{i + 1}]"
            if not isinstance(p, dict):
                raise SessionError(f"{where}: expected an object, not {p!r}")
            try:
                pkind = PenaltyKind(p.get("kind"))
            except ValueError:
                names = ", ".join(repr(k.value) for k in PenaltyKind)
                bad = p.get("kind")
                raise SessionError(f"{where}.kind: {bad!r} is not one of {names}") from None
            team = p.get("team")
            if not isinstance(team, str):
                raise SessionError(f"{where}.team: expected a team id, not {team!r}")
            penalties.append(Penalty(team, pkind, _opt_str(p, "player")))
        game = Game(
            sheets,
            end,
            bhukhar=_opt_str(obj, "bhukhar"),
            closed_by=_opt_str(obj, "closed_by"),
            penalties=tuple(penalties),
        )
        return GameEntry(_int(obj, "round", minimum=1), _int(obj, "table", minimum=1), game, t)
    if kind == "cancel":
        return Cancel(
            _int(obj, "round", minimum=1),
            _int(obj, "table", minimum=1),
            _opt_str(obj, "reason"),
            t,
        )
    if kind == "timer":
        action = obj.get("action")
        if action not in TIMER_ACTIONS:
            raise SessionError(f"action: {action!r} is not one of {', '.join(TIMER_ACTIONS)}")
        left = _number(obj.get("left"), "left")
        if left < 0:
            raise SessionError(f"left: seconds left cannot be negative ({left})")
        return TimerEntry(_int(obj, "round", minimum=1), action, left, _number(obj.get("at"), "at"))
    if kind == "session":
        raise SessionError("a second 'session' line: the session is the first line only")
    raise SessionError(f"unknown event {kind!r} (game, cancel, timer)")


def start_from_dict(obj: Any) -> SessionStart:
    """The first line; SessionError names the field."""
    if not isinstance(obj, dict) or obj.get("event") != "session":
        raise SessionError('the first line must be {"event": "session", ...}')
    if obj.get("format", FORMAT) != FORMAT:
        raise SessionError(f"format: {obj.get('format')!r}: this reader knows format {FORMAT}")
    teams: list[Team] = []
    for i, item in enumerate(_list(obj.get("teams"), "teams")):
        where = f"teams[{i + 1}]"
        if not isinstance(item, dict):
            raise SessionError(f"{where}: expected an object, not {item!r}")
        tid = item.get("id")
        if not isinstance(tid, str) or not tid:
            raise SessionError(f"{where}.id: expected a team id, not {tid!r}")
        players = _list(item.get("players"), f"{where}.players")
        if len(players) != PLAYERS_PER_TEAM or not all(isinstance(p, str) and p for p in players):
            raise SessionError.of(
                "team_of_three",
                N_("{where}.players: a team is {count} named players (rule {law})"),
                law="2",
                where=where,
                count=PLAYERS_PER_TEAM,
            )
        teams.append(Team(tid, tuple(players), _opt_str(item, "name")))
    if len(teams) < 2:
        raise SessionError.of(
            "two_teams_or_more", N_("teams: a session needs at least {count} teams"), count=2
        )
    ids = [t.id for t in teams]
    if len(set(ids)) != len(ids):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        raise SessionError.of(
            "team_id_twice", N_("teams: a team id is repeated: {ids}"), ids=", ".join(twice)
        )
    everyone = [p for t in teams for p in t.players]
    if len(set(everyone)) != len(everyone):
        dup = sorted({p for p in everyone if everyone.count(p) > 1})
        raise SessionError.of(
            "player_twice", N_("teams: a player is named twice: {names}"), names=", ".join(dup)
        )
    minutes = _number(obj.get("round_minutes", 30), "round_minutes")
    low, high = ROUND_MINUTES
    if not low <= minutes <= high:
        raise SessionError.of(
            "round_minutes",
            N_("round_minutes: {minutes} is outside {low}-{high} (rule {law})"),
            law="10",
            minutes=f"{minutes:g}",
            low=low,
            high=high,
        )
    warn = tuple(
        _number(w, "warn_minutes") for w in _list(obj.get("warn_minutes", [5, 1]), "warn_minutes")
    )
    if any(not 0 < w < minutes for w in warn):
        raise SessionError.of(
            "warn_minutes",
            N_("warn_minutes: each must be between {low} and {minutes}"),
            low=0,
            minutes=f"{minutes:g}",
        )
    tables = obj.get("tables")
    if tables is not None:
        tables = tuple(_int({"tables": t}, "tables", minimum=1) for t in _list(tables, "tables"))
        if not tables or len(set(tables)) != len(tables):
            raise SessionError.of("tables", N_("tables: a list of distinct table numbers"))
    return SessionStart(tuple(teams), minutes, warn, tables, _opt_str(obj, "name"))


# -- writing ------------------------------------------------------------------------


def _cards(cards: Iterable[Any]) -> list[str]:
    return [str(c) for c in cards]


def sheet_to_dict(sheet: Sheet) -> dict[str, Any]:
    out: dict[str, Any]
    if isinstance(sheet, TotalsSheet):
        out = {"licence": sheet.licence, "table": sheet.table, "hand": sheet.hand}
        if sheet.licence_spoiled:
            out["licence_spoiled"] = True
    else:
        out = {
            "licence": [_cards(m) for m in sheet.licence],
            "melds": [_cards(m) for m in sheet.melds],
            "void": [_cards(m) for m in sheet.void],
            "hand": _cards(sheet.hand),
        }
        if sheet.licence_spoiled:
            out["licence_spoiled"] = [i + 1 for i in sheet.licence_spoiled]
    if sheet.licence_by:
        out["licence_by"] = sheet.licence_by
    return out


def start_to_dict(start: SessionStart) -> dict[str, Any]:
    out: dict[str, Any] = {"event": "session", "format": FORMAT}
    if start.name:
        out["name"] = start.name
    out["round_minutes"] = start.round_minutes
    out["warn_minutes"] = list(start.warn_minutes)
    if start.tables is not None:
        out["tables"] = list(start.tables)
    out["teams"] = [
        {"id": t.id, **({"name": t.name} if t.name else {}), "players": list(t.players)}
        for t in start.teams
    ]
    return out


def event_to_dict(event: Event) -> dict[str, Any]:
    out: dict[str, Any]
    if isinstance(event, GameEntry):
        g = event.game
        out = {"event": "game", "round": event.round, "table": event.table, "end": g.end.value}
        out["bhukhar"] = g.bhukhar
        out["closed_by"] = g.closed_by
        out["teams"] = {team: sheet_to_dict(s) for team, s in g.sheets.items()}
        if g.penalties:
            out["penalties"] = [
                {"team": p.team, "kind": p.kind.value, **({"player": p.player} if p.player else {})}
                for p in g.penalties
            ]
    elif isinstance(event, Cancel):
        out = {"event": "cancel", "round": event.round, "table": event.table}
        if event.reason:
            out["reason"] = event.reason
    else:
        return {
            "event": "timer",
            "round": event.round,
            "action": event.action,
            "left": event.left,
            "at": event.at,
        }
    if event.t is not None:
        out["t"] = event.t
    return out
