"""Topics and delivery against a real Mosquitto: the journal is the outbox, the hall record
stores by (table, match, seq), nothing is lost or doubled."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.hall.listener import HallListener
from kiosk.hall.mosquitto import Mosquitto, free_port
from kiosk.hall.outbox import match_key
from kiosk.hall.publisher import HallPublisher
from kiosk.hall.record import HallRecord
from kiosk.kinds import tile_of
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromTable

from .conftest import HALL, USERS, table_settings, wait_for


@pytest.fixture
def record(broker: Mosquitto, tmp_path: Path) -> Iterator[tuple[HallRecord, HallListener]]:
    rec = HallRecord(tmp_path / "hall.db")
    listener = HallListener(
        rec, ("127.0.0.1", broker.port), hall=HALL, username="director",
        password=USERS["director"],
    )  # fmt: skip
    listener.start()
    wait_for(lambda: listener.connected, 5, "the hall's connection")
    yield rec, listener
    listener.stop()
    rec.close()


def journal_events(path: Path) -> set[tuple[str, int]]:
    """(match, seq) of every event and undo in a kiosk's journal: what the hall must hold."""
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT e.match_id, m.wall_start, e.seq FROM entries e JOIN matches m"
            " ON m.id = e.match_id WHERE e.kind IN ('event', 'undo')"
        ).fetchall()
    return {(match_key(m, w), int(s)) for m, w, s in rows}


def hall_events(rec: HallRecord, table: str) -> list[tuple[str, int]]:
    with sqlite3.connect(rec.path) as db:
        rows = db.execute("SELECT match, seq FROM events WHERE tbl = ?", (table,)).fetchall()
    return [(str(m), int(s)) for m, s in rows]


def carrom(data: Path, publisher: HallPublisher) -> CarromTable:
    s = CarromTable(Journal(data / "journal.db"), outputs=[publisher])
    if s.resume() is None:
        s.start_match(
            MatchStart("icf", ("Asha", "Bina"), "Asha", board_limit=None), role=Role.UMPIRE
        )
    return s


def test_confirm_reaches_the_hall_record_with_its_seq_and_state(
    broker: Mosquitto, record: tuple[HallRecord, HallListener], tmp_path: Path
) -> None:
    rec, _ = record
    pub = HallPublisher(table_settings(broker, "t01"), tmp_path / "k", tile_of=tile_of).start()
    s = carrom(tmp_path / "k", pub)
    s.confirm(s.proposal.edited(pocketed=["white"]), role=Role.UMPIRE)
    wait_for(lambda: hall_events(rec, "t01"), 5, "the event in the hall record")
    (match,) = rec.matches("carrom")
    (event,) = rec.events(HALL, "t01", match["match"])
    assert event["kind"] == "event" and event["data"]["event"] == "stroke"
    assert event["data"]["pocketed"] == ["white"]
    # The chain hash: published when the journal has one (the journal issue), else null.
    assert isinstance(event["hash"], str) and len(event["hash"]) == 64  # the journal's chain
    assert match["header"]["players"] == ["Asha", "Bina"]

    def state() -> dict[str, object] | None:
        (t,) = rec.tables()
        st = t["state"]
        return st if st and st["tile"]["events"] == 1 else None

    st = wait_for(state, 5, "the state with the stroke")
    assert isinstance(st, dict)
    # The kiosk holds the journal's lock: a second reader opens it read-only.
    last = Journal(tmp_path / "k" / "journal.db", readonly=True).last_entry(1)
    assert last is not None and st["seq"] == last.seq
    assert st["tile"]["players"] == ["Asha", "Bina"] and st["tile"]["turn"] in ("Asha", "Bina")
    assert rec.tables()[0]["status"] == "online"
    pub.stop()
    wait_for(lambda: rec.tables()[0]["status"] == "offline", 5, "offline after a clean stop")


