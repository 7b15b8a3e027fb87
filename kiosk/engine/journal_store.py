"""Opening the journal's SQLite file: create it whole, migrate it, check it at start.

A new journal is built under a temporary name and renamed into place once its schema is
committed, so `journal.db` never exists empty: a journal of 0 or a few bytes was truncated and
is refused. At start `check` runs PRAGMA quick_check, the hash chain and the seal
(journal_files.py); any failure is a JournalDamaged naming what is wrong, the sequence number
where, and the newest backup that itself checks out.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from kiosk.engine.journal_chain import ChainReport, verify_chain
from kiosk.engine.journal_files import (
    JournalDamaged,
    JournalError,
    Seal,
    backups,
    make_private,
    private_file,
    read_seal,
)

SCHEMA_VERSION = 2

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
    hash TEXT
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
    hash TEXT
);
CREATE INDEX IF NOT EXISTS entries_by_match ON entries (match_id, seq);
"""

#: The smallest SQLite file there is: one page of 512 bytes.
SMALLEST = 512


def connect(path: Path, *, readonly: bool = False) -> sqlite3.Connection:
    if readonly:
        db = sqlite3.connect(
            f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
        )
    else:
        # isolation_level=None: we issue BEGIN/COMMIT ourselves, one transaction per flush.
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10.0)
    try:
        if not readonly:
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError(f"{path}: the journal needs WAL mode, got {mode!r}")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        db.close()
        raise
    return db


def create(path: Path) -> None:
    """A new, empty journal at `path`, built aside and renamed into place whole."""
    temporary = path.with_name(f".{path.name}.new")
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{temporary}{suffix}")
    private_file(temporary)
    db = connect(temporary)
    try:
        db.executescript(SCHEMA)
        db.execute("INSERT INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        db.execute("INSERT INTO meta (key, value) VALUES ('chain_from', '1')")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()
    os.replace(temporary, path)
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)  # the new name is on disk too
    finally:
        os.close(fd)


def meta(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
    return None if row is None else str(row[0])


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Schema 1 (no hashes) to 2: add the chain's columns; rows already there stay unchained
    (`chain_from` is the first number chained)."""
    version = meta(db, "schema")
    if version == str(SCHEMA_VERSION):
        return
    if version != "1":
        raise JournalError(
            f"{path}: journal schema {version}, this kiosk reads {SCHEMA_VERSION} (and 1)"
        )
    db.execute("BEGIN IMMEDIATE")
    try:
        for table, column in (
            ("entries", "prev"),
            ("entries", "hash"),
            ("matches", "seq"),
            ("matches", "prev"),
            ("matches", "hash"),
        ):
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {_type(column)}")
        last = db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries").fetchone()[0]
        db.execute("INSERT OR REPLACE INTO meta VALUES ('chain_from', ?)", (str(last + 1),))
        db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _type(column: str) -> str:
    return "INTEGER" if column == "seq" else "TEXT"


def chain_from(db: sqlite3.Connection) -> int:
    value = meta(db, "chain_from")
    return 1 if value is None else int(value)


def last_good_backup(folder: Path | None) -> Path | None:
    """The newest backup in `folder` that passes quick_check and its chain."""
    if folder is None:
        return None
    for candidate in backups(folder):
        try:
            db = connect(candidate, readonly=True)
        except sqlite3.Error:
            continue
        try:
            if _quick_check(db) == [] and verify_chain(db, chain_from(db)).ok:
                return candidate
        except (sqlite3.Error, ValueError):
            continue
        finally:
            db.close()
    return None


def _quick_check(db: sqlite3.Connection) -> list[str]:
    rows = [str(r[0]) for r in db.execute("PRAGMA quick_check(20)").fetchall()]
    return [] if rows == ["ok"] else rows


def refuse(path: Path, what: str, backup_dir: Path | None) -> JournalDamaged:
    backup = last_good_backup(backup_dir)
    if backup is not None:
        where = f"the last good backup is {backup}"
    elif backup_dir is not None:
        where = f"no good backup in {backup_dir}"
    else:
        where = "no backup folder is set ([journal] backup_dir)"
    return JournalDamaged(
        f"{path}: {what}. The kiosk will not start on it as if it were empty; {where}."
        " Check a copy with `tableside journal verify FILE`; put a backup in its place with"
        " `tableside journal restore BACKUP JOURNAL`.",
        backup,
    )


def before_open(path: Path, backup_dir: Path | None) -> tuple[Seal | None, bool]:
    """What must hold before SQLite touches the file: a sealed journal still exists and is
    not truncated. Returns the seal and whether a -wal file was there."""
    seal = read_seal(path)
    exists = path.exists()
    if exists and not path.is_file():
        raise JournalError(f"{path}: not a regular file")
    if not exists and seal is not None:
        raise refuse(
            path, f"the journal is missing, though it had reached entry {seal.seq}", backup_dir
        )
    if exists:
        size = path.stat().st_size
        wal = Path(f"{path}-wal")
        if size < SMALLEST and not (wal.exists() and wal.stat().st_size > 0):
            raise refuse(path, f"the journal was truncated to {size} bytes", backup_dir)
    return seal, Path(f"{path}-wal").exists()


def check(
    db: sqlite3.Connection, path: Path, seal: Seal | None, backup_dir: Path | None, had_wal: bool
) -> ChainReport:
    """quick_check, the chain and the seal; JournalDamaged on any failure."""
    problems = _quick_check(db)
    if problems:
        raise refuse(path, "the file is damaged (" + "; ".join(problems[:3]) + ")", backup_dir)
    report = verify_chain(db, chain_from(db))
    if not report.ok:
        raise refuse(path, "; ".join(report.problems[:5]), backup_dir)
    if seal is not None:
        if report.last_seq < seal.seq:
            lost_wal = "" if had_wal else " (its -wal file is missing)"
            raise refuse(
                path,
                f"the journal ends at entry {report.last_seq} but it had reached entry"
                f" {seal.seq}{lost_wal}: entries {report.last_seq + 1}-{seal.seq} are lost",
                backup_dir,
            )
        row = db.execute(
            "SELECT hash FROM entries WHERE seq=? UNION ALL SELECT hash FROM matches WHERE seq=?",
            (seal.seq, seal.seq),
        ).fetchone()
        if seal.seq > 0 and (row is None or (row[0] or "") != seal.hash):
            raise refuse(
                path,
                f"entry {seal.seq} is not the one written there (another journal's copy?)",
                backup_dir,
            )
    make_private(path)
    return report
