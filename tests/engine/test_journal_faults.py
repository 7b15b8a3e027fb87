"""A write that fails never takes the kiosk down: real full, read-only and failing media.

The media are real: a tiny tmpfs that fills up, a tmpfs mounted read-only, and lazyfs.py
answering EROFS or EIO on demand. The journal holds what it cannot write, in order, says which
entries are not saved, and writes them all once the medium works again."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from kiosk.commands.journal_verify import verify
from kiosk.engine.journal import EVENT, Journal
from kiosk.errors import Reason, reason_of
from tests.media import fill, tmpfs

from .powercut import fuse_usable, mounted


def held_facts(fault: str) -> tuple[object, ...]:
    """The facts the console words a "not saved" fault from: why, first, last, events."""
    reason = reason_of(fault)
    assert reason is not None and reason.code == "not_saved"
    facts = reason.values()
    why = facts["why"]
    assert isinstance(why, Reason)
    return (why.code, facts["first"], facts["last"], facts["events"])


root_only = pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")


@root_only
def test_journal_full_disk_holds_entries_in_order_and_writes_them_later(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "disk") as disk:
        journal = Journal(disk / "journal.db")
        mid = journal.begin_match("carrom", {"event": "match"}, 1e9)
        journal.append(mid, 1.0, 1e9, "umpire", EVENT, {"n": 0})
        filler = fill(disk)
        for n in range(1, 6):
            journal.append(mid, float(n), 1e9, "umpire", EVENT, {"n": n, "pad": "x" * 3000})
        assert journal.fault is not None
        assert "not saved: entries 3-7 (5 confirmed events) held in memory" in journal.fault
        assert "No space left on device" in journal.fault or "full" in journal.fault
        assert held_facts(journal.fault) == ("disk_full", 3, 7, 5)  # for the console's words
        # The held entries are still the match's, in order, for the screens.
        assert [d["n"] for d in journal.confirmed(mid)] == [0, 1, 2, 3, 4, 5]
        assert [e.saved for e in journal.entries(mid)] == [True] + [False] * 5
        assert not journal.retry(force=True)  # still full
        filler.unlink()
        assert journal.retry(force=True) and journal.fault is None
        journal.close()
        assert verify(disk / "journal.db").ok
        with Journal(disk / "journal.db") as again:
            assert [d["n"] for d in again.confirmed(mid)] == [0, 1, 2, 3, 4, 5]


@root_only
def test_journal_read_only_medium_at_start_runs_on_and_writes_once_writable(
    tmp_path: Path,
) -> None:
    with tmpfs(tmp_path / "ro", "ro") as medium:
        journal = Journal(medium / "data" / "journal.db")  # no traceback
        mid = journal.begin_match("carrom", {"event": "match"}, 1e9)
        journal.append(mid, 1.0, 1e9, "umpire", EVENT, {"n": 0})
        assert journal.fault is not None and "Read-only file system" in journal.fault
        assert held_facts(journal.fault) == ("disk_read_only", 1, 2, 1)
        assert journal.unfinished() is not None  # the match goes on in memory
        subprocess.run(["mount", "-o", "remount,rw", str(medium)], check=True)
        assert journal.retry(force=True) and journal.fault is None
        journal.close()
        with Journal(medium / "data" / "journal.db") as again:
            assert again.confirmed(mid) == [{"n": 0}]


@pytest.mark.skipif(fuse_usable() is not None or os.geteuid() != 0, reason="FUSE")
# SQLite words EROFS and EIO alike, mid-write.
@pytest.mark.parametrize(("mode", "says"), [("ro", "disk I/O error"), ("eio", "disk I/O error")])
def test_journal_medium_failing_mid_match_loses_nothing(
    tmp_path: Path, mode: str, says: str
) -> None:
    (tmp_path / "backing").mkdir()
    with mounted(tmp_path / "backing", tmp_path / "mnt"):
        control = tmp_path / "mnt" / ".lazyfs"
        journal = Journal(tmp_path / "mnt" / "journal.db")
        mid = journal.begin_match("carrom", {"event": "match"}, 1e9)
        journal.append(mid, 1.0, 1e9, "umpire", EVENT, {"n": 0})
        control.write_text(mode)
        for n in (1, 2, 3):
            journal.append(mid, float(n), 1e9, "umpire", EVENT, {"n": n})
        fault = journal.fault or ""
        assert "not saved: entries 3-5" in fault and says in fault, fault
        assert held_facts(fault) == ("disk_failing", 3, 5, 3)
        control.write_text("ok")
        assert journal.retry(force=True), journal.fault
        assert [d["n"] for d in journal.confirmed(mid)] == [0, 1, 2, 3]
        journal.close()
        assert verify(tmp_path / "mnt" / "journal.db").ok
