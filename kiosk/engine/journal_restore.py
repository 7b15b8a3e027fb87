"""Putting a backup in place of a journal (`tableside journal restore BACKUP JOURNAL`).

The backup must pass every check (journal_check.inspect). A journal that itself checks out and
reaches as far as the backup is not replaced unless forced; nor is a journal by another table's
backup (their ids differ: the journal's, or what the folder's marker and the seal say belongs
there), unless forced, and then the restore says what it replaced. Every refusal names both.
The new journal is built whole beside the old one first: the backup copied with SQLite's
backup API, then every later entry the old journal and its `-wal` still hold whose chain goes
on from the backup's last entry ("salvaged": read from copies, so the old files are never
opened for writing), checked again.
Only then is it put in place, in steps a crash can interrupt anywhere:

1. `journal.db.restoring` is written (synced): what is being done, and the new seal;
2. the old files are kept under `<name>.replaced-<UTC time>` (hard links: the old journal stays
   whole under its own name too);
3. the old `-wal` and `-shm` are removed (SQLite would replay them onto the new file);
4. the new file is renamed over `journal.db` (synced);
5. the seal is written, and the director's key when the chain needs a new one;
6. `journal.db.restoring` is removed.

Before step 1 the old journal is untouched; after it, the next start (or the next restore)
finishes steps 2-6 from the intent file (`finish_interrupted_restore`): there is always the old
journal or the new, never none. `AFTER_STEP` is called after each step (tests kill the process
there).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.atomic import fsync_path, replace_synced, write_atomic
from kiosk.engine.journal_chain import GENESIS, recompute
from kiosk.engine.journal_check import Verdict, connect_readonly, file_problem, inspect
from kiosk.engine.journal_files import (
    JournalError,
    Lock,
    Seal,
    mark_id,
    mark_reached,
    private_file,
    read_seal,
    seal_path,
    write_seal,
)
from kiosk.engine.journal_key import DirectorKey, give_to_director, new_key

#: Called with each step's name once it is done (a test's hook; nothing in the kiosk).
AFTER_STEP: Callable[[str], None] = lambda _step: None  # noqa: E731

_SUFFIXES = ("", "-wal", ".seal")


@dataclass
class Restored:
    """What a restore did: the files kept, the entries taken back from the old journal."""

    kept: list[Path] = field(default_factory=list)
    salvaged: int = 0
    last_seq: int = 0
    new_key: str | None = None
    #: With `force`, another table's journal replaced: what was replaced by what, in words.
    replaced: str | None = None


def intent_path(journal: Path) -> Path:
    return Path(f"{journal}.restoring")


def building_path(journal: Path) -> Path:
    return journal.with_name(f".{journal.name}.restore")


def restore(backup: Path, journal: Path, *, force: bool = False) -> Restored:
    """Put `backup` (with what the old journal still holds after it) in place of `journal`.
    JournalError if the backup does not check out, the journal is held, or the journal is
    healthy and reaches as far as the backup (unless `force`)."""
    verdict = inspect(backup, beside=False)
    if not verdict.ok:
        raise JournalError(f"{backup}: not a good backup: {'; '.join(verdict.problems[:3])}")
    journal.parent.mkdir(parents=True, exist_ok=True)
    lock = Lock(journal)  # JournalLocked if a kiosk runs on it
    try:
        finish_interrupted_restore(journal, lock)
        current: Verdict | None = None
        if journal.exists():
            lock.hold()  # a kiosk whose lock file was deleted holds the journal itself
            current = inspect(journal)
        done = Restored()
        done.replaced = _another_table(backup, verdict, journal, current, force)
        if (
            current is not None
            and current.ok
            and current.last_seq >= verdict.last_seq
            and not force
        ):
            raise JournalError(
                f"{journal}: it checks out and reaches entry {current.last_seq}; the backup"
                f" {backup} reaches entry {verdict.last_seq}: not replaced (`--force`"
                " replaces it all the same, keeping it beside)"
            )
        identity = _identity(verdict, journal, current, bool(done.replaced))
        for stale in journal.parent.glob("tableside-salvage-*"):
            shutil.rmtree(stale, ignore_errors=True)  # a restore killed while it salvaged
        building = building_path(journal)
        seal = _build(backup, journal, building, verdict, done, identity)
        AFTER_STEP("built")
        stamp = _unused_stamp(journal)
        intent: dict[str, Any] = {"stamp": stamp, "seq": seal.seq, "hash": seal.hash}
        intent["key"] = None if seal.key is None else seal.key.hex()
        intent["new_key"] = done.new_key
        intent.update(
            id=seal.journal_id,
            table=seal.table,
            chain_from=seal.chain_from,
            key_from=seal.key_from,
        )
        write_atomic(intent_path(journal), json.dumps(intent))
        AFTER_STEP("intent")
        done.kept = _finish(journal, intent, lock)
        return done
    finally:
        lock.release()


def _another_table(
    backup: Path, verdict: Verdict, journal: Path, current: Verdict | None, force: bool
) -> str | None:
    """Whether `backup` is another table's journal than the one at `journal` (its id, or
    what the folder's marker and the seal say belongs there): JournalError naming both unless
    `force`; with it, what is replaced by what, in words (None: the same journal, or nothing
    says otherwise)."""
    from kiosk.engine.journal_store import folder_id, folder_who

    theirs = verdict.journal_id
    ours = (current.journal_id if current is not None else None) or folder_id(journal)
    if not theirs or not ours or theirs == ours:
        return None
    here = current.who if current is not None and current.journal_id else folder_who(journal)
    reach = f", up to entry {current.last_seq}" if current is not None and current.opened else ""
    if not force:
        raise JournalError(
            f"{journal}: the backup {backup} is {verdict.who} (up to entry {verdict.last_seq}),"
            f" but {journal} is {here}{reach}: another table's backup, not restored (`--force`"
            f" replaces {here} with {verdict.who}, keeping the old files beside it)"
        )
    return f"replaces {here}{reach} with {verdict.who}, up to entry {verdict.last_seq}"


@dataclass(frozen=True, slots=True)
class _Identity:
    """Which journal the restored one is: its id (kept from the backup, else the one that
    belongs here) and its table."""

    journal_id: str | None
    table: str | None


def _identity(
    verdict: Verdict, journal: Path, current: Verdict | None, replaced: bool
) -> _Identity:
    from kiosk.engine.journal_store import folder_id

    here = current if current is not None and current.journal_id else None
    ours = here.journal_id if here is not None else folder_id(journal)
    table = verdict.table or (here.table if here is not None and not replaced else None)
    return _Identity(verdict.journal_id or ours, table)


def _unused_stamp(journal: Path) -> str:
    """The UTC time for the names of the files kept, unused by an earlier restore."""
    stamp = base = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    number = 1
    while any(Path(f"{journal}{s}.replaced-{stamp}").exists() for s in _SUFFIXES):
        number += 1
        stamp = f"{base}-{number}"
    return stamp


def finish_interrupted_restore(journal: Path, lock: Lock | None = None) -> bool:
    """Finish a restore a crash interrupted after its step 1 (the caller holds the lock file);
    True if there was one."""
    path = intent_path(journal)
    try:
        intent = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(intent, dict) or type(intent.get("seq")) is not int:
            raise ValueError("not a restore's intent")
    except FileNotFoundError:
        return False
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise JournalError(f"{path}: an interrupted restore cannot be finished: {exc}") from None
    _finish(journal, intent, lock)
    return True


def _finish(journal: Path, intent: dict[str, Any], lock: Lock | None) -> list[Path]:
    building = building_path(journal)
    kept: list[Path] = []
    if building.exists():  # not yet renamed: journal.db, if any, is the old one
        for suffix in _SUFFIXES:
            old = Path(f"{journal}{suffix}")
            target = Path(f"{journal}{suffix}.replaced-{intent['stamp']}")
            if old.exists() and not target.exists():
                _keep(old, target)
            if target.exists():
                kept.append(target)
        fsync_path(journal.parent)
        AFTER_STEP("kept")
        if lock is not None:
            lock.let_go_of_file()
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f"{journal}{suffix}")
        fsync_path(journal.parent)
        AFTER_STEP("wal removed")
        replace_synced(building, journal)
        AFTER_STEP("renamed")
    key = bytes.fromhex(intent["key"]) if intent.get("key") else None
    names = {name: intent.get(name) for name in ("id", "table", "chain_from", "key_from")}
    write_seal(
        journal,
        Seal(
            intent["seq"],
            intent["hash"],
            key,
            names["id"] if isinstance(names["id"], str) else None,
            names["chain_from"] if type(names["chain_from"]) is int else None,
            names["key_from"] if type(names["key_from"]) is int else None,
            names["table"] if isinstance(names["table"], str) else None,
        ),
    )
    if isinstance(names["id"], str):
        mark_id(journal, names["id"], names["table"] if isinstance(names["table"], str) else None)
    mark_reached(journal, intent["seq"], intent["hash"])
    if intent.get("new_key"):
        from kiosk.engine.journal_key import parse_key

        give_to_director(journal, parse_key(intent["new_key"]))
    fsync_path(journal.parent)
    AFTER_STEP("sealed")
    intent_path(journal).unlink()
    fsync_path(journal.parent)
    AFTER_STEP("done")
    return kept


def _keep(old: Path, target: Path) -> None:
    """`old` kept as `target` as well (a hard link; a copy where links are refused)."""
    try:
        os.link(old, target)
    except OSError:
        partial = target.with_name(f".{target.name}.part")
        shutil.copyfile(old, partial)
        replace_synced(partial, target)


def _build(
    backup: Path,
    journal: Path,
    building: Path,
    verdict: Verdict,
    done: Restored,
    identity: _Identity,
) -> Seal:
    """The new journal, complete and checked, at `building`; its seal."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{building}{suffix}")
    private_file(building)
    source = connect_readonly(backup)
    copy = sqlite3.connect(building, isolation_level=None)
    try:
        source.backup(copy)
        source.close()
        from kiosk.engine.journal_store import ensure_identity, migrate

        copy.execute("PRAGMA journal_mode=WAL")
        migrate(copy, building)
        if identity.journal_id and not verdict.journal_id:  # a backup made before ids
            copy.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('id', ?)", (identity.journal_id,)
            )
        ensure_identity(copy, identity.table)
        rows, finished = salvage(journal, backup, verdict.last_seq, verdict.last_hash)
        _insert(copy, rows, finished)
        done.salvaged = len(rows)
        copy.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        copy.close()
        with contextlib.suppress(sqlite3.Error):
            source.close()
    check = inspect(building, beside=False)
    if not check.ok:
        raise JournalError(f"{building}: the restored journal does not check out: {check.problems}")
    done.last_seq = check.last_seq
    names = (check.journal_id, check.chain_from, check.key_from, check.table)
    old = _old_seal(journal)
    if (
        old is not None
        and old.seq == check.last_seq
        and old.hash == check.last_hash
        and old.key
        and not done.replaced
    ):
        return Seal(check.last_seq, check.last_hash, old.key, *names)  # the key goes on
    first: DirectorKey = new_key(check.last_seq + 1, check.chain_from)
    done.new_key = first.text()
    return Seal(check.last_seq, check.last_hash, first.key, *names)


