"""Two halls' brokers bridged to a central one (docs/hall.md, "Bridging halls"): a table in
a hall reaches the central hall record unchanged, and the central hall's resend comes down."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kiosk.access.authority import Role
from kiosk.config.hall import HallSettings
from kiosk.engine.journal import Journal
from kiosk.hall.listener import HallListener
from kiosk.hall.mosquitto import Mosquitto
from kiosk.hall.publisher import HallPublisher
from kiosk.hall.record import HallRecord
from kiosk.kinds import tile_of
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromTable

from .conftest import wait_for

#: How long a step may take on a machine busy with other work (a 25-minute suite run under
#: load once took over 30 s to stop two simulated kiosks cleanly); a passing run takes seconds.
PATIENCE_S = 120


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
                pub = HallPublisher(settings, tmp_path / f"{hall}-kiosk", tile_of=tile_of).start()
                publishers.append(pub)
                s = CarromTable(Journal(tmp_path / f"{hall}-kiosk" / "journal.db"),
                                  outputs=[pub])  # fmt: skip
                s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
                for _ in range(3):
                    s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)

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


def test_two_halls_bridged_over_tls_survive_the_central_broker_and_each_bridge_killed(
    tmp_path: Path,
) -> None:
    """Two halls, each with its own Mosquitto (users, ACL) bridged over TLS to a central
    Mosquitto (users, ACL); a central `tableside hall` for every hall; kiosks as real engines
    in a process per hall. The central broker, then each hall's broker with its bridge, is
    SIGKILLed and started again while the tables play: at the centre every journal entry is
    held once, and the board's stream told each one once."""
    import os
    import signal
    import subprocess
    import sys

    from kiosk.hall.mosquitto import make_certificates
    from kiosk.hall.security import bridge_conf, central_acl

    from .conftest import LiveStream, start_hall
    from .test_delivery import journal_events

    ca, cert, key = make_certificates(tmp_path / "pki")
    halls = ("east", "west")
    pw = "pw"
    central = Mosquitto(
        tmp_path / "central",
        users={"director": pw, **dict.fromkeys(halls, pw)},
        acl=central_acl(halls),
        extra=f"cafile {ca}\ncertfile {cert}\nkeyfile {key}\n",
    ).start()
    tables = {"east": ["e1:carrom", "e2:bhukhar"], "west": ["w1:carrom", "w2:backgammon"]}
    brokers: dict[str, Mosquitto] = {}
    kiosks: dict[str, subprocess.Popen[bytes]] = {}
    hall_proc = None
    live = None
    try:
        for h in halls:
            users = {"director": pw, **{t.split(":")[0]: pw for t in tables[h]}}
            up = bridge_conf(h, central.address, username=h, password=pw, cafile=ca)
            brokers[h] = Mosquitto(tmp_path / h, users=users, hall=h, extra=up).start()
        hall_proc = start_hall(central, tmp_path / "centre", hall="+", password=pw, tls_ca=ca)
        live = LiveStream(hall_proc.url)
        for h in halls:
            kiosks[h] = subprocess.Popen(
                [sys.executable, "-m", "kiosk.hall.simulate", "--broker", brokers[h].address,
                 "--hall", h, "--data", str(tmp_path / f"{h}-kiosks"), "--tables",
                 ",".join(tables[h]), "--password", pw, "--every", "0.1,0.3", "--keepalive",
                 "5"],
                stdout=subprocess.DEVNULL,
            )  # fmt: skip
        db = hall_proc.data / "hall.db"

        def held() -> dict[tuple[str, str], list[tuple[str, int]]]:
            with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
                rows = c.execute("SELECT hall, tbl, match, seq FROM events").fetchall()
            out: dict[tuple[str, str], list[tuple[str, int]]] = {}
            for h, t, m, q in rows:
                out.setdefault((h, t), []).append((m, q))
            return out

        def journal(h: str, t: str) -> set[tuple[str, int]]:
            return journal_events(tmp_path / f"{h}-kiosks" / t / "journal.db")

        def played(
            on: list[tuple[str, str]], since: dict[tuple[str, str], set[tuple[str, int]]]
        ) -> bool:
            return all(len(journal(*k) - since[k]) >= 2 for k in on)

        def current(on: list[tuple[str, str]]) -> bool:
            """The centre holds all the tables journaled so far (the outage's entries, and
            the new ones as they come: their publishers are back)."""
            journaled = {k: journal(*k) for k in on}
            got = held()
            return all(journaled[k] <= set(got.get(k, [])) for k in on)

        everyone = [(h, t.split(":")[0]) for h in halls for t in tables[h]]
        # Waits on what happened, not on the clock: each step goes on as soon as it holds.
        wait_for(
            lambda: all(held().get(k) for k in everyone), PATIENCE_S, "every table at the centre"
        )
        for victim, hit in ((central, halls), (brokers["east"], ("east",)),
                            (brokers["west"], ("west",))):  # fmt: skip
            cut_off = [k for k in everyone if k[0] in hit]  # the tables it cuts from the centre
            before = {k: journal(*k) for k in cut_off}
            victim.kill()  # SIGKILL: what it held in memory is gone
            # The tables cut off play on: two or more entries each while it is down.
            wait_for(lambda: played(cut_off, before), PATIENCE_S, "the tables playing on")  # noqa: B023
            victim.start()
            wait_for(lambda: current(cut_off), PATIENCE_S, "the centre caught up")  # noqa: B023
        for k in kiosks.values():
            k.send_signal(signal.SIGINT)  # a clean stop: their journals are final
        for k in kiosks.values():
            assert k.wait(timeout=PATIENCE_S) == 0
        want = {
            (h, t.split(":")[0]): journal_events(tmp_path / f"{h}-kiosks" / t.split(":")[0]
                                                 / "journal.db")
            for h in halls for t in tables[h]
        }  # fmt: skip
        # The resend asks back off (2, 4, 8, then 10 s) while a hall is behind: after three
        # kills the last gap may take a few of those rounds to close.
        wait_for(lambda: all(set(held().get(k, [])) == w for k, w in want.items()), 120,
                 "every journal at the centre")  # fmt: skip
        got = held()
        assert sum(len(w) for w in want.values()) >= 40
        for k, w in want.items():
            assert len(got[k]) == len(set(got[k])) == len(w), k  # nothing lost, nothing doubled
        told = [(e["hall"], e["table"], e["match"], e["seq"]) for e in live.events]
        assert len(told) == len(set(told))  # the board heard each event once
        # The central board shows every table of both halls.
        fresh = LiveStream(hall_proc.url)
        try:
            wait_for(lambda: fresh.snapshot, 5, "a snapshot")
            shown = {(t["hall"], t["table"]) for t in fresh.snapshot["tables"]}
            assert shown == set(want)
        finally:
            fresh.stop()
    finally:
        for k in kiosks.values():
            if k.poll() is None:
                os.kill(k.pid, signal.SIGKILL)
                k.wait(timeout=10)
        if live is not None:
            live.stop()
        if hall_proc is not None:
            hall_proc.stop()
        for b in brokers.values():
            b.stop()
        central.stop()
