"""The kiosk with a `[hall]` section: the publisher is one more output of every table."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kiosk.access.authority import Role
from kiosk.hall.mosquitto import Mosquitto
from kiosk.hall.publisher import HallPublisher
from kiosk.hall.record import HallRecord
from kiosk.kinds import tile_of
from kiosk.rules.carrom.events import MatchStart
from kiosk.startup import start_kiosk
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.registry import CarromStart

from .conftest import HALL, USERS, wait_for


def test_started_kiosk_publishes_its_confirms_to_the_hall(
    broker: Mosquitto, tmp_path: Path
) -> None:
    from kiosk.hall.listener import HallListener

    config = tmp_path / "table.toml"
    config.write_text(
        '[pockets]\nsource = "simulated"\n[hall]\n'
        f'broker = "{broker.address}"\nhall = "{HALL}"\ntable_id = "t01"\n'
        f'username = "t01"\npassword = "{USERS["t01"]}"\nkeepalive_s = 5\n',
        encoding="utf-8",
    )
    rec = HallRecord(tmp_path / "hall.db")
    listener = HallListener(rec, ("127.0.0.1", broker.port), username="director",
                            password=USERS["director"])  # fmt: skip
    listener.start()
    kiosk = start_kiosk(config, tmp_path / "data", simulate=True)
    try:
        assert isinstance(kiosk.hall, HallPublisher)
        assert kiosk.hall in kiosk.services.outputs
        wait_for(lambda: kiosk.hall.online, 5, "the hall link")
        session = kiosk.services.tables.create(
            CarromStart(MatchStart("icf", ("Asha", "Bina"), "Asha")), Role.UMPIRE
        )
        assert isinstance(session, CarromTable)
        session.confirm(session.proposal.edited(pocketed=[]), role=Role.UMPIRE)

        def stored() -> int:
            with sqlite3.connect(rec.path) as db:
                return int(db.execute("SELECT count(*) FROM events").fetchone()[0])

        wait_for(lambda: stored() == 1, 5, "the confirm in the hall record")
    finally:
        kiosk.close()
        listener.stop()


def test_kiosk_without_hall_settings_starts_no_publisher(tmp_path: Path) -> None:
    kiosk = start_kiosk(None, tmp_path / "data", simulate=True)
    try:
        assert kiosk.hall is None
        assert not any(isinstance(o, HallPublisher) for o in kiosk.services.outputs)
    finally:
        kiosk.close()


def test_bhukhar_table_shows_the_rounds_time_left_from_its_view(
    broker: Mosquitto, tmp_path: Path
) -> None:
    from kiosk.engine.journal import Journal
    from kiosk.hall.listener import HallListener
    from kiosk.rules.bhukhar.record import SessionStart, Team
    from kiosk.tables.bhukhar_table import BhukharTable

    from .conftest import table_settings

    rec = HallRecord(tmp_path / "hall.db")
    listener = HallListener(rec, ("127.0.0.1", broker.port), username="director",
                            password=USERS["director"])  # fmt: skip
    listener.start()
    data = tmp_path / "k"
    data.mkdir()
    pub = HallPublisher(table_settings(broker, "t02"), data, tile_of=tile_of).start()
    journal = Journal(data / "journal.db")
    try:
        teams = tuple(Team(t, (f"{t}1", f"{t}2", f"{t}3")) for t in "AB")
        # The publisher is one of the table's outputs: the tile is the table's own view.
        table = BhukharTable.create(journal, SessionStart(teams), outputs=[pub])
        table.start_round(role=Role.UMPIRE)
        pub.nudge()

        def tile() -> dict[str, object] | None:
            tables = rec.tables()
            state = tables[0]["state"] if tables else None
            return state["tile"] if state else None

        shown = wait_for(lambda: (tile() or {}).get("round") == 1 and tile(), 5, "round 1")
        assert isinstance(shown, dict)
        assert shown["running"] is True and 1790 <= float(shown["left"]) <= 1800  # type: ignore[arg-type]
        # The session's header and its timer line reach the hall through the journal.
        wait_for(lambda: rec.matches("bhukhar"), 5, "the session")
        (session,) = rec.matches("bhukhar")
        assert session["header"]["teams"][0]["id"] == "A"
        events = wait_for(lambda: rec.events(HALL, "t02", session["match"]), 5, "the line")
        assert events[0]["data"]["action"] == "start"  # type: ignore[index]
    finally:
        journal.close()
        pub.stop()
        listener.stop()