def test_kiosk_without_a_broker_keeps_scoring_and_sends_the_gap_later(
    tmp_path: Path,
) -> None:
    port = free_port()
    b = Mosquitto(tmp_path / "late", port=port)
    from kiosk.config.hall import HallSettings

    settings = HallSettings(broker=b.address, table_id="t01", keepalive_s=5)
    pub = HallPublisher(settings, tmp_path / "k", tile_of=tile_of).start()
    s = carrom(tmp_path / "k", pub)
    started = time.monotonic()
    for _ in range(5):
        s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    assert time.monotonic() - started < 1.0  # never held up by the missing broker
    assert s.view().events == 5 and not pub.online
    with b:
        rec = HallRecord(tmp_path / "hall.db")
        listener = HallListener(rec, ("127.0.0.1", port))
        listener.start()
        try:
            wait_for(lambda: pub.online, 10, "the publisher's connection")
            want = journal_events(tmp_path / "k" / "journal.db")
            wait_for(lambda: set(hall_events(rec, "t01")) == want, 10, "the gap")
            assert len(hall_events(rec, "t01")) == 5
        finally:
            pub.stop()
            listener.stop()


def test_broker_killed_and_restarted_loses_and_doubles_nothing(
    broker: Mosquitto, record: tuple[HallRecord, HallListener], tmp_path: Path
) -> None:
    rec, _ = record
    pub = HallPublisher(table_settings(broker, "t01"), tmp_path / "k", tile_of=tile_of).start()
    s = carrom(tmp_path / "k", pub)
    wait_for(lambda: pub.online, 5, "online")
    for n in range(30):
        s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
        if n == 10:
            broker.kill()  # SIGKILL: what it held in memory is gone
        if n == 20:
            broker.start()
        time.sleep(0.01)
    s.undo(role=Role.UMPIRE)
    want = journal_events(tmp_path / "k" / "journal.db")
    assert len(want) == 31
    wait_for(lambda: set(hall_events(rec, "t01")) == want, 15, "every event after the restart")
    got = hall_events(rec, "t01")
    assert len(got) == len(set(got)) == 31
    pub.stop()


def test_events_the_broker_took_while_the_hall_was_away_are_asked_for_again(
    broker: Mosquitto, tmp_path: Path
) -> None:
    """The race a loaded machine showed after a broker restart: the kiosk is back first and
    sends its gap, the broker acknowledges it with no hall subscribed and drops it. Only the
    retained state then says the table has more; the listener must ask by itself."""
    rec = HallRecord(tmp_path / "hall.db")
    first = HallListener(rec, ("127.0.0.1", broker.port), username="director",
                         password=USERS["director"])  # fmt: skip
    first.start()
    pub = HallPublisher(table_settings(broker, "t01"), tmp_path / "k", tile_of=tile_of).start()
    try:
        wait_for(lambda: first.connected and pub.online, 5, "both connected")
        s = carrom(tmp_path / "k", pub)
        for _ in range(3):
            s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
        journal = tmp_path / "k" / "journal.db"
        before = journal_events(journal)
        wait_for(lambda: set(hall_events(rec, "t01")) == before, 5, "the first strokes")
        first.stop()  # the hall's subscription is gone: the broker drops what comes now
        for _ in range(4):
            s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
        last = max(seq for _, seq in journal_events(journal))
        wait_for(lambda: max(pub.mark.values.values()) == last, 5, "the broker's acks")
        assert set(hall_events(rec, "t01")) == before  # acknowledged, yet not in the hall
        second = HallListener(rec, ("127.0.0.1", broker.port), username="director",
                              password=USERS["director"])  # fmt: skip
        second.start()
        try:  # no one calls `tick`: the listener's own thread does
            want = journal_events(journal)
            wait_for(lambda: set(hall_events(rec, "t01")) == want, 10, "the dropped strokes")
            got = hall_events(rec, "t01")
            assert len(got) == len(set(got)) == len(want) == 7
        finally:
            second.stop()
    finally:
        pub.stop()
        rec.close()


def _simulate(broker: Mosquitto, data: Path, steps: int, every: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable, "-m", "kiosk.hall.simulate", "--broker", broker.address,
            "--hall", HALL, "--data", str(data), "--tables", "t02:carrom",
            "--password", USERS["t02"], "--every", every, "--steps", str(steps),
            "--keepalive", "5",
        ],
        stdout=subprocess.PIPE,
    )  # fmt: skip


