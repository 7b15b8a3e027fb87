"""Trust: where the chain and the key start is bound by the key and
the seal (`journal verify --key` fails on every forgery, naming the entry), and a journal
belongs to its folder and table (another table's journal or backup is refused, naming both).
Real files, real SQLite; each forgery is what a technician with the SD card can do."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kiosk.cli import main as cli_main
from kiosk.engine.journal import EVENT, Journal, JournalDamaged
from kiosk.engine.journal_chain import GENESIS, recompute
from kiosk.engine.journal_check import inspect
from kiosk.engine.journal_files import read_seal, write_seal
from kiosk.engine.journal_key import parse_key, take_director_key

#: The issue's journal: a match and 125 events, 126 rows, checkpointed (the marker knows it).
ROWS = 126


def keyed(folder: Path, n: int = ROWS - 1, wall: float = 1e9) -> tuple[Path, str]:
    """A journal of a match and `n` events in `folder`, its director's key taken."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "journal.db"
    with Journal(path) as journal:
        mid = journal.begin_match("backgammon", {"event": "match"}, wall)
        for i in range(n):
            journal.append(mid, float(i), wall + i, "umpire", EVENT, {"n": i})
        journal.checkpoint()
    (key,) = take_director_key(path)
    return path, key


def sql(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    for statement in statements:
        db.execute(statement)
    db.commit()
    db.close()


def edit(path: Path, seq: int) -> None:
    """Change an entry's content, leaving its stored hash and MAC as they were."""
    sql(path, f"UPDATE entries SET data='{{\"n\":999}}' WHERE seq={seq}")


def forge_chain(path: Path, seq: int) -> None:
    """Change entry `seq` and recompute every hash from there on (journal_chain.py is
    public), as a technician who read the code would."""
    db = sqlite3.connect(path)
    db.execute("UPDATE entries SET data=? WHERE seq=?", ('{"n":999}', seq))
    prev = db.execute("SELECT hash FROM entries WHERE seq=?", (seq - 1,)).fetchone()[0]
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


def moved_start(path: Path) -> None:
    sql(path, "UPDATE meta SET value='1000' WHERE key IN ('chain_from', 'key_from')")


def moved_start_edited(path: Path) -> None:
    moved_start(path)
    edit(path, 5)


def moved_start_in_the_seal_too(path: Path) -> None:
    moved_start_edited(path)
    seal = json.loads(Path(f"{path}.seal").read_text())
    seal.update(chain_from=1000, key_from=1000)  # the seal agrees: only the key does not
    Path(f"{path}.seal").write_text(json.dumps(seal))


def moved_chain_edited(path: Path) -> None:
    sql(path, "UPDATE meta SET value='1000' WHERE key='chain_from'")
    edit(path, 5)


def key_from_deleted(path: Path) -> None:
    sql(path, "DELETE FROM meta WHERE key='key_from'")


def key_from_deleted_edited(path: Path) -> None:
    sql(path, "DELETE FROM meta WHERE key IN ('key_from', 'chain_from')")
    sql(path, "UPDATE meta SET value='1' WHERE key='schema'")  # "before the chain"
    edit(path, 5)


def truncated_seal_rewritten(path: Path) -> None:
    seal = read_seal(path)
    assert seal is not None
    sql(path, "DELETE FROM entries WHERE seq > 120")
    db = sqlite3.connect(path)
    digest = db.execute("SELECT hash FROM entries WHERE seq=120").fetchone()[0]
    db.close()
    write_seal(path, type(seal)(120, digest, seal.key))


def truncated_seal_deleted(path: Path) -> None:
    sql(path, "DELETE FROM entries WHERE seq > 120")
    Path(f"{path}.seal").unlink()


def truncated_seal_keyless(path: Path) -> None:
    sql(path, "DELETE FROM entries WHERE seq > 120")
    db = sqlite3.connect(path)
    digest = db.execute("SELECT hash FROM entries WHERE seq=120").fetchone()[0]
    db.close()
    Path(f"{path}.seal").write_text(json.dumps({"seq": 120, "hash": digest}))


def swapped_seal(path: Path) -> None:
    # Another kiosk's journal with the very same rows (same times, same data): the same
    # hashes, another key. Its seal laid beside this journal.
    other, _ = keyed(path.parent.parent / "other")
    shutil.copyfile(f"{other}.seal", f"{path}.seal")


def chain_recomputed_mac_column_dropped(path: Path) -> None:
    forge_chain(path, 5)
    sql(path, "ALTER TABLE entries DROP COLUMN mac", "ALTER TABLE matches DROP COLUMN mac")


def row_before_the_first(path: Path) -> None:
    # An entry slipped in before entry 1, where no chain or key reaches.
    sql(
        path,
        "INSERT INTO entries (seq, match_id, t, wall, source, kind, data, prev, hash, mac)"
        " VALUES (0, 1, 0.0, 1e9, 'umpire', 'event', '{\"n\":-1}', NULL, NULL, NULL)",
    )


FORGERIES: dict[str, tuple[Callable[[Path], None], str]] = {
    "moved start": (moved_start, "entry 1:"),
    "moved start, an entry edited": (moved_start_edited, "entry 5:"),
    "moved chain start, an entry edited": (moved_chain_edited, "entry 5:"),
    "moved start in the meta and the seal, an entry edited": (
        moved_start_in_the_seal_too,
        "entry 5:",
    ),
    "key_from deleted": (key_from_deleted, "entry 1:"),
    "key_from and chain_from deleted, an entry edited": (key_from_deleted_edited, "entry 5:"),
    "tail cut, the seal rewritten": (truncated_seal_rewritten, "entry 120:"),
    "tail cut, the seal deleted": (truncated_seal_deleted, "entries 121-126"),
    "tail cut, a seal without its key": (truncated_seal_keyless, "entry 120:"),
    "swapped seal": (swapped_seal, "entry 126:"),
    "chain recomputed, the MACs dropped": (chain_recomputed_mac_column_dropped, "entries 1-126"),
    "an entry before the first": (row_before_the_first, "entry 0:"),
}


@pytest.mark.parametrize("name", list(FORGERIES))
def test_journal_verify_with_the_key_fails_on_every_forgery_naming_the_entry(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, key = keyed(tmp_path / "kiosk")
    assert cli_main(["journal", "verify", str(path), "--key", key]) == 0
    capsys.readouterr()
    forge, where = FORGERIES[name]
    forge(path)
    assert cli_main(["journal", "verify", str(path), "--key", key]) == 1
    out = capsys.readouterr().out
    assert where in out, out
    assert ", ok," not in out and "MACs checked" not in out


def test_journal_moved_start_makes_the_protest_page_red(tmp_path: Path) -> None:
    path, key = keyed(tmp_path / "kiosk", 6)
    moved_start_edited(path)
    out_dir = tmp_path / "protest"
    assert cli_main(["protest", str(path), "-o", str(out_dir), "--key", key]) == 0
    page = next(out_dir.glob("*.html")).read_text(encoding="utf-8")
    assert "WARNING: this journal does not verify" in page and "entry 5" in page
    assert "Hash chain verified with the director" not in page


def test_journal_key_records_where_the_chain_and_the_key_begin(tmp_path: Path) -> None:
    path, key = keyed(tmp_path / "kiosk", 3)
    first = parse_key(key)
    assert (first.chain_from, first.start) == (1, 1)
    assert key.startswith("tsk2-1-1-")
    seal = read_seal(path)
    assert seal is not None and (seal.chain_from, seal.key_from) == (1, 1)
    # A key of the first form (tsk1, given before) still checks a journal.
    old_form = f"tsk1-1-{first.key.hex()}"
    assert cli_main(["journal", "verify", str(path), "--key", old_form]) == 0
    moved_start(path)
    assert cli_main(["journal", "verify", str(path), "--key", old_form]) == 1


def test_journal_moved_start_is_refused_at_start_by_the_seal(tmp_path: Path) -> None:
    path, _key = keyed(tmp_path / "kiosk", 6)
    moved_start_edited(path)
    with pytest.raises(JournalDamaged) as refused:
        Journal(path)
    said = str(refused.value)
    assert "chain_from" in said and "seal" in said


def test_journal_untouched_stays_ok_with_the_key_through_restarts(tmp_path: Path) -> None:
    path, key = keyed(tmp_path / "kiosk", 5)
    with Journal(path) as journal:  # restarted twice: the key goes on from the seal
        journal.append(1, 9.0, 1e9, "umpire", EVENT, {"n": 9})
    with Journal(path) as journal:
        journal.append(1, 10.0, 1e9, "umpire", EVENT, {"n": 10}, sync=False)
        journal.write()  # a raw row after the seal's entry
    verdict = inspect(path, keys=[parse_key(key)])
    assert verdict.ok and verdict.macs == 8, verdict.problems


# -- a journal belongs to its folder and table ----------------------------------------------


def two_tables(tmp_path: Path, named: bool = True) -> tuple[Path, Path]:
    """Table A's and table B's journals, each in its own data folder, with backups (`named`:
    each kiosk knows its table's name, `[hall] table_id`)."""
    paths = []
    for name, wall in (("A", 1e9), ("B", 2e9)):
        folder = tmp_path / name
        path = folder / "journal.db"
        kw: dict[str, Any] = {"table": name} if named else {}
        with Journal(path, backup_dir=folder / "usb", **kw) as journal:
            mid = journal.begin_match("carrom", {"event": "match", "table": name}, wall)
            for i in range(4 if name == "A" else 8):
                journal.append(mid, float(i), wall + i, "umpire", EVENT, {"n": i})
            journal.checkpoint()
        paths.append(path)
    return paths[0], paths[1]


def test_journal_of_another_table_in_the_folder_is_refused_naming_both(tmp_path: Path) -> None:
    a, b = two_tables(tmp_path)
    for suffix in ("", ".seal"):  # B's journal and its seal, copied over A's
        shutil.copyfile(f"{b}{suffix}", f"{a}{suffix}")
    with pytest.raises(JournalDamaged) as refused:
        Journal(a, backup_dir=a.parent / "usb", table="A")
    said = str(refused.value)
    assert "table B" in said and "table A" in said, said


def test_journal_of_another_table_without_its_seal_is_refused(tmp_path: Path) -> None:
    a, b = two_tables(tmp_path, named=False)  # no table names: the journals' ids
    ids = [inspect(p).journal_id for p in (a, b)]
    shutil.copyfile(b, a)
    Path(f"{a}.seal").unlink()
    before = a.read_bytes()
    with pytest.raises(JournalDamaged) as refused:
        Journal(a, backup_dir=a.parent / "usb")
    said = str(refused.value)
    assert all(str(i)[:12] in said for i in ids), said
    assert a.read_bytes() == before


def test_journal_restore_of_another_tables_backup_names_both_ids_unnamed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = two_tables(tmp_path, named=False)
    ids = [inspect(p).journal_id for p in (a, b)]
    (backup,) = sorted((b.parent / "usb").glob("journal-*.db"))
    assert cli_main(["journal", "restore", str(backup), str(a)]) == 1
    err = capsys.readouterr().err
    assert all(str(i)[:12] in err for i in ids), err


def test_journal_restore_of_another_tables_backup_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = two_tables(tmp_path)
    (backup,) = sorted((b.parent / "usb").glob("journal-*.db"))
    before = a.read_bytes()
    assert cli_main(["journal", "restore", str(backup), str(a)]) == 1
    err = capsys.readouterr().err
    assert "table B" in err and "table A" in err and "--force" in err, err
    assert a.read_bytes() == before  # nothing replaced
    assert cli_main(["journal", "restore", str(backup), str(a), "--force"]) == 0
    out = capsys.readouterr().out
    assert "replaces table A's journal" in out and "table B's" in out, out
    with Journal(a, table="A") as journal:  # the folder's journal is now B's, on purpose
        assert len(journal.confirmed(1)) == 8


def test_journal_without_an_id_is_given_one_at_its_first_start(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    with Journal(path) as journal:
        mid = journal.begin_match("carrom", {"event": "match"}, 1e9)
        journal.append(mid, 1.0, 1e9, "umpire", EVENT, {"n": 1})
    sql(path, "DELETE FROM meta WHERE key='id'")  # as a kiosk before ids wrote it
    marker = json.loads((tmp_path / ".journals").read_text())
    marker["journal.db"]["id"] = "before-markers"
    (tmp_path / ".journals").write_text(json.dumps(marker))
    seal = json.loads(Path(f"{path}.seal").read_text())
    Path(f"{path}.seal").write_text(json.dumps({k: seal[k] for k in ("seq", "hash", "key")}))
    with Journal(path) as journal:
        assert len(journal.confirmed(1)) == 1
    verdict = inspect(path)
    assert verdict.ok and verdict.journal_id, verdict.problems
    marker = json.loads((tmp_path / ".journals").read_text())
    assert marker["journal.db"]["id"] == verdict.journal_id
    assert json.loads(Path(f"{path}.seal").read_text())["id"] == verdict.journal_id
    with Journal(path) as journal:  # and it opens again as itself
        assert len(journal.confirmed(1)) == 1
