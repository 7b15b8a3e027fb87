"""Putting a backup in place of a damaged journal (`tableside journal restore`).

The backup must check out (quick_check and its chain). The damaged journal is not deleted:
it and the files beside it (-wal, -shm, the seal) are renamed `<name>.damaged-<UTC time>` for
the referee or the technician. The backup is copied with SQLite's backup API under a temporary
name, synced and renamed into place, and sealed at its own last entry, so the kiosk starts on
it with every check passing. Refused while a kiosk holds the journal.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from pathlib import Path

from kiosk.commands.journal_verify import verify
from kiosk.engine import journal_store as store
from kiosk.engine.journal_chain import verify_chain
from kiosk.engine.journal_files import JournalError, Lock, Seal, private_file, write_seal


def restore(backup: Path, journal: Path) -> Path | None:
    """Put `backup` in place of `journal`; returns where the old journal was moved (None if
    there was none). JournalError if the backup does not check out or the journal is held."""
    verdict = verify(backup)
    if not verdict.ok:
        raise JournalError(f"{backup}: not a good backup: {'; '.join(verdict.problems[:3])}")
    journal.parent.mkdir(parents=True, exist_ok=True)
    lock = Lock(journal)  # JournalLocked if a kiosk runs on it
    try:
        moved: Path | None = None
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        for suffix in ("", "-wal", "-shm", ".seal"):
            old = Path(f"{journal}{suffix}")
            if old.exists():
                target = Path(f"{journal}{suffix}.damaged-{stamp}")
                os.replace(old, target)
                moved = moved or target
        temporary = journal.with_name(f".{journal.name}.restore")
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        private_file(temporary)
        source = store.connect(backup, readonly=True)
        copy = sqlite3.connect(temporary)
        try:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode=WAL")
            report = verify_chain(copy, store.chain_from(copy))
        finally:
            copy.close()
            source.close()
        fd = os.open(temporary, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, journal)
        write_seal(journal, Seal(report.last_seq, report.last_hash))
        return moved
    finally:
        lock.release()