def _old_seal(journal: Path) -> Seal | None:
    try:
        return read_seal(journal)
    except JournalError:
        return None


# -- salvage: what the old journal still holds after the backup ------------------------------

_ENTRY_COLUMNS = "seq, match_id, t, wall, source, kind, data, prev, hash"
_MATCH_COLUMNS = "seq, id, kind, header, wall_start, prev, hash, finished"


Salvaged = list[tuple[str, tuple[Any, ...]]]


def salvage(
    journal: Path, backup: Path, after: int, after_hash: str
) -> tuple[Salvaged, dict[int, int]]:
    """The rows after entry `after` that chain on from `after_hash`, from the old journal
    (with its -wal), or from its -wal laid over the backup when journal.db itself is lost:
    whichever gives more; and which matches that copy says are finished (a match's end is a
    mark, not a row of the chain). Read from copies in a temporary folder, never from the
    files."""
    best: Salvaged = []
    flags: dict[int, int] = {}
    wal = Path(f"{journal}-wal")
    with tempfile.TemporaryDirectory(prefix="tableside-salvage-", dir=journal.parent) as folder:
        candidates: list[Path] = []
        if journal.is_file() and file_problem(journal) is None:
            candidates.append(_copy_pair(journal, wal, Path(folder) / "old.db"))
        if wal.is_file() and wal.stat().st_size:
            over = Path(folder) / "over.db"
            shutil.copyfile(backup, over)
            with open(over, "r+b") as handle:  # the backup in WAL mode, so the -wal is read
                handle.seek(18)
                handle.write(b"\x02\x02")
            shutil.copyfile(wal, f"{over}-wal")
            candidates.append(over)
        for candidate in candidates:
            rows, finished = _chained_after(candidate, after, after_hash)
            if len(rows) > len(best) or (len(rows) == len(best) and not flags):
                best, flags = rows, finished
    return best, flags


