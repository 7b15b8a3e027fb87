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

Durability (docs/engine.md, "The journal: nothing lost"): one kiosk at a time holds the journal
(an OS lock on journal.db itself); every row is hash-chained to the one before (journal_chain.py)
and carries a MAC under a key that moves on with every row (journal_key.py); at start the file
is checked read-only (journal_check.py: every page and index, every row, the chain, the seal of
the last synced row) and a damaged or shortened journal is refused by name with the last good
backup, changing nothing on disk, never taken for an empty one. A write that fails (disk full,
read-only, I/O error, the -wal deleted under the kiosk) never raises: the rows are held in
memory in order, `fault` says which are not saved, and they are written, in order, as soon as
writing works again. `checkpoint()` at every board's end folds the -wal into journal.db and makes
the rolling backup.

Entries written while no match is open (a part that failed at start-up) have no match; their
`t` is then seconds on the kiosk's monotonic clock.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from kiosk.atomic import private_dir
from kiosk.engine import journal_store as store
from kiosk.engine.journal_chain import (
    DECODER,
    GENESIS,
    entry_hash,
    entry_problem,
    match_hash,
    match_problem,
)
from kiosk.engine.journal_check import Verdict, file_problem, hold_file, release_file
from kiosk.engine.journal_faults import cannot_open, cause, not_saved
from kiosk.engine.journal_files import (
    MARKER,
    JournalDamaged,
    JournalError,
    JournalLocked,
    Lock,
    Seal,
    backup,
    known,
    make_private,
    mark_created,
    mark_id,
    mark_reached,
    read_seal,
    write_seal,
)
from kiosk.engine.journal_key import DirectorKey, evolve, give_to_director, mac, new_key, parse_key
from kiosk.engine.journal_restore import finish_interrupted_restore
from kiosk.engine.journal_rows import (
    EVENT,
    UNDO,
    Confirmed,
    Entry,
    Flag,
    MatchRow,
    Op,
    dumps,
    published,
    write,
)
from kiosk.errors import ReasonedText

__all__ = [
    "EVENT",
    "SCHEMA_VERSION",
    "UNDO",
    "Confirmed",
    "Entry",
    "Journal",
    "JournalDamaged",
    "JournalError",
    "JournalLocked",
    "MatchRow",
]

SCHEMA_VERSION = store.SCHEMA_VERSION
log = logging.getLogger(__name__)


#: How often a held write is tried again at most (seconds).
RETRY_EVERY = 1.0
#: How long folding the -wal into journal.db waits for a reader to let go (seconds).
FOLD_WAIT = 0.05
#: Confirmed entries kept for the outputs at most (`take_confirmed`); a listener that was
#: not asked for longer reads what it missed from the journal by sequence number.
KEEP_CONFIRMED = 1000


