"""The hall's MQTT side: every table's topics into the hall record, and news to the board.

Gaps are found two ways and asked for again on the table's `resend` topic: an event whose
`prev` is past the outbox's head (something before it was lost), and a state whose outbox is
longer than the head for a while (the last events were lost, say with the broker's death, or
were acknowledged by the broker while the hall's own subscription was not back yet). The
listener checks that tail itself, twice a second, in a thread of its own: no caller has to
remember to, or the tail is lost for good.
"""

from __future__ import annotations

import json
import sqlite3
import ssl
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from kiosk.hall import topics
from kiosk.hall.record import HallRecord

#: A state that says the kiosk has more than the record waits this long before a resend.
SETTLE_S = 1.5
#: One resend request per outbox at most this often.
RESEND_EVERY_S = 2.0
#: The listener looks at the suspected tails this often.
TICK_S = 0.5


class HallListener:
    def __init__(
        self,
        record: HallRecord,
        broker: tuple[str, int],
        *,
        hall: str = "+",
        username: str = "",
        password: str = "",
        tls_ca: str | None = None,
        keepalive: int = 15,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.record = record
        self.broker = broker
        self.hall = hall
        self.keepalive = keepalive
        self.wall = wall
        self.on_news: Callable[[dict[str, Any]], None] = lambda news: None
        self.connected = False
        self._suspect: dict[tuple[str, str, str], tuple[int, float]] = {}
        self._asked: dict[tuple[str, str, str], float] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._ticker: threading.Thread | None = None
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
        if username:
            self.client.username_pw_set(username, password or None)
        if tls_ca is not None:
            self.client.tls_set(ca_certs=tls_ca or None, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        self.client.reconnect_delay_set(min_delay=1, max_delay=3)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    def start(self) -> None:
        self.client.connect_async(*self.broker, keepalive=self.keepalive)
        self.client.loop_start()
        self._stopping.clear()
        self._ticker = threading.Thread(target=self._tick_loop, name="hall-tail", daemon=True)
        self._ticker.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._ticker is not None:
            self._ticker.join(timeout=5)
            self._ticker = None
        self.client.disconnect()
        self.client.loop_stop()

    def _tick_loop(self) -> None:
        while not self._stopping.wait(TICK_S):
            try:
                self.tick(self.wall())
            except sqlite3.Error as exc:  # a busy record: said, and tried again next time
                self.on_news({"type": "bad", "topic": "", "error": str(exc)})

    # -- paho's thread ---------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if reason.is_failure:
            return
        self.connected = True
        client.subscribe(topics.subscription(self.hall), qos=1)
        self.on_news({"type": "link", "broker": True})

    def _on_disconnect(self, _c: mqtt.Client, _u: Any, _f: Any, _r: Any, _p: Any) -> None:
        self.connected = False
        self.on_news({"type": "link", "broker": False})

    def _on_message(self, _c: mqtt.Client, _u: Any, message: mqtt.MQTTMessage) -> None:
        where = topics.split(message.topic)
        if where is None:
            return
        hall, table, what = where
        now = self.wall()
        try:
            if what == topics.STATUS:
                status = message.payload.decode("utf-8", "replace")
                self.record.set_table(hall, table, status=status)
                self.on_news({"type": "status", "hall": hall, "table": table, "status": status})
                return
            if not message.payload:
                return  # a retained message being cleared
            data = json.loads(message.payload)
            if what == topics.EVENTS:
                self._event(hall, table, data, now)
            elif what == topics.STATE:
                self.record.set_table(hall, table, state=data, received=now)
                self._check_tail(hall, table, data, now)
                news = {"type": "state", "hall": hall, "table": table, "state": data}
                self.on_news({**news, "received": now})
            elif what == topics.CALL:
                self.record.add_call(hall, table, data)
                self.on_news({"type": "call", "hall": hall, "table": table, "call": data})
        except (ValueError, KeyError, TypeError) as exc:
            self.on_news({"type": "bad", "topic": message.topic, "error": str(exc)})

    def _event(self, hall: str, table: str, data: dict[str, Any], now: float) -> None:
        stored = self.record.add_event(hall, table, data, now)
        box = str(data.get("outbox") or data["match"])
        prev = data.get("prev")
        if isinstance(prev, int) and prev > stored.head:
            self._ask(hall, table, box, stored.head, now)
        if stored.new:
            self.on_news(
                {
                    "type": "event", "hall": hall, "table": table, "seq": data["seq"],
                    "match": data["match"], "game": data.get("game"), "kind": data.get("kind"),
                    "wall": data.get("wall"), "received": now,
                }
            )  # fmt: skip

    def _check_tail(self, hall: str, table: str, state: dict[str, Any], now: float) -> None:
        for box, last in (state.get("outbox") or {}).items():
            if int(last) > self.record.head(hall, table, box):
                with self._lock:
                    self._suspect.setdefault((hall, table, box), (int(last), now))

    def tick(self, now: float) -> None:
        """Ask again for what a table has and the record still lacks (the listener's own
        thread calls this every TICK_S)."""
        with self._lock:
            suspects = list(self._suspect.items())
        for (hall, table, box), (last, since) in suspects:
            head = self.record.head(hall, table, box)
            if head >= last:
                with self._lock:
                    self._suspect.pop((hall, table, box), None)
            elif now - since >= SETTLE_S:
                self._ask(hall, table, box, head, now)

    def _ask(self, hall: str, table: str, box: str, head: int, now: float) -> None:
        key = (hall, table, box)
        with self._lock:
            if now - self._asked.get(key, -1e9) < RESEND_EVERY_S:
                return
            self._asked[key] = now
        payload = topics.dumps({"outbox": box, "after": head})
        self.client.publish(topics.topic(hall, table, topics.RESEND), payload, qos=1)

    # -- the director's side ---------------------------------------------------------

    def acknowledge(self, hall: str, table: str, call_id: int) -> None:
        """The director answers a call: kept in the record, told to the kiosk (retained)."""
        now = self.wall()
        self.record.ack_call(hall, table, call_id, now)
        payload = topics.dumps({"id": call_id, "wall": now})
        self.client.publish(topics.topic(hall, table, topics.CALL_ACK), payload, qos=1, retain=True)
        self.on_news({"type": "ack", "hall": hall, "table": table, "id": call_id})
