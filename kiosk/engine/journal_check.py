"""One check of a journal file, used by the start, the backups, `journal restore` and
`tableside journal verify`: `inspect(path)` says what is wrong and where, changing nothing.

What it checks, in order, stopping where the next step could not be trusted:

1. the file itself, before SQLite opens it: a regular file, SQLite's header, and at least one
   page long. SQLite deletes the `-wal` of a database shorter than a page when it opens it, so
   a truncated journal is refused here, its `-wal` kept;
2. `PRAGMA integrity_check`: every page, and every index against its table (`quick_check`
   skips that, and a damaged index made resume read back 1 of 200 events); when an index is
   wrong, what a read through it would lose is named per match;
3. every row, read by a scan of the table (no index can hide one): values of the types the
   journal writes, `data` and `header` JSON objects, then the hash chain (journal_chain.py);
4. the seal beside the journal (its last synced entry) and the chain key's file: the journal
   must reach them;
5. with the director's keys, every row's MAC from each key's first row (journal_key.py).

The file is opened read-only: its `-wal` and every file beside it stay as they were.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.engine.journal_chain import GENESIS, Row, chained_rows, verify_chain
from kiosk.engine.journal_files import JournalDamaged, read_seal
from kiosk.engine.journal_key import DirectorKey, evolve, mac

#: SQLite's header: the magic string, then the page size at offset 16 (1 means 65536) and
#: the write and read versions at 18 and 19 (2: WAL).
MAGIC = b"SQLite format 3\x00"
#: The journal's schema versions this kiosk reads (1: before the chain; 2: chained;
#: 3: chained and keyed).
SCHEMAS = ("1", "2", "3")


@dataclass
class Verdict:
    """What `inspect` found: `problems` (each naming its entry or page) make it not ok;
    `notes` are not faults; `lost` says what a reader would miss."""

    path: Path
    entries: int = 0
    last_seq: int = 0
    last_hash: str = GENESIS
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    #: The first row keyed (meta `key_from`), None for a journal without a key.
    key_from: int | None = None
    #: How many MACs were checked with the director's keys.
    macs: int = 0
    #: Whether the file could be opened by SQLite at all (False: nothing was read).
    opened: bool = False
    #: The journal's id (meta `id`, set when it was created; None before schema 3).
    journal_id: str | None = None
    rows: list[Row] = field(default_factory=list, repr=False)

    @property
    def ok(self) -> bool:
        return not self.problems


def wal_path(path: Path) -> Path:
    return Path(f"{path}-wal")


#: A descriptor per file whose header was read, by (device, inode), kept while a connection
#: of this process may hold the file: closing any descriptor of a file drops every POSIX lock
#: this process holds on it, SQLite's among them (a reader's shared lock: another process
#: then takes its own close for the last one, and checkpoints and deletes the -wal under the
#: kiosk). Closed when the last lasting connection (`hold_file`) lets go; a file only
#: checked (a backup) keeps its descriptor: a check cannot know who else reads it.
_HEADER_FDS: dict[tuple[int, int], int] = {}
#: How many lasting connections of this process (journals, the hall's outbox) hold each file.
_HOLDERS: Counter[tuple[int, int]] = Counter()


def _header(path: Path, info: os.stat_result) -> bytes:
    """The file's first 100 bytes, read without closing a descriptor of a file held open."""
    key = (info.st_dev, info.st_ino)
    fd = _HEADER_FDS.get(key)
    if fd is None:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        opened = os.fstat(fd)
        # Kept under the file it opened (it may have been replaced since the stat); a second
        # descriptor of a file already kept is kept too, for the same reason.
        _HEADER_FDS.setdefault((opened.st_dev, opened.st_ino), fd)
    return os.pread(fd, 100, 0)


def _file_key(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_dev, info.st_ino)


def hold_file(path: Path) -> tuple[int, int] | None:
    """Say a connection of this process to `path` stays open (None: no such file): its header
    descriptor is kept until the last holder lets go (`release_file`)."""
    key = _file_key(path)
    if key is not None:
        _HOLDERS[key] += 1
    return key


def release_file(key: tuple[int, int] | None) -> None:
    """One lasting connection to the file closed; after the last, its header descriptor is
    closed too (kept, it held the file's space after a restore replaced it)."""
    if key is None:
        return
    _HOLDERS[key] -= 1
    if _HOLDERS[key] <= 0:
        del _HOLDERS[key]
        fd = _HEADER_FDS.pop(key, None)
        if fd is not None:
            os.close(fd)


