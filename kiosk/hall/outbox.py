"""The journal is the outbox: what the hall has not acknowledged yet, read back from disk.

The publisher hears of each confirmed event and undo from the table's outputs once it is
synced (`entry_of` makes the message of one); it reads the journal only for a gap: at a new
connection, after an outage, when the hall asks again, or when one it heard of does not follow
the last it sent. `JournalOutbox` reads the kiosk's journal (its own read-only SQLite
connection: the engine's writes are never held up) for confirmed events and undos after a
sequence number; the chain hash and the hash it is chained on are read from the journal's
`hash` and `prev` columns when the journal has them, else sent as null.
A Bhukhar session is a journal match like the others: its events are its record's lines.

`Mark` is the high-water mark the broker acknowledged: every entry up to it is in the hall.
It lives in a small file beside the journal, replaced atomically; losing it only means
sending again what the hall already has, which it ignores (it stores by table, match, seq).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.atomic import write_atomic
from kiosk.engine.journal_check import hold_file, release_file
from kiosk.engine.journal_rows import Confirmed

#: Journal entry kinds that make up the record (kiosk/engine/journal.py EVENT, UNDO).
PUBLISHED_KINDS = ("event", "undo")


@dataclass(frozen=True, slots=True)
class OutEntry:
    """One entry to send: `source` names its outbox ("journal-1732380000"),
    `seq` orders it within that outbox."""

    source: str
    seq: int
    match: str
    game: str
    message: dict[str, Any]


class Mark:
    """Per outbox, the highest sequence number the broker acknowledged (all below it too)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.values: dict[str, int] = {}
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
            self.values = {str(k): int(v) for k, v in loaded.items()}
        except (OSError, ValueError, AttributeError):
            self.values = {}  # no mark: everything is sent again, and the hall ignores repeats
        self._saved = dict(self.values)

    @property
    def saved(self) -> dict[str, int]:
        """The values as last saved (the publisher saves again only when they differ)."""
        return self._saved

    def get(self, source: str) -> int:
        return self.values.get(source, 0)

    def set(self, source: str, seq: int) -> None:
        self.values[source] = max(seq, self.values.get(source, 0))

    def save(self) -> None:
        if self.values == self._saved:
            return
        write_atomic(self.path, json.dumps(self.values, sort_keys=True))  # synced, 0600
        self._saved = dict(self.values)


def match_key(match_id: int, wall_start: float) -> str:
    """A journal match as the hall knows it: its number and when it began. A kiosk whose
    journal was replaced (a spare Pi, a new card) numbers its matches from 1 again; the time
    keeps them apart, so the hall never takes them for repeats of the old ones."""
    return f"{match_id}-{int(wall_start)}"


class JournalOutbox:
    """The confirmed events and undos of the journal at `path`, by sequence number.

    Its name (`source`) carries the time the journal's first match began, for the same
    reason as `match_key`: a new journal is a new outbox, with its own acknowledged mark.
    None until the journal has a match (there is nothing to send before)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._hash = False
        self._headers: dict[int, tuple[str, dict[str, Any], bool, str]] = {}
        self.source: str | None = None
        #: The journal file held open (see journal_check.hold_file).
        self._held: tuple[int, int] | None = None
        #: The last sequence number of this outbox known (None: not read yet).
        self._last: int | None = None
        #: How many times entries were read from the file (a gap), for the tests.
        self.reads = 0

    def _open(self) -> sqlite3.Connection | None:
        if self._db is None:
            if not self.path.is_file():
                return None
            self._db = sqlite3.connect(
                f"file:{self.path}?mode=ro", uri=True, check_same_thread=False, timeout=5.0
            )
            self._held = hold_file(self.path)  # the journal's closing keeps this one's locks
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(entries)")}
            if not columns:  # the engine has not made its tables yet
                self.close()
                return None
            self._hash = "hash" in columns
        if self.source is None:
            first = self._db.execute("SELECT min(wall_start) FROM matches").fetchone()[0]
            if first is not None:
                self.source = f"journal-{int(first)}"
        return self._db

    def name(self) -> str | None:
        if self.source is None:
            self._open()
        return self.source

    def latest(self) -> int:
        """The journal's last sequence number (0 when empty or missing)."""
        db = self._open()
        if db is None:
            return 0
        row = db.execute("SELECT max(seq) FROM entries").fetchone()
        return int(row[0] or 0)

    def last(self) -> int:
        """The last sequence number this outbox sends (0: none yet): read once, then what was
        heard of or read since."""
        if self._last is None:
            db = self._open()
            if db is None:
                return 0
            row = db.execute(
                "SELECT max(seq) FROM entries WHERE match_id IS NOT NULL"
                f" AND kind IN ({_marks(PUBLISHED_KINDS)})",
                PUBLISHED_KINDS,
            ).fetchone()
            self._last = int(row[0] or 0)
        return self._last

    def heard(self, seq: int) -> None:
        """An entry up to `seq` was heard of from the outputs."""
        if self._last is not None:
            self._last = max(self._last, seq)

    def entry_of(self, confirmed: Confirmed) -> OutEntry:
        """The message of a confirmed entry heard of from the outputs, as `after` reads it."""
        entry, match = confirmed.entry, confirmed.match
        key = match_key(match.id, match.wall_start)
        message = {
            "seq": entry.seq,
            "match": key,
            "game": match.kind,
            "header": match.header,
            "t": entry.t,
            "wall": entry.wall,
            "source": entry.source,
            "kind": entry.kind,
            "data": entry.data,
            "hash": entry.hash,
            "prev_hash": entry.prev,
            "finished": match.finished,
        }
        self.heard(entry.seq)
        return OutEntry(self.source or "journal", entry.seq, key, match.kind, message)

    def after(self, seq: int, limit: int) -> list[OutEntry]:
        db = self._open()
        if db is None:
            return []
        self.reads += 1
        hash_cols = "hash, prev" if self._hash else "NULL, NULL"
        rows = db.execute(
            f"SELECT seq, match_id, t, wall, source, kind, data, {hash_cols} FROM entries"
            f" WHERE seq > ? AND match_id IS NOT NULL AND kind IN ({_marks(PUBLISHED_KINDS)})"
            " ORDER BY seq LIMIT ?",
            (seq, *PUBLISHED_KINDS, limit),
        ).fetchall()
        out = []
        for r in rows:
            game, header, finished, key = self._match(db, int(r[1]))
            message = {
                "seq": r[0],
                "match": key,
                "game": game,
                "header": header,
                "t": r[2],
                "wall": r[3],
                "source": r[4],
                "kind": r[5],
                "data": json.loads(r[6]),
                "hash": r[7],
                # The hash this entry is chained on: the hall checks the entry against it.
                "prev_hash": r[8],
                "finished": finished,
            }
            out.append(OutEntry(self.source or "journal", int(r[0]), key, game, message))
            self.heard(int(r[0]))
        return out

    def _match(
        self, db: sqlite3.Connection, match_id: int
    ) -> tuple[str, dict[str, Any], bool, str]:
        known = self._headers.get(match_id)
        if known is not None and known[2]:
            return known
        row = db.execute(
            "SELECT kind, header, finished, wall_start FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        key = match_key(match_id, float(row[3]))
        found = (str(row[0]), json.loads(row[1]), bool(row[2]), key)
        self._headers[match_id] = found
        return found

    def close(self) -> None:
        if self._db is not None:  # the name stays: the journal's first match does not change
            self._db.close()
            self._db = None
            release_file(self._held)
            self._held = None


def _marks(items: tuple[str, ...]) -> str:
    return ", ".join("?" for _ in items)
