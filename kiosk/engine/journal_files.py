"""The files beside the journal: the lock, the seal, the marker, the rolling backups.

- The lock: an exclusive `flock` on `journal.db` itself for as long as a kiosk has it open, so
  deleting a file cannot let a second kiosk in. `journal.db.lock` is flocked first (it guards
  the journal's creation and a restore) and says who holds it (pid, host, since), so a second
  kiosk on the same journal is refused by name.
- `journal.db.seal` records the last sequence number and hash known to be on disk, the
  chain key of the next row (journal_key.py), the journal's id and table, and where its chain
  and its key begin. It is replaced atomically (write, fsync, rename) after every synced
  write. At start the journal must reach at least that number with that hash, and be the
  journal the seal names, from the start the seal names: a lost `-wal`, a file truncated to
  nothing, an older copy or another table's journal put in its place, or `meta.chain_from`
  moved, is then found, never taken for this journal.
- `.journals` in the journal's folder (beside the settings) names every journal created there,
  with its id and table: a journal that existed is never replaced by a new, empty one, or by
  another table's, in silence, whatever was deleted.
- Backups are whole copies made with SQLite's online backup API into `[journal] backup_dir`,
  named by their last sequence number; the newest few are kept.

Every file here is created 0600 whatever the umask: the journal holds the umpire's PIN
actions and the players' names.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from kiosk.atomic import PRIVATE, private_dir, replace_synced, write_atomic
from kiosk.errors import N_, Reason, TablesideError

# The interface's words for a journal held by another kiosk (babel.cfg reads this file).
LOCKED = N_(
    "The journal is in use by another kiosk: stop it first, or give this one another data folder"
)
LOCKED_BY = N_(
    "The journal is in use by another kiosk (process {pid} on {host}, since {since}): stop it"
    " first, or give this one another data folder"
)


class JournalError(TablesideError, RuntimeError):
    """The journal cannot be opened or read (names the file and what is wrong); `reason`,
    when given, the facts the interface words it from (kiosk/engine/journal_faults.py)."""

    def __init__(self, message: str, reason: Reason | None = None) -> None:
        super().__init__(message)
        self.reason = reason


class JournalLocked(JournalError):
    """Another process holds the journal."""


class JournalDamaged(JournalError):
    """The journal failed its check at start: what is wrong, where, and the last good backup."""

    def __init__(self, message: str, backup: Path | None = None) -> None:
        super().__init__(message)
        self.backup = backup


def private_file(path: Path) -> None:
    """Create `path` empty with mode 0600 if missing; make it 0600 if it exists."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, PRIVATE)
    os.close(fd)
    os.chmod(path, PRIVATE)


def make_private(path: Path) -> None:
    """0600 on the journal and the files SQLite made beside it (missing ones are skipped)."""
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            os.chmod(f"{path}{suffix}", PRIVATE)


