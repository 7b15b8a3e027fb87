"""The publisher sends the confirmed events its table's outputs hear of, reading
the journal only for a gap: what came before it started, or one it did not hear of."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.access.authority import Role
from kiosk.engine.journal import EVENT, Journal
from kiosk.hall.listener import HallListener
from kiosk.hall.mosquitto import Mosquitto
from kiosk.hall.publisher import HallPublisher
from kiosk.hall.record import HallRecord
from kiosk.kinds import tile_of
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromTable

from .conftest import HALL, USERS, table_settings, wait_for


@pytest.fixture
def record(broker: Mosquitto, tmp_path: Path) -> Iterator[HallRecord]:
    rec = HallRecord(tmp_path / "hall.db")
    listener = HallListener(
        rec, ("127.0.0.1", broker.port), hall=HALL, username="director",
        password=USERS["director"],
    )  # fmt: skip
    listener.start()
    wait_for(lambda: listener.connected, 5, "the hall's connection")
    yield rec
    listener.stop()
    rec.close()


def seqs(rec: HallRecord) -> list[int]:
    with sqlite3.connect(rec.path) as db:
        return sorted(int(s) for (s,) in db.execute("SELECT seq FROM events WHERE tbl = 't01'"))


def test_confirmed_events_go_from_the_outputs_without_reading_the_journal(
    broker: Mosquitto, record: HallRecord, tmp_path: Path
) -> None:
    data = tmp_path / "k"
    pub = HallPublisher(table_settings(broker, "t01"), data, tile_of=tile_of).start()
    s = CarromTable(Journal(data / "journal.db"), outputs=[pub])
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha", board_limit=None), role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    first = wait_for(lambda: seqs(record), 5, "the first event")
    assert isinstance(first, list)
    reads = pub.journal.reads  # the reads of the start: everything after the mark
    for _ in range(5):
        s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    want = [e.seq for e in s.journal.entries(s.match_id, [EVENT])]
    wait_for(lambda: seqs(record) == want, 5, "the five events")
    assert pub.journal.reads == reads  # heard of from the outputs, none read from the file
    pub.stop()
    s.journal.close()


def test_an_event_no_output_heard_of_is_read_from_the_journal(
    broker: Mosquitto, record: HallRecord, tmp_path: Path
) -> None:
    data = tmp_path / "k"
    pub = HallPublisher(table_settings(broker, "t01"), data, tile_of=tile_of).start()
    s = CarromTable(Journal(data / "journal.db"), outputs=[pub])
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha", board_limit=None), role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    wait_for(lambda: seqs(record), 5, "the first event")
    # An event the publisher does not hear of (a table without it among its outputs)...
    s.outputs.remove(pub)
    s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    s.outputs.add(pub)
    # ...is found by the next one it hears of, which does not follow the last it sent.
    s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    want = [e.seq for e in s.journal.entries(s.match_id, [EVENT])]
    assert len(want) == 3
    wait_for(lambda: seqs(record) == want, 5, "the missed event and the next")
    pub.stop()
    s.journal.close()
