"""The hall record: every table's events, states, statuses and calls, in one SQLite file.

Events are stored by (hall, table, match, seq) with INSERT OR IGNORE: a kiosk that sends a
stretch again (after an outage, a restart, a resend) doubles nothing. Each event names the
previous one of its outbox (`prev`), so the record knows, per table and outbox, the head up to
which it holds everything (`heads`), and can ask the kiosk for what is missing after it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    hall TEXT NOT NULL, tbl TEXT NOT NULL, match TEXT NOT NULL, seq INTEGER NOT NULL,
    box TEXT NOT NULL, prev INTEGER, game TEXT NOT NULL, kind TEXT NOT NULL,
    data TEXT NOT NULL, hash TEXT, wall REAL, received REAL NOT NULL,
    PRIMARY KEY (hall, tbl, match, seq)
);
CREATE INDEX IF NOT EXISTS events_by_prev ON events (hall, tbl, box, prev);
CREATE TABLE IF NOT EXISTS matches (
    hall TEXT NOT NULL, tbl TEXT NOT NULL, match TEXT NOT NULL, game TEXT NOT NULL,
    header TEXT NOT NULL, finished INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (hall, tbl, match)
);
CREATE TABLE IF NOT EXISTS heads (
    hall TEXT NOT NULL, tbl TEXT NOT NULL, box TEXT NOT NULL, head INTEGER NOT NULL,
    PRIMARY KEY (hall, tbl, box)
);
CREATE TABLE IF NOT EXISTS tables (
    hall TEXT NOT NULL, tbl TEXT NOT NULL, status TEXT, state TEXT, received REAL,
    PRIMARY KEY (hall, tbl)
);
CREATE TABLE IF NOT EXISTS calls (
    hall TEXT NOT NULL, tbl TEXT NOT NULL, id INTEGER NOT NULL, reason TEXT, wall REAL,
    acked REAL, PRIMARY KEY (hall, tbl, id)
);
"""


@dataclass(frozen=True, slots=True)
class Stored:
    """What storing an event did: `new` (not a repeat) and the outbox's head after it."""

    new: bool
    head: int