class Lock:
    """The exclusive lock on a journal: `journal.db.lock` at once, and the journal file itself
    with `hold` once it exists (both released by `release` or when the process ends)."""

    def __init__(self, journal: Path) -> None:
        self.journal = journal
        self.path = Path(f"{journal}.lock")
        self._held: int | None = None
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, PRIVATE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 4096).decode("utf-8", "replace").strip()
            os.close(fd)
            raise _locked(journal, holder) from None
        except OSError:
            os.close(fd)
            raise
        self._fd: int | None = fd
        info = {
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(info).encode(), 0)

    def hold(self) -> None:
        """Lock the journal file itself (it must exist): JournalLocked if another kiosk holds
        it, even one whose lock file was deleted. Held until `release`; the descriptor is
        never closed before, so SQLite's own locks on the file are never dropped with it."""
        if self._held is not None:
            return
        fd = os.open(self.journal, os.O_RDONLY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            holder = ""
            with contextlib.suppress(OSError), open(self.path, "rb") as handle:
                holder = handle.read(4096).decode("utf-8", "replace").strip()
            raise _locked(self.journal, holder) from None
        except OSError:
            os.close(fd)
            raise
        self._held = fd

    def let_go_of_file(self) -> None:
        """Release the journal file's lock (before it is renamed away by a restore)."""
        if self._held is not None:
            fcntl.flock(self._held, fcntl.LOCK_UN)
            os.close(self._held)
            self._held = None

    def release(self) -> None:
        self.let_go_of_file()
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def _locked(journal: Path, holder: str) -> JournalLocked:
    return JournalLocked(
        f"{journal}: the journal is in use by another kiosk ({_describe(holder)});"
        " stop it first, or give this one another data folder",
        _held_by(holder),
    )


def _holder(holder: str) -> tuple[object, object, object] | None:
    """The lock file's pid, host and since; None if it cannot be read."""
    try:
        data = json.loads(holder)
        return data["pid"], data["host"], data["since"]
    except (ValueError, KeyError, TypeError):
        return None


def _describe(holder: str) -> str:
    found = _holder(holder)
    return "holder unknown" if found is None else "pid {} on host {} since {}".format(*found)


def _held_by(holder: str) -> Reason:
    found = _holder(holder)
    if found is None:
        return Reason.of("journal_locked", LOCKED)
    pid, host, since = found
    return Reason.of("journal_locked", LOCKED_BY, pid=pid, host=host, since=since)


@dataclass(frozen=True, slots=True)
class Seal:
    """The last entry known to be on disk, and the chain key of the next (None: unkeyed);
    the journal it belongs to (its id, its table) and where its chain and its key begin
    (None: a seal written before it recorded them)."""

    seq: int
    hash: str
    key: bytes | None = None
    journal_id: str | None = None
    chain_from: int | None = None
    key_from: int | None = None
    table: str | None = None


def _optional_number(data: dict[str, object], name: str) -> int | None:
    value = data.get(name)
    if value is None:
        return None
    if type(value) is not int or not 0 <= value < 2**62:
        raise ValueError(f"its {name} is {str(value)[:20]!r}, not an entry's number")
    return value


def _optional_text(data: dict[str, object], name: str) -> str | None:
    value = data.get(name)
    if value is None:
        return None
    if type(value) is not str or len(value) > 200:
        raise ValueError(f"its {name} is not a short text")
    return value


def seal_path(journal: Path) -> Path:
    return Path(f"{journal}.seal")


def read_seal(journal: Path) -> Seal | None:
    """The seal, None if there is none; JournalDamaged naming the file if it cannot be read."""
    path = seal_path(journal)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(4097)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise JournalDamaged(f"{path}: the journal's seal cannot be read: {exc}") from exc
    try:
        if len(raw) > 4096:
            raise ValueError("longer than a seal")
        data = _SEAL.decode(raw.decode("utf-8"))
        seq, digest, key = data["seq"], data["hash"], data.get("key")
        if type(seq) is not int or not 0 <= seq < 2**62 or type(digest) is not str:
            raise ValueError(f"seq {str(seq)[:20]!r}, hash {str(digest)[:20]!r}")
        if key is not None and (type(key) is not str or len(key) != 64):
            raise ValueError("its key is not 64 hex digits")
        return Seal(
            seq,
            digest,
            None if key is None else bytes.fromhex(key),
            _optional_text(data, "id"),
            _optional_number(data, "chain_from"),
            _optional_number(data, "key_from"),
            _optional_text(data, "table"),
        )
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        raise JournalDamaged(
            f"{path}: the journal's seal cannot be read: {str(exc)[:80]}"
        ) from None


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number")


def _refuse_float(text: str) -> object:
    raise ValueError(f"{text[:20]} is not a whole number")


_SEAL = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_refuse_float)


def write_seal(journal: Path, seal: Seal) -> None:
    """Replace the seal atomically; the old one stays whole if this fails. (The folder is not
    synced: a rename lost to a power cut leaves an older seal, which the journal still
    reaches, and an older key, which still derives the next.)"""
    data: dict[str, object] = {"seq": seal.seq, "hash": seal.hash}
    if seal.key is not None:
        data["key"] = seal.key.hex()
    for name, value in (
        ("id", seal.journal_id),
        ("table", seal.table),
        ("chain_from", seal.chain_from),
        ("key_from", seal.key_from),
    ):
        if value is not None:
            data[name] = value
    write_atomic(seal_path(journal), json.dumps(data), sync_folder=False)


# -- the marker: which journals existed in a folder -----------------------------------------

MARKER = ".journals"


def marker_path(journal: Path) -> Path:
    return journal.parent / MARKER


def known(journal: Path) -> dict[str, object] | None:
    """What the marker says of `journal` (None: never created here, or no marker)."""
    try:
        data = json.loads(marker_path(journal).read_text(encoding="utf-8"))
        entry = data.get(journal.name) if isinstance(data, dict) else None
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return entry if isinstance(entry, dict) else None


