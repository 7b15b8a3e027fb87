"""The kiosk's hall publisher: an engine output that sends the table to the hall's broker.

- `status`: retained "online" once connected; the broker sends the retained last will
  "offline" when the kiosk dies or its link is cut (after 1.5 x keep-alive).
- `state`: retained, the table's tile (kiosk/hall/views.py) with the journal's sequence number
  and the wall time; sent at once on a real change, then at least every heartbeat.
- `events`: QoS 1, every confirmed event and undo (a Bhukhar session's record lines among
  them), in order, with its sequence number and chain hash, as the table's outputs hear of it
  once it is synced (`confirmed`). The journal is the outbox: after a broker outage, a cut or
  a restart, or when one heard of does not follow the last sent (`Confirmed.after`), the
  kiosk reads from the journal everything after the acknowledged mark; in between it never
  reads the file for events.
- `call`: the umpire's "Call director" (retained until answered on `call/ack`).
- `protest/decide` (read): the director's decision on a protest, given on the hall's board.
  Checked (kiosk/hall/schema.py) and handed to `on_command` as the table's command
  `decide_protest` with the director's role (the topic only the director writes); the table
  in play journals it as the director's act (kiosk/tables/carrom_table.py).

Nothing here ever blocks the engine: `state_changed` only keeps the newest tile and wakes the
publisher's own thread; paho runs its network loop in another thread. Without a broker the
kiosk scores as before and `online` is False (the screen's "hall: offline" mark).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from kiosk.access.authority import Role
from kiosk.config.hall import HallSettings
from kiosk.engine.journal_rows import Confirmed
from kiosk.engine.outputs import OutputBase
from kiosk.hall import schema, topics
from kiosk.hall.outbox import JournalOutbox, Mark, OutEntry
from kiosk.hall.views import steady
from kiosk.tables.commands import Command

log = logging.getLogger("kiosk.hall")

#: Events in flight (sent, not yet acknowledged) at most; more wait in the journal.
WINDOW = 200


class HallPublisher(OutputBase):
    name = "hall"

    def __init__(
        self,
        settings: HallSettings,
        data_dir: Path,
        *,
        tile_of: Callable[[Any], dict[str, Any] | None],
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings
        self.data_dir = Path(data_dir)
        self.wall = wall
        self.hall, self.table = settings.hall, settings.table_id
        self.journal = JournalOutbox(self.data_dir / "journal.db")
        self.outboxes: dict[str, JournalOutbox] = {"journal": self.journal}
        self.mark = Mark(self.data_dir / "hall-acked.json")
        self.call_acked: int | None = None
        self.calls = 0
        self._call: dict[str, Any] | None = None  # to send
        self._clear_call = False
        #: The last answered call no longer retained on the broker.
        self.call_cleared: int | None = None
        self._tile: dict[str, Any] | None = None
        #: A view's tile, by its table's kind (kiosk/kinds.py); None: not a table's view.
        self.tile_of = tile_of
        #: Confirmed entries heard of from the outputs, not yet sent (the engine appends).
        self._heard: deque[Confirmed] = deque(maxlen=4 * WINDOW)
        #: Read the journal for what was not heard of (set at a start, a new connection, a
        #: resend, a gap, `nudge`; cleared once a read reaches the journal's end).
        self._look = True
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._acks: list[int] = []  # mids acknowledged, appended by paho's thread
        self._resends: list[tuple[str, int]] = []  # the hall's requests, likewise
        self._connected = False
        self._fresh = False  # a new connection: start again from the mark
        self._thread: threading.Thread | None = None
        self.last_error: str | None = None
        self.refused: str | None = None
        #: Where the director's decisions from the hall go, as commands (paho's thread):
        #: `Tables.post` at a kiosk (the table in play takes it at its next poll).
        self.on_command: Callable[[Command], None] | None = None
        #: Why the last decision heard was not taken (schema), for the log and the tests.
        self.decision_refused: str | None = None
        #: The last decision heard, offered to the table again with each view of its match
        #: while that protest still waits (the table was not in play when it came: a kiosk
        #: that restarted hears the retained message before the umpire resumes the match).
        self._held: tuple[dict[str, Any], Command] | None = None
        self._client = self._make_client()

    # -- the engine's side (any thread, never blocks) -----------------------------------

    @property
    def online(self) -> bool:
        return self._connected

    def state_changed(self, view: object) -> None:
        tile = self.tile_of(view)
        if tile is not None:
            self._offer_held(tile)
            self.show(tile)

    def _offer_held(self, tile: dict[str, Any]) -> None:
        """The decision heard goes to the table again while its view shows that protest
        waiting (the table takes one decision once: `via`); let go once it does not."""
        held = self._held
        if held is None or tile.get("game") != "carrom" or tile.get("match") != held[0]["match"]:
            return
        data, command = held
        waiting = [
            p
            for p in tile.get("protests") or []
            if p.get("board") == data["board"] and p.get("decision") is None
        ]
        if not waiting:
            self._held = None  # decided (or taken back): nothing more to offer
        elif self.on_command is not None:
            self.on_command(command)

    def show(self, tile: dict[str, Any]) -> None:
        """Publish this tile as the table's state (a simulated table's, or a test's)."""
        self._tile = tile
        self._wake.set()

    def confirmed(self, confirmed: Confirmed) -> None:
        """A confirmed event or undo is on disk: send it (the publisher's thread does)."""
        self._heard.append(confirmed)  # deque.append is atomic; a full deque drops the oldest
        self._wake.set()

    def call_director(self, reason: str = "") -> int:
        """The umpire's "Call director": returns the call's number (milliseconds of the wall
        clock, so a call after a restart is never taken as answered by an old answer)."""
        self.calls = max(self.calls + 1, int(self.wall() * 1000))
        self._call = {"id": self.calls, "reason": reason, "wall": self.wall()}
        self._wake.set()
        return self.calls

    def nudge(self) -> None:
        """Something was written to the journal that no output heard of (a test, a tool):
        read the outboxes now."""
        self._look = True
        self._wake.set()

    # -- starting and stopping --------------------------------------------------------

    def start(self) -> HallPublisher:
        host, port = self.settings.host_port()
        self._client.connect_async(host, port, keepalive=int(self.settings.keepalive_s))
        self._client.loop_start()
        self._thread = threading.Thread(target=self._run, name="hall-publisher", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Say "offline" (a clean stop is not a death), keep the mark, close."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._connected:
            info = self._client.publish(self._topic(topics.STATUS), topics.OFFLINE, 1, True)
            info.wait_for_publish(timeout=2)
        self._client.disconnect()
        self._client.loop_stop()
        self.mark.save()
        for box in self.outboxes.values():
            box.close()

    close = stop

    # -- paho's thread -----------------------------------------------------------------

    def _make_client(self) -> mqtt.Client:
        s = self.settings
        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=f"tableside-{self.hall}-{self.table}",
            protocol=mqtt.MQTTv311,
        )
        if s.username:
            client.username_pw_set(s.username, s.password or None)
        if s.tls:
            client.tls_set(ca_certs=s.ca_file or None)
        client.will_set(self._topic(topics.STATUS), topics.OFFLINE, qos=1, retain=True)
        client.reconnect_delay_set(min_delay=1, max_delay=5)
        client.max_queued_messages_set(0)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        return client

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if reason.is_failure:
            self.refused = str(reason)  # a wrong password, an unknown user: said, retried
            return
        self.refused = None
        client.publish(self._topic(topics.STATUS), topics.ONLINE, qos=1, retain=True)
        client.subscribe(
            [(self._topic(what), 1) for what in (topics.CALL_ACK, topics.RESEND, topics.DECIDE)]
        )
        self._connected = True
        self._fresh = True
        self._wake.set()

    def _on_disconnect(self, _c: mqtt.Client, _u: Any, _f: Any, _r: Any, _p: Any) -> None:
        self._connected = False

    def _on_publish(self, _c: mqtt.Client, _u: Any, mid: int, _r: Any, _p: Any) -> None:
        self._acks.append(mid)  # list.append is atomic; the publisher thread reads it
        self._wake.set()

    def _on_message(self, _c: mqtt.Client, _u: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic == self._topic(topics.DECIDE):
            self._decision(bytes(message.payload))
            return
        try:
            data = json.loads(message.payload)
            if message.topic.endswith("/" + topics.RESEND):
                self._resends.append((str(data["outbox"]), int(data["after"])))
                self._wake.set()
            else:
                self.call_acked = int(data["id"])
                self._clear_call = self.call_acked == self.calls
                self._wake.set()
        except (ValueError, KeyError, TypeError):
            return

    def _decision(self, payload: bytes) -> None:
        """The director's decision from the hall, checked like every message, handed on as
        the table's command with the director's role; one that is not taken is logged."""
        if not payload:
            return  # the hall cleared it: the decision is journaled
        try:
            data = schema.decision(payload, self.hall, self.table)
        except schema.Refused as exc:
            self.decision_refused = str(exc)
            log.warning("decision from the hall not taken: %s", exc)
            return
        self.decision_refused = None
        command = decision_command(data)
        self._held = (data, command)
        if self.on_command is not None:
            self.on_command(command)

    # -- the publisher's thread ----------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._loop()
            except Exception as exc:  # never die: note it, start again from the mark
                self.last_error = f"{type(exc).__name__}: {exc}"
                for box in self.outboxes.values():
                    box.close()
                self._fresh = True
                self._stop.wait(1.0)

    def _loop(self) -> None:
        inflight: dict[int, tuple[str, int]] = {}  # mid -> (outbox, seq)
        pending: dict[str, list[int]] = {}  # outbox -> seqs sent, in order, not yet acked
        acked: dict[str, set[int]] = {}
        sent: dict[str, int] = {}
        last_state = 0.0
        last_steady: dict[str, Any] | None = None
        last_save = 0.0
        last_offer = 0.0
        clearing: tuple[int, int | None] | None = None
        while not self._stop.is_set():
            # Woken by what there is to do (an entry heard of, a tile, an ack, a call); else
            # at the heartbeat, or soon while acknowledgements are awaited or a gap is read.
            busy = inflight or self._look or self.mark.values != self.mark.saved
            self._wake.wait(timeout=0.5 if busy else self.settings.heartbeat_s)
            self._wake.clear()
            now = time.monotonic()
            if self._fresh:  # a new connection: what was in flight may be lost, send again
                self._fresh = False
                self._look = True
                inflight.clear()
                pending.clear()
                acked.clear()
                sent = {}
                last_state = 0.0
            while self._resends:  # the hall misses some: rewind that outbox to its head
                name, after = self._resends.pop(0)
                sent[name] = min(sent.get(name, after), after)
                self.mark.values[name] = min(self.mark.get(name), after)
                pending.pop(name, None)
                acked.pop(name, None)
                self._look = True
            while self._acks:
                acked_mid = self._acks.pop(0)
                if clearing is not None and acked_mid == clearing[0]:
                    self.call_cleared, clearing = clearing[1], None
                where = inflight.pop(acked_mid, None)
                if where is not None:
                    acked.setdefault(where[0], set()).add(where[1])
            for name, seqs in pending.items():  # the mark moves over what is acknowledged
                done = acked.get(name, set())
                while seqs and seqs[0] in done:
                    done.discard(seqs[0])
                    self.mark.set(name, seqs.pop(0))
            if not self._connected:
                continue
            for box in list(self.outboxes.values()):
                box_name = box.name()
                if box_name is None:
                    continue  # a journal without a match yet: nothing to send
                name = box_name
                room = WINDOW - len(inflight)
                if room <= 0:
                    break
                prev = sent.get(name, self.mark.get(name))
                for entry in self._next(box, prev, room):
                    mid = self._send_event(entry, prev)
                    if mid is None:
                        break
                    inflight[mid] = (name, entry.seq)
                    pending.setdefault(name, []).append(entry.seq)
                    sent[name] = prev = entry.seq
            tile = self._tile
            if tile is not None:
                # A real change goes at once, a ticking timer only with the heartbeat: the
                # board counts it down itself from the data's time.
                now_steady = steady(tile)
                if now_steady != last_steady or now - last_state >= self.settings.heartbeat_s:
                    self._send_state(tile)
                    last_state, last_steady = now, now_steady
            call, self._call = self._call, None
            if call is not None:
                self._client.publish(self._topic(topics.CALL), topics.dumps(call), 1, True)
            elif self._clear_call:  # answered: no longer retained for a hall that starts now
                self._clear_call = False
                info = self._client.publish(self._topic(topics.CALL), b"", 1, True)
                clearing = (int(info.mid), self.call_acked)  # cleared once the broker has it
            if now - last_save >= 0.5:
                self.mark.save()
                last_save = now
            if self._held is not None and tile is not None and now - last_offer >= 1.0:
                # Once a second while it waits: the table may come into play only now (a
                # resumed match's first view goes out before it is the table in play).
                self._offer_held(tile)
                last_offer = now

    def _next(self, box: JournalOutbox, prev: int, room: int) -> list[OutEntry]:
        """Up to `room` entries after `prev`: those heard of from the outputs while each
        follows the one before; else (a gap, or `_look`) read from the journal, until a read
        reaches its end."""
        heard: list[OutEntry] = []
        if box is self.journal:
            while self._heard and not self._look and len(heard) < room:
                confirmed = self._heard[0]
                if confirmed.entry.seq <= prev:  # read from the journal already
                    self._heard.popleft()
                elif confirmed.after == prev:
                    self._heard.popleft()
                    heard.append(box.entry_of(confirmed))
                    prev = confirmed.entry.seq
                else:
                    self._look = True  # one was missed (a full deque, a held write)
            if not self._look:
                return heard
        read = box.after(prev, room - len(heard))
        if box is self.journal and len(read) < room - len(heard):
            self._look = False  # the journal's end reached: listen to the outputs again
        return heard + read

    def _send_event(self, entry: OutEntry, prev: int) -> int | None:
        # `prev` links each event to the one before in its outbox: the hall finds gaps by it.
        message = {
            "hall": self.hall,
            "table": self.table,
            "outbox": entry.source,
            "prev": prev,
            **entry.message,
        }
        info = self._client.publish(self._topic(topics.EVENTS), topics.dumps(message), qos=1)
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            return None  # the link just went: the next connection starts from the mark
        return int(info.mid)

    def _send_state(self, tile: dict[str, Any]) -> None:
        payload = {
            "hall": self.hall,
            "table": self.table,
            "tile": tile,
            "seq": self.journal.latest(),
            "outbox": {n: b.last() for b in self.outboxes.values() if (n := b.name())},
            "wall": self.wall(),
            "heartbeat": self.settings.heartbeat_s,
            # The board shows the table offline after 1.5 x this of silence itself, not
            # waiting for the broker's last will (which comes seconds later: docs/hall.md).
            "keepalive": self.settings.keepalive_s,
        }
        self._client.publish(self._topic(topics.STATE), topics.dumps(payload), qos=1, retain=True)

    def _topic(self, what: str) -> str:
        return topics.topic(self.hall, self.table, what)


def decision_command(data: dict[str, Any]) -> Command:
    """A checked `protest/decide` message as the carrom table's command: the director's
    (only the director writes the topic), for the match it names, journaled `via` the hall
    with its number (the same decision heard again is not taken twice)."""
    game, board = data["board"]
    return Command.of(
        "decide_protest",
        Role.DIRECTOR,
        board=(int(game), int(board)),
        upheld=bool(data["upheld"]),
        via=f"hall:{data['id']}",
        match=str(data["match"]),
    )
