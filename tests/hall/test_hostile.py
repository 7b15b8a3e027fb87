"""Hostile input: a table's password used to send whatever it likes on its own topics, to a
real Mosquitto, with the real `tableside hall` process and its board in headless Chromium.

Every malformed kind is counted and dropped, the table's tile says "bad data", and the board
goes on: the next good event of any table shows. Before this, `[]` on a table's events topic
stopped the hall's MQTT thread for good (and, retained on `state`, at every restart)."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.engine.journal_chain import entry_hash
from kiosk.engine.journal_rows import dumps
from kiosk.hall.mosquitto import Mosquitto
from kiosk.hall.publisher import HallPublisher
from kiosk.kinds import tile_of
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromTable

from .conftest import HALL, USERS, HallProcess, table_settings, tile, wait_for

T = f"tableside/{HALL}/t02"
NOW = time.time()


def chained(seq: int, prev_hash: str, data: dict[str, Any], **more: Any) -> dict[str, Any]:
    """An event of table t02 as its kiosk sends it, with a hash that is its content's."""
    m = {"seq": seq, "prev": seq - 1, "outbox": "journal-1", "match": "1-1", "game": "carrom",
         "kind": "event", "data": data, "t": float(seq), "wall": NOW, "source": "umpire",
         "prev_hash": prev_hash, "finished": False}  # fmt: skip
    m["hash"] = entry_hash(prev_hash, seq, 1, float(seq), NOW, "umpire", "event", dumps(data))
    m.update(more)
    return m


GOOD = chained(1, "", {"event": "stroke", "pocketed": []})
TILE = {"game": "bhukhar", "round": 1, "left": 600.0, "running": False, "time_called": False,
        "games": 0, "faults": []}  # fmt: skip
STATE = {"tile": TILE, "seq": 1, "outbox": {"journal-1": 1}, "wall": NOW, "heartbeat": 2.0}


def ev(**changes: Any) -> bytes:
    m = {**GOOD, "seq": 7, "prev": 6}
    m.update(changes)
    return json.dumps({k: v for k, v in m.items() if v is not ...}).encode()


def st(**changes: Any) -> bytes:
    return json.dumps({**STATE, "wall": time.time(), **changes}).encode()


def tiled(**changes: Any) -> bytes:
    return st(tile={**TILE, **changes})


#: (topic, payload, retained): each one the hall must refuse, count and drop.
MALFORMED: list[tuple[str, bytes, bool]] = [
    ("events", b"[]", False),
    ("events", b"{}", False),
    ("events", b"null", False),
    ("events", b"42", False),
    ("events", b'"an event"', False),
    ("events", b"not json at all", False),
    ("events", b"\xff\xfe\x00 not utf-8", False),
    ("events", b'{"seq": 1, "data": ' + b"[" * 5_000 + b"]" * 5_000 + b"}", False),
    ("events", ev(data={"a": [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]}), False),
    ("events", ev(seq="7"), False),
    ("events", ev(seq=-5, prev=0), False),
    ("events", ev(seq=0, prev=0), False),
    ("events", ev(seq=7.5), False),
    ("events", ev(seq=True), False),
    ("events", ev(seq=2**64), False),
    ("events", ev(seq=7, prev=7), False),  # prev not before seq: the head would never move
    ("events", ev(prev=-1), False),
    ("events", ev(hash="zz"), False),
    ("events", ev(hash="0" * 64), False),  # a forged hash: not the content's
    ("events", ev(data=[1, 2]), False),
    ("events", ev(game="chess"), False),
    ("events", ev(kind="drop table"), False),
    ("events", ev(match="../../etc"), False),
    ("events", ev(table="t01"), False),  # another table's event on t02's topic
    ("events", ev(seq=...), False),
    ("events", ev(wall="yesterday"), False),
    ("events", ev(header="not an object"), False),
    ("events", ev(t=1e400), False),  # JSON that reads as infinity
    ("events", ev().replace(b'"t":', b'"t": NaN, "x":'), False),
    ("state", b"[]", True),  # retained poison: heard again at every start of the hall
    ("state", tiled(game="chess"), False),
    ("state", tiled(players="Asha v Bina", game="carrom", sides=[]), False),
    ("state", tiled(faults=[None]), False),
    ("state", st(outbox={"journal-1": "lots"}), False),
    ("state", st(heartbeat=-1), False),
    ("state", st(seq=-1), False),
    ("state", st(tile={**TILE, "pad": "x" * 40_000}), False),
    ("call", b'{"id": "one"}', False),
    ("call", json.dumps({"id": 1, "reason": "x" * 10_000}).encode(), False),
    ("status", b"maybe", False),
    ("status", b'{"status": "online"}', False),
]