def _copy_pair(db: Path, wal: Path, to: Path) -> Path:
    shutil.copyfile(db, to)
    if wal.is_file():
        shutil.copyfile(wal, f"{to}-wal")
    return to


def _chained_after(path: Path, after: int, after_hash: str) -> tuple[Salvaged, dict[int, int]]:
    """The rows of `path` numbered after `after`, in order, as long as each follows the one
    before by its chain (a damaged page ends the reading, not the restore); and the matches'
    finished marks it holds."""
    found: dict[int, tuple[str, tuple[Any, ...]]] = {}
    flags: dict[int, int] = {}
    try:
        db = connect_readonly(path)
    except sqlite3.Error:
        return [], {}
    try:
        if after:  # the same journal as the backup: it holds the backup's last row as it is
            same = db.execute(
                "SELECT hash FROM entries WHERE seq=? UNION ALL SELECT hash FROM matches"
                " WHERE seq=?",
                (after, after),
            ).fetchall()
            if (after_hash,) not in same:
                return [], {}
        with contextlib.suppress(sqlite3.Error):
            for match_id, finished in db.execute("SELECT id, finished FROM matches NOT INDEXED"):
                if type(match_id) is int and finished in (0, 1):
                    flags[match_id] = finished
        columns = {r[1] for r in db.execute("PRAGMA table_info(entries)")}
        mac = ", mac" if "mac" in columns else ", NULL"
        for table, names in (("entries", _ENTRY_COLUMNS), ("matches", _MATCH_COLUMNS)):
            try:
                cursor = db.execute(
                    f"SELECT {names}{mac} FROM {table} NOT INDEXED WHERE seq > ?", (after,)
                )
                for row in cursor:
                    if type(row[0]) is int:
                        found.setdefault(row[0], (table, tuple(row)))
            except sqlite3.Error:
                continue  # what was read before the damaged page is kept
    except sqlite3.Error:
        return [], {}
    finally:
        db.close()
    rows: Salvaged = []
    expected, prev = after + 1, after_hash or GENESIS
    while expected in found:
        table, row = found[expected]
        try:
            if table == "entries":
                seq, mid, t, wall, source, kind, data, row_prev, digest, _m = row
                body: tuple[Any, ...] = ("entry", mid, t, wall, source, kind, data)
            else:
                seq, mid, kind, header, wall, row_prev, digest, _f, _m = row
                body = ("match", mid, kind, header, wall)
            if (row_prev or GENESIS) != prev or recompute(prev, seq, body) != digest:
                break
        except (TypeError, ValueError):
            break
        rows.append((table, row))
        expected, prev = expected + 1, digest
    return rows, flags


def _insert(db: sqlite3.Connection, rows: Salvaged, finished: dict[int, int]) -> None:
    db.execute("BEGIN IMMEDIATE")
    for table, row in rows:
        if table == "entries":
            db.execute(
                "INSERT INTO entries (seq, match_id, t, wall, source, kind, data, prev, hash, mac)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
        else:
            seq, mid, kind, header, wall, prev, digest, done, row_mac = row
            db.execute(
                "INSERT INTO matches (id, kind, header, wall_start, finished, seq, prev, hash, mac)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (mid, kind, header, wall, done, seq, prev, digest, row_mac),
            )
    for match_id, flag in finished.items():
        db.execute("UPDATE matches SET finished=? WHERE id=?", (flag, match_id))
    db.execute("COMMIT")


__all__ = [
    "AFTER_STEP",
    "Restored",
    "finish_interrupted_restore",
    "restore",
    "salvage",
    "seal_path",
]