class Journal:
    """The journal file at `path` (created with its folder if missing, unless `create` is
    False: then a missing file is a JournalError, as for `tableside export`).

    `readonly`: open a journal (or a copy) only to read it: no lock, no check, no writes.
    `backup_dir`: where `checkpoint()` and every `backup_every` entries put a whole copy.
    `key`: the chain's first key when this journal is created or first keyed (one the hall
    gives, as `tsk1-...` text or a DirectorKey); without it the journal makes one and leaves it
    for the director (journal_key.py).
    `table`: the table this kiosk runs (`[hall] table_id`), recorded in a new journal, its seal and
    the folder's marker, and named when another table's journal is refused here.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        create: bool = True,
        readonly: bool = False,
        backup_dir: str | Path | None = None,
        backup_every: int = 100,
        backup_keep: int = 3,
        clock: Callable[[], float] = time.monotonic,
        key: DirectorKey | str | None = None,
        table: str | None = None,
    ) -> None:
        self.path = Path(path)
        self.table = table or None
        #: The journal's id, and where its chain and its key begin (its meta), for the seal.
        self.journal_id: str | None = None
        self._chain_from: int | None = None
        self._key_from: int | None = None
        self._given_key = parse_key(key) if isinstance(key, str) else key
        #: The key of the chain's next row (None: not keyed, read-only).
        self._key: bytes | None = None
        #: What happened to the journal that the log must say (a new key, a -wal deleted).
        self.notices: list[str] = []
        #: The -wal file SQLite writes to (its inode), to notice it deleted under the kiosk.
        self._wal_ino: int | None = None
        #: Rows committed into a -wal that was no longer on disk: not saved until rescued.
        self._orphaned: list[Op] = []
        self._clock = clock  # paces the retries of held writes
        self.readonly = readonly
        self.backup_dir = Path(backup_dir) if backup_dir else None
        self.backup_every = backup_every
        self.backup_keep = backup_keep
        #: The last backup that failed, in words (None: backups work or none is set).
        self.backup_fault: str | None = None
        self.last_backup: Path | None = None
        self._db: sqlite3.Connection | None = None
        #: The file held open, by (device, inode): its header descriptor is kept till close.
        self._held: tuple[int, int] | None = None
        self._lock: Lock | None = None
        self._pending: list[Op] = []
        #: Why the held writes failed: the English words, carrying their facts (`cause`).
        self._error: ReasonedText | None = None
        self._tried = 0.0
        self._since_backup = 0
        self._next_seq = 1
        self._last_hash = GENESIS
        self._next_match = 1
        #: Confirmed entries on disk not yet taken for the outputs (`take_confirmed`).
        self._confirmed: list[Confirmed] = []
        #: The last event or undo written (None: not looked up yet), for `Confirmed.after`.
        self._last_published: int | None = None
        #: The matches as last read or written, for `Confirmed.match` without a read.
        self._match_rows: dict[int, MatchRow] = {}
        if not create and not self.path.is_file():
            raise JournalError(f"{self.path}: no such journal")
        if readonly:
            problem = file_problem(self.path)  # SQLite drops the -wal of a truncated file
            if problem is not None:
                raise JournalError(f"{self.path}: {problem}")
            try:
                self._db = store.connect(self.path, readonly=True)
                self._held = hold_file(self.path)
                self._load_counters()
            except sqlite3.DatabaseError as exc:
                self.close()
                raise JournalError(f"{self.path}: cannot read the journal: {exc}") from exc
            return
        try:
            self._open()
        except (OSError, sqlite3.OperationalError) as exc:
            if self.path.exists():
                why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
                text = f"{self.path}: cannot open the journal: {why}"
                raise JournalError(text, cannot_open(self.path, exc)) from exc
            # No journal yet and nowhere to write one (a read-only or missing medium): run on,
            # holding everything in memory, and create it as soon as the medium works.
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self._error = ReasonedText(f"cannot create the journal: {reason}", cause(exc))

    def _open(self) -> None:
        """Lock, check read-only, then open for writing: a refused start changes nothing."""
        private_dir(self.path.parent)
        lock = Lock(self.path)
        created: str | None = None
        try:
            finish_interrupted_restore(self.path)
            if not self.path.exists():
                store.before_create(self.path, self.backup_dir)
                created = store.create(self.path, self.table)
                mark_created(self.path, created, self.table)
            lock.hold()
            verdict = store.check(self.path, self.backup_dir)
            try:
                db = store.connect(self.path)
            except sqlite3.DatabaseError as exc:
                raise store.refuse(self.path, f"cannot open: {exc}", self.backup_dir) from exc
            try:
                migrated = store.migrate(db, self.path)
                given = store.ensure_identity(db, self.table)
                self._identify(db)
                assert self.journal_id is not None
                if created is None and known(self.path) is None:
                    mark_created(self.path, self.journal_id, self.table)
                else:
                    mark_id(self.path, self.journal_id, self.table)
                if given is not None:
                    self._notice(
                        f"{self.path}: a journal made before journals had ids: its id is"
                        f" {given} from now on (in its meta, its seal and {MARKER})"
                    )
            except sqlite3.DatabaseError as exc:
                db.close()
                raise store.refuse(self.path, f"cannot read: {exc}", self.backup_dir) from exc
            except BaseException:
                db.close()
                raise
        except BaseException:
            lock.release()
            raise
        self._db, self._lock = db, lock
        self._held = hold_file(self.path)
        self._load_counters()
        self._note_wal()  # the -wal exists once the counters were read
        self._start_key(verdict, fresh=created is not None or migrated)
        make_private(self.path)
        with contextlib.suppress(OSError):
            write_seal(self.path, self._seal(self._next_seq - 1, self._last_hash))

    def _identify(self, db: sqlite3.Connection) -> None:
        """The journal's id and table, and where its chain and key begin, from its meta."""
        self.journal_id = store.meta(db, "id")
        self.table = store.meta(db, "table") or self.table
        numbers = [store.meta(db, name) for name in ("chain_from", "key_from")]
        self._chain_from, self._key_from = (
            int(n) if n is not None and n.isdigit() and len(n) <= 15 else None for n in numbers
        )

    def _seal(self, seq: int, digest: str) -> Seal:
        """The seal of entry `seq`: the next row's key and the journal's names and start."""
        return Seal(
            seq, digest, self._key, self.journal_id, self._chain_from, self._key_from, self.table
        )

    def _start_key(self, verdict: Verdict, fresh: bool) -> None:
        """The key of the next row: from the seal (moved on past rows written after it), or a
        new key for a new, newly keyed, or restored journal, or one whose seal lost its key."""
        seal = read_seal(self.path)  # checked already
        if seal is not None and seal.key is not None and seal.seq < self._next_seq and not fresh:
            self._key = evolve(seal.key, self._next_seq - (seal.seq + 1))
            return
        given = self._given_key
        chain = self._chain_from
        first = (
            DirectorKey(self._next_seq, given.key, chain)
            if given
            else new_key(self._next_seq, chain)
        )
        if given is None:
            give_to_director(self.path, first)
        self._key = first.key
        if not fresh and verdict.last_seq:
            self._notice(
                f"{self.path}: the chain key was not in the seal: entries from"
                f" {self._next_seq} are keyed by a new key, left for the director in"
                f" {self.path}.director-key"
            )

    def _load_counters(self) -> None:
        assert self._db is not None
        db = self._db
        columns = {r[1] for r in db.execute("PRAGMA table_info(entries)")}
        self._chained = "hash" in columns
        last_entry = db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries").fetchone()[0]
        last_match = (
            db.execute("SELECT COALESCE(MAX(seq), 0) FROM matches").fetchone()[0]
            if self._chained
            else 0
        )
        last_id = db.execute("SELECT COALESCE(MAX(id), 0) FROM matches").fetchone()[0]
        if not all(type(n) is int and 0 <= n < 2**62 for n in (last_entry, last_match, last_id)):
            raise sqlite3.DatabaseError(
                f"its numbering cannot be read (last entry {last_entry!r:.20},"
                f" last match {last_match!r:.20}, match id {last_id!r:.20})"
            )
        self._next_seq = max(last_entry, last_match) + 1
        self._next_match = last_id + 1
        self._last_hash = GENESIS
        if self._chained:
            row = db.execute(
                "SELECT hash FROM entries WHERE seq=? UNION ALL SELECT hash FROM matches"
                " WHERE seq=?",
                (self._next_seq - 1, self._next_seq - 1),
            ).fetchone()
            self._last_hash = (row[0] if row else None) or GENESIS

    # -- reading: the rows on disk, then those still held in memory ---------------------

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

    # -- writing -----------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        assert self._db is not None
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
            raise

    def _mac(self, digest: str) -> str | None:
        """The MAC of the row just numbered, and the key moved on to the next (the old one
        forgotten)."""
        if self._key is None:
            return None
        row_mac = mac(self._key, digest)
        self._key = evolve(self._key)
        return row_mac

    def _notice(self, text: str) -> None:
        """Something the journal put right that the log must say (it goes to the system's
        log under systemd): kept in `notices` for the console too."""
        self.notices.append(text)
        log.warning("%s", text)

    def _take_seq(self) -> int:
        seq = self._next_seq
        self._next_seq += 1
        return seq

    def begin_match(self, kind: str, header: dict[str, Any], wall: float) -> int:
        """A new match; returns its id. Any unfinished match of the same kind is left as it is
        (the caller decides whether to resume it or finish it first)."""
        self._writable()
        dumps(header).encode("utf-8")  # the caller's error (ValueError), before anything is held
        match_id, self._next_match = self._next_match, self._next_match + 1
        wall = float(wall) + 0.0
        if not math.isfinite(wall):
            raise ValueError(f"{self.path}: a match's start must be a finite time, not {wall}")
        seq, text = self._take_seq(), dumps(header)
        digest = match_hash(self._last_hash, seq, match_id, kind, text, wall)
        row = MatchRow(
            match_id,
            kind,
            json.loads(text),
            wall,
            False,
            seq,
            digest,
            self._last_hash,
            self._mac(digest),
        )
        self._pending.append(row)
        self._match_rows[match_id] = row
        self._last_hash = digest
        self._flush()
        return match_id

    def append(
        self,
        match_id: int | None,
        t: float,
        wall: float,
        source: str,
        kind: str,
        data: dict[str, Any],
        *,
        sync: bool = True,
    ) -> int:
        """Write one entry and sync it to disk before returning; returns its sequence number.
        If the disk refuses, the entry is held in memory (see `fault`, `pending`) and written
        in order later: nothing is half-written and nothing is dropped.

        `sync` False (a raw input: a beam hit, a camera event, a timer's warning): the entry
        is numbered and chained now but only kept, for `write()` to put on disk with the
        others of the same poll in one transaction, not synced (a power cut may take it; the
        next synced write takes every row before it to the disk). A confirmed event or undo
        is always synced."""
        self._writable()
        text = dumps(data)  # a value JSON cannot hold is the caller's error: raise now
        text.encode("utf-8")  # so is a lone surrogate (UnicodeEncodeError, a ValueError)
        # As the REAL columns give them back (3 -> 3.0, -0.0 -> 0.0), for the hash.
        t, wall = float(t) + 0.0, float(wall) + 0.0
        if not (math.isfinite(t) and math.isfinite(wall)):
            raise ValueError(f"{self.path}: entry times must be finite, not {t}, {wall}")
        seq = self._take_seq()
        digest = entry_hash(self._last_hash, seq, match_id, t, wall, source, kind, text)
        # A copy of what was hashed: the caller may change its dict afterwards.
        entry = Entry(
            seq,
            match_id,
            t,
            wall,
            source,
            kind,
            json.loads(text),
            self._last_hash,
            digest,
            False,
            self._mac(digest),
        )
        self._pending.append(entry)
        self._last_hash = digest
        if sync or published(entry):
            self._flush()
        return seq

    def write(self) -> None:
        """Put the rows kept by `append(sync=False)` on disk: one transaction, not synced
        (once per poll: the raw inputs of the poll; with a confirmed event among them, synced).
        While a refusing disk holds rows, they are tried again at most once a second
        (`retry`), all together and synced, as the held rows always are."""
        if self._error is not None or self._orphaned:
            self.retry()
        elif self._pending:
            self._flush(sync=any(published(op) for op in self._pending))

    def take_confirmed(self) -> list[Confirmed]:
        """The confirmed events and undos put on disk (synced) since the last call, in order:
        what the outputs are told (the hall's publisher sends them)."""
        taken, self._confirmed = self._confirmed, []
        return taken

    def finish(self, match_id: int) -> None:
        """Mark a match over (or abandoned): it is no longer offered for resuming."""
        self._writable()
        self._pending.append(Flag(match_id, True))
        self._flag(match_id, True)
        self._flush()

    def reopen(self, match_id: int) -> None:
        """The match goes on after all (the umpire undid the event that ended it)."""
        self._writable()
        self._pending.append(Flag(match_id, False))
        self._flag(match_id, False)
        self._flush()

    def _flag(self, match_id: int, finished: bool) -> None:
        row = self._match_rows.get(match_id)
        if row is not None:
            self._match_rows[match_id] = replace(row, finished=finished)

    def retry(self, force: bool = False) -> bool:
        """Try the held writes again (at most once a second unless `force`); True when
        nothing is held any more."""
        held = self._pending or self._orphaned
        if held and (force or self._clock() - self._tried >= RETRY_EVERY):
            self._flush()
        return not (self._pending or self._orphaned)

    def _writable(self) -> None:
        if self.readonly:
            raise JournalError(f"{self.path}: opened read-only")

    def _flush(self, sync: bool = True) -> None:
        """Write every held row in order, in one transaction: all of them or none. `sync`
        False: the transaction is not synced (SQLite's synchronous=NORMAL for it: the -wal is
        not flushed to the disk), and neither the seal nor a backup follows."""
        self._tried = self._clock()
        if not self._pending and not self._orphaned:
            return
        try:
            if self._db is None:
                self._open()
            if self._orphaned or self._wal_gone():
                self._rescue_wal()
            if self._pending:
                assert self._db is not None
                if not sync:
                    self._db.execute("PRAGMA synchronous=NORMAL")
                try:
                    with self._transaction() as db:
                        for op in self._pending:
                            write(db, op)
                finally:
                    if not sync and self._db is not None:
                        self._db.execute("PRAGMA synchronous=FULL")
        except (sqlite3.Error, OSError, JournalError) as exc:
            words = str(exc.strerror or exc) if isinstance(exc, OSError) else str(exc)
            self._error = ReasonedText(words, cause(exc))
            return
        written = self._pending
        self._pending = []
        if self._wal_gone():
            # Committed, but into a -wal no longer on the disk: not saved until it is copied
            # into journal.db, and nothing more is written to it.
            self._orphaned.extend(written)
            try:
                self._rescue_wal()
            except (sqlite3.Error, OSError, JournalError) as exc:
                self._error = ReasonedText(str(exc), cause(exc))
                return
        self._error = None
        self._note_wal()
        self._since_backup += len(written)
        if not sync:
            return  # the seal names only rows known to be on disk; a backup only such rows
        self._keep_confirmed(written)
        last = next((op for op in reversed(written) if not isinstance(op, Flag)), None)
        if last is not None:
            assert last.seq is not None and last.hash is not None
            with contextlib.suppress(OSError):
                write_seal(self.path, self._seal(last.seq, last.hash))
        if self.backup_dir is not None and self._since_backup >= self.backup_every:
            self.backup()

    def _keep_confirmed(self, written: list[Op]) -> None:
        """The confirmed entries just synced, for the outputs, each with the one before."""
        for op in written:
            if not (isinstance(op, Entry) and published(op)):
                continue
            assert op.match_id is not None
            if self._last_published is None:
                self._last_published = self._published_before(op.seq)
            match = self._match_rows.get(op.match_id)
            if match is None:
                match = self.match(op.match_id)
                self._match_rows[op.match_id] = match
            entry = replace(op, saved=True)
            self._confirmed.append(Confirmed(entry, self._last_published, match))
            self._last_published = op.seq
        if len(self._confirmed) > KEEP_CONFIRMED:
            del self._confirmed[:-KEEP_CONFIRMED]

    def _published_before(self, seq: int) -> int:
        """The last event or undo of a match before entry `seq` on disk (0: none)."""
        row = self._read(
            "SELECT seq FROM entries WHERE seq < ? AND match_id IS NOT NULL"
            " AND kind IN (?, ?) ORDER BY seq DESC LIMIT 1",
            (seq, EVENT, UNDO),
        )
        return int(row[0][0]) if row else 0

    # -- the -wal deleted under the kiosk ------------------------------------------------

    def _wal(self) -> Path:
        return Path(f"{self.path}-wal")

    def _note_wal(self) -> None:
        if self._wal_ino is None:
            with contextlib.suppress(OSError):
                self._wal_ino = os.stat(self._wal()).st_ino

    def _wal_gone(self) -> bool:
        """Whether the -wal SQLite writes to was deleted (or replaced) since it was made."""
        if self._wal_ino is None or self._db is None:
            return False
        try:
            return os.stat(self._wal()).st_ino != self._wal_ino
        except FileNotFoundError:
            return True

    def _rescue_wal(self) -> None:
        """Copy what the deleted -wal holds into journal.db (synced), then write to a new
        -wal; JournalError while a reader keeps the checkpoint from finishing."""
        assert self._db is not None
        if self._fold_wal():
            raise JournalError(
                f"{self._wal()} was deleted while the kiosk ran: its entries are being copied"
                " into the journal (a reader holds it)"
            )
        self._db.close()
        self._db = store.connect(self.path)
        self._wal_ino = None
        self._db.execute("SELECT count(*) FROM meta").fetchone()  # a new -wal, noted
        self._note_wal()
        last = max((op.seq or 0 for op in self._orphaned if not isinstance(op, Flag)), default=0)
        self._notice(
            f"{self._wal()} was deleted while the kiosk ran; every entry it held"
            + (f" (up to {last})" if last else "")
            + " was copied into the journal"
        )
        self._orphaned = []

    # -- faults, checkpoints, backups ------------------------------------------------

    def _fold_wal(self) -> bool:
        """Copy the -wal into journal.db and empty it (a TRUNCATE checkpoint); True if a
        reader kept it from finishing. It waits FOLD_WAIT for readers, not the connection's
        busy timeout: it runs on the Kivy thread, and a reader's snapshot would freeze the
        screen for the whole 10 s, at every append while the -wal is gone."""
        assert self._db is not None
        patient = self._db.execute("PRAGMA busy_timeout").fetchone()[0]
        self._db.execute(f"PRAGMA busy_timeout={int(FOLD_WAIT * 1000)}")
        try:
            return bool(self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0])
        finally:
            self._db.execute(f"PRAGMA busy_timeout={int(patient)}")

    @property
    def fault(self) -> str | None:
        """None while everything is on disk; else what is held and why, in words."""
        held_ops = self._orphaned + self._pending
        if not held_ops or self._error is None:
            return None  # nothing held (rows kept for `write()` are not held by a fault)
        seqs = [op.seq for op in held_ops if isinstance(op, Entry | MatchRow) and op.seq]
        if not seqs:
            held = "a match's end"
        else:
            held = f"entries {seqs[0]}-{seqs[-1]}" if len(seqs) > 1 else f"entry {seqs[0]}"
        events = sum(1 for op in held_ops if isinstance(op, Entry) and op.kind == EVENT)
        if events:
            held += f" ({events} confirmed event{'s' if events > 1 else ''})"
        text = f"not saved: {held} held in memory ({self._error})"
        return not_saved(text, seqs, events, self._error)

    def checkpoint(self) -> bool:
        """Fold the -wal into journal.db (so the file alone is complete) and make the rolling
        backup; at every board's end. False if it could not be done now (held writes, a busy
        reader): the next one catches up."""
        if self.readonly or self._db is None or not self.retry(force=True):
            return False
        try:
            busy = self._fold_wal()
        except sqlite3.Error:
            return False
        make_private(self.path)
        if not busy:
            with contextlib.suppress(OSError):  # how far it reached, beside the settings too
                mark_reached(self.path, self._next_seq - 1, self._last_hash)
        if self.backup_dir is not None:
            self.backup()
        return not busy

    def backup(self) -> Path | None:
        """A whole copy into `backup_dir` now (the online backup API); None if it failed,
        with `backup_fault` saying why."""
        if self._db is None or self.backup_dir is None:
            return None
        try:
            self.last_backup = backup(
                self._db, self.backup_dir, self._next_seq - 1, self.backup_keep
            )
        except (OSError, sqlite3.Error) as exc:
            self.backup_fault = f"backup to {self.backup_dir} failed: {exc}"
            return None
        self.backup_fault = None
        self._since_backup = 0
        return self.last_backup

    def close(self) -> None:
        """Close the file (trying the held writes once more) and release the lock."""
        if (self._pending or self._orphaned) and not self.readonly:
            self._flush()
        if self._db is not None:
            self._db.close()
            self._db = None
        release_file(self._held)  # no connection of the journal's left to lose a lock
        self._held = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
