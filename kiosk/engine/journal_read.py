"""Reading the journal: the rows on disk with the rows still held in memory after them
(a mixin of `Journal`, which opens the file and holds the writes)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from kiosk.engine.journal_chain import DECODER, entry_problem, match_problem
from kiosk.engine.journal_files import JournalError
from kiosk.engine.journal_rows import Entry, Flag, MatchRow, Op

#: Entry kinds that make up the record: confirmed events and their undos.
EVENT = "event"
UNDO = "undo"


class JournalReading:
    path: Path
    _db: sqlite3.Connection | None
    _chained: bool
    _pending: list[Op]

    @property
    def pending(self) -> tuple[Entry, ...]:
        """The entries held in memory, not yet on disk, oldest first."""
        return tuple(op for op in self._pending if isinstance(op, Entry))

    def _read(self, query: str, args: tuple[Any, ...]) -> list[Any]:
        """Rows of a query; a page damaged since the check at start is a JournalError naming
        the file, never a raw sqlite3 error."""
        assert self._db is not None
        try:
            return self._db.execute(query, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: cannot read the journal: {exc}") from exc

    def _row(self, problem: str | None, what: str, text: str) -> dict[str, Any]:
        """A row's JSON column, or a JournalError naming the file and the row (a row that is
        not what the journal writes: a copy changed by hand, or damaged)."""
        if problem is None:
            try:
                value = DECODER.decode(text)
            except (ValueError, RecursionError) as exc:
                problem = f"not JSON ({exc})"
            else:
                if isinstance(value, dict):
                    return value
                problem = "not a JSON object"
        raise JournalError(f"{self.path}: {what} cannot be read: {problem}")

    def matches(self, kind: str | None = None) -> list[MatchRow]:
        """Every match, oldest first (only those of `kind` when given)."""
        rows: list[MatchRow] = []
        if self._db is not None:
            extra = ", seq, hash, prev" if self._chained else ", NULL, NULL, NULL"
            query = f"SELECT id, kind, header, wall_start, finished{extra} FROM matches"
            for r in self._read(query + " ORDER BY id", ()):
                why = match_problem((r[5], r[7], r[6], r[0], r[1], r[2], r[3]))
                header = self._row(why, f"match {r[0]!r:.20}", r[2])
                rows.append(MatchRow(r[0], r[1], header, r[3], bool(r[4]), r[5], r[6], r[7]))
        for op in self._pending:
            if isinstance(op, MatchRow):
                rows.append(op)
            elif isinstance(op, Flag):
                rows = [
                    replace(r, finished=op.finished) if r.id == op.match_id else r for r in rows
                ]
        return [r for r in rows if kind is None or r.kind == kind]

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
        """The match's entries, oldest first (only those of `kinds` when given), held ones
        included; match None: the entries written outside any match (faults at start-up)."""
        found: list[Entry] = []
        if self._db is not None:
            extra = ", prev, hash" if self._chained else ", NULL, NULL"
            for r in self._read(
                f"SELECT seq, match_id, t, wall, source, kind, data{extra} FROM entries"
                " WHERE match_id IS ? ORDER BY seq",
                (match_id,),
            ):
                why = entry_problem((r[0], r[7], r[8], r[1], r[2], r[3], r[4], r[5], r[6]))
                data = self._row(why, f"entry {r[0]}", r[6])
                found.append(Entry(r[0], r[1], r[2], r[3], r[4], r[5], data, r[7], r[8]))
        found.extend(e for e in self.pending if e.match_id == match_id)
        wanted = None if kinds is None else set(kinds)
        return [e for e in found if wanted is None or e.kind in wanted]

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
        entries = self.entries(match_id)
        return entries[-1] if entries else None
