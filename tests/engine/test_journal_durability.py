"""The journal is not lost or silently shortened: lock, hash chain, start check, seal,
checkpoints, backups, private files (docs/engine.md, "The journal: nothing lost")."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.cli import main as cli_main
from kiosk.commands.journal_verify import verify
from kiosk.engine.journal import EVENT, Journal, JournalDamaged, JournalLocked
from kiosk.errors import reason_of


def filled(path: Path, n: int = 6, **kw: object) -> Journal:
    journal = Journal(path, **kw)  # type: ignore[arg-type]
    mid = journal.begin_match("carrom", {"event": "match"}, 1e9)
    for i in range(n):
        journal.append(mid, float(i), 1e9 + i, "umpire", EVENT, {"n": i})
    return journal


def test_journal_second_process_is_refused_naming_the_holder(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    with filled(path):
        code = (
            "import sys\nfrom kiosk.engine.journal import Journal, JournalLocked\n"
            "try:\n    Journal(sys.argv[1])\nexcept JournalLocked as e:\n"
            "    print(e); sys.exit(3)\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 3, done.stderr
        assert f"pid {os.getpid()}" in done.stdout and "since" in done.stdout
        assert "in use by another kiosk" in done.stdout
    # Released on close: the next kiosk opens it.
    Journal(path).close()


def test_journal_second_open_in_one_process_is_refused_too(tmp_path: Path) -> None:
    with filled(tmp_path / "j.db"), pytest.raises(JournalLocked) as refused:
        Journal(tmp_path / "j.db")
    # The facts the interface words it from: who holds it.
    reason = reason_of(refused.value)
    assert reason is not None and reason.code == "journal_locked"
    assert dict(reason.facts)["pid"] == os.getpid()


def _tamper(path: Path, sql: str) -> None:
    db = sqlite3.connect(path)
    db.execute(sql)
    db.commit()
    db.close()


@pytest.mark.parametrize(
    ("sql", "named"),
    [
        ("UPDATE entries SET data='{\"n\":99}' WHERE seq=4", "entry 4: its content was changed"),
        ("DELETE FROM entries WHERE seq=3", "entry 3: lost"),
        (
            "UPDATE entries SET seq=seq+100 WHERE seq=5",  # moved to the end
            "entry 5: lost",
        ),
    ],
)
def test_journal_changed_or_lost_entry_is_named_at_start_and_by_verify(
    tmp_path: Path, sql: str, named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.db"
    filled(path).close()
    _tamper(path, sql)
    with pytest.raises(JournalDamaged, match=named.split(":")[0]):
        Journal(path)
    assert cli_main(["journal", "verify", str(path)]) == 1
    assert named in capsys.readouterr().out


def test_journal_reordered_entries_are_named(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    filled(path).close()
    db = sqlite3.connect(path)
    a = db.execute("SELECT data, prev, hash FROM entries WHERE seq=3").fetchone()
    b = db.execute("SELECT data, prev, hash FROM entries WHERE seq=4").fetchone()
    db.execute("UPDATE entries SET data=?, prev=?, hash=? WHERE seq=3", b)
    db.execute("UPDATE entries SET data=?, prev=?, hash=? WHERE seq=4", a)
    db.commit()
    db.close()
    problems = verify(path).problems
    assert any(p.startswith("entry 3:") for p in problems), problems
    assert any(p.startswith("entry 4:") for p in problems), problems


def test_journal_verify_a_good_journal_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.db"
    with filled(path):
        assert cli_main(["journal", "verify", str(path)]) == 0  # while the kiosk holds it
    assert "ok, 7 entries up to number 7" in capsys.readouterr().out


@pytest.mark.parametrize("size", [0, 1])
def test_journal_truncated_file_is_refused_not_started_empty(tmp_path: Path, size: int) -> None:
    path = tmp_path / "j.db"
    journal = filled(path, backup_dir=tmp_path / "usb")
    journal.checkpoint()
    journal.close()
    with open(path, "r+b") as f:
        f.truncate(size)
    with pytest.raises(JournalDamaged, match=f"truncated to {size} bytes") as caught:
        Journal(path, backup_dir=tmp_path / "usb")
    assert caught.value.backup is not None and caught.value.backup.parent == tmp_path / "usb"
    assert "last good backup is" in str(caught.value)
    assert verify(path).problems


def test_journal_truncated_without_its_seal_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    filled(path).close()
    os.unlink(f"{path}.seal")
    path.write_bytes(b"")
    with pytest.raises(JournalDamaged, match="truncated to 0 bytes"):
        Journal(path)


def _copy_without_wal(path: Path, to: Path) -> Path:
    """What a backup that copied journal.db alone holds (the -wal left behind)."""
    to.mkdir()
    shutil.copyfile(path, to / "journal.db")
    shutil.copyfile(f"{path}.seal", to / "journal.db.seal")
    return to / "journal.db"


def test_journal_lost_wal_is_found_and_named(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    journal = filled(path, 3)
    journal.checkpoint()
    mid = journal.latest()
    assert mid is not None
    for i in range(4):  # only in the -wal
        journal.append(mid.id, 10.0 + i, 2e9, "umpire", EVENT, {"late": i})
    copy = _copy_without_wal(path, tmp_path / "copy")
    journal.close()
    with pytest.raises(
        JournalDamaged, match=r"entries 5-8: lost \(the journal had reached entry 8; its -wal is"
    ):
        Journal(copy)
    assert any("entries 5-8: lost" in p for p in verify(copy).problems)


def test_journal_checkpoint_makes_journal_db_alone_complete(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    journal = filled(path, 5)
    assert journal.checkpoint()
    copy = _copy_without_wal(path, tmp_path / "copy")
    journal.close()
    with Journal(copy) as again:
        assert len(again.confirmed(1)) == 5


def test_journal_rolling_backup_every_n_entries_and_at_checkpoint(tmp_path: Path) -> None:
    usb = tmp_path / "usb"
    journal = filled(tmp_path / "j.db", 0, backup_dir=usb, backup_every=4, backup_keep=2)
    for i in range(9):
        journal.append(1, float(i), 1e9, "beam", "beam_hit", {"i": i})
    names = sorted(p.name for p in usb.iterdir())
    assert names == ["journal-000000004.db", "journal-000000008.db"], names  # match row: 1
    journal.checkpoint()
    newest = sorted(usb.iterdir())[-1]
    assert newest.name == "journal-000000010.db" and len(list(usb.iterdir())) == 2
    assert verify(newest).ok and not Path(f"{newest}-wal").exists()
    journal.close()


def test_journal_backup_to_a_missing_stick_is_a_backup_fault_not_a_crash(tmp_path: Path) -> None:
    blocker = tmp_path / "usb"
    blocker.write_text("a file where the stick's folder should be")
    journal = filled(tmp_path / "j.db", 2, backup_dir=blocker)
    assert journal.checkpoint()
    assert journal.backup_fault is not None and "usb" in journal.backup_fault
    assert journal.fault is None  # the journal itself is whole
    journal.close()


def test_journal_files_are_private_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        path = tmp_path / "data" / "j.db"
        journal = filled(path, 2, backup_dir=tmp_path / "usb")
        journal.checkpoint()
        mid = journal.latest()
        assert mid is not None
        journal.append(mid.id, 9.0, 1e9, "umpire", EVENT, {})  # a -wal again
        made = [path, Path(f"{path}.lock"), Path(f"{path}.seal"), Path(f"{path}-wal")]
        made += [Path(f"{path}.director-key"), path.parent / ".journals"]
        made += list((tmp_path / "usb").iterdir())
        for f in made:
            assert stat.S_IMODE(f.stat().st_mode) == 0o600, f
        for folder in (path.parent, tmp_path / "usb"):
            assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
        journal.close()
    finally:
        os.umask(old)


_V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE matches (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, header TEXT NOT NULL,
    wall_start REAL NOT NULL, finished INTEGER NOT NULL DEFAULT 0);
CREATE TABLE entries (seq INTEGER PRIMARY KEY AUTOINCREMENT, match_id INTEGER, t REAL NOT NULL,
    wall REAL NOT NULL, source TEXT NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL);
INSERT INTO meta VALUES ('schema', '1');
INSERT INTO matches VALUES (1, 'carrom', '{"event":"match"}', 1e9, 0);
INSERT INTO entries (match_id, t, wall, source, kind, data) VALUES
    (1, 1.0, 1e9, 'umpire', 'event', '{"n":0}'), (1, 2.0, 1e9, 'umpire', 'event', '{"n":1}');
"""