def test_kiosk_killed_and_restarted_loses_and_doubles_nothing(
    broker: Mosquitto, record: tuple[HallRecord, HallListener], tmp_path: Path
) -> None:
    rec, _ = record
    data = tmp_path / "kiosks"
    first = _simulate(broker, data, 10_000, "0.01,0.03")
    assert first.stdout is not None and first.stdout.readline().strip() == b"ready"
    journal = data / "t02" / "journal.db"
    wait_for(lambda: len(journal_events(journal)) >= 40, 15, "40 strokes")
    os.kill(first.pid, signal.SIGKILL)  # mid-stroke, mid-publish: as a power cut
    first.wait(timeout=10)
    first.stdout.close()
    second = _simulate(broker, data, 20, "0.01,0.02")
    out, _ = second.communicate(timeout=60)
    assert second.returncode == 0, out
    want = journal_events(journal)
    wait_for(lambda: set(hall_events(rec, "t02")) == want, 15, "the journal in the hall record")
    got = hall_events(rec, "t02")
    assert len(got) == len(set(got)) == len(want) >= 60


def test_last_will_shows_a_killed_kiosk_offline_within_its_keepalive(
    broker: Mosquitto, record: tuple[HallRecord, HallListener], tmp_path: Path
) -> None:
    rec, _ = record
    kiosk = _simulate(broker, tmp_path / "kiosks", 10_000, "0.5,1")
    assert kiosk.stdout is not None and kiosk.stdout.readline().strip() == b"ready"

    def status() -> str | None:
        tables = rec.tables()
        return tables[0]["status"] if tables else None

    wait_for(lambda: status() == "online", 10, "online")
    os.kill(kiosk.pid, signal.SIGKILL)
    killed = time.monotonic()
    kiosk.wait(timeout=10)
    kiosk.stdout.close()
    wait_for(lambda: status() == "offline", 5 * 1.5 + 2, "the last will")
    assert time.monotonic() - killed <= 5 * 1.5 + 1  # MQTT: 1.5 x keep-alive at most


def test_hall_restarted_with_an_empty_record_asks_for_everything(
    broker: Mosquitto, tmp_path: Path
) -> None:
    pub = HallPublisher(table_settings(broker, "t01"), tmp_path / "k", tile_of=tile_of).start()
    s = carrom(tmp_path / "k", pub)
    for _ in range(6):
        s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    wait_for(lambda: any(v > 0 for v in pub.mark.values.values()), 5, "the broker's ack")
    # A hall that was away: only the retained state tells it the table has 6 events.
    rec = HallRecord(tmp_path / "new-hall.db")
    listener = HallListener(rec, ("127.0.0.1", broker.port), username="director",
                            password=USERS["director"])  # fmt: skip
    listener.start()
    try:
        want = journal_events(tmp_path / "k" / "journal.db")
        # No one calls `tick`: the listener checks the tails itself.
        wait_for(lambda: set(hall_events(rec, "t01")) == want, 10, "everything, asked for")
    finally:
        pub.stop()
        listener.stop()


def test_acl_refuses_a_table_writing_another_tables_topic(
    broker: Mosquitto, record: tuple[HallRecord, HallListener]
) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    rec, _ = record
    codes: dict[int, str] = {}
    client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
    client.username_pw_set("t01", USERS["t01"])
    client.on_publish = lambda _c, _u, mid, reason, _p: codes.__setitem__(mid, str(reason))
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        forged = {"seq": 1, "prev": 0, "match": "1", "game": "carrom", "kind": "event",
                  "data": {"event": "concede", "by": "Asha"}, "outbox": "journal",
                  "t": 1.0, "wall": time.time()}  # fmt: skip
        other = client.publish(f"tableside/{HALL}/t02/events", json.dumps(forged), qos=1)
        own = client.publish(f"tableside/{HALL}/t01/events", json.dumps(forged), qos=1)
        wait_for(lambda: other.mid in codes and own.mid in codes, 5, "the broker's answers")
        assert codes[other.mid] == "Not authorized"
        assert codes[own.mid] == "Success"
        wait_for(lambda: hall_events(rec, "t01"), 5, "the table's own event")
        assert hall_events(rec, "t02") == []
    finally:
        client.loop_stop()
        client.disconnect()


