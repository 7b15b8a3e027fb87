"""Opening the journal's SQLite file: create it whole, check it before writing, migrate it.

A new journal is built under a temporary name and renamed into place once its schema is
committed, so `journal.db` never exists empty: a journal of 0 or a few bytes was truncated and
is refused. Before the file is opened for writing, `journal_check.inspect` checks it read-only
(every page and index, every row, the chain, the seal); any failure is a JournalDamaged naming
what is wrong and where, the newest backup that itself checks out, and the command that puts it
back with every later entry this journal and its `-wal` still hold. Nothing on disk is changed
by a refused start.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import uuid
from pathlib import Path

from kiosk.atomic import fsync_path
from kiosk.engine.journal_check import Verdict, connect_readonly, inspect, wal_path
from kiosk.engine.journal_files import (
    NO_ID,
    JournalDamaged,
    JournalError,
    backup_seq,
    backups,
    described,
    known,
    make_private,
    private_file,
    read_seal,
)

SCHEMA_VERSION = 3

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    header TEXT NOT NULL,
    wall_start REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    seq INTEGER,
    prev TEXT,
    hash TEXT,
    mac TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id INTEGER REFERENCES matches(id),
    t REAL NOT NULL,
    wall REAL NOT NULL,
    source TEXT NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    prev TEXT,
    hash TEXT,
    mac TEXT
);
CREATE INDEX IF NOT EXISTS entries_by_match ON entries (match_id, seq);
"""

#: The smallest SQLite file there is: one page of 512 bytes.
SMALLEST = 512


def connect(path: Path, *, readonly: bool = False) -> sqlite3.Connection:
    if readonly:
        return connect_readonly(path)
    # isolation_level=None: we issue BEGIN/COMMIT ourselves, one transaction per flush.
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10.0)
    try:
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise JournalError(f"{path}: the journal needs WAL mode, got {mode!r}")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        db.close()
        raise
    return db


def create(path: Path, table: str | None = None) -> str:
    """A new, empty journal at `path`, built aside and renamed into place whole; its id
    (and the `table` it is made for, when the kiosk knows it, in its meta)."""
    temporary = path.with_name(f".{path.name}.new")
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{temporary}{suffix}")
    private_file(temporary)
    journal_id = uuid.uuid4().hex
    db = connect(temporary)
    try:
        db.executescript(SCHEMA)
        for key, value in (
            ("schema", str(SCHEMA_VERSION)),
            ("chain_from", "1"),
            ("key_from", "1"),
            ("id", journal_id),
            *((("table", table),) if table else ()),
        ):
            db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, value))
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
    fsync_path(temporary)
    os.replace(temporary, path)
    fsync_path(path.parent)  # the new name is on disk too
    return journal_id


