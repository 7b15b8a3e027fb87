"""The listener never dies: whatever bytes come on a table's topics, its message handler
returns (property test, the real handler and a real hall record on disk); and when its MQTT
thread stops all the same, the watchdog starts it again and the link shows down meanwhile."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paho.mqtt.enums import CallbackAPIVersion

from kiosk.hall.listener import HallListener
from kiosk.hall.mosquitto import Mosquitto
from kiosk.hall.record import HallRecord

from .conftest import HALL, USERS, wait_for

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=30,
)  # fmt: skip
KEYS = ("seq", "prev", "outbox", "match", "game", "kind", "data", "t", "wall", "hash",
        "prev_hash", "header", "tile", "heartbeat", "id", "reason", "hall", "table")  # fmt: skip
#: Objects shaped like the real messages, with any values: the checks' hardest cases.
SHAPED = st.dictionaries(st.sampled_from(KEYS), JSON, max_size=len(KEYS))
WHAT = st.sampled_from(["events", "state", "call", "status", "call/ack", "resend", "other"])


def _message(topic: str, payload: bytes) -> mqtt.MQTTMessage:
    message = mqtt.MQTTMessage(topic=topic.encode())
    message.payload = payload
    return message


_RECORD: list[HallRecord] = []  # one record for every example: made once, it is the slow part


def _record() -> HallRecord:
    if not _RECORD:
        _RECORD.append(HallRecord(Path(tempfile.mkdtemp(prefix="hall-guard-")) / "hall.db"))
    return _RECORD[0]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(what=WHAT, body=st.one_of(SHAPED, JSON), raw=st.binary(max_size=40), use_raw=st.booleans())
def test_the_message_handler_returns_whatever_comes(
    what: str, body: Any, raw: bytes, use_raw: bool
) -> None:
    record = _record()
    listener = HallListener(record, ("127.0.0.1", 1))  # never started: the handler alone
    news: list[dict[str, Any]] = []
    listener.on_news = news.append
    before = {t["table"]: (t["bad"] or {}).get("count", 0) for t in record.tables()}
    payload = raw if use_raw else json.dumps(body, allow_nan=True).encode()
    listener._on_message(listener.client, None, _message(f"tableside/h/t1/{what}", payload))
    # Taken or refused, never half: a refused one is counted against its table.
    after = {t["table"]: (t["bad"] or {}).get("count", 0) for t in record.tables()}
    assert after.get("t1", 0) - before.get("t1", 0) == listener.refused


class FailingOnce(HallRecord):
    """A real record whose first state write stops the thread calling it (as an error no
    one foresaw would): the watchdog is what brings the hall's MQTT side back."""

    failed = False

    def set_table(self, hall: str, table: str, **values: Any) -> None:
        if "state" in values and not self.failed:
            self.failed = True
            raise SystemExit("no one saw this coming")
        super().set_table(hall, table, **values)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_watchdog_starts_a_stopped_mqtt_thread_again(broker: Mosquitto, tmp_path: Path) -> None:
    record = FailingOnce(tmp_path / "hall.db")
    listener = HallListener(record, ("127.0.0.1", broker.port), username="director",
                            password=USERS["director"])  # fmt: skip
    links: list[bool] = []
    listener.on_news = lambda n: links.append(n["broker"]) if n["type"] == "link" else None
    listener.start()
    table = mqtt.Client(CallbackAPIVersion.VERSION2)
    table.username_pw_set("t01", USERS["t01"])
    table.connect("127.0.0.1", broker.port)
    table.loop_start()
    try:
        wait_for(lambda: listener.connected, 5, "connected")
        tile = {"game": "bhukhar", "round": 1, "left": 60.0}
        state = {"tile": tile, "seq": 0, "wall": time.time(), "heartbeat": 2.0}
        topic = f"tableside/{HALL}/t01/state"
        table.publish(topic, json.dumps(state), qos=1).wait_for_publish(5)
        wait_for(lambda: record.failed, 5, "the thread stopped")
        wait_for(lambda: not listener.connected, 2, "the link shown down")
        wait_for(lambda: listener.restarts == 1 and listener.connected, 10, "started again")
        assert links[-2:] == [False, True]
        state = {**state, "tile": {**tile, "round": 2}}
        table.publish(topic, json.dumps(state), qos=1, retain=True).wait_for_publish(5)
        wait_for(lambda: any((t["state"] or {}).get("tile", {}).get("round") == 2
                             for t in record.tables()), 5, "the next state stored")  # fmt: skip
    finally:
        table.loop_stop()
        table.disconnect()
        listener.stop()