def test_a_wrong_password_is_refused(broker: Mosquitto, tmp_path: Path) -> None:
    pub = HallPublisher(
        table_settings(broker, "t01", password="wrong"), tmp_path / "k", tile_of=tile_of
    ).start()
    try:
        wait_for(lambda: pub.refused, 5, "the broker's refusal")
        assert pub.refused == "Not authorized" and not pub.online
    finally:
        pub.stop()


def test_call_director_is_kept_and_acknowledged(
    broker: Mosquitto, record: tuple[HallRecord, HallListener], tmp_path: Path
) -> None:
    rec, listener = record
    pub = HallPublisher(table_settings(broker, "t03"), tmp_path / "k", tile_of=tile_of).start()
    wait_for(lambda: pub.online, 5, "online")
    call = pub.call_director("dispute over a foul")
    wait_for(rec.open_calls, 5, "the call in the hall record")
    assert rec.open_calls()[0]["reason"] == "dispute over a foul"
    listener.acknowledge(HALL, "t03", call)
    wait_for(lambda: pub.call_acked == call, 5, "the answer at the kiosk")
    assert rec.open_calls() == []
    # Answered, the call is no longer retained: a hall starting afresh sees none open.
    wait_for(lambda: pub.call_cleared == call, 5, "the retained call cleared")
    later = HallRecord(tmp_path / "later.db")
    second = HallListener(later, ("127.0.0.1", broker.port), username="director",
                          password=USERS["director"])  # fmt: skip
    second.start()
    try:
        wait_for(lambda: second.connected and later.tables(), 5, "the later hall's view")
        assert later.open_calls() == []
    finally:
        second.stop()
    pub.stop()


def test_a_replaced_journal_is_a_new_outbox_not_a_repeat(
    broker: Mosquitto,
    record: tuple[HallRecord, HallListener],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A spare Pi with the same table id starts a new journal (match 1, seq 1 again): the
    hall keeps both, the old stroke is not taken for the new one."""
    rec, _ = record
    for n, folder in enumerate(("old-card", "new-card")):
        pub = HallPublisher(
            table_settings(broker, "t01"), tmp_path / folder, tile_of=tile_of
        ).start()
        s = carrom(tmp_path / folder, pub)
        s.confirm(s.proposal.edited(pocketed=["white"] if n == 0 else []), role=Role.UMPIRE)
        want = journal_events(tmp_path / folder / "journal.db")
        wait_for(lambda w=want: w <= set(hall_events(rec, "t01")), 5, f"the {folder}'s stroke")
        pub.stop()
        s.journal.close()
        time.sleep(1.0)  # the new card's match begins in a later second
    stored = hall_events(rec, "t01")
    assert len(stored) == 2 and {seq for _, seq in stored} == {stored[0][1]}


def test_one_tables_password_cannot_push_another_table_off(
    broker: Mosquitto, record: tuple[HallRecord, HallListener], tmp_path: Path
) -> None:
    """t02's password with t01's client id: the broker takes the user name as the client id
    (kiosk/hall/security.py), so t01's kiosk stays connected and no last will is sent."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    rec, _ = record
    pub = HallPublisher(table_settings(broker, "t01"), tmp_path / "k", tile_of=tile_of).start()
    statuses: list[str] = []
    try:
        wait_for(lambda: pub.online and rec.tables(), 5, "t01 online")
        rogue = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"tableside-{HALL}-t01")
        rogue.username_pw_set("t02", USERS["t02"])
        rogue.on_connect = lambda *_: statuses.append("rogue connected")
        rogue.connect("127.0.0.1", broker.port)
        rogue.loop_start()
        try:
            wait_for(lambda: statuses, 5, "the rogue's connection")
            deadline = time.monotonic() + 2.0
            while time.monotonic() < deadline:  # t01 is never pushed off
                assert pub.online
                assert [t["status"] for t in rec.tables() if t["table"] == "t01"] == ["online"]
                time.sleep(0.05)
        finally:
            rogue.loop_stop()
            rogue.disconnect()
    finally:
        pub.stop()
