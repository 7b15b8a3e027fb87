"""Nothing lost in silence: the journal attacked as a technician with the SD card
would: a flipped index bit, a refused start on a truncated or damaged file beside its -wal, a
restore killed at every step, the seal, the lock file or the -wal deleted, a forged edit with
the chain recomputed. Real files, real SQLite, real second processes."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kiosk.cli import main as cli_main
from kiosk.engine.journal import EVENT, Journal, JournalDamaged, JournalLocked
from kiosk.engine.journal_chain import GENESIS, recompute
from kiosk.engine.journal_check import inspect
from kiosk.engine.journal_files import read_seal, write_seal
from kiosk.engine.journal_key import parse_key, take_director_key

ROOT = Path(__file__).resolve().parents[2]


def filled(path: Path, n: int = 6, kind: str = "carrom", **kw: object) -> Journal:
    journal = Journal(path, **kw)  # type: ignore[arg-type]
    mid = journal.begin_match(kind, {"event": "match"}, 1e9)
    for i in range(n):
        journal.append(mid, float(i), 1e9 + i, "umpire", EVENT, {"n": i})
    return journal


def digests(folder: Path) -> dict[str, str]:
    """Every file in `folder` by name, as its content's hash; not the lock, nor the -shm
    (SQLite's index of the -wal, rebuilt from it by any reader)."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.is_file() and not p.name.endswith((".lock", "-shm"))
    }


def crash_image(journal: Journal, to: Path) -> Path:
    """What the disk holds if the power went now: the synced files, copied while open."""
    to.mkdir()
    for suffix in ("", "-wal", ".seal"):
        source = Path(f"{journal.path}{suffix}")
        if source.exists():
            shutil.copyfile(source, to / f"journal.db{suffix}")
    return to / "journal.db"


# -- an index page flipped ----------------------------------------------------------------------


def _flip_the_index(path: Path) -> int:
    """Flip the first bit of the entries' index that SQLite's quick_check misses and that makes
    a read by match lose entries (the issue: resume read back 1 of 200); the entries then
    read through the index."""
    db = sqlite3.connect(path)
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name='entries_by_match'")
    page, size = root.fetchone()[0], db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    raw = path.read_bytes()
    probe = path.with_name("probe.db")
    for offset in range(size - 1, 0, -1):
        changed = bytearray(raw)
        changed[(page - 1) * size + offset] ^= 0x10
        probe.write_bytes(bytes(changed))
        try:
            db = sqlite3.connect(f"file:{probe}?mode=ro&immutable=1", uri=True)
            quick = db.execute("PRAGMA quick_check").fetchall()
            read = db.execute("SELECT count(*) FROM entries WHERE match_id IS 1").fetchone()[0]
            db.close()
        except sqlite3.Error:
            continue
        if quick == [("ok",)] and read < 199:
            probe.unlink()
            path.write_bytes(bytes(changed))
            return int(read)
    raise AssertionError("no flip of the index page that quick_check misses")


