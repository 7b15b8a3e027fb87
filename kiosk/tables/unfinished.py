"""Every unfinished table the kiosk can go back to, for the home screen: its game, players,
score and start, read from the journal, the one store of all three games (the Bhukhar session
files of earlier kiosks are moved into it at start: kiosk/tables/bhukhar_migrate.py).

Facts only: the home screen words them. The carrom score is the rules core's own, from the
confirmed events replayed; so is the backgammon match's (its clock record replayed: the
score as corrected, a match decided on time); a Bhukhar session names its teams.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kiosk.clocks.record import ClockRecordError
from kiosk.engine.journal import Journal, JournalError
from kiosk.engine.journal_rows import MatchRow
from kiosk.errors import ReasonedText, reason_of
from kiosk.tables.backgammon_table import KIND as BACKGAMMON
from kiosk.tables.backgammon_table import replayed_clock
from kiosk.tables.bhukhar_table import KIND as BHUKHAR
from kiosk.tables.carrom_record import KIND as CARROM
from kiosk.tables.carrom_record import replayed_match


@dataclass(frozen=True, slots=True)
class Unfinished:
    """One table to resume (`match_id`: its journal match).
    `score`: per side, games won (carrom) or match points (backgammon); `points`: the carrom
    game in progress; `length`: the backgammon match length. `problem`: the record could not
    be read (it is still listed, so that the director sees it and can close it), carrying the
    core's facts when it gave them (a `ReasonedText`, for the screen to word)."""

    kind: str
    match_id: int | None
    players: tuple[str, ...]
    started: float
    score: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    length: int | None = None
    problem: str | None = None
    #: A backgammon match decided on time (4.3 (iii)), open only for the director's
    #: overrule: its winner.
    won_on_time: str | None = None


def _carrom(journal: Journal, row: MatchRow) -> Unfinished:
    header = row.header
    players = tuple(str(p) for p in header.get("players", ()))
    try:
        match = replayed_match(journal, row)
    except JournalError as exc:  # the core's refusal, in its words
        cause = exc.__cause__ or exc
        reason = reason_of(cause)
        problem = str(cause) if reason is None else ReasonedText(str(cause), reason)
        return Unfinished(CARROM, row.id, players, row.wall_start, problem=problem)
    state = match.state
    sides = state.sides
    return Unfinished(
        CARROM,
        row.id,
        players,
        row.wall_start,
        score=tuple(int(state.games_won.get(s, 0)) for s in sides),
        points=tuple(int(state.score.get(s, 0)) for s in sides),
    )


def _backgammon(journal: Journal, row: MatchRow) -> Unfinished:
    header = row.header
    players = tuple(str(p) for p in header.get("players", ()))
    length = header.get("match_length")
    try:
        _record, cm = replayed_clock(journal, row.id)
    except ClockRecordError as exc:  # the core's refusal, at its line of the record
        problem = f"its clock record's line {exc.line}: {exc.reason}"
        return Unfinished(BACKGAMMON, row.id, players, row.wall_start, problem=problem)
    match = cm.match
    return Unfinished(
        BACKGAMMON,
        row.id,
        players,
        row.wall_start,
        score=tuple(int(match.score.get(p, 0)) for p in players),
        length=match.length if isinstance(length, int) else None,
        # Decided on time and standing (not overruled, the time not given back): 4.3 (iii).
        won_on_time=match.winner if match.won_by == "time" else None,
    )


def _bhukhar(_journal: Journal, row: MatchRow) -> Unfinished:
    """A Bhukhar session names its teams (the players of an older header)."""
    header: dict[str, Any] = row.header
    teams = header.get("teams", ())
    names = [str(t.get("name") or t.get("id", "")) for t in teams if isinstance(t, dict)]
    players = tuple(names) or tuple(str(p) for p in header.get("players", ()))
    return Unfinished(BHUKHAR, row.id, players, row.wall_start)


#: The games a table can be, in the order the home screen lists them, each with its reader.
READERS: dict[str, Callable[[Journal, MatchRow], Unfinished]] = {
    CARROM: _carrom,
    BACKGAMMON: _backgammon,
    BHUKHAR: _bhukhar,
}


def unfinished_tables(journal: Journal) -> list[Unfinished]:
    """The latest unfinished table of each game, in READERS order (a new match of a game
    closes its unfinished one, so there is at most one per game)."""
    rows = ((read, journal.unfinished(kind)) for kind, read in READERS.items())
    return [read(journal, row) for read, row in rows if row is not None]
