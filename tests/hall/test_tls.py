"""TLS to the hall's broker (docs/hall.md, "Security"): a CA and a broker certificate made
with openssl for the test, Mosquitto listening with them, the kiosk and the hall trusting the
CA; a client speaking plain MQTT to that port gets nowhere."""

from __future__ import annotations

import shutil
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from kiosk.access.authority import Role
from kiosk.config.hall import HallSettings
from kiosk.engine.journal import Journal
from kiosk.hall.listener import HallListener
from kiosk.hall.mosquitto import Mosquitto, make_certificates
from kiosk.hall.publisher import HallPublisher
from kiosk.hall.record import HallRecord
from kiosk.kinds import tile_of
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromTable

from .conftest import wait_for

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is missing")


def test_kiosk_and_hall_over_tls(tmp_path: Path) -> None:
    ca, cert, key = make_certificates(tmp_path / "pki")
    tls = f"cafile {ca}\ncertfile {cert}\nkeyfile {key}\n"
    with Mosquitto(tmp_path / "broker", extra=tls) as broker:
        rec = HallRecord(tmp_path / "hall.db")
        listener = HallListener(rec, ("127.0.0.1", broker.port), tls_ca=str(ca))
        listener.start()
        settings = HallSettings(broker=broker.address, table_id="t01", tls=True, ca_file=str(ca))
        pub = HallPublisher(settings, tmp_path / "k", tile_of=tile_of).start()
        try:
            s = CarromTable(Journal(tmp_path / "k" / "journal.db"), outputs=[pub])
            s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
            s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
            wait_for(rec.matches, 10, "the match over TLS")
            key = rec.matches()[0]["match"]
            wait_for(lambda: rec.events("hall", "t01", key), 10, "the event over TLS")
            # Plain MQTT to the TLS port: the broker never says CONNACK.
            plain = mqtt.Client(CallbackAPIVersion.VERSION2)
            try:
                plain.connect("127.0.0.1", broker.port, keepalive=5)
                for _ in range(20):
                    if plain.loop(0.1) != mqtt.MQTT_ERR_SUCCESS:
                        break
            except OSError:
                pass  # refused outright: as good
            assert not plain.is_connected()
        finally:
            pub.stop()
            listener.stop()