def test_journal_index_flip_is_refused_at_start_and_named_by_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.db"
    journal = filled(path, 199, backup_dir=tmp_path / "usb")  # the match row and 199 events
    journal.checkpoint()
    journal.close()
    read = _flip_the_index(path)
    before = digests(tmp_path)
    with pytest.raises(JournalDamaged) as refused:
        Journal(path, backup_dir=tmp_path / "usb")
    said = str(refused.value)
    assert f"match 1: the index finds {read} of its 199 entries" in said
    assert "journal-000000200.db" in said and "tableside journal restore" in said
    assert digests(tmp_path) == before  # a refused start changed nothing
    assert cli_main(["journal", "verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"lost to a reader: match 1: the index finds {read} of its 199 entries" in out
    # The backup puts it right: every event back.
    assert cli_main(["journal", "restore", str(refused.value.backup), str(path)]) == 0
    with Journal(path) as again:
        assert len(again.confirmed(1)) == 199


# -- a refused start keeps the -wal, and the restore takes it back --------------------------------


def _journal_with_a_tail(tmp_path: Path) -> tuple[Path, Path]:
    """A journal backed up at a board's end, then 5 more events only in its -wal, the power
    cut there; returns the image's journal and the backup folder."""
    usb = tmp_path / "usb"
    journal = filled(tmp_path / "live" / "journal.db", 6, backup_dir=usb)
    journal.checkpoint()
    for i in range(6, 11):
        journal.append(1, float(i), 1e9 + i, "umpire", EVENT, {"n": i})
    image = crash_image(journal, tmp_path / "card")
    journal.close()
    return image, usb


@pytest.mark.parametrize("damage", ["truncated", "a damaged page"])
def test_journal_refused_start_keeps_the_wal_and_restore_takes_every_entry_back(
    tmp_path: Path, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, usb = _journal_with_a_tail(tmp_path)
    if damage == "truncated":
        path.write_bytes(b"")
    else:  # the meta table's page, which the -wal does not hold a newer copy of
        db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
        page = db.execute("SELECT rootpage FROM sqlite_master WHERE name='meta'").fetchone()[0]
        db.close()
        raw = bytearray(path.read_bytes())
        raw[(page - 1) * 4096 : (page - 1) * 4096 + 12] = b"\xa5" * 12
        path.write_bytes(bytes(raw))
    before = digests(path.parent)
    assert Path(f"{path}-wal").stat().st_size > 0
    with pytest.raises(JournalDamaged) as refused:
        Journal(path, backup_dir=usb)
    said = str(refused.value)
    assert "has changed nothing on disk" in said and "and its -wal" in said
    assert digests(path.parent) == before  # the -wal and the seal are still there, unchanged
    assert cli_main(["journal", "verify", str(path)]) == 1
    assert digests(path.parent) == before  # verify changes nothing either
    capsys.readouterr()
    backup = refused.value.backup
    assert backup is not None and backup.name == "journal-000000007.db"
    assert cli_main(["journal", "restore", str(backup), str(path)]) == 0
    out = capsys.readouterr().out
    assert "5 later entries taken back from the old journal" in out
    with Journal(path, backup_dir=usb) as again:
        assert [d["n"] for d in again.confirmed(1)] == list(range(11))
    kept = {p.name.split(".replaced-")[0] for p in path.parent.iterdir() if ".replaced-" in p.name}
    assert kept == {"journal.db", "journal.db-wal", "journal.db.seal"}


def test_journal_restore_takes_back_a_match_finished_after_the_backup(tmp_path: Path) -> None:
    usb = tmp_path / "usb"
    journal = filled(tmp_path / "live" / "journal.db", 3, backup_dir=usb)
    journal.checkpoint()
    journal.append(1, 9.0, 1e9, "umpire", EVENT, {"n": 3})
    journal.finish(1)  # the match ends: a mark in the -wal only
    image = crash_image(journal, tmp_path / "card")
    journal.close()
    image.write_bytes(b"")
    assert cli_main(["journal", "restore", str(usb / "journal-000000004.db"), str(image)]) == 0
    with Journal(image) as again:
        assert len(again.confirmed(1)) == 4
        assert again.unfinished() is None  # not offered for resume again


# -- restore: killed at every step, never none -----------------------------------------------------

STEPS = ["built", "intent", "kept", "wal removed", "renamed", "sealed", "done"]

KILLER = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    from kiosk.engine import journal_restore
    step = sys.argv[3]
    def after(name):
        if name == step:
            os.kill(os.getpid(), signal.SIGKILL)
    journal_restore.AFTER_STEP = after
    journal_restore.restore(Path(sys.argv[1]), Path(sys.argv[2]))
    """
)


@pytest.mark.parametrize("step", STEPS)
def test_journal_restore_killed_at_every_step_leaves_the_old_or_the_new(
    tmp_path: Path, step: str
) -> None:
    path, usb = _journal_with_a_tail(tmp_path)
    path.write_bytes(b"")  # the card failed: a refused start
    backup = usb / "journal-000000007.db"
    old = digests(path.parent)
    done = subprocess.run(
        [sys.executable, "-c", KILLER, str(backup), str(path), step],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr
    names = {p.name for p in path.parent.iterdir()}
    if step == "built":  # before the intent: the old journal, exactly as it was
        now = digests(path.parent)
        assert {k: now[k] for k in old} == old
        with pytest.raises(JournalDamaged):
            Journal(path, backup_dir=usb)  # still refused, by name
        return
    # After the intent, the next start finishes the restore: the new journal, whole.
    assert "journal.db" in names or ".journal.db.restore" in names
    with Journal(path, backup_dir=usb) as again:
        assert [d["n"] for d in again.confirmed(1)] == list(range(11))
    assert not Path(f"{path}.restoring").exists()
    kept = [p for p in path.parent.iterdir() if p.name.startswith("journal.db-wal.replaced-")]
    assert len(kept) == 1 and kept[0].stat().st_size > 0  # the old -wal kept whole


def test_journal_restore_refuses_a_healthy_newer_journal_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, usb = tmp_path / "journal.db", tmp_path / "usb"
    journal = filled(path, 3, backup_dir=usb)
    journal.checkpoint()
    journal.append(1, 9.0, 1e9, "umpire", EVENT, {"n": 99})
    journal.close()
    backup = usb / "journal-000000004.db"
    assert cli_main(["journal", "restore", str(backup), str(path)]) == 1
    assert "checks out and reaches entry 5" in capsys.readouterr().err
    with Journal(path) as same:
        assert len(same.confirmed(1)) == 4
    assert cli_main(["journal", "restore", str(backup), str(path), "--force"]) == 0
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("journal.db.replaced-")]
    assert len(kept) == 1
    assert inspect(kept[0], beside=False).last_seq == 5  # what it replaced, whole
    with Journal(path) as replaced:
        # The entries after the backup that chain on were taken back even so.
        assert len(replaced.confirmed(1)) == 4


# -- deleted files ---------------------------------------------------------------------------------


def test_journal_deleted_with_its_seal_is_not_replaced_by_an_empty_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.db"
    filled(path, 3).close()
    for name in ("journal.db", "journal.db.seal", "journal.db.lock"):
        (tmp_path / name).unlink()
    with pytest.raises(JournalDamaged, match="the journal is missing, though it existed"):
        Journal(path)
    assert not path.exists()
    assert cli_main(["journal", "forget", str(path)]) == 0
    with Journal(path) as fresh:  # on purpose now
        assert fresh.matches() == []


def test_journal_missing_with_only_its_backups_left_is_refused(tmp_path: Path) -> None:
    path, usb = tmp_path / "data" / "journal.db", tmp_path / "usb"
    journal = filled(path, 3, backup_dir=usb)
    journal.checkpoint()
    journal.close()
    shutil.rmtree(tmp_path / "data")  # the whole folder, marker and all
    with pytest.raises(JournalDamaged, match=r"a backup of it reaches entry 4"):
        Journal(path, backup_dir=usb)


def test_journal_older_copy_with_its_seal_deleted_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    journal = filled(path, 3)
    journal.checkpoint()
    old = tmp_path / "old-copy.db"
    shutil.copyfile(path, old)
    for i in range(3):
        journal.append(1, 9.0 + i, 1e9, "umpire", EVENT, {"n": 10 + i})
    journal.checkpoint()
    journal.close()
    shutil.copyfile(old, path)
    (tmp_path / "journal.db.seal").unlink()
    with pytest.raises(JournalDamaged, match=r"ends at entry 4, but it had reached entry 7"):
        Journal(path)


LOCKER = textwrap.dedent(
    """
    import sys
    from kiosk.engine.journal import Journal, JournalLocked
    try:
        Journal(sys.argv[1])
    except JournalLocked as exc:
        print(exc)
        sys.exit(3)
    print("opened")
    """
)


def test_journal_lock_file_deleted_does_not_let_a_second_kiosk_in(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    with filled(path, 2) as first:
        Path(f"{path}.lock").unlink()
        done = subprocess.run(
            [sys.executable, "-c", LOCKER, str(path)],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 3, done.stdout + done.stderr
        assert "in use by another kiosk" in done.stdout
        first.append(1, 5.0, 1e9, "umpire", EVENT, {"n": 5})  # the first writes on
        assert first.fault is None
        with pytest.raises(JournalLocked):
            Journal(path)  # in this process too
    with Journal(path) as again:
        assert [d["n"] for d in again.confirmed(1)] == [0, 1, 5]


def test_journal_wal_deleted_while_running_is_noticed_and_nothing_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    journal = filled(path, 2)
    os.unlink(f"{path}-wal")
    journal.append(1, 5.0, 1e9, "umpire", EVENT, {"n": 5})
    assert any("was deleted while the kiosk ran" in n for n in journal.notices)
    assert journal.fault is None  # copied into journal.db at once
    image = crash_image(journal, tmp_path / "cut")  # the power goes now
    assert inspect(image).ok
    with Journal(image) as after_the_cut:
        assert [d["n"] for d in after_the_cut.confirmed(1)] == [0, 1, 5]
    journal.append(1, 6.0, 1e9, "umpire", EVENT, {"n": 6})  # and it writes on, to a new -wal
    assert Path(f"{path}-wal").exists()
    journal.close()


def test_journal_wal_deleted_while_a_reader_holds_it_holds_the_writes(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    journal = filled(path, 2)
    reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM entries").fetchone()  # a snapshot held
    os.unlink(f"{path}-wal")
    started = time.monotonic()
    journal.append(1, 5.0, 1e9, "umpire", EVENT, {"n": 5})
    fault = journal.fault
    assert fault is not None and "not saved: entry 4" in fault and "was deleted" in fault
    journal.append(1, 6.0, 1e9, "umpire", EVENT, {"n": 6})
    # Each append runs on the Kivy thread: it does not wait out the 10 s busy timeout for
    # the reader (it did, and the screen froze 10 s a stroke).
    assert time.monotonic() - started < 5.0
    assert journal.fault is not None and "entries 4-5" in journal.fault  # held, not written
    reader.execute("COMMIT")
    reader.close()
    assert journal.retry(force=True) and journal.fault is None
    image = crash_image(journal, tmp_path / "cut")
    with Journal(image) as after_the_cut:
        assert [d["n"] for d in after_the_cut.confirmed(1)] == [0, 1, 5, 6]
    journal.close()


def test_journal_checkpoint_does_not_wait_out_a_readers_snapshot(tmp_path: Path) -> None:
    # At every board's end, on the Kivy thread: a director's replay holding a snapshot made
    # it wait the 10 s busy timeout; now it gives up at once and the next board's end folds.
    path = tmp_path / "journal.db"
    journal = filled(path, 2)
    reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM entries").fetchone()
    journal.append(1, 5.0, 1e9, "umpire", EVENT, {"n": 5})
    started = time.monotonic()
    assert journal.checkpoint() is False
    assert time.monotonic() - started < 5.0
    reader.execute("COMMIT")
    reader.close()
    assert journal.checkpoint() is True
    journal.close()


# -- a forged edit, the chain recomputed ------------------------------------------------------


def _forge(path: Path, seq: int, data: dict[str, object]) -> None:
    """Change entry `seq`, recompute every hash from there on and rewrite the seal, as a
    technician who read journal_chain.py would."""
    db = sqlite3.connect(path)
    db.execute(
        "UPDATE entries SET data=? WHERE seq=?", (json.dumps(data, separators=(",", ":")), seq)
    )
    prev = db.execute(
        "SELECT hash FROM entries WHERE seq=? UNION ALL SELECT hash FROM matches WHERE seq=?",
        (seq - 1, seq - 1),
    ).fetchone()[0]
    rows = db.execute(
        "SELECT seq, match_id, t, wall, source, kind, data FROM entries WHERE seq>=? ORDER BY seq",
        (seq,),
    ).fetchall()
    for number, mid, t, wall, source, kind, text in rows:
        digest = recompute(prev or GENESIS, number, ("entry", mid, t, wall, source, kind, text))
        db.execute("UPDATE entries SET prev=?, hash=? WHERE seq=?", (prev, digest, number))
        prev = digest
    db.commit()
    db.close()
    seal = read_seal(path)
    assert seal is not None
    write_seal(path, type(seal)(rows[-1][0], prev, seal.key))


def test_journal_forged_edit_with_the_chain_recomputed_is_caught_with_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.db"
    filled(path, 6, kind="backgammon").close()  # (protest lists every entry of such a match)
    (key,) = take_director_key(path)  # the director writes it down at the first start
    assert key.startswith("tsk2-1-1-")  # the chain and the key from entry 1
    assert not Path(f"{path}.director-key").exists()
    assert cli_main(["journal", "verify", str(path), "--key", key]) == 0
    assert "7 MACs checked" in capsys.readouterr().out
    _forge(path, 4, {"n": 99})
    assert cli_main(["journal", "verify", str(path)]) == 0  # the chain alone is fooled
    assert cli_main(["journal", "verify", str(path), "--key", key]) == 1
    out = capsys.readouterr().out
    assert "entries 4-7: its MAC does not match the director's key" in out
    with Journal(path) as journal:  # the kiosk starts on it (it keeps no older key) ...
        assert journal.confirmed(1)[2] == {"n": 99}
    out_dir = tmp_path / "protest"
    assert cli_main(["protest", str(path), "-o", str(out_dir), "--key", key]) == 0
    page = next(out_dir.glob("*.html")).read_text(encoding="utf-8")
    assert "WARNING: this journal does not verify" in page and "entries 4-7" in page


def test_journal_key_moves_on_so_the_seal_cannot_forge_older_entries(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    filled(path, 4).close()
    (key,) = take_director_key(path)
    seal = read_seal(path)
    assert seal is not None and seal.key is not None
    assert seal.key.hex() not in key  # the key on the card is not the director's
    with Journal(path) as journal:  # restarted: the key goes on from the seal
        journal.append(1, 9.0, 1e9, "umpire", EVENT, {"n": 9})
    assert inspect(path, keys=[parse_key(key)]).ok


def test_journal_unkeyed_journal_of_schema_2_opens_and_is_keyed_from_then_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.db"
    filled(path, 3).close()
    db = sqlite3.connect(path)  # as a kiosk before this one wrote it: no MAC columns
    db.executescript(
        "ALTER TABLE entries DROP COLUMN mac; ALTER TABLE matches DROP COLUMN mac;"
        "UPDATE meta SET value='2' WHERE key='schema';"
        "DELETE FROM meta WHERE key IN ('key_from', 'id');"
    )
    db.close()
    for leftover in ("journal.db.seal", "journal.db.director-key"):
        (tmp_path / leftover).unlink()
    assert cli_main(["journal", "verify", str(path)]) == 0  # readable as it is
    with Journal(path) as journal:
        journal.append(1, 9.0, 1e9, "umpire", EVENT, {"n": 9})
        assert len(journal.confirmed(1)) == 4
    (key,) = take_director_key(path)
    assert key.startswith("tsk2-1-5-")  # chained from 1, keyed from the first entry after
    verdict = inspect(path, keys=[parse_key(key)])
    assert verdict.ok and verdict.macs == 1, verdict.problems


# -- files and folders -----------------------------------------------------------------------------


def test_journal_backup_folder_is_private_and_stale_parts_are_cleaned(tmp_path: Path) -> None:
    usb = tmp_path / "usb"
    old = os.umask(0)
    try:
        journal = filled(tmp_path / "journal.db", 2, backup_dir=usb)
        journal.checkpoint()  # the stick's folder is made
        stale = usb / ".journal-000000002.db.part"
        stale.write_bytes(b"half a backup")
        os.utime(stale, (1e9, 1e9))  # long ago: a cut in the middle of a backup
        journal.checkpoint()
        journal.close()
    finally:
        os.umask(old)
    assert stat.S_IMODE(usb.stat().st_mode) == 0o700
    assert not stale.exists()
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in usb.iterdir())


def test_config_init_writes_a_private_file(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        assert cli_main(["config", "init", str(tmp_path / "settings.toml")]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "settings.toml").stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["settings.toml"]


def test_journal_keyed_by_a_key_the_hall_gives_leaves_none_on_the_card(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    given = "tsk1-1-" + "5a" * 32
    with Journal(path, key=given) as journal:
        journal.begin_match("carrom", {"event": "match"}, 1e9)
        journal.append(1, 1.0, 1e9, "umpire", EVENT, {"n": 1})
    assert take_director_key(path) == []  # the director has it from the hall already
    verdict = inspect(path, keys=[parse_key(given)])
    assert verdict.ok and verdict.macs == 2
    other = parse_key("tsk1-1-" + "a5" * 32)
    assert not inspect(path, keys=[other]).ok  # and another key does not fit


def test_journal_chain_heads_show_where_a_forged_copy_parts_from_a_witness(tmp_path: Path) -> None:
    from kiosk.engine.journal_check import chain_heads

    path = tmp_path / "journal.db"
    filled(path, 6).close()
    witness = chain_heads(path)  # what the hall kept as the events came
    _forge(path, 4, {"n": 99})
    forged = chain_heads(path)
    assert [seq for seq in witness if witness[seq] != forged.get(seq)] == [4, 5, 6, 7]