class HallRecord:
    """The hall's record at `path`; safe to use from the MQTT thread and the web server."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # a lost tail is sent again on request
        self._db.executescript(_SCHEMA)

    def add_event(self, hall: str, table: str, m: dict[str, Any], received: float) -> Stored:
        box = str(m.get("outbox") or m.get("match"))
        seq, prev = int(m["seq"]), m.get("prev")
        with self._lock:
            self._db.execute("BEGIN")
            try:
                cur = self._db.execute(
                    "INSERT OR IGNORE INTO events VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        hall, table, str(m["match"]), seq, box, prev, str(m.get("game", "")),
                        str(m.get("kind", "")), json.dumps(m.get("data"), ensure_ascii=False),
                        m.get("hash"), m.get("wall"), received,
                    ),
                )  # fmt: skip
                new = cur.rowcount == 1
                if "header" in m:
                    self._db.execute(
                        "INSERT INTO matches VALUES (?,?,?,?,?,?) ON CONFLICT DO UPDATE"
                        " SET finished = excluded.finished",
                        (hall, table, str(m["match"]), str(m.get("game", "")),
                         json.dumps(m["header"], ensure_ascii=False), int(bool(m.get("finished")))),
                    )  # fmt: skip
                head = self._advance(hall, table, box)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return Stored(new, head)

    def _advance(self, hall: str, table: str, box: str) -> int:
        """Move the outbox's head over every event now linked to it."""
        row = self._db.execute(
            "SELECT head FROM heads WHERE hall=? AND tbl=? AND box=?", (hall, table, box)
        ).fetchone()
        head = int(row[0]) if row else 0
        start = head
        while True:
            nxt = self._db.execute(
                "SELECT max(seq) FROM events WHERE hall=? AND tbl=? AND box=? AND prev=?",
                (hall, table, box, head),
            ).fetchone()[0]
            if nxt is None:
                break
            head = int(nxt)
        if head != start or row is None:
            self._db.execute(
                "INSERT OR REPLACE INTO heads VALUES (?,?,?,?)", (hall, table, box, head)
            )
        return head

    def head(self, hall: str, table: str, box: str) -> int:
        with self._lock:
            row = self._db.execute(
                "SELECT head FROM heads WHERE hall=? AND tbl=? AND box=?", (hall, table, box)
            ).fetchone()
        return int(row[0]) if row else 0

    def set_table(self, hall: str, table: str, **values: Any) -> None:
        """Keep a table's `status` or `state` (a dict) as last heard, with when."""
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO tables (hall, tbl) VALUES (?, ?)", (hall, table)
            )
            for key, value in values.items():
                if key not in ("status", "state", "received"):
                    raise KeyError(key)
                text = json.dumps(value, ensure_ascii=False) if key == "state" else value
                self._db.execute(
                    f"UPDATE tables SET {key} = ? WHERE hall = ? AND tbl = ?", (text, hall, table)
                )

    def tables(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT hall, tbl, status, state, received FROM tables ORDER BY hall, tbl"
            ).fetchall()
        return [
            {"hall": r[0], "table": r[1], "status": r[2],
             "state": json.loads(r[3]) if r[3] else None, "received": r[4]}
            for r in rows
        ]  # fmt: skip

    def add_call(self, hall: str, table: str, call: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO calls (hall, tbl, id, reason, wall) VALUES (?,?,?,?,?)",
                (hall, table, int(call["id"]), str(call.get("reason", "")), call.get("wall")),
            )

    def ack_call(self, hall: str, table: str, call_id: int, when: float) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE calls SET acked = ? WHERE hall=? AND tbl=? AND id=? AND acked IS NULL",
                (when, hall, table, call_id),
            )

    def open_calls(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT hall, tbl, id, reason, wall FROM calls WHERE acked IS NULL"
            ).fetchall()
        return [
            {"hall": r[0], "table": r[1], "id": r[2], "reason": r[3], "wall": r[4]} for r in rows
        ]

    def matches(self, game: str | None = None) -> list[dict[str, Any]]:
        query = "SELECT hall, tbl, match, game, header, finished FROM matches"
        args: tuple[Any, ...] = ()
        if game is not None:
            query += " WHERE game = ?"
            args = (game,)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY hall, tbl, match", args).fetchall()
        return [
            {"hall": r[0], "table": r[1], "match": r[2], "game": r[3],
             "header": json.loads(r[4]), "finished": bool(r[5])}
            for r in rows
        ]  # fmt: skip

    def events(self, hall: str, table: str, match: str) -> list[dict[str, Any]]:
        """A match's events, in order: {"seq", "kind", "data", "hash"}."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, kind, data, hash FROM events WHERE hall=? AND tbl=? AND match=?"
                " ORDER BY seq",
                (hall, table, match),
            ).fetchall()
        return [{"seq": r[0], "kind": r[1], "data": json.loads(r[2]), "hash": r[3]} for r in rows]

    def boxes(self, game: str) -> list[tuple[str, str, str]]:
        """(hall, table, match) of every event stream of `game` (Bhukhar sessions)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT DISTINCT hall, tbl, match FROM events WHERE game = ? ORDER BY 1, 2, 3",
                (game,),
            ).fetchall()
        return [(r[0], r[1], r[2]) for r in rows]

    def counts(self) -> dict[tuple[str, str], tuple[int, int]]:
        """Per (hall, table): (events stored, distinct (match, seq)); the two are always equal."""
        with self._lock:
            rows = self._db.execute(
                "SELECT hall, tbl, count(*), count(DISTINCT match || '/' || seq) FROM events"
                " GROUP BY hall, tbl"
            ).fetchall()
        return {(r[0], r[1]): (int(r[2]), int(r[3])) for r in rows}

    def close(self) -> None:
        with self._lock:
            self._db.close()