def test_journal_without_hashes_opens_and_is_chained_from_then_on(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(_V1)
    db.execute("PRAGMA journal_mode=WAL")
    db.close()
    with Journal(path) as journal:
        assert journal.confirmed(1) == [{"n": 0}, {"n": 1}]
        journal.append(1, 3.0, 1e9, "umpire", EVENT, {"n": 2})
        assert journal.confirmed(1)[-1] == {"n": 2}
    verdict = verify(path)
    assert verdict.ok, verdict.problems
    assert any("2 entries before number 3" in n for n in verdict.notes)
    with Journal(path) as journal:  # and it opens again, checked
        assert len(journal.confirmed(1)) == 3


def test_journal_whole_number_times_hash_as_they_read_back(tmp_path: Path) -> None:
    """Regression: t=3 (an int) was hashed as 3 but stored and read back as 3.0."""
    path = tmp_path / "j.db"
    with Journal(path) as journal:
        mid = journal.begin_match("carrom", {}, 1000)
        journal.append(mid, 3, 1700000000, "umpire", EVENT, {})
        journal.append(mid, -0.0, 1.5, "umpire", EVENT, {})
    assert verify(path).ok
    Journal(path).close()


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=["Cs"]), max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=10,
)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(-1e6, 1e6), st.dictionaries(st.text(max_size=6), _values, max_size=4)),
        max_size=12,
    )
)
def test_journal_property_any_entries_reopen_verified_and_equal(
    rows: list[tuple[float, dict[str, object]]],
) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "j.db"
        with Journal(path) as journal:
            mid = journal.begin_match("carrom", {"event": "match"}, 0.0)
            for t, data in rows:
                journal.append(mid, t, 1e9, "umpire", EVENT, data)
            written = journal.confirmed(mid)
        with Journal(path) as again:  # checked at start: quick_check, chain, seal
            assert again.confirmed(mid) == written
        assert verify(path).ok


