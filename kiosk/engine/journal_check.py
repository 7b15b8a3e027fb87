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
4. the seal beside the journal (its last synced entry, the journal's id, where its chain and key
   begin) and the folder's marker (the journal's id, how far it had reached): the journal must
   reach them and be the one they name;
5. with the director's keys, the chain again from where the first key says it begins, every
   row's MAC from each key's first row (journal_key.py), and the seal's chain key: whatever
   the journal's own `meta` says, so that moving `chain_from` or `key_from`, cutting the tail
   or laying another seal beside it is named by its entry.

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
from kiosk.engine.journal_files import NO_ID, JournalDamaged, Seal, described, known, read_seal
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
    #: The journal's id (meta `id`, set when it was created, or at the first start of a
    #: journal made before ids; None: not yet).
    journal_id: str | None = None
    #: The table the journal was made for (meta `table`, `[hall] table_id`; None: not named).
    table: str | None = None
    #: The journal's schema and where its own meta says the chain begins (None: unchained).
    schema: str | None = None
    chain_from: int | None = None
    rows: list[Row] = field(default_factory=list, repr=False)

    @property
    def who(self) -> str:
        """The journal by its table and id, for a refusal."""
        return described(self.journal_id, self.table)

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


def check_keys(verdict: Verdict, keys: Sequence[DirectorKey], beside: bool = True) -> None:
    """What the director's keys show: the chain checked again from where the first key says
    it begins (not where the file's meta says), `meta` against the key, every row from each
    key's first row on carrying the MAC its key gives, and the seal's chain key. Each
    problem names its entry."""
    ordered = sorted(keys, key=lambda k: k.start)
    if not ordered:
        return
    first = ordered[0]
    found = len(verdict.problems)
    _check_start(verdict, first)
    start = first.chain_from if first.chain_from is not None else first.start
    if verdict.chain_from is not None:
        start = min(start, verdict.chain_from)
    if verdict.rows:
        again = verify_chain(None, start, verdict.rows)
        verdict.problems.extend(p for p in again.problems if p not in verdict.problems)
    elif verdict.opened:
        verdict.problems.append(
            f"entry {first.start}: the director's key keys the journal from there, but no row"
            " with a hash could be read"
        )
    bad, missing = _macs(verdict, ordered)
    for seqs, what in (
        (bad, "its MAC does not match the director's key: changed after it was written"),
        (missing, "no MAC: not keyed, though the director's key covers it"),
    ):
        if seqs:
            where = f"entry {seqs[0]}" if len(seqs) == 1 else f"entries {_ranges(seqs)}"
            verdict.problems.append(f"{where}: {what}")
    if beside:
        _check_seal_key(verdict, ordered)
    if len(verdict.problems) > found:
        verdict.macs = 0  # nothing was verified with the key
    if first.start > 1 and verdict.rows and verdict.rows[0][0] < first.start:
        verdict.notes.append(
            f"entries before number {first.start} were written before the key: the MAC of"
            f" entry {first.start} covers them through the chain"
        )


def _check_start(verdict: Verdict, first: DirectorKey) -> None:
    """The journal's meta against where the director's first key says the chain and the key
    begin (a journal is always chained before it is keyed)."""
    if verdict.schema != "3":
        verdict.problems.append(
            f"entry {first.start}: the director's key keys the journal from there, but the"
            f" journal says it is of schema {str(verdict.schema)[:12]}, before keys: its meta"
            " was changed"
        )
    chain_from = verdict.chain_from
    if first.chain_from is not None and chain_from != first.chain_from:
        verdict.problems.append(
            f"entry {first.chain_from}: the director's key says the chain begins there, but"
            f" the journal's meta chain_from says {chain_from}: moved, so that the entries"
            " between are not checked"
        )
    elif first.chain_from is None and (chain_from is None or chain_from > first.start):
        verdict.problems.append(
            f"entry {first.start}: the director's key keys the journal from there, but the"
            f" journal's meta chain_from says {chain_from}: the chain cannot begin after the"
            " key (moved)"
        )
    key_from = verdict.key_from
    if key_from is None:
        verdict.problems.append(
            f"entry {first.start}: the director's key keys the journal from there, but the"
            " journal's meta key_from was deleted"
        )
    elif key_from > first.start:
        verdict.problems.append(
            f"entry {first.start}: the director's key keys the journal from there, but the"
            f" journal's meta key_from says {key_from}: moved"
        )


def _macs(verdict: Verdict, ordered: list[DirectorKey]) -> tuple[list[int], list[int]]:
    """The rows whose MAC is wrong, and those without one, from the first key's row on."""
    current: bytes | None = None
    current_seq = 0
    index = -1
    bad: list[int] = []
    missing: list[int] = []
    for seq, _prev, digest, _body, row_mac in verdict.rows:
        while index + 1 < len(ordered) and ordered[index + 1].start <= seq:
            index += 1
            current, current_seq = ordered[index].key, ordered[index].start
        if current is None:
            continue
        current = evolve(current, seq - current_seq)
        current_seq = seq
        verdict.macs += 1
        if row_mac is None or digest is None:
            missing.append(seq)
        elif mac(current, digest) != row_mac:
            bad.append(seq)
    return bad, missing


def _key_at(ordered: list[DirectorKey], seq: int) -> bytes | None:
    """The chain key of row `seq` from the director's keys (None: before the first)."""
    covering = [k for k in ordered if k.start <= seq]
    return covering[-1].at(seq) if covering else None


