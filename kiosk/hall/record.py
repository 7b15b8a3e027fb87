"""The hall record: every table's events, states, statuses and calls, in one SQLite file.

Events are stored once per (hall, table, outbox, seq), the first version heard kept: a kiosk
that sends a stretch again (after an outage, a restart, a resend) doubles nothing, and one
sent again with other content, or not chained on the event before it that the hall holds, is
a break in the chain (`breaks`, kiosk/hall/witness.py). Each event names the previous one of
its outbox (`prev`), so the record knows, per table and outbox, the head up to which it holds
everything (`heads`), and can ask the kiosk for what is missing after it. The columns are in
docs/hall.md ("The hall record").
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
    data TEXT NOT NULL, hash TEXT, wall REAL, received REAL NOT NULL, prev_hash TEXT,
    PRIMARY KEY (hall, tbl, match, seq)
);
CREATE INDEX IF NOT EXISTS events_by_prev ON events (hall, tbl, box, prev);
CREATE INDEX IF NOT EXISTS events_by_seq ON events (hall, tbl, box, seq);
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
    bad INTEGER NOT NULL DEFAULT 0, bad_reason TEXT, bad_at REAL,
    PRIMARY KEY (hall, tbl)
);
CREATE TABLE IF NOT EXISTS breaks (
    hall TEXT NOT NULL, tbl TEXT NOT NULL, box TEXT NOT NULL, seq INTEGER NOT NULL,
    match TEXT NOT NULL, reason TEXT NOT NULL, received REAL NOT NULL,
    PRIMARY KEY (hall, tbl, box, seq)
);
CREATE TABLE IF NOT EXISTS calls (
    hall TEXT NOT NULL, tbl TEXT NOT NULL, id INTEGER NOT NULL, reason TEXT, wall REAL,
    acked REAL, PRIMARY KEY (hall, tbl, id)
);
"""


@dataclass(frozen=True, slots=True)
class Stored:
    """What storing an event did: `new` (not a repeat), the outbox's head after it, and the
    break in the chain it showed (None: it follows on from what the hall holds)."""

    new: bool
    head: int
    broken: str | None = None


#: Columns added since the first hall record, with their type (an older hall.db is extended).
_ADDED = {
    "events": {"prev_hash": "TEXT"},
    "tables": {"bad": "INTEGER NOT NULL DEFAULT 0", "bad_reason": "TEXT", "bad_at": "REAL"},
}