def test_journal_lone_surrogate_is_the_callers_error_and_holds_nothing(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        with pytest.raises(ValueError):
            journal.append(None, 0.0, 0.0, "umpire", "tap", {"name": "\ud800"})
        with pytest.raises(ValueError):
            journal.begin_match("carrom", {"players": ["\ud800"]}, 0.0)
        with pytest.raises(ValueError):
            journal.append(None, float("nan"), 0.0, "umpire", "tap", {})
        journal.append(None, 1.0, 0.0, "umpire", "tap", {})
    assert verify(tmp_path / "j.db").ok  # no number was used up by the refusals
    with Journal(tmp_path / "j.db") as journal:
        assert journal.pending == () and journal.fault is None


def test_journal_restore_puts_the_last_good_backup_in_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, usb = tmp_path / "journal.db", tmp_path / "usb"
    journal = filled(path, 4, backup_dir=usb)
    journal.checkpoint()
    journal.close()
    path.write_bytes(b"\0")  # the card failed
    with pytest.raises(JournalDamaged) as caught:
        Journal(path, backup_dir=usb)
    assert "tableside journal restore" in str(caught.value)
    backup = caught.value.backup
    assert backup is not None
    with filled(tmp_path / "other.db", 1) as held:  # a held journal is refused
        assert cli_main(["journal", "restore", str(backup), str(held.path)]) == 1
    assert cli_main(["journal", "restore", str(backup), str(path)]) == 0
    out = capsys.readouterr().out
    assert "the journal it replaced is kept as" in out
    assert any(p.name.startswith("journal.db.replaced-") for p in tmp_path.iterdir())
    with Journal(path) as again:  # every check passes, and the match is whole
        assert [d["n"] for d in again.confirmed(1)] == [0, 1, 2, 3]