#: Larger than any topic takes and than the hall's Maximum Packet Size (MQTT 5): the broker
#: drops it for the hall, which never reads it (read, 8 MiB held the hall's one MQTT thread,
#: and every table's news behind it, for a second).
OVERSIZED: list[tuple[str, bytes, bool]] = [
    ("events", ev(data={"blob": "x" * (8 * 1024 * 1024)}), False),  # 8 MiB
    ("state", st(tile={**TILE, "pad": "x" * 70_000}), True),
]


def test_thirty_malformed_kinds_are_counted_dropped_and_the_board_goes_on(
    broker: Mosquitto, hall_process: HallProcess, browser: WebDriver, tmp_path: Path
) -> None:
    assert len(MALFORMED) >= 30
    pub = HallPublisher(table_settings(broker, "t01"), tmp_path / "k", tile_of=tile_of).start()
    s = CarromTable(Journal(tmp_path / "k" / "journal.db"), outputs=[pub])
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha", board_limit=None), role=Role.UMPIRE)
    rogue = _client(broker, "t02")
    try:
        _send(rogue, f"{T}/status", b"online", retain=True)
        _send(rogue, f"{T}/state", st(), retain=True)
        browser.get(hall_process.url)
        wait_for(lambda: (tile(browser, "t01") or {}).get("state") == "online", 10, "t01")
        wait_for(lambda: (tile(browser, "t02") or {}).get("state") == "online", 10, "t02")
        for what, payload, retain in OVERSIZED + MALFORMED:
            _send(rogue, f"{T}/{what}", payload, retain=retain)
        db = hall_process.data / "hall.db"
        wait_for(lambda: _bad(db) == len(MALFORMED), 20, f"{len(MALFORMED)} refused")
        wait_for(lambda: "bad data" in (tile(browser, "t02") or {}).get("text", ""), 5, "bad")
        assert f"bad data: {len(MALFORMED)} dropped" in (tile(browser, "t02") or {})["text"]
        # The good event of the real kiosk next door shows at once.
        s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
        wait_for(lambda: "turn: Bina" in (tile(browser, "t01") or {}).get("text", ""), 5, "t01")
        assert browser.find_element(By.ID, "link").text == "live"
        # And so does the rogue table's own next good state and event.
        _send(rogue, f"{T}/state", tiled(round=4), retain=True)
        wait_for(lambda: "round 4" in (tile(browser, "t02") or {}).get("text", ""), 5, "t02")
        _send(rogue, f"{T}/events", json.dumps(GOOD).encode())
        wait_for(lambda: _events(db, "t02") == [1], 5, "t02's good event stored")
        log = (hall_process.data / "hall.log").read_text("utf-8")
        assert f"bad data from table t02 of hall {HALL} on {T}/events, dropped" in log
        # The retained poison is still on the broker: a hall started again hears it, drops
        # it, and goes on.
        _send(rogue, f"{T}/state", b"[]", retain=True)
        wait_for(lambda: _bad(db) == len(MALFORMED) + 1, 5, "the poison dropped")
        hall_process.kill()
        hall_process.start()
        browser.get(hall_process.url)
        s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
        wait_for(lambda: "turn: Asha" in (tile(browser, "t01") or {}).get("text", ""), 10, "t01")
        wait_for(
            lambda: _bad(db) == len(MALFORMED) + 2,
            10,
            "the retained poison dropped again at the start",
        )
    finally:
        rogue.loop_stop()
        rogue.disconnect()
        pub.stop()


