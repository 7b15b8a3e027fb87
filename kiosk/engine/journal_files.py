"""The files beside the journal: the lock, the seal, the rolling backups.

- `journal.db.lock` holds an exclusive `flock` for as long as a kiosk has the journal open, and
  says who holds it (pid, host, since), so a second kiosk on the same journal is refused by name.
- `journal.db.seal` records the last sequence number and hash known to be on disk. It is
  replaced atomically (write, fsync, rename) after every synced write. At start the journal must
  reach at least that number with that hash: a lost `-wal`, a file truncated to nothing or an
  older copy put in its place is then found, never taken for an empty or shorter journal.
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

from kiosk.errors import N_, Reason, TablesideError

PRIVATE = 0o600

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
    """The exclusive lock on a journal (released by `release` or when the process ends)."""

    def __init__(self, journal: Path) -> None:
        self.path = Path(f"{journal}.lock")
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, PRIVATE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 4096).decode("utf-8", "replace").strip()
            os.close(fd)
            raise JournalLocked(
                f"{journal}: the journal is in use by another kiosk ({_describe(holder)});"
                " stop it first, or give this one another data folder",
                _held_by(holder),
            ) from None
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

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


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
    seq: int
    hash: str


def seal_path(journal: Path) -> Path:
    return Path(f"{journal}.seal")


def read_seal(journal: Path) -> Seal | None:
    path = seal_path(journal)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(4096)
        data = json.loads(raw)
        return Seal(int(data["seq"]), str(data["hash"]))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise JournalDamaged(f"{path}: the journal's seal cannot be read: {exc}") from exc


def write_seal(journal: Path, seal: Seal) -> None:
    """Replace the seal atomically; the old one stays whole if this fails."""
    path = seal_path(journal)
    temporary = Path(f"{path}.part")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE)
    try:
        os.write(fd, json.dumps({"seq": seal.seq, "hash": seal.hash}).encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, path)


# -- backups ---------------------------------------------------------------------------


def backup_name(seq: int) -> str:
    return f"journal-{seq:09d}.db"


def backups(folder: Path) -> list[Path]:
    """The backups in `folder`, newest first."""
    try:
        found = [p for p in folder.glob("journal-*.db") if p.is_file()]
    except OSError:
        return []
    return sorted(found, reverse=True)


def backup(db: sqlite3.Connection, folder: Path, seq: int, keep: int) -> Path:
    """Copy the journal with the online backup API into `folder`, synced, then drop the oldest
    beyond `keep`. The copy is written under a temporary name and renamed whole."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / backup_name(seq)
    temporary = folder / f".{target.name}.part"
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    private_file(temporary)
    copy = sqlite3.connect(temporary)
    try:
        db.backup(copy)
        # A backup is one file: no -wal beside it to lose.
        copy.execute("PRAGMA journal_mode=DELETE")
    finally:
        copy.close()
    fd = os.open(temporary, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temporary, target)
    for old in backups(folder)[max(keep, 1) :]:
        with contextlib.suppress(OSError):
            old.unlink()
    return target
