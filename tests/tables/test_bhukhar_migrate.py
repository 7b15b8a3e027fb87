"""One store: the old Bhukhar session files (JSON Lines, one per session, in the data folder)
are read once into the journal, and `Services.unfinished` then looks in the journal alone.

tests/data/bhukhar/old_kiosk holds two files written by the kiosk's own code of before the
move (kiosk/tables/bhukhar_table.py at 7ee953d): the older session, and the newest with a
round running and a last line the power cut short."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from drivers.simulated import ManualClock as FakeClock
from kiosk.engine.journal import Journal
from kiosk.rules.bhukhar.record import parse_session, start_to_dict
from kiosk.tables.bhukhar_migrate import MIGRATED, MIGRATING, migrate_sessions
from kiosk.tables.bhukhar_table import KIND, BhukharTable
from kiosk.wiring import Services

OLD = Path(__file__).parents[1] / "data" / "bhukhar" / "old_kiosk"
SAMPLE = Path(__file__).parents[1] / "data" / "bhukhar" / "session.jsonl"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(OLD, folder)
    return folder


def _whole_lines(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return text[: text.rfind("\n") + 1]


def test_bhukhar_migrate_old_session_files_into_the_journal(data: Path, wall: FakeClock) -> None:
    wall.set(1_763_987_060.0 + 300)  # five minutes after the newest round was resumed
    old = {p.name: _whole_lines(p) for p in sorted(data.glob("bhukhar-*.jsonl"))}
    services = Services(data_dir=data, check_pin=lambda _pin: False, clock=FakeClock(5.0))
    assert services.tables.latest_unfinished() == "bhukhar"  # the journal alone: the files are gone
    assert sorted(p.name for p in data.iterdir() if "bhukhar" in p.name) == [
        "bhukhar-001.jsonl.migrated",
        "bhukhar-002.jsonl.migrated",
    ]
    journal = services.journal()
    first, second = journal.matches(KIND)
    assert first.finished and not second.finished  # the newest session resumes, as before
    for row, name in ((first, "bhukhar-001.jsonl"), (second, "bhukhar-002.jsonl")):
        table = BhukharTable.open(journal, row.id, clock=FakeClock(5.0), wall=wall)
        assert table is not None
        # Line for line the record the old kiosk wrote, without the torn last line.
        assert table.export() == old[name]
        marks = [e.kind for e in journal.entries(row.id, (MIGRATING, MIGRATED))]
        assert marks == [MIGRATING, MIGRATED]
    offered = services.tables.resume("bhukhar")
    assert offered is not None and offered.match_id == second.id
    resumed = BhukharTable.open(journal, clock=FakeClock(5.0), wall=wall)
    assert resumed is not None and resumed.match_id == second.id
    assert resumed.round == 1 and len(resumed.games()) == 1
    assert resumed.remaining(5.0) == 1500 - 300  # the round went on by the wall clock
    services.close()
    # Started again: nothing is read twice.
    again = Services(data_dir=data, check_pin=lambda _pin: False)
    assert len(again.journal().matches(KIND)) == 2
    again.close()


def test_bhukhar_migrate_a_half_done_import_is_done_again(data: Path, tmp_path: Path) -> None:
    """The kiosk died mid-import: the match begun for the file has no "migrated" entry; it is
    finished (abandoned) and the file is read again, whole."""
    journal = Journal(tmp_path / "journal.db")
    path = data / "bhukhar-001.jsonl"
    half = journal.begin_match(
        KIND, start_to_dict(parse_session(path.read_text("utf-8")).start), 1.0
    )
    journal.append(half, 0.0, 1.0, "system", MIGRATING, {"from": path.name})
    assert migrate_sessions(journal, data) == []
    rows = journal.matches(KIND)
    assert rows[0].id == half and rows[0].finished
    done = [r for r in rows if r.id != half]
    table = BhukharTable.open(journal, done[0].id)
    assert table is not None and len(table.games()) == 2
    journal.close()


def test_bhukhar_migrate_a_bad_file_is_named_by_line_and_left(data: Path, tmp_path: Path) -> None:
    bad = data / "bhukhar-003.jsonl"
    lines = SAMPLE.read_text("utf-8").splitlines()
    bad.write_text("\n".join([lines[0], '{"event": "cancel", "round": 9, "table": 1}']) + "\n")
    journal = Journal(tmp_path / "journal.db")
    problems = migrate_sessions(journal, data)
    assert len(problems) == 1 and problems[0].startswith(f"{bad}:2: no game of round 9")
    assert bad.exists() and not (data / "bhukhar-001.jsonl").exists()
    assert len(journal.matches(KIND)) == 2
    journal.close()


def test_bhukhar_migrate_the_documented_sample_record(tmp_path: Path) -> None:
    """The sample record of docs/bhukhar.md (comments and all) moves in with its standings."""
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(SAMPLE, data / "bhukhar-001.jsonl")
    journal = Journal(tmp_path / "journal.db")
    assert migrate_sessions(journal, data) == []
    table = BhukharTable.open(journal)
    assert table is not None
    assert table.standings() == parse_session(SAMPLE.read_text("utf-8")).standings()
    journal.close()