def test_a_forked_chain_is_shown_on_the_tile_and_in_the_results(
    broker: Mosquitto, hall_process: HallProcess, browser: WebDriver
) -> None:
    """Events whose hashes are their own but do not follow what the hall holds: a repeat with
    other content, and one chained on a hash the hall never had."""
    rogue = _client(broker, "t02")
    try:
        _send(rogue, f"{T}/status", b"online", retain=True)
        _send(rogue, f"{T}/state", st(), retain=True)
        browser.get(hall_process.url)
        wait_for(lambda: tile(browser, "t02"), 10, "t02")
        header = {"header": {"event": "match", "rules": "icf", "players": ["A", "B"]}}
        first = chained(1, "", {"event": "stroke", "pocketed": []}, **header)
        second = chained(2, first["hash"], {"event": "stroke", "pocketed": ["white"]})
        for m in (first, second):
            _send(rogue, f"{T}/events", json.dumps(m).encode())
        db = hall_process.data / "hall.db"
        wait_for(lambda: _events(db, "t02") == [1, 2], 5, "two good events")
        assert _breaks(db) == []
        # The same entry 2 with other content (and its own, right hash): the first is kept.
        other = chained(2, first["hash"], {"event": "stroke", "pocketed": ["black"]})
        _send(rogue, f"{T}/events", json.dumps(other).encode())
        # Entry 3 chained on a hash that is not entry 2's.
        stray = chained(3, "ab" * 32, {"event": "stroke", "pocketed": []})
        _send(rogue, f"{T}/events", json.dumps(stray).encode())
        wait_for(lambda: len(_breaks(db)) == 2, 5, "two breaks")
        assert _breaks(db) == [
            (2, "entry 2 sent again with other content"),
            (3, "entry 3 does not follow entry 2 the hall holds"),
        ]
        wait_for(lambda: "chain broken at entry 3" in (tile(browser, "t02") or {})["text"], 5,
                 "the break on the tile")  # fmt: skip
        assert _bad(db) == 0  # a break is not bad data: both are kept apart
        with _urlopen(hall_process.url + "results") as r:
            results = json.loads(r.read())
        (match,) = results["carrom"]
        assert match["chain"] == [
            "entry 2 sent again with other content",
            "entry 3 does not follow entry 2 the hall holds",
        ]
    finally:
        rogue.loop_stop()
        rogue.disconnect()


# -- helpers ----------------------------------------------------------------------------


def _urlopen(url: str) -> Any:
    import urllib.request

    return urllib.request.urlopen(url, timeout=5)


def _client(broker: Mosquitto, user: str) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"rogue-{user}")
    client.username_pw_set(user, USERS[user])
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    return client


def _send(client: mqtt.Client, topic: str, payload: bytes, retain: bool = False) -> None:
    info = client.publish(topic, payload, qos=1, retain=retain)
    info.wait_for_publish(timeout=10)
    assert info.is_published(), topic


def _bad(db: Path) -> int:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        row = c.execute("SELECT bad FROM tables WHERE tbl = 't02'").fetchone()
    return int(row[0]) if row else 0


def _events(db: Path, table: str) -> list[int]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        rows = c.execute("SELECT seq FROM events WHERE tbl = ? ORDER BY seq", (table,))
        return [int(r[0]) for r in rows]