def _marker_data(path: Path) -> dict[str, object]:
    """The marker's whole contents; an unreadable or foreign one reads as empty (it is then
    written anew with what is known)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


#: The marker's id of a journal noted before journals had ids (the first markers).
NO_ID = "before-markers"


def mark_created(journal: Path, journal_id: str, table: str | None = None) -> None:
    """Note in the folder's marker that `journal` exists (its id, its table and when it was
    created)."""
    path = marker_path(journal)
    data = _marker_data(path)
    entry: dict[str, object] = {
        "id": journal_id,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    if table:
        entry["table"] = table
    data[journal.name] = entry
    write_atomic(path, json.dumps(data, indent=1))


def mark_id(journal: Path, journal_id: str, table: str | None = None) -> None:
    """The journal's id (and table) in the folder's marker, keeping what else it says of it (a
    journal noted before ids, given its id at its first start; a restore that replaced it)."""
    path = marker_path(journal)
    data = _marker_data(path)
    entry = data.get(journal.name)
    entry = dict(entry) if isinstance(entry, dict) else {}
    entry.pop("forgotten", None)
    if entry.get("id") == journal_id and (not table or entry.get("table") == table):
        return
    entry["id"] = journal_id
    entry.setdefault("created", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    if table:
        entry["table"] = table
    data[journal.name] = entry
    write_atomic(path, json.dumps(data, indent=1))


def described(journal_id: str | None, table: str | None) -> str:
    """A journal by its table and id, for a refusal: "table B's journal (id 1f2e3d4c5b6a)"."""
    short = f"id {journal_id[:12]}" if journal_id and journal_id != NO_ID else "no id"
    if table:
        return f"table {table}'s journal ({short})"
    return f"the journal of an unnamed table ({short})"


def mark_reached(journal: Path, seq: int, digest: str) -> None:
    """Note in the marker how far the journal had reached at a checkpoint (an older copy put
    in its place, its seal deleted, is then still found)."""
    path = marker_path(journal)
    data = _marker_data(path)
    entry = data.get(journal.name)
    entry = dict(entry) if isinstance(entry, dict) else {}
    if entry.get("reached") == [seq, digest]:
        return
    entry["reached"] = [seq, digest]
    data[journal.name] = entry
    write_atomic(path, json.dumps(data, indent=1))


def forget(journal: Path) -> list[Path]:
    """Allow a new, empty journal in place of a missing one, on purpose: the marker says so
    and the old seal is moved aside (`<seal>.forgotten-<UTC time>`). Returns what was moved."""
    if journal.exists():
        raise JournalError(f"{journal}: it exists; only a missing journal can be forgotten")
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    moved = []
    seal = seal_path(journal)
    if seal.exists():
        target = Path(f"{seal}.forgotten-{stamp}")
        os.replace(seal, target)
        moved.append(target)
    path = marker_path(journal)
    data = _marker_data(path)
    data[journal.name] = {"forgotten": stamp}
    write_atomic(path, json.dumps(data, indent=1))
    return moved


# -- backups ---------------------------------------------------------------------------


def backup_name(seq: int) -> str:
    return f"journal-{seq:09d}.db"


def backup_seq(path: Path) -> int | None:
    """The last sequence number a backup's name says it holds."""
    digits = path.name[len("journal-") : -len(".db")]
    return int(digits) if digits.isdigit() else None


def backups(folder: Path) -> list[Path]:
    """The backups in `folder`, newest first."""
    try:
        found = [p for p in folder.glob("journal-*.db") if p.is_file() and backup_seq(p)]
    except OSError:
        return []
    return sorted(found, key=lambda p: backup_seq(p) or 0, reverse=True)


#: A temporary backup older than this is one a cut or a crash left behind (seconds).
STALE_PART_S = 600.0


def clean_stale_parts(folder: Path, now: float | None = None) -> list[Path]:
    """Delete the half-written backups an interrupted backup left (`.journal-*.db.part`, an
    older one's -journal): they are never a backup, and a stick would fill with them."""
    removed: list[Path] = []
    moment = time.time() if now is None else now
    try:
        parts = list(folder.glob(".journal-*.db.part*"))
    except OSError:
        return removed
    for part in parts:
        with contextlib.suppress(OSError):
            if moment - part.stat().st_mtime >= STALE_PART_S:
                part.unlink()
                removed.append(part)
    return removed


def backup(db: sqlite3.Connection, folder: Path, seq: int, keep: int) -> Path:
    """Copy the journal with the online backup API into `folder`, synced, then drop the oldest
    beyond `keep` and any half-written copy an interrupted backup left. The copy is written
    under a temporary name and renamed whole; the folder is made 0700."""
    private_dir(folder)
    target = folder / backup_name(seq)
    temporary = folder / f".{target.name}.part"
    for leftover in (temporary, Path(f"{temporary}-journal")):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()
    private_file(temporary)
    copy = sqlite3.connect(temporary)
    try:
        db.backup(copy)
        # A backup is one file: no -wal beside it to lose.
        copy.execute("PRAGMA journal_mode=DELETE")
    finally:
        copy.close()
    replace_synced(temporary, target)
    for old in backups(folder)[max(keep, 1) :]:
        with contextlib.suppress(OSError):
            old.unlink()
    clean_stale_parts(folder)
    return target
