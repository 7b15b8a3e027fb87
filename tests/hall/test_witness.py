"""The hall as the journal's witness: `tableside hall verify TABLE JOURNAL` compares a
kiosk's journal (read only) with the hall's copy and says where a forged edit is, even when
the forger recomputed the whole chain (which the journal's own verify cannot see)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.engine.journal_chain import GENESIS, chained_rows, recompute
from kiosk.engine.journal_files import read_seal, write_seal
from kiosk.hall.listener import HallListener
from kiosk.hall.mosquitto import Mosquitto
from kiosk.hall.publisher import HallPublisher
from kiosk.hall.record import HallRecord
from kiosk.kinds import tile_of
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromTable

from .conftest import HALL, USERS, table_settings, wait_for


def forge(journal: Path, seq: int, data: dict[str, object]) -> None:
    """A technician's edit: entry `seq` says something else, every hash from it on is
    computed again and the seal rewritten, so the journal's own chain checks out (without the
    director's key)."""
    with sqlite3.connect(journal) as db:
        db.execute("UPDATE entries SET data = ? WHERE seq = ?",
                   (json.dumps(data, separators=(",", ":")), seq))  # fmt: skip
        prev = GENESIS
        rows, _problems = chained_rows(db)
        for row_seq, _, _, body, _mac in rows:
            digest = recompute(prev, row_seq, body)
            table = "entries" if body[0] == "entry" else "matches"
            db.execute(f"UPDATE {table} SET prev = ?, hash = ? WHERE seq = ?",
                       (prev, digest, row_seq))  # fmt: skip
            prev = digest
    seal = read_seal(journal)
    assert seal is not None
    write_seal(journal, type(seal)(rows[-1][0], prev, seal.key))


def verify(journal: Path, data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kiosk.cli", "hall", "verify", "t01", str(journal),
         "--data", str(data)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_hall_verify_finds_a_forged_edit_with_the_chain_recomputed(
    broker: Mosquitto, tmp_path: Path
) -> None:
    data = tmp_path / "hall"
    rec = HallRecord(data / "hall.db")
    listener = HallListener(rec, ("127.0.0.1", broker.port), username="director",
                            password=USERS["director"])  # fmt: skip
    listener.start()
    pub = HallPublisher(table_settings(broker, "t01"), tmp_path / "k", tile_of=tile_of).start()
    journal = tmp_path / "k" / "journal.db"
    try:
        s = CarromTable(Journal(journal), outputs=[pub])
        s.start_match(
            MatchStart("icf", ("Asha", "Bina"), "Asha", board_limit=None), role=Role.UMPIRE
        )
        for n in range(6):
            s.confirm(s.proposal.edited(pocketed=["white"] if n == 2 else []), role=Role.UMPIRE)
        entries = s.journal.entries(1, ("event",))
        wait_for(lambda: len(rec.events(HALL, "t01", rec.matches()[0]["match"]) if
                         rec.matches() else []) == 6, 10, "six events at the hall")  # fmt: skip
        s.journal.close()
    finally:
        pub.stop()
        listener.stop()
        rec.close()
    good = verify(journal, data)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "agrees with the hall's copy" in good.stdout
    # The stroke that pocketed a white is made a miss, the chain recomputed over it.
    forged_seq = entries[2].seq
    assert entries[2].data["pocketed"] == ["white"]
    forge(journal, forged_seq, {**entries[2].data, "pocketed": []})
    own = subprocess.run([sys.executable, "-m", "kiosk.cli", "journal", "verify", str(journal)],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert own.returncode == 0, own.stdout  # the journal alone cannot tell
    bad = verify(journal, data)
    assert bad.returncode == 1
    first = bad.stdout.splitlines()[0]
    assert f"entry {forged_seq} on" in first and "differs from the hall's copy" in first
    lines = bad.stdout.splitlines()[1:]
    assert f"entry {forged_seq}: hash" in lines[0] and '"pocketed":[]' in lines[0]
    # Every later entry's hash moved with the recomputed chain: each one is named.
    assert len(lines) == 6 - 2