def meta(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
    return None if row is None else str(row[0])


_COLUMNS = {
    "2": (
        ("entries", "prev"),
        ("entries", "hash"),
        ("matches", "seq"),
        ("matches", "prev"),
        ("matches", "hash"),
    ),
    "3": (("entries", "mac"), ("matches", "mac")),
}


def migrate(db: sqlite3.Connection, path: Path) -> bool:
    """Schema 1 (no hashes) to 2 (the chain's columns; rows already there stay unchained,
    `chain_from` is the first number chained), and 2 to 3 (the MAC columns; `key_from` is the
    first number keyed). True when it changed the file."""
    version = meta(db, "schema")
    if version == str(SCHEMA_VERSION):
        return False
    if version not in ("1", "2"):
        raise JournalError(
            f"{path}: journal schema {version}, this kiosk reads {SCHEMA_VERSION} (and 1, 2)"
        )
    db.execute("BEGIN IMMEDIATE")
    try:
        last = db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries").fetchone()[0]
        if version == "1":
            for table, column in _COLUMNS["2"]:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {_type(column)}")
            db.execute("INSERT OR REPLACE INTO meta VALUES ('chain_from', ?)", (str(last + 1),))
        else:
            last = max(last, db.execute("SELECT COALESCE(MAX(seq), 0) FROM matches").fetchone()[0])
        for table, column in _COLUMNS["3"]:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")
        db.execute("INSERT OR REPLACE INTO meta VALUES ('key_from', ?)", (str(last + 1),))
        db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return True


def ensure_identity(db: sqlite3.Connection, table: str | None) -> str | None:
    """A journal made before ids (or before its table was named) given them: the id is
    written at its first start on this kiosk, the table's name when the kiosk knows it and
    the journal does not. Returns the id when it was written now (None: it had one)."""
    written = None
    if not meta(db, "id"):
        written = uuid.uuid4().hex
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('id', ?)", (written,))
    if table and not meta(db, "table"):
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('table', ?)", (table,))
    return written


def _type(column: str) -> str:
    return "INTEGER" if column == "seq" else "TEXT"


def chain_from(db: sqlite3.Connection) -> int:
    value = meta(db, "chain_from")
    return 1 if value is None or not value.isdigit() else int(value)


def last_good_backup(
    folder: Path | None, journal_id: str | None = None
) -> tuple[Path, Verdict] | None:
    """The newest backup in `folder` that passes every check, with what it holds (with
    `journal_id`, only a backup of that journal, or of one without an id: never another
    table's)."""
    if folder is None:
        return None
    for candidate in backups(folder):
        verdict = inspect(candidate, beside=False)
        if verdict.ok and not (
            journal_id and verdict.journal_id and verdict.journal_id != journal_id
        ):
            return candidate, verdict
    return None


def folder_id(path: Path) -> str | None:
    """The id of the journal that belongs at `path`: the folder's marker's, else its seal's
    (None: nothing says)."""
    entry = known(path) or {}
    marked = entry.get("id")
    if isinstance(marked, str) and marked and marked != NO_ID:
        return marked
    try:
        seal = read_seal(path)
    except JournalDamaged:
        return None
    return seal.journal_id if seal is not None else None


def folder_who(path: Path) -> str:
    """The journal that belongs at `path`, by its table and id, for a refusal."""
    entry = known(path) or {}
    table = entry.get("table")
    name = table if isinstance(table, str) else None
    if name is None:
        try:
            seal = read_seal(path)
        except JournalDamaged:
            seal = None
        name = seal.table if seal is not None else None
    return described(folder_id(path), name)


def refuse(
    path: Path, what: str, backup_dir: Path | None, verdict: Verdict | None = None
) -> JournalDamaged:
    """The refusal of a start: what is wrong, what a reader would lose, the newest good
    backup and the command that puts it back with what this journal still holds."""
    found = last_good_backup(backup_dir, folder_id(path))
    backup = found[0] if found else None
    lost = f" A read would miss: {'; '.join(verdict.lost[:4])}." if verdict and verdict.lost else ""
    wal = wal_path(path)
    also = " and its -wal" if wal.exists() and wal.stat().st_size else ""
    if found is not None:
        where = (
            f"the last good backup is {backup} (up to entry {found[1].last_seq});"
            f" `tableside journal restore {backup} {path}` puts it in place and takes back"
            f" every later entry this journal{also} still holds whose chain checks out"
            " (the files it replaces are kept beside it)"
        )
    elif backup_dir is not None:
        where = f"no good backup in {backup_dir}"
    else:
        where = "no backup folder is set ([journal] backup_dir)"
    return JournalDamaged(
        f"{path}: {what}.{lost} The kiosk will not start on it, and has changed nothing on"
        f" disk; {where}. Check a copy with `tableside journal verify FILE`.",
        backup,
    )


def before_create(path: Path, backup_dir: Path | None) -> None:
    """A missing journal may be created only if nothing says one existed: no seal, no line in
    the folder's marker, no backup of it."""
    evidence: list[str] = []
    try:
        seal = read_seal(path)
    except JournalDamaged:
        seal = None
        evidence.append(f"its seal {path}.seal is still there")
    if seal is not None:
        evidence.append(f"its seal says it had reached entry {seal.seq}")
    entry = known(path)
    if entry is not None and entry.get("forgotten"):
        return  # `tableside journal forget`: a new journal here on purpose
    if entry is not None:
        evidence.append(f"{path.parent}/.journals says it was created {entry.get('created')}")
    newest = backups(backup_dir)[:1] if backup_dir is not None else []
    if newest:
        evidence.append(f"a backup of it reaches entry {backup_seq(newest[0])}: {newest[0]}")
    if evidence:
        raise refuse(
            path,
            "the journal is missing, though it existed (" + "; ".join(evidence) + ")."
            " To start a new, empty journal on purpose: `tableside journal forget"
            f" {path}` (the backups stay)",
            backup_dir,
        )


def check(path: Path, backup_dir: Path | None) -> Verdict:
    """The journal read-only, before anything writes to it: JournalDamaged on any problem
    (nothing on disk changed), or on a backup that reaches further than the journal (an
    older copy put in its place, its seal deleted)."""
    verdict = inspect(path, full=False)
    if not verdict.ok:
        raise refuse(path, "; ".join(verdict.problems[:5]), backup_dir, verdict)
    other = _another_tables(verdict, backup_dir)
    if other is not None:
        raise refuse(path, other, backup_dir, verdict)
    newer = _newer_backup(verdict, backup_dir)
    if newer is not None:
        raise refuse(path, newer, backup_dir, verdict)
    return verdict


def _another_tables(verdict: Verdict, backup_dir: Path | None) -> str | None:
    """With no id in the folder's marker or the seal to say which journal belongs here, the
    newest backup says it: a journal whose id is not the backups' is another table's."""
    if folder_id(verdict.path) is not None or not verdict.journal_id:
        return None  # the marker or the seal named it (inspect compared them), or no id yet
    newest = backups(backup_dir)[:1] if backup_dir is not None else []
    if not newest:
        return None
    theirs = inspect(newest[0], beside=False, full=False)
    if not theirs.journal_id or theirs.journal_id == verdict.journal_id:
        return None
    return (
        f"this is {verdict.who}, but the backups of this folder's journal ({newest[0]}) are"
        f" {theirs.who}: another table's journal put in its place (move the backups aside if"
        " this journal belongs here now)"
    )


def _newer_backup(verdict: Verdict, backup_dir: Path | None) -> str | None:
    """Whether the newest backup holds this journal and more: then this is an older copy."""
    newest = backups(backup_dir)[:1] if backup_dir is not None else []
    if not newest or (backup_seq(newest[0]) or 0) <= verdict.last_seq:
        return None
    try:
        db = connect_readonly(newest[0])
        try:
            rows = db.execute(
                "SELECT hash FROM entries WHERE seq=? UNION ALL SELECT hash FROM matches"
                " WHERE seq=?",
                (verdict.last_seq, verdict.last_seq),
            ).fetchall()
            further = db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries").fetchone()[0]
            their_id = meta(db, "id")
        finally:
            db.close()
    except sqlite3.Error:
        return None
    if verdict.journal_id and their_id:
        same = verdict.journal_id == their_id
    else:
        same = verdict.last_seq > 0 and any(r[0] == verdict.last_hash for r in rows)
    if not same or further <= verdict.last_seq:
        return None  # another journal's backups, or no further
    return (
        f"the journal ends at entry {verdict.last_seq}, but its backup {newest[0]} reaches"
        f" entry {further}: an older copy was put in its place"
    )


def private(path: Path) -> None:
    make_private(path)
