"""Every unfinished table the kiosk can go back to, for the home screen: its game, players,
score and start, read from the journal (the one store; a Bhukhar session still kept in a
record file of its own is listed from that file until it moves into the journal).

Facts only: the home screen words them. The carrom score is the rules core's own, from the
confirmed events replayed; the backgammon score is the record's first line plus the
`game_end` events that stand; a Bhukhar session names its teams.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.engine.journal import Journal
from kiosk.engine.journal_rows import MatchRow
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import EventError, MatchStart, event_from_dict
from kiosk.rules.carrom.match import Match

#: The games a table can be, in the order the home screen lists them.
KINDS = ("carrom", "backgammon", "bhukhar")


@dataclass(frozen=True, slots=True)
class Unfinished:
    """One table to resume. `match_id` None: a Bhukhar session's own record file (`path`).
    `score`: per side, games won (carrom) or match points (backgammon); `points`: the carrom
    game in progress; `length`: the backgammon match length. `problem`: the record could not
    be read (it is still listed, so that the director sees it and can close it)."""

    kind: str
    match_id: int | None
    players: tuple[str, ...]
    started: float
    score: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    length: int | None = None
    path: str | None = None
    problem: str | None = None


def _carrom(journal: Journal, row: MatchRow) -> Unfinished:
    header = row.header
    players = tuple(str(p) for p in header.get("players", ()))
    try:
        start = event_from_dict(header)
        if not isinstance(start, MatchStart):
            raise EventError("the first line is not the match")
        match = Match(start)
        for data in journal.confirmed(row.id):
            event = event_from_dict(data)
            if isinstance(event, MatchStart):
                raise EventError("a second match line")
            match.push(event)
    except (EventError, IllegalEvent) as exc:
        return Unfinished("carrom", row.id, players, row.wall_start, problem=str(exc))
    state = match.state
    sides = state.sides
    return Unfinished(
        "carrom",
        row.id,
        players,
        row.wall_start,
        score=tuple(int(state.games_won.get(s, 0)) for s in sides),
        points=tuple(int(state.score.get(s, 0)) for s in sides),
    )


def _backgammon(journal: Journal, row: MatchRow) -> Unfinished:
    header = row.header
    players = tuple(str(p) for p in header.get("players", ()))
    score = [int(s) for s in header.get("score", [0, 0])]
    for data in journal.confirmed(row.id):
        if data.get("event") == "game_end" and data.get("winner") in players:
            score[players.index(data["winner"])] += int(data.get("points", 1))
    length = header.get("match_length")
    return Unfinished(
        "backgammon",
        row.id,
        players,
        row.wall_start,
        score=tuple(score),
        length=int(length) if isinstance(length, int) else None,
    )


def _teams(header: dict[str, Any]) -> tuple[str, ...]:
    teams = header.get("teams", ())
    names = [str(t.get("name") or t.get("id", "")) for t in teams if isinstance(t, dict)]
    return tuple(names) or tuple(str(p) for p in header.get("players", ()))


def bhukhar_file(path: Path) -> Unfinished:
    """A Bhukhar session kept in its own record file (its first line names the teams)."""
    try:
        with path.open(encoding="utf-8") as f:
            header = json.loads(f.readline())
        teams = _teams(header if isinstance(header, dict) else {})
        problem = None
    except (OSError, ValueError) as exc:
        teams, problem = (), f"{path}: cannot read: {exc}"
    started = path.stat().st_mtime if path.exists() else 0.0
    return Unfinished("bhukhar", None, teams, started, path=str(path), problem=problem)


def unfinished_tables(journal: Journal, bhukhar_files: Sequence[Path] = ()) -> list[Unfinished]:
    """The latest unfinished table of each game, in KINDS order (a new match of a game closes
    its unfinished one, so there is at most one per game)."""
    out = []
    for kind in KINDS:
        row = journal.unfinished(kind)
        if row is not None:
            if kind == "carrom":
                out.append(_carrom(journal, row))
            elif kind == "backgammon":
                out.append(_backgammon(journal, row))
            else:
                out.append(Unfinished(kind, row.id, _teams(row.header), row.wall_start))
        elif kind == "bhukhar" and bhukhar_files:
            out.append(bhukhar_file(bhukhar_files[-1]))
    return out
