"""TLS to the hall's broker (docs/hall.md, "Security"): a CA and a broker certificate made
with openssl for the test, Mosquitto listening with them, the kiosk and the hall trusting the
CA; a client speaking plain MQTT to that port gets nowhere."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from kiosk.engine.journal import Journal
from kiosk.engine.session import CarromSession
from kiosk.hall.listener import HallListener
from kiosk.hall.mosquitto import Mosquitto
from kiosk.hall.publisher import HallPublisher
from kiosk.hall.record import HallRecord
from kiosk.hall.settings import HallSettings
from kiosk.rules.carrom.events import MatchStart

from .conftest import wait_for

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is missing")


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def make_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """(CA certificate, broker certificate, broker key), the broker's valid for 127.0.0.1."""
    folder.mkdir(parents=True, exist_ok=True)
    _openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-days",
        "2",
        "-subj",
        "/CN=Tableside test CA",
        cwd=folder,
    )
    _openssl(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "broker.key",
        "-out",
        "broker.csr",
        "-subj",
        "/CN=127.0.0.1",
        cwd=folder,
    )
    (folder / "san.cnf").write_text("subjectAltName=IP:127.0.0.1\n", encoding="utf-8")
    _openssl("x509", "-req", "-in", "broker.csr", "-CA", "ca.crt", "-CAkey", "ca.key",
             "-CAcreateserial", "-out", "broker.crt", "-days", "2", "-extfile", "san.cnf",
             cwd=folder)  # fmt: skip
    return folder / "ca.crt", folder / "broker.crt", folder / "broker.key"


def test_kiosk_and_hall_over_tls(tmp_path: Path) -> None:
    ca, cert, key = make_certificates(tmp_path / "pki")
    tls = f"cafile {ca}\ncertfile {cert}\nkeyfile {key}\n"
    with Mosquitto(tmp_path / "broker", extra=tls) as broker:
        rec = HallRecord(tmp_path / "hall.db")
        listener = HallListener(rec, ("127.0.0.1", broker.port), tls_ca=str(ca))
        listener.start()
        settings = HallSettings(broker=broker.address, table_id="t01", tls=True, ca_file=str(ca))
        pub = HallPublisher(settings, tmp_path / "k").start()
        try:
            s = CarromSession(Journal(tmp_path / "k" / "journal.db"), outputs=[pub])
            s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"))
            s.confirm(s.proposal.edited(pocketed=[]))
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
