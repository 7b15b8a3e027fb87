"""The hall's MQTT side: every table's topics into the hall record, and news to the board.

Gaps are found two ways and asked for again on the table's `resend` topic: an event whose
`prev` is past the outbox's head (something before it was lost), and a state whose outbox is
longer than the head for a while (the last events were lost, say with the broker's death, or
were acknowledged by the broker while the hall's own subscription was not back yet). The
listener checks that tail itself, twice a second, in a thread of its own: no caller has to
remember to, or the tail is lost for good.
"""

from __future__ import annotations

import logging
import sqlite3
import ssl
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from kiosk.hall import schema, topics, witness
from kiosk.hall.record import HallRecord

log = logging.getLogger("kiosk.hall")

#: A state that says the kiosk has more than the record waits this long before a resend.
SETTLE_S = 1.5
#: One resend request per outbox at most this often; asked again for the same head (nothing
#: came of the last), the wait doubles up to RESEND_MOST_S. A hall far behind its broker's
#: queue (a starved machine, a broker's restart sending every retained state first) thinks
#: the events still queued are lost: asking every 2 s made each table send them all again
#: each time, and the more it fell behind the more it was sent (the bench, 2,000 tables).
RESEND_EVERY_S = 2.0
RESEND_MOST_S = 10.0
#: The listener looks at the suspected tails this often.
TICK_S = 0.5
#: The watchdog looks at the MQTT thread this often.
WATCH_S = 1.0
#: A table's refused messages are logged at most once a second (the rest counted).
LOG_EVERY_S = 1.0
#: The largest MQTT packet the hall takes from the broker: the largest payload a topic
#: allows, with room for the topic and the packet's header (a larger one is dropped by the
#: broker for the hall, never read).
MAX_PACKET = max(schema.MAX_BYTES.values()) + 1024


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
        self.username, self.password, self.tls_ca = username, password, tls_ca
        self.on_news: Callable[[dict[str, Any]], None] = lambda news: None
        self._connected = False
        #: Messages refused since the start, and how many times the watchdog restarted MQTT.
        self.refused = 0
        self.restarts = 0
        self._logged: dict[tuple[str, str], tuple[float, int]] = {}
        self._suspect: dict[tuple[str, str, str], tuple[int, float]] = {}
        #: Per outbox: when it was last asked for, after which head, and the wait before
        #: asking again after that same head.
        self._asked: dict[tuple[str, str, str], tuple[float, int, float]] = {}
        #: The director's last decision sent to each table (its number), retained on the
        #: broker until the table's `protest_decided` event for it comes back.
        self._decisions: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._network: threading.Thread | None = None
        self.client = self._make_client()

    def _make_client(self) -> mqtt.Client:
        # MQTT 5, for its Maximum Packet Size: the broker never sends the hall a message
        # larger than any topic takes (schema.MAX_BYTES), so an 8 MiB poison costs the
        # hall's one MQTT thread nothing (it held every table's news back for a second).
        client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        if self.username:
            client.username_pw_set(self.username, self.password or None)
        if self.tls_ca is not None:
            client.tls_set(ca_certs=self.tls_ca or None, tls_version=ssl.PROTOCOL_TLS_CLIENT)
        client.reconnect_delay_set(min_delay=1, max_delay=3)
        client.suppress_exceptions = True  # a callback's error is logged, the loop goes on
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        return client

    @property
    def connected(self) -> bool:
        """Connected and its thread alive: a dead MQTT thread is never shown as a live link."""
        network = self._network
        return self._connected and network is not None and network.is_alive()

    def start(self) -> None:
        self._stopping.clear()
        self._start_network()
        for name, loop in (("hall-tail", self._tick_loop), ("hall-watchdog", self._watch_loop)):
            thread = threading.Thread(target=loop, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def _start_network(self) -> None:
        limits = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        limits.MaximumPacketSize = MAX_PACKET
        self.client.connect_async(*self.broker, keepalive=self.keepalive, properties=limits)
        # Our own thread around paho's loop (what loop_start does), so the watchdog can see it.
        self._network = threading.Thread(
            target=self.client.loop_forever,
            kwargs={"retry_first_connection": True},
            name="hall-mqtt",
            daemon=True,
        )
        self._network.start()

    def stop(self) -> None:
        self._stopping.set()
        for thread in self._threads:
            thread.join(timeout=5)
        self._threads = []
        self.client.disconnect()
        if self._network is not None:
            self._network.join(timeout=5)

    def _watch_loop(self) -> None:
        """The watchdog: an MQTT thread that stopped (whatever stopped it) is started again
        with a fresh client; the board shows the link down until it is connected."""
        while not self._stopping.wait(WATCH_S):
            network = self._network
            if network is None or network.is_alive() or self._stopping.is_set():
                continue
            self.restarts += 1
            log.error("the hall's MQTT thread stopped: starting it again (%d)", self.restarts)
            self._connected = False
            self._say({"type": "link", "broker": False})
            try:
                old = self.client.socket()
                if old is not None:  # the dead thread's connection: closed, not left to time out
                    old.close()
                self.client = self._make_client()
                self._start_network()
            except Exception:  # the next round tries again
                log.exception("the hall's MQTT side could not be started again")

    def _tick_loop(self) -> None:
        while not self._stopping.wait(TICK_S):
            try:
                self.tick(self.wall())
            except Exception as exc:  # a busy record: said, and tried again next time
                log.warning("the hall's tail check failed: %s", exc)

    def _say(self, news: dict[str, Any]) -> None:
        try:
            self.on_news(news)
        except Exception:
            log.exception("the board could not be told")

    # -- paho's thread -----------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if reason.is_failure:
            return
        self._connected = True
        client.subscribe(topics.subscription(self.hall), qos=1)
        self._say({"type": "link", "broker": True})

    def _on_disconnect(self, _c: mqtt.Client, _u: Any, _f: Any, _r: Any, _p: Any) -> None:
        self._connected = False
        self._say({"type": "link", "broker": False})

    def _on_message(self, _c: mqtt.Client, _u: Any, message: mqtt.MQTTMessage) -> None:
        """Every message is checked (kiosk/hall/schema.py) before it is used; one that is
        not what a table sends is counted, logged and dropped, and nothing it holds can stop
        this thread."""
        try:
            where = topics.split(message.topic)
        except UnicodeDecodeError:
            where = None
        if where is None or not all(map(schema.ID.fullmatch, where[:2])):
            self._refuse("?", "?", repr(message._topic[:200]), "not a table's topic")
            return
        hall, table, what = where
        try:
            self._take(hall, table, what, bytes(message.payload))
        except schema.Refused as exc:
            self._refuse(hall, table, message.topic, str(exc))
        except sqlite3.Error as exc:  # the record busy or full: said; the kiosk sends again
            log.error("hall record: %s (message on %s not stored)", exc, message.topic)
            self._say({"type": "bad", "topic": message.topic, "error": str(exc)})
        except Exception as exc:  # a case the checks missed: never the end of the thread
            log.exception("message on %s not taken", message.topic)
            self._refuse(hall, table, message.topic, f"not taken: {type(exc).__name__}")

    def _take(self, hall: str, table: str, what: str, payload: bytes) -> None:
        now = self.wall()
        if what in (topics.CALL_ACK, topics.RESEND, topics.DECIDE):
            return  # the hall's own answers, heard back
        if what == topics.STATUS:
            if not payload:
                return  # a retained status being cleared
            status = schema.status(payload)
            self.record.set_table(hall, table, status=status)
            self._say({"type": "status", "hall": hall, "table": table, "status": status})
        elif not payload:
            return  # a retained message being cleared
        elif what == topics.EVENTS:
            self._event(hall, table, schema.event(payload, hall, table), now)
        elif what == topics.STATE:
            data = schema.state(payload, hall, table)
            # Stored as it came (checked, it is the JSON it says): not encoded once more.
            self.record.set_table(hall, table, state=payload.decode(), received=now)
            self._check_tail(hall, table, data, now)
            self._say({"type": "state", "hall": hall, "table": table, "state": data,
                       "received": now})  # fmt: skip
        elif what == topics.CALL:
            data = schema.call(payload, hall, table)
            self.record.add_call(hall, table, data)
            self._say({"type": "call", "hall": hall, "table": table, "call": data})
        else:
            raise schema.Refused(f"no such topic as {what!r} for a table")

    def _refuse(self, hall: str, table: str, topic: str, reason: str) -> None:
        """Count, log (once a second per table at most) and show a message not taken."""
        self.refused += 1
        now = self.wall()
        count = self.refused
        if table != "?":
            try:
                count = self.record.mark_bad(hall, table, reason, now)
            except sqlite3.Error as exc:
                log.error("hall record: %s", exc)
        with self._lock:
            last, held = self._logged.get((hall, table), (-1e9, 0))
            if now - last >= LOG_EVERY_S:
                more = f" ({held} more since the last said)" if held else ""
                log.warning("bad data from table %s of hall %s on %s, dropped: %s%s",
                            table, hall, topic, reason, more)  # fmt: skip
                self._logged[hall, table] = (now, 0)
            else:
                self._logged[hall, table] = (last, held + 1)
        if table != "?":
            self._say({"type": "bad", "hall": hall, "table": table, "topic": topic,
                       "bad": {"count": count, "reason": reason, "at": now}})  # fmt: skip

    def _event(self, hall: str, table: str, data: dict[str, Any], now: float) -> None:
        why = witness.forged(data)
        if why is not None:
            raise schema.Refused(why)
        stored = self.record.add_event(hall, table, data, now)
        box = str(data.get("outbox") or data["match"])
        prev = data.get("prev")
        if isinstance(prev, int) and prev > stored.head:
            self._ask(hall, table, box, stored.head, now)
        if stored.broken is not None:
            log.warning("table %s of hall %s: the chain breaks: %s", table, hall, stored.broken)
            self._say({"type": "broken", "hall": hall, "table": table,
                       "broken": {"seq": data["seq"], "match": data["match"],
                                  "reason": stored.broken}})  # fmt: skip
        self._decided(hall, table, data)
        if stored.new:
            self._say(
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
            last, after, wait = self._asked.get(key, (-1e9, -1, RESEND_EVERY_S))
            if head != after:
                wait = RESEND_EVERY_S  # the head moved since: something came of it
            if now - last < wait:
                return
            again = min(2 * wait, RESEND_MOST_S) if head == after else RESEND_EVERY_S
            self._asked[key] = (now, head, again)
        payload = topics.dumps({"outbox": box, "after": head})
        self.client.publish(topics.topic(hall, table, topics.RESEND), payload, qos=1)

    # -- the director's side ---------------------------------------------------------

    def decide(
        self, hall: str, table: str, match: str, board: tuple[int, int], upheld: bool
    ) -> int:
        """The director's decision on the protest against `board` of the table's match
        `match` (laws 144-151), from the board: sent on the table's `protest/decide` (which
        only the director's user may write), retained so that a kiosk offline now takes it
        when it is back; the kiosk journals it as the director's act. Returns its number."""
        now = self.wall()
        with self._lock:
            number = max(int(now * 1000), self._decisions.get((hall, table), 0) + 1)
            self._decisions[hall, table] = number
        game, n = board
        message = {"id": number, "match": match, "board": [game, n], "upheld": upheld,
                   "wall": now}  # fmt: skip
        name = topics.topic(hall, table, topics.DECIDE)
        self.client.publish(name, topics.dumps(message), qos=1, retain=True)
        self._say({"type": "decision", "hall": hall, "table": table, "decision": message})
        return number

    def _decided(self, hall: str, table: str, data: dict[str, Any]) -> None:
        """A table's `protest_decided` event made from the director's message: the message
        is no longer retained (a kiosk that starts later must not hear it again)."""
        body = data.get("data")
        via = body.get("via") if isinstance(body, dict) else None
        if data.get("kind") != "event" or not isinstance(via, str) or not via.startswith("hall:"):
            return
        with self._lock:
            sent = self._decisions.get((hall, table))
            # After a restart of the hall its number is not known: any decision of the hall's.
            if sent is not None and via != f"hall:{sent}":
                return
            self._decisions.pop((hall, table), None)
        self.client.publish(topics.topic(hall, table, topics.DECIDE), b"", qos=1, retain=True)
        self._say({"type": "decided", "hall": hall, "table": table})

    def acknowledge(self, hall: str, table: str, call_id: int) -> None:
        """The director answers a call: kept in the record, told to the kiosk (retained)."""
        now = self.wall()
        self.record.ack_call(hall, table, call_id, now)
        payload = topics.dumps({"id": call_id, "wall": now})
        self.client.publish(topics.topic(hall, table, topics.CALL_ACK), payload, qos=1, retain=True)
        self._say({"type": "ack", "hall": hall, "table": table, "id": call_id})