def file_problem(path: Path) -> str | None:
    """What keeps SQLite from being let near the file (None: it may open it)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    wal = wal_path(path)
    wal_size = wal.stat().st_size if wal.is_file() else 0
    kept = f" (its -wal of {wal_size} bytes is kept)" if wal_size else ""
    try:
        head = _header(path, info)
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if len(head) < 100 or not head.startswith(MAGIC):
        if info.st_size < 512:
            return f"truncated to {info.st_size} bytes: not a journal any more{kept}"
        return f"not an SQLite file (its first bytes are damaged){kept}"
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    if page < 512 or page & (page - 1):
        return f"its header is damaged (page size {page}){kept}"
    if info.st_size < page:
        return f"truncated to {info.st_size} bytes: not a journal any more{kept}"
    if wal_size and (head[18], head[19]) != (2, 2):
        # Opened as a rollback journal, SQLite would ignore, then drop, the -wal.
        return f"its header is damaged (not in WAL mode, though a -wal lies beside it){kept}"
    return None


def connect_readonly(path: Path) -> sqlite3.Connection:
    """Read-only. Without a -wal beside it the file is opened immutable: SQLite then makes no
    -wal or -shm beside it either, so reading a journal or a backup leaves no trace."""
    wal = wal_path(path)
    quiet = "&immutable=1" if not (wal.is_file() and wal.stat().st_size) else ""
    return sqlite3.connect(
        f"file:{path}?mode=ro{quiet}", uri=True, isolation_level=None, check_same_thread=False
    )


def _integrity(db: sqlite3.Connection) -> list[str]:
    rows = [str(r[0]) for r in db.execute("PRAGMA integrity_check(20)").fetchall()]
    return [] if rows == ["ok"] else rows


def _index_losses(db: sqlite3.Connection) -> list[str]:
    """Per match, what a read through the entries' index finds against the table's rows."""
    lost: list[str] = []
    try:
        counts = db.execute(
            "SELECT match_id, count(*) FROM entries NOT INDEXED GROUP BY match_id"
        ).fetchall()
    except sqlite3.Error:
        return ["the entries table itself cannot be read whole"]
    for match_id, total in counts:
        try:
            found = db.execute(
                "SELECT count(*) FROM (SELECT seq FROM entries INDEXED BY entries_by_match"
                " WHERE match_id IS ?)",
                (match_id,),
            ).fetchone()[0]
        except sqlite3.Error as exc:
            lost.append(f"match {match_id}: its entries cannot be read by the index ({exc})")
            continue
        if found != total:
            name = "entries outside any match" if match_id is None else f"match {match_id}"
            lost.append(f"{name}: the index finds {found} of its {total} entries")
    return lost


def _meta(db: sqlite3.Connection) -> dict[str, str]:
    return {str(k): str(v) for k, v in db.execute("SELECT key, value FROM meta").fetchall()}


def _number(meta: dict[str, str], key: str, default: int | None) -> int | None:
    value = meta.get(key)
    if value is None:
        return default
    if not value.isdigit() or len(value) > 15:
        raise ValueError(f"meta {key} is {value[:20]!r}, not a number")
    return int(value)


def check_macs(verdict: Verdict, keys: Sequence[DirectorKey]) -> None:
    """Every row from the first key's first row on must carry the MAC its key gives."""
    ordered = sorted(keys, key=lambda k: k.start)
    if not ordered:
        return
    current: bytes | None = None
    current_seq = 0
    index = -1
    bad: list[int] = []
    missing: list[int] = []
    for seq, _prev, digest, _body, row_mac in verdict.rows:
        while index + 1 < len(ordered) and ordered[index + 1].start <= seq:
            index += 1
            current, current_seq = ordered[index].key, ordered[index].start
        if current is None or digest is None:
            continue
        current = evolve(current, seq - current_seq)
        current_seq = seq
        verdict.macs += 1
        if row_mac is None:
            missing.append(seq)
        elif mac(current, digest) != row_mac:
            bad.append(seq)
    for seqs, what in (
        (bad, "its MAC does not match the director's key: changed after it was written"),
        (missing, "no MAC: not keyed, though the director's key covers it"),
    ):
        if seqs:
            where = f"entry {seqs[0]}" if len(seqs) == 1 else f"entries {_ranges(seqs)}"
            verdict.problems.append(f"{where}: {what}")
    first = ordered[0].start
    if first > 1 and verdict.rows and verdict.rows[0][0] < first:
        verdict.notes.append(
            f"entries before number {first} were written before the key: the MAC of entry"
            f" {first} covers them through the chain"
        )


def _ranges(seqs: list[int]) -> str:
    parts: list[str] = []
    start = prev = seqs[0]
    for seq in [*seqs[1:], None]:
        if seq is not None and seq == prev + 1:
            prev = seq
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if seq is not None:
            start = prev = seq
    return ", ".join(parts[:8]) + (" ..." if len(parts) > 8 else "")


