"""The journal: synced SQLite in WAL mode, append-only, undo as an entry, readable after reopen."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kiosk.engine.journal import EVENT, UNDO, Journal, JournalError


def test_journal_is_wal_with_full_sync(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        # 2 is FULL (sqlite3 docs: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA).
        assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2


def test_journal_entries_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "j.db"
    with Journal(path) as journal:
        mid = journal.begin_match("carrom", {"event": "match", "players": ["A", "B"]}, 100.0)
        journal.append(mid, 0.5, 100.5, "beam", "beam_hit", {"pocket": 2, "duration": 0.01})
        journal.append(mid, 1.0, 101.0, "umpire", EVENT, {"event": "stroke", "pocketed": []})
    with Journal(path, create=False) as journal:
        (row,) = journal.matches()
        assert row.kind == "carrom" and not row.finished
        assert row.header["players"] == ["A", "B"]
        entries = journal.entries(row.id)
        assert [(e.source, e.kind) for e in entries] == [("beam", "beam_hit"), ("umpire", EVENT)]
        assert entries[0].data == {"pocket": 2, "duration": 0.01}
        assert journal.unfinished("carrom") == row


def test_journal_undo_is_an_entry_and_history_is_kept(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        mid = journal.begin_match("carrom", {}, 0.0)
        for n in range(3):
            journal.append(mid, n, n, "umpire", EVENT, {"n": n})
        journal.append(mid, 3, 3, "umpire", UNDO, {})
        journal.append(mid, 4, 4, "umpire", UNDO, {})
        journal.append(mid, 5, 5, "umpire", EVENT, {"n": 9})
        assert journal.confirmed(mid) == [{"n": 0}, {"n": 9}]
        assert len(journal.entries(mid)) == 6  # nothing deleted


def test_journal_finished_match_is_not_offered_for_resume(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        first = journal.begin_match("carrom", {}, 0.0)
        second = journal.begin_match("backgammon", {}, 0.0)
        journal.finish(first)
        assert journal.unfinished("carrom") is None
        unfinished = journal.unfinished()
        assert unfinished is not None and unfinished.id == second


def test_journal_missing_file_for_export_is_an_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match=r"nope\.db"):
        Journal(tmp_path / "nope.db", create=False)


def test_journal_not_a_database_is_an_error_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(JournalError, match=r"bad\.db"):
        Journal(bad)


def test_journal_schema_of_another_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    Journal(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    with pytest.raises(JournalError, match="schema 99"):
        Journal(path)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kiosk.engine.journal_chain import entry_body  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 2**62),
    st.none() | st.integers(1, 2**62),
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),
    st.text(),
    st.text(),
)
def test_journal_row_body_is_the_canonical_json_the_chain_always_hashed(
    seq: int, match: int | None, t: float, wall: float, source: str, kind: str, data: str
) -> None:
    """The row's text is built directly (the start hashes every row): byte for byte what
    json.dumps wrote, lone surrogates and all, so every journal already written verifies."""
    import json

    canonical = json.dumps(
        ["entry", seq, match, t, wall, source, kind, data],
        ensure_ascii=False,
        separators=(",", ":"),
        allow_nan=False,
    )
    assert entry_body(seq, match, t, wall, source, kind, data) == canonical
