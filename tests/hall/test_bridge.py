"""Two halls' brokers bridged to a central one (docs/hall.md, "Bridging halls"): a table in
a hall reaches the central hall record unchanged, and the central hall's resend comes down."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kiosk.engine.journal import Journal
from kiosk.hall.listener import HallListener
from kiosk.hall.mosquitto import Mosquitto
from kiosk.hall.publisher import HallPublisher
from kiosk.hall.record import HallRecord
from kiosk.hall.settings import HallSettings
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromSession

from .conftest import wait_for


def _bridge(central: Mosquitto, hall: str) -> str:
    return (
        f"connection to-central-{hall}\naddress 127.0.0.1:{central.port}\n"
        "cleansession false\nrestart_timeout 1\n"
        f"topic tableside/{hall}/# out 1\n"
        f"topic tableside/{hall}/+/resend in 1\ntopic tableside/{hall}/+/call/ack in 1\n"
    )


def test_halls_bridged_to_a_central_broker_keep_their_topics(tmp_path: Path) -> None:
    with Mosquitto(tmp_path / "central") as central:
        halls = [Mosquitto(tmp_path / h, extra=_bridge(central, h)) for h in ("east", "west")]
        rec = HallRecord(tmp_path / "national.db")
        listener = HallListener(rec, ("127.0.0.1", central.port))  # every hall: "+"
        publishers: list[HallPublisher] = []
        try:
            for broker in halls:
                broker.start()
            listener.start()
            for broker, hall in zip(halls, ("east", "west"), strict=True):
                settings = HallSettings(broker=broker.address, hall=hall, table_id="t01")
                pub = HallPublisher(settings, tmp_path / f"{hall}-kiosk").start()
                publishers.append(pub)
                s = CarromSession(Journal(tmp_path / f"{hall}-kiosk" / "journal.db"),
                                  outputs=[pub])  # fmt: skip
                s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"))
                for _ in range(3):
                    s.confirm(s.proposal.edited(pocketed=[]))

            def national() -> list[tuple[str, str, int]]:
                with sqlite3.connect(rec.path) as db:
                    rows = db.execute("SELECT hall, tbl, seq FROM events").fetchall()
                return sorted((str(h), str(t), int(q)) for h, t, q in rows)

            # The same table id in two halls: two tables, apart by the hall in the topic.
            wait_for(lambda: len(national()) == 6, 10, "both halls' events at the centre")
            assert {h for h, _, _ in national()} == {"east", "west"}
            # A second central hall with an empty record: the retained states tell it what
            # the tables hold; its resends go down the bridges and the events come back up.
            fresh = HallRecord(tmp_path / "national-2.db")
            second = HallListener(fresh, ("127.0.0.1", central.port))
            second.start()
            try:

                def refilled() -> int:  # no one calls `tick`: the listener asks by itself
                    with sqlite3.connect(fresh.path) as db:
                        return int(db.execute("SELECT count(*) FROM events").fetchone()[0])

                wait_for(lambda: refilled() == 6, 15, "the resend through the bridges")
            finally:
                second.stop()
        finally:
            for pub in publishers:
                pub.stop()
            listener.stop()
            for broker in halls:
                broker.stop()
