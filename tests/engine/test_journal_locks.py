"""SQLite's locks on the journal survive the kiosk's own reads of the file.

Closing any descriptor of a file drops every POSIX lock the process holds on it. When the
start's check read the journal's header with open()/close() while a reader of the same
process (the hall's outbox) had it open, SQLite's shared lock was gone: another process's
connection then took its own close for the last one, checkpointed and deleted the -wal under
the running kiosk (seen as "the -wal was deleted while the kiosk ran", and a hall that stopped
hearing the table).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from kiosk.engine.journal import EVENT, Journal
from kiosk.engine.journal_check import inspect


def _other_process_reads_and_closes(path: Path) -> None:
    code = (
        "import sqlite3, sys\n"
        "db = sqlite3.connect(sys.argv[1])\n"
        "db.execute('SELECT count(*) FROM entries').fetchone()\n"
        "db.close()\n"
    )
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, timeout=60)


def test_journal_opened_beside_a_reader_keeps_its_wal_when_another_process_closes(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.db"
    first = Journal(path)
    mid = first.begin_match("carrom", {"event": "match"}, 1e9)
    first.append(mid, 0.0, 1e9, "umpire", EVENT, {"n": 0})
    first.close()
    # A reader of this process opens first, as the hall's outbox does at a kiosk's start.
    reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    assert reader.execute("SELECT count(*) FROM entries").fetchone()[0] >= 1
    journal = Journal(path)  # its check reads the header of the file the reader holds
    try:
        journal.append(mid, 1.0, 1e9 + 1, "umpire", EVENT, {"n": 1})
        wal = Path(f"{path}-wal")
        assert wal.is_file()
        _other_process_reads_and_closes(path)
        assert wal.is_file(), "another process deleted the -wal under the kiosk"
        journal.append(mid, 2.0, 1e9 + 2, "umpire", EVENT, {"n": 2})
        assert journal.notices == [], journal.notices
        assert journal.fault is None
    finally:
        journal.close()
        reader.close()


def _descriptors_of(path: Path) -> int:
    """How many descriptors this process has open on the file itself."""
    count = 0
    for name in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            count += os.readlink(f"/proc/self/fd/{name}") == str(path)
    return count


def test_journal_closed_leaves_no_descriptor_of_its_file(tmp_path: Path) -> None:
    # The header's descriptor was kept for ever: after a restore replaced the file, the old
    # one's space stayed taken as long as the kiosk ran.
    path = tmp_path / "journal.db"
    with Journal(path) as journal:
        journal.begin_match("carrom", {"event": "match"}, 1e9)
        assert _descriptors_of(path) >= 1
    assert _descriptors_of(path) == 0
    with Journal(path, create=False, readonly=True):
        pass
    assert _descriptors_of(path) == 0


def test_journal_closing_a_second_one_keeps_the_locks_of_the_first(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    journal = Journal(path)
    try:
        mid = journal.begin_match("carrom", {"event": "match"}, 1e9)
        journal.append(mid, 0.0, 1e9, "umpire", EVENT, {"n": 0})
        with Journal(path, create=False, readonly=True) as witness:  # as the hall's witness
            assert witness.confirmed(mid)
        assert inspect(path).ok  # and a check, between two strokes
        _other_process_reads_and_closes(path)
        assert Path(f"{path}-wal").is_file(), "another process deleted the -wal under the kiosk"
        journal.append(mid, 1.0, 1e9 + 1, "umpire", EVENT, {"n": 1})
        assert journal.notices == [] and journal.fault is None
    finally:
        journal.close()