class HallRecord:
    """The hall's record at `path`; safe to use from the MQTT thread and the web server."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        #: No record was here before: the hall's folder is used for the first time.
        self.fresh = not self.path.exists()
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # a lost tail is sent again on request
        for table, columns in _ADDED.items():
            have = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}
            for name, kind in columns.items():
                if have and name not in have:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {name} {kind}")
        self._db.executescript(_SCHEMA)
        #: Matches written, with their finished flag: each event carries its match's header,
        #: written again only when the flag changes.
        self._known: dict[tuple[str, str, str], bool] = {}

    def add_event(self, hall: str, table: str, m: dict[str, Any], received: float) -> Stored:
        """Store one event (checked by kiosk/hall/schema.py) unless the hall has it; a repeat
        with other content, or an event that does not follow the one before it in the chain,
        is a break (`breaks`), the first version heard being the one kept."""
        box = str(m.get("outbox") or m.get("match"))
        seq, prev = int(m["seq"]), m.get("prev")
        data = json.dumps(m.get("data"), ensure_ascii=False)
        match = str(m["match"])
        mkey = (hall, table, match)
        broken: str | None
        with self._lock:
            self._db.execute("BEGIN")
            try:
                held = self._db.execute(
                    "SELECT match, hash, kind, data FROM events"
                    " WHERE hall=? AND tbl=? AND box=? AND seq=?",
                    (hall, table, box, seq),
                ).fetchone()
                new = False
                if held is None:
                    cur = self._db.execute(
                        "INSERT OR IGNORE INTO events (hall, tbl, match, seq, box, prev, game,"
                        " kind, data, hash, wall, received, prev_hash)"
                        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        (
                            hall, table, match, seq, box, prev, str(m.get("game", "")),
                            str(m.get("kind", "")), data, m.get("hash"), m.get("wall"),
                            received, m.get("prev_hash"),
                        ),
                    )  # fmt: skip
                    new = cur.rowcount == 1  # else the same match and seq in another outbox
                    broken = self._follows(hall, table, box, m) if new else _repeat((), match, m)
                else:
                    broken = _repeat(held, match, m)
                if broken is not None:
                    self._db.execute(
                        "INSERT OR IGNORE INTO breaks VALUES (?,?,?,?,?,?,?)",
                        (hall, table, box, seq, match, broken, received),
                    )
                finished = bool(m.get("finished"))
                if "header" in m and broken is None and self._known.get(mkey) != finished:
                    self._known[mkey] = finished
                    self._db.execute(
                        "INSERT INTO matches VALUES (?,?,?,?,?,?) ON CONFLICT DO UPDATE"
                        " SET finished = excluded.finished",
                        (hall, table, match, str(m.get("game", "")),
                         json.dumps(m["header"], ensure_ascii=False), int(bool(m.get("finished")))),
                    )  # fmt: skip
                head = self._advance(hall, table, box)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                self._known.pop(mkey, None)
                raise
        return Stored(new, head, broken)

    def _follows(self, hall: str, table: str, box: str, m: dict[str, Any]) -> str | None:
        """Why a new event does not link with its neighbours the hall holds (seq - 1 and
        seq + 1 of its outbox), else None. Rows the hall never gets (the raw inputs between
        two events) leave the link unchecked: the hashes are kept for `hall verify`."""
        seq, digest, prev_hash = int(m["seq"]), m.get("hash"), m.get("prev_hash")
        near = {
            int(r[0]): (r[1], r[2])
            for r in self._db.execute(
                "SELECT seq, hash, prev_hash FROM events WHERE hall=? AND tbl=? AND box=?"
                " AND seq IN (?, ?)",
                (hall, table, box, seq - 1, seq + 1),
            )
        }
        before, after = near.get(seq - 1), near.get(seq + 1)
        if before and before[0] and prev_hash is not None and prev_hash != before[0]:
            return f"entry {seq} does not follow entry {seq - 1} the hall holds"
        if after and digest and after[1] is not None and after[1] != digest:
            return f"entry {seq + 1} does not follow entry {seq} the hall holds"
        return None

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
        """Keep a table's `status` or `state` (a dict, or its JSON text) as last heard, with
        when: one statement, 500 tables' heartbeats add up."""
        for key in values:
            if key not in ("status", "state", "received"):
                raise KeyError(key)
        row = dict(values)
        if "state" in row and not isinstance(row["state"], str):
            row["state"] = json.dumps(row["state"], ensure_ascii=False)
        columns = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        update = ", ".join(f"{k} = excluded.{k}" for k in row)
        with self._lock:
            self._db.execute(
                f"INSERT INTO tables (hall, tbl, {columns}) VALUES (?, ?, {marks})"
                f" ON CONFLICT (hall, tbl) DO UPDATE SET {update}",
                (hall, table, *row.values()),
            )

    def mark_bad(self, hall: str, table: str, reason: str, when: float) -> int:
        """Count a message refused from `table` (kiosk/hall/schema.py); the count so far."""
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO tables (hall, tbl) VALUES (?, ?)", (hall, table)
            )
            self._db.execute(
                "UPDATE tables SET bad = bad + 1, bad_reason = ?, bad_at = ?"
                " WHERE hall = ? AND tbl = ?",
                (reason, when, hall, table),
            )
            row = self._db.execute(
                "SELECT bad FROM tables WHERE hall = ? AND tbl = ?", (hall, table)
            ).fetchone()
        return int(row[0])

    def tables(self) -> list[dict[str, Any]]:
        """Every table as last heard: status, state, the messages refused (`bad`: how many,
        the last one's reason and time) and the last break in its chain (None: none)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT hall, tbl, status, state, received, bad, bad_reason, bad_at"
                " FROM tables ORDER BY hall, tbl"
            ).fetchall()
            breaks = {
                (r[0], r[1]): {"seq": r[2], "match": r[3], "reason": r[4]}
                for r in self._db.execute(
                    "SELECT hall, tbl, seq, match, reason FROM breaks ORDER BY received"
                )
            }
        return [
            {"hall": r[0], "table": r[1], "status": r[2],
             "state": _state(r[3]), "received": r[4],
             "bad": {"count": r[5], "reason": r[6], "at": r[7]} if r[5] else None,
             "broken": breaks.get((r[0], r[1]))}
            for r in rows
        ]  # fmt: skip

    def breaks(
        self, hall: str | None = None, table: str | None = None, match: str | None = None
    ) -> list[dict[str, Any]]:
        """The breaks in the chain the hall saw (of one table or match when given)."""
        where, args = [], []
        for column, value in (("hall", hall), ("tbl", table), ("match", match)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        query = "SELECT hall, tbl, box, seq, match, reason, received FROM breaks"
        if where:
            query += " WHERE " + " AND ".join(where)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY hall, tbl, box, seq", args).fetchall()
        keys = ("hall", "table", "outbox", "seq", "match", "reason", "received")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def box_events(self, hall: str, table: str, box: str) -> list[dict[str, Any]]:
        """Every event of one outbox (one kiosk journal) as the hall holds it, by seq."""
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, match, kind, data, hash, prev_hash FROM events"
                " WHERE hall=? AND tbl=? AND box=? ORDER BY seq",
                (hall, table, box),
            ).fetchall()
        keys = ("seq", "match", "kind", "data", "hash", "prev_hash")
        return [dict(zip(keys, r, strict=True)) for r in rows]

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


def _state(text: str | None) -> Any:
    """A state as kept: only what the schema let through is stored, but a record written by
    an older hall may hold anything; what is not JSON is shown as no state, not a snapshot
    that cannot be made."""
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def _repeat(held: tuple[Any, ...], match: str, m: dict[str, Any]) -> str | None:
    """Why an event the hall holds (match, hash, kind, data) is not what came again."""
    seq, digest = int(m["seq"]), m.get("hash")
    if not held:
        return f"entry {seq} sent again under another outbox"
    same = (held[0], held[2]) == (match, str(m.get("kind", ""))) and (
        held[1] == digest if held[1] is not None or digest is not None
        else json.loads(held[3]) == m.get("data")
    )  # fmt: skip
    return None if same else f"entry {seq} sent again with other content"
