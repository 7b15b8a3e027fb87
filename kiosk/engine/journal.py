"""The journal: every input and every confirmed event of a table, on disk, synced.

One SQLite file in WAL mode with `synchronous=FULL`: when `append` returns, the entry is on
the disk and survives a crash or a power cut. Nothing is ever updated or deleted: an umpire's
undo is an entry of its own ("undo"), so the history stays whole and the match record is
rebuilt by replaying the confirmed events and the undos in order (shared/spec/match-record.md:
undo removes the last confirmed event, never an older line).

Each match (a carrom match, a backgammon clock) has a row in `matches` holding the first line
of its record (`header`); its entries carry:

- `t`: seconds since the match started (the record's "t"), carried across restarts;
- `wall`: the wall clock, so a restart can add the time the kiosk was down to `t`;
- `source`: who said it: "beam", "camera", "umpire", "timer", "auto", "system";
- `kind`: "event" (a confirmed record line), "undo", or a raw input ("beam_hit",
  "camera", "timer", "fault", ...), with its `data` as JSON.

Entries written while no match is open (a part that failed at start-up) have no match; their
`t` is then seconds on the kiosk's monotonic clock.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.errors import TablesideError

SCHEMA_VERSION = 1

#: Entry kinds that make up the record: confirmed events and their undos.
EVENT = "event"
UNDO = "undo"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    header TEXT NOT NULL,
    wall_start REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id INTEGER REFERENCES matches(id),
    t REAL NOT NULL,
    wall REAL NOT NULL,
    source TEXT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_by_match ON entries (match_id, seq);
"""


class JournalError(TablesideError, RuntimeError):
    """The journal cannot be opened or read (names the file and what is wrong)."""


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match in the journal: its kind ("carrom", "backgammon"), the record's first line."""

    id: int
    kind: str
    header: dict[str, Any]
    wall_start: float
    finished: bool


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    match_id: int | None
    t: float
    wall: float
    source: str
    kind: str
    data: dict[str, Any]


class Journal:
    """The journal file at `path` (created with its folder if missing, unless `create` is
    False: then a missing file is a JournalError, as for `tableside export`)."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise JournalError(f"{self.path}: no such journal")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, one transaction per append.
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=10.0
            )
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError(f"{self.path}: the journal needs WAL mode, got {mode!r}")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self._transaction():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is None:
                    self._db.execute(
                        "INSERT INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                    )
                elif int(row[0]) != SCHEMA_VERSION:
                    raise JournalError(
                        f"{self.path}: journal schema {row[0]}, this kiosk reads {SCHEMA_VERSION}"
                    )
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: cannot open the journal: {exc}") from exc

    # -- writing -----------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def begin_match(self, kind: str, header: dict[str, Any], wall: float) -> int:
        """A new match; returns its id. Any unfinished match of the same kind is left as it is
        (the caller decides whether to resume it or finish it first)."""
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO matches (kind, header, wall_start) VALUES (?, ?, ?)",
                (kind, _dumps(header), wall),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(
        self,
        match_id: int | None,
        t: float,
        wall: float,
        source: str,
        kind: str,
        data: dict[str, Any],
    ) -> int:
        """Write one entry and sync it to disk before returning; returns its sequence number.
        JournalError (naming the file) if it cannot be written; nothing is half-written."""
        try:
            with self._transaction():
                cursor = self._db.execute(
                    "INSERT INTO entries (match_id, t, wall, source, kind, data)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (match_id, t, wall, source, kind, _dumps(data)),
                )
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path}: cannot write the journal: {exc}") from exc
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def finish(self, match_id: int) -> None:
        """Mark a match over (or abandoned): it is no longer offered for resuming."""
        with self._transaction():
            self._db.execute("UPDATE matches SET finished = 1 WHERE id = ?", (match_id,))

    def reopen(self, match_id: int) -> None:
        """The match goes on after all (the umpire undid the event that ended it)."""
        with self._transaction():
            self._db.execute("UPDATE matches SET finished = 0 WHERE id = ?", (match_id,))

    # -- reading -----------------------------------------------------------------

    def matches(self, kind: str | None = None) -> list[MatchRow]:
        """Every match, oldest first (only those of `kind` when given)."""
        query = "SELECT id, kind, header, wall_start, finished FROM matches"
        args: tuple[Any, ...] = ()
        if kind is not None:
            query += " WHERE kind = ?"
            args = (kind,)
        rows = self._db.execute(query + " ORDER BY id", args).fetchall()
        return [MatchRow(r[0], r[1], json.loads(r[2]), r[3], bool(r[4])) for r in rows]

    def match(self, match_id: int) -> MatchRow:
        for row in self.matches():
            if row.id == match_id:
                return row
        raise JournalError(f"{self.path}: no match {match_id} in the journal")

    def unfinished(self, kind: str | None = None) -> MatchRow | None:
        """The latest match not finished (of `kind` when given): the one to resume."""
        candidates = [m for m in self.matches(kind) if not m.finished]
        return candidates[-1] if candidates else None

    def latest(self, kind: str | None = None) -> MatchRow | None:
        rows = self.matches(kind)
        return rows[-1] if rows else None

    def entries(self, match_id: int | None, kinds: Iterable[str] | None = None) -> list[Entry]:
        """The match's entries, oldest first (only those of `kinds` when given); match None:
        the entries written outside any match (faults at start-up, ...)."""
        rows = self._db.execute(
            "SELECT seq, match_id, t, wall, source, kind, data FROM entries"
            " WHERE match_id IS ? ORDER BY seq",
            (match_id,),
        ).fetchall()
        wanted = None if kinds is None else set(kinds)
        return [
            Entry(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]))
            for r in rows
            if wanted is None or r[5] in wanted
        ]

    def confirmed(self, match_id: int) -> list[dict[str, Any]]:
        """The confirmed events that stand: each "event" entry, minus those undone."""
        stack: list[dict[str, Any]] = []
        for entry in self.entries(match_id, (EVENT, UNDO)):
            if entry.kind == EVENT:
                stack.append(entry.data)
            elif stack:
                stack.pop()
        return stack

    def last_entry(self, match_id: int) -> Entry | None:
        row = self._db.execute(
            "SELECT seq, match_id, t, wall, source, kind, data FROM entries"
            " WHERE match_id = ? ORDER BY seq DESC LIMIT 1",
            (match_id,),
        ).fetchone()
        if row is None:
            return None
        return Entry(row[0], row[1], row[2], row[3], row[4], row[5], json.loads(row[6]))

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