def inspect(
    path: str | Path,
    *,
    keys: Sequence[DirectorKey] = (),
    beside: bool = True,
    full: bool = True,
    connection: sqlite3.Connection | None = None,
) -> Verdict:
    """Everything wrong with the journal at `path`, never raising for a bad file. `beside`:
    the seal beside it is the journal's own and is checked (False for a backup). `full`:
    every row's JSON decoded too (the start leaves that to the reads, which refuse a bad row
    by name: a row whose hash checks out holds what the journal wrote). `connection`: a
    connection to use (it is not closed)."""
    verdict = Verdict(Path(path))
    why = file_problem(verdict.path)
    if why is not None:
        verdict.problems.append(why)
        return verdict
    try:
        db = connection or connect_readonly(verdict.path)
    except sqlite3.Error as exc:
        verdict.problems.append(f"cannot open: {exc}")
        return verdict
    try:
        _inspect_db(verdict, db, full)
    except (sqlite3.Error, ValueError, OverflowError, MemoryError) as exc:
        verdict.problems.append(f"cannot read: {str(exc)[:200]}")
    finally:
        if connection is None:
            db.close()
    if not verdict.opened:
        return verdict
    if beside:
        _check_beside(verdict)
    if keys:
        check_macs(verdict, keys)
    elif verdict.key_from is not None:
        verdict.notes.append(
            f"keyed from entry {verdict.key_from}: `--key` with the director's key checks"
            " that no entry was changed and the chain recomputed"
        )
    return verdict


def _inspect_db(verdict: Verdict, db: sqlite3.Connection, full: bool) -> None:
    damage = _integrity(db)
    verdict.opened = True
    if damage:
        verdict.problems.extend(f"damaged: {line}" for line in damage)
        verdict.lost.extend(_index_losses(db))
    meta = _meta(db)
    schema = meta.get("schema")
    if schema not in SCHEMAS:
        verdict.problems.append(f"journal schema {str(schema)[:20]}, this kiosk reads 1 to 3")
        return
    verdict.journal_id = meta.get("id")
    chain_from = _number(meta, "chain_from", 1 if schema != "1" else None)
    verdict.key_from = _number(meta, "key_from", None)
    if chain_from is None:  # schema 1: no chain yet; every row is unchained
        count = db.execute("SELECT count(*) FROM entries").fetchone()[0]
        last = db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries").fetchone()[0]
        verdict.entries, verdict.last_seq = int(count), int(last)
        verdict.notes.append("written before the hash chain existed: its entries are not checked")
        return
    columns = {r[1] for r in db.execute("PRAGMA table_info(entries)")}
    rows, bad = chained_rows(db, keyed="mac" in columns, full=full)
    report = verify_chain(db, chain_from, rows, bad)
    verdict.rows = rows
    verdict.entries, verdict.last_seq, verdict.last_hash = (
        report.rows,
        report.last_seq,
        report.last_hash,
    )
    verdict.problems.extend(report.problems)
    verdict.notes.extend(report.notes)


def _check_beside(verdict: Verdict) -> None:
    path = verdict.path
    try:
        seal = read_seal(path)
    except JournalDamaged as exc:
        verdict.problems.append(str(exc))
        return
    if seal is None:
        verdict.notes.append("no seal beside it: a lost tail cannot be told from an end")
        return
    if verdict.last_seq < seal.seq:
        wal = wal_path(path)
        why = "its -wal is missing" if not wal.exists() else "an older copy?"
        verdict.problems.append(
            f"entries {verdict.last_seq + 1}-{seal.seq}: lost (the journal had reached entry"
            f" {seal.seq}; {why})"
        )
        verdict.lost.append(f"entries {verdict.last_seq + 1}-{seal.seq}")
    elif seal.seq > 0:
        held = next((r for r in verdict.rows if r[0] == seal.seq), None)
        if held is None or (held[2] or "") != seal.hash:
            verdict.problems.append(
                f"entry {seal.seq}: not the one the seal says was written there (another"
                " journal's copy?)"
            )
    if verdict.key_from is not None and seal.key is None:
        verdict.notes.append("the seal holds no chain key: the next start keys on with a new one")


def sizes(path: Path) -> str:
    """The journal's files and their sizes, for a message."""
    found = []
    for suffix in ("", "-wal"):
        name = Path(f"{path}{suffix}")
        if name.exists():
            found.append(f"{name.name} {os.path.getsize(name)} bytes")
    return ", ".join(found)


def chain_heads(path: str | Path) -> dict[int, str]:
    """Every row's chain hash by its sequence number, read as `inspect` reads them (for a
    witness that kept the hashes it was sent, such as the hall, to compare with a journal).
    Rows that cannot be read are left out: `inspect` names them."""
    verdict = inspect(Path(path), beside=False, full=False)
    return {seq: digest for seq, _prev, digest, _body, _mac in verdict.rows if digest}