def _breaks(db: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
        rows = c.execute("SELECT seq, reason FROM breaks ORDER BY seq").fetchall()
    return [(int(s), str(r)) for s, r in rows]


def _lone(payload: bytes, text: str) -> bytes:
    """`payload` with the JSON string `"text"` made a lone surrogate: `"X\\ud800"` is legal
    JSON, and no UTF-8 can hold what it reads as."""
    quoted = json.dumps(text).encode()
    assert quoted in payload
    return payload.replace(quoted, b'"X\\ud800"')


def test_a_lone_surrogate_is_refused_at_the_door_and_the_board_goes_on_through_a_restart(
    broker: Mosquitto, hall_process: HallProcess, browser: WebDriver, tmp_path: Path
) -> None:
    """Before: a player name `"X\\ud800"` passed the schema, the board's fan-out died on it
    (UnicodeEncodeError), every open page froze while its heartbeat still said "live", new
    pages got no snapshot, and retained, it did so again after a restart of the hall."""
    pub = HallPublisher(table_settings(broker, "t01"), tmp_path / "k", tile_of=tile_of).start()
    s = CarromTable(Journal(tmp_path / "k" / "journal.db"), outputs=[pub])
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha", board_limit=None), role=Role.UMPIRE)
    rogue = _client(broker, "t02")
    carrom = {"game": "carrom", "players": ["Chen", "Dev"], "sides": ["Chen", "Dev"],
              "faults": []}  # fmt: skip
    poison = [
        ("state", _lone(st(tile=carrom), "Chen"), True),  # retained: heard at every start
        ("events", _lone(ev(data={"event": "stroke", "by": "Chen"}), "Chen"), False),
        ("call", _lone(json.dumps({"id": 3, "reason": "Chen"}).encode(), "Chen"), False),
    ]
    try:
        _send(rogue, f"{T}/status", b"online", retain=True)
        browser.get(hall_process.url)
        wait_for(lambda: (tile(browser, "t01") or {}).get("state") == "online", 10, "t01")
        for what, payload, retain in poison:
            _send(rogue, f"{T}/{what}", payload, retain=retain)
        db = hall_process.data / "hall.db"
        wait_for(lambda: _bad(db) == 3, 10, "the three refused")
        wait_for(lambda: "bad data: 3 dropped" in (tile(browser, "t02") or {}).get("text", ""),
                 5, "bad data on t02's tile")  # fmt: skip
        assert "not Unicode" in (tile(browser, "t02") or {})["text"]
        # The open page goes on: the next confirm of the table next door shows.
        s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
        wait_for(lambda: "turn: Bina" in (tile(browser, "t01") or {}).get("text", ""), 10, "t01")
        assert browser.find_element(By.ID, "link").text == "live"
        # A new page gets its snapshot.
        browser.get(hall_process.url)
        wait_for(lambda: "turn: Bina" in (tile(browser, "t01") or {}).get("text", ""), 10, "new")
        # The hall started again hears the retained poison again, refuses it, and goes on.
        hall_process.kill()
        hall_process.start()
        wait_for(lambda: _bad(db) == 4, 10, "the retained poison refused again")
        browser.get(hall_process.url)
        wait_for(lambda: (tile(browser, "t01") or {}).get("state") == "online", 10, "t01 again")
        s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
        wait_for(lambda: "turn: Asha" in (tile(browser, "t01") or {}).get("text", ""), 10, "t01")
        assert browser.find_element(By.ID, "link").text == "live"
        log = (hall_process.data / "hall.log").read_text("utf-8")
        assert "text that is not Unicode (a lone surrogate)" in log
        assert "Traceback" not in log
    finally:
        _send(rogue, f"{T}/state", b"", retain=True)
        rogue.loop_stop()
        rogue.disconnect()
        pub.stop()


def test_a_message_larger_than_any_topic_takes_is_never_read_by_the_hall(
    broker: Mosquitto, hall_process: HallProcess
) -> None:
    """The hall asks the broker for packets no larger than a topic takes (MQTT 5's Maximum
    Packet Size): an 8 MiB payload is dropped by the broker for the hall, not read by it.
    Before, the hall's one MQTT thread read it all (8 MiB, over TLS in the bench) and held
    every table's news behind it for most of a second. One client's messages come in the
    order sent, so once the good event after them is stored, the rest have been heard."""
    rogue = _client(broker, "t02")
    try:
        for what, payload, retain in OVERSIZED:
            _send(rogue, f"{T}/{what}", payload, retain=retain)
        _send(rogue, f"{T}/events", b"[]")  # within the packet size: read and refused
        _send(rogue, f"{T}/events", json.dumps(GOOD).encode())
        db = hall_process.data / "hall.db"
        wait_for(lambda: _events(db, "t02") == [1], 10, "the good event after them")
        assert _bad(db) == 1
    finally:
        _send(rogue, f"{T}/state", b"", retain=True)
        rogue.loop_stop()
        rogue.disconnect()