def _check_seal_key(verdict: Verdict, ordered: list[DirectorKey]) -> None:
    """The seal must hold the next row's key, which only the director's key derives: a seal
    rewritten over a cut tail, or another journal's seal, cannot."""
    try:
        seal = read_seal(verdict.path)
    except JournalDamaged:
        return  # named already
    if seal is None:
        if known(verdict.path) is not None:
            verdict.problems.append(
                f"entry {verdict.last_seq}: no seal beside the journal, though its folder's"
                " marker names it: with the director's key its end cannot be confirmed (a tail"
                " cut off, its seal deleted?)"
            )
        return
    expected = _key_at(ordered, seal.seq + 1)
    if expected is None:
        return
    if seal.key is None:
        verdict.problems.append(
            f"entry {seal.seq}: the seal holds no chain key, so the journal's end cannot be"
            " confirmed with the director's key (a seal written over a cut tail?)"
        )
    elif seal.key != expected:
        verdict.problems.append(
            f"entry {seal.seq}: the seal's chain key is not the one the director's key gives"
            f" after entry {seal.seq}: the seal was replaced (a tail cut off, another journal's"
            " seal, or a later key the director was not given)"
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
    keyed = bool(keys)
    if why is not None:
        verdict.problems.append(why)
        return verdict
    try:
        db = connection or connect_readonly(verdict.path)
    except sqlite3.Error as exc:
        verdict.problems.append(f"cannot open: {exc}")
        return verdict
    try:
        _inspect_db(verdict, db, full, keyed)
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
        check_keys(verdict, keys, beside)
    elif verdict.key_from is not None:
        verdict.notes.append(
            f"keyed from entry {verdict.key_from}: `--key` with the director's key checks"
            " that no entry was changed and the chain recomputed"
        )
    return verdict


def _inspect_db(verdict: Verdict, db: sqlite3.Connection, full: bool, keyed: bool) -> None:
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
    verdict.table = meta.get("table") or None
    verdict.schema = schema
    chain_from = _number(meta, "chain_from", 1 if schema != "1" else None)
    verdict.chain_from = chain_from
    verdict.key_from = _number(meta, "key_from", None)
    columns = {r[1] for r in db.execute("PRAGMA table_info(entries)")}
    if chain_from is None and keyed and "hash" in columns:
        # The director's key says the journal is keyed: its rows are read whatever the meta
        # says of its schema, and checked from where the key says (check_keys).
        verdict.rows, bad = chained_rows(db, keyed="mac" in columns, full=full)
        verdict.problems.extend(bad)
    if chain_from is None:  # schema 1: no chain yet; every row is unchained
        count = db.execute("SELECT count(*) FROM entries").fetchone()[0]
        last = db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries").fetchone()[0]
        verdict.entries, verdict.last_seq = int(count), int(last)
        verdict.notes.append("written before the hash chain existed: its entries are not checked")
        return
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


def _check_seal_names(verdict: Verdict, seal: Seal) -> None:
    """The seal records the journal's id and where its chain and its key begin: the journal
    must be the one it names, from the start it names (None in a seal: not recorded yet)."""
    if seal.journal_id and verdict.journal_id and seal.journal_id != verdict.journal_id:
        verdict.problems.append(
            f"entry {seal.seq}: the seal beside it is {described(seal.journal_id, seal.table)},"
            f" this is {verdict.who}: another journal put in its place, or another seal"
        )
        return
    for name, recorded, meta in (
        ("chain_from", seal.chain_from, verdict.chain_from),
        ("key_from", seal.key_from, verdict.key_from),
    ):
        if recorded is not None and meta != recorded:
            says = "was deleted" if meta is None else f"says {meta}: moved in the file"
            verdict.problems.append(
                f"entry {recorded}: the seal says the journal's {name.replace('_from', '')}"
                f" begins there, but its meta {name} {says}"
            )


def _check_marker(verdict: Verdict) -> None:
    """The folder's marker: the journal here must be the one created here (its id), and reach
    as far as the marker says it had, with the same entry there."""
    entry = known(verdict.path)
    if entry is None:
        return
    marked = entry.get("id")
    table = entry.get("table")
    if (
        isinstance(marked, str)
        and marked != NO_ID
        and verdict.journal_id
        and marked != verdict.journal_id
    ):
        verdict.problems.append(
            f"this is {verdict.who}, but {verdict.path.parent}/.journals says this folder's"
            f" journal is {described(marked, table if isinstance(table, str) else None)}:"
            " another table's journal put in its place"
        )
        return
    reached = entry.get("reached")
    if not (isinstance(reached, list) and len(reached) == 2 and type(reached[0]) is int):
        return
    seq, digest = reached
    if seq > verdict.last_seq:
        gap = (
            f"entry {seq}"
            if seq == verdict.last_seq + 1
            else f"entries {verdict.last_seq + 1}-{seq}"
        )
        verdict.problems.append(
            f"{gap}: lost (the journal ends at entry {verdict.last_seq}, but it had reached"
            f" entry {seq}, {verdict.path.parent}/.journals): an older copy was put in its"
            " place, or its tail was cut"
        )
        verdict.lost.append(f"entries {verdict.last_seq + 1}-{seq}")
        return
    held = next((r for r in verdict.rows if r[0] == seq), None)
    if seq > 0 and held is not None and isinstance(digest, str) and (held[2] or "") != digest:
        verdict.problems.append(
            f"entry {seq}: not the one {verdict.path.parent}/.journals says the journal here"
            " held: another journal put in its place"
        )


def _check_beside(verdict: Verdict) -> None:
    path = verdict.path
    _check_marker(verdict)
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
    _check_seal_names(verdict, seal)
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
