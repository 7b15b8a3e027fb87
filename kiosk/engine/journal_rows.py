"""The journal's rows as Python holds them, and how a held row is written (journal.py)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

#: Entry kinds that make up the record: confirmed events and their undos.
EVENT = "event"
UNDO = "undo"


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match in the journal: its kind ("carrom", "backgammon"), the record's first line."""

    id: int
    kind: str
    header: dict[str, Any]
    wall_start: float
    finished: bool
    seq: int | None = None
    hash: str | None = None
    prev: str | None = None
    #: The keyed chain's MAC (journal_key.py); None in a journal without a key.
    mac: str | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    match_id: int | None
    t: float
    wall: float
    source: str
    kind: str
    data: dict[str, Any]
    prev: str | None = None
    hash: str | None = None
    #: False while the entry is held in memory, not yet on disk.
    saved: bool = True
    mac: str | None = None


@dataclass(frozen=True, slots=True)
class Flag:
    """A match marked finished (or not) again."""

    match_id: int
    finished: bool


Op = Entry | MatchRow | Flag


@dataclass(frozen=True, slots=True)
class Confirmed:
    """A confirmed event or undo once it is on disk (synced), as the outputs hear of it.

    `after` is the sequence number of the event or undo of any match written before it (0:
    none), so a listener that missed one knows it (the hall's publisher then reads the gap
    from the journal); `match` is its match as it stands now (finished or not)."""

    entry: Entry
    after: int
    match: MatchRow


def published(op: Op) -> bool:
    """Whether `op` is a confirmed event or undo of a match: synced before anyone hears of it,
    and what the hall is sent."""
    return isinstance(op, Entry) and op.match_id is not None and op.kind in (EVENT, UNDO)


def write(db: sqlite3.Connection, op: Op) -> None:
    if isinstance(op, Entry):
        db.execute(
            "INSERT INTO entries (seq, match_id, t, wall, source, kind, data, prev, hash, mac)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                op.seq,
                op.match_id,
                op.t,
                op.wall,
                op.source,
                op.kind,
                dumps(op.data),
                op.prev,
                op.hash,
                op.mac,
            ),
        )
    elif isinstance(op, MatchRow):
        db.execute(
            "INSERT INTO matches (id, kind, header, wall_start, seq, prev, hash, mac)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (op.id, op.kind, dumps(op.header), op.wall_start, op.seq, op.prev, op.hash, op.mac),
        )
    else:
        db.execute("UPDATE matches SET finished = ? WHERE id = ?", (int(op.finished), op.match_id))


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
