"""The board page in a real headless Chromium (Debian's chromium and chromium-driver through
Selenium; nothing is downloaded): tiles live after a confirm, offline and stale shown, a call
flashing until the director acknowledges it, a dead live link noticed by the page itself."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.hall.mosquitto import Mosquitto
from kiosk.hall.publisher import HallPublisher
from kiosk.kinds import tile_of
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromTable

from .conftest import (
    CHROMEDRIVER,
    DIRECTOR_PASSWORD,
    HALL,
    USERS,
    HallProcess,
    table_settings,
    tile,
    tile_age,
    wait_for,
)

pytestmark = pytest.mark.skipif(
    shutil.which(CHROMEDRIVER) is None, reason="chromium-driver is not installed (make debs)"
)


def test_a_tile_updates_after_a_confirm(
    broker: Mosquitto, hall_process: HallProcess, browser: WebDriver, tmp_path: Path
) -> None:
    pub = HallPublisher(table_settings(broker, "t01"), tmp_path / "k", tile_of=tile_of).start()
    s = CarromTable(Journal(tmp_path / "k" / "journal.db"), outputs=[pub])
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha", board_limit=None), role=Role.UMPIRE)
    browser.get(hall_process.url)
    wait_for(lambda: (tile(browser, "t01") or {}).get("state") == "online", 10, "the tile")
    text = (tile(browser, "t01") or {})["text"]
    assert "Asha v Bina" in text and "board 1: 0-0" in text and "turn: Asha" in text
    s.confirm(s.proposal.edited(pocketed=["white", "white"]), role=Role.UMPIRE)
    s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)  # Asha's turn ends: Bina's
    wait_for(lambda: "turn: Bina" in (tile(browser, "t01") or {}).get("text", ""), 5, "Bina")
    assert browser.find_element(By.ID, "link").text == "live"
    pub.stop()
    wait_for(lambda: (tile(browser, "t01") or {}).get("state") == "offline", 5, "offline")


def test_offline_and_stale_show(
    broker: Mosquitto, hall_process: HallProcess, browser: WebDriver
) -> None:
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.username_pw_set("t02", USERS["t02"])
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        tile_data = {"game": "bhukhar", "round": 2, "left": 600.0, "running": True,
                     "time_called": False, "games": 3, "faults": []}  # fmt: skip
        # Online, but its last state is 30 s old with a 2 s heartbeat: never shown as current.
        state = {"tile": tile_data, "wall": time.time() - 30, "heartbeat": 2.0, "seq": 5}
        client.publish(f"tableside/{HALL}/t02/status", "online", qos=1, retain=True)
        client.publish(f"tableside/{HALL}/t02/state", json.dumps(state), qos=1, retain=True)
        browser.get(hall_process.url)
        wait_for(lambda: (tile(browser, "t02") or {}).get("state") == "stale", 10, "stale")
        assert "round 2" in (tile(browser, "t02") or {})["text"]
        fresh = {**state, "wall": time.time()}
        client.publish(f"tableside/{HALL}/t02/state", json.dumps(fresh), qos=1, retain=True)
        wait_for(lambda: (tile(browser, "t02") or {}).get("state") == "online", 5, "current")
        # Nothing more comes: after its heartbeat (and a little) it goes stale by itself.
        wait_for(lambda: (tile(browser, "t02") or {}).get("state") == "stale", 6, "stale again")
        client.publish(f"tableside/{HALL}/t02/status", "offline", qos=1, retain=True)
        wait_for(lambda: (tile(browser, "t02") or {}).get("state") == "offline", 5, "offline")
    finally:
        client.loop_stop()
        client.disconnect()


def test_a_call_flashes_until_the_director_acknowledges_it(
    broker: Mosquitto, hall_process: HallProcess, browser: WebDriver, tmp_path: Path
) -> None:
    pub = HallPublisher(table_settings(broker, "t03"), tmp_path / "k", tile_of=tile_of).start()
    pub.show({"game": "bhukhar", "round": 1, "left": 1800.0, "running": False,
              "time_called": False, "games": 0, "faults": []})  # fmt: skip
    browser.get(hall_process.url)
    wait_for(lambda: tile(browser, "t03"), 10, "the tile")
    call = pub.call_director("a dispute")
    wait_for(lambda: (tile(browser, "t03") or {}).get("calling"), 5, "the call flashing")
    assert "Director called: a dispute" in (tile(browser, "t03") or {})["text"]
    # Read-only until the director logs in: no button to answer with.
    assert not browser.find_elements(By.CSS_SELECTOR, "button.ack")
    form = browser.find_element(By.ID, "login")
    form.find_element(By.NAME, "password").send_keys("not it")
    form.find_element(By.TAG_NAME, "button").click()
    wait_for(lambda: browser.find_element(By.ID, "login-error").text, 5, "the refusal")
    field = form.find_element(By.NAME, "password")
    field.clear()
    field.send_keys(DIRECTOR_PASSWORD)
    form.find_element(By.TAG_NAME, "button").click()
    button = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "button.ack"), 5, "ack")
    assert isinstance(button, list)
    # The tile's age ticks every second; the button the director has a finger on stays the
    # same element through it (rewritten, a tap on it could be lost).
    age = wait_for(lambda: tile_age(browser, "t03"), 5, "the age")
    wait_for(lambda: tile_age(browser, "t03") not in ("", age), 5, "the age to tick")
    button[0].click()
    wait_for(lambda: pub.call_acked == call, 5, "the answer at the kiosk")
    wait_for(lambda: not (tile(browser, "t03") or {}).get("calling", "x"), 5, "no more flashing")
    pub.stop()


def test_the_page_notices_a_dead_link_and_reconnects(
    broker: Mosquitto, hall_process: HallProcess, browser: WebDriver, tmp_path: Path
) -> None:
    pub = HallPublisher(table_settings(broker, "t01"), tmp_path / "k", tile_of=tile_of).start()
    s = CarromTable(Journal(tmp_path / "k" / "journal.db"), outputs=[pub])
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
    browser.get(hall_process.url)
    wait_for(lambda: browser.find_element(By.ID, "link").text == "live", 10, "live")
    hall_process.kill()  # the server is gone without a word: no close frame
    wait_for(lambda: "link lost" in browser.find_element(By.ID, "link").text, 5, "link lost")
    wait_for(lambda: (tile(browser, "t01") or {}).get("state") != "online", 5, "not current")
    hall_process.start()
    wait_for(lambda: browser.find_element(By.ID, "link").text == "live", 10, "live again")
    s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
    wait_for(lambda: "turn: Bina" in (tile(browser, "t01") or {}).get("text", ""), 5, "live tile")
    pub.stop()


def test_the_overlay_shows_one_table_on_a_transparent_page(
    broker: Mosquitto, hall_process: HallProcess, browser: WebDriver, tmp_path: Path
) -> None:
    pubs = [
        HallPublisher(table_settings(broker, t), tmp_path / t, tile_of=tile_of).start()
        for t in ("t01", "t02")
    ]
    for p in pubs:
        p.show({"game": "bhukhar", "round": 3, "left": 90.0, "running": False,
                "time_called": False, "games": 1, "faults": []})  # fmt: skip
    browser.get(hall_process.url + "overlay/t02")
    wait_for(lambda: tile(browser, "t02"), 10, "the overlay's tile")
    assert tile(browser, "t01") is None
    background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert background in ("rgba(0, 0, 0, 0)", "transparent")
    for p in pubs:
        p.stop()


def test_a_silent_kiosk_shows_offline_within_one_and_a_half_keepalives(
    broker: Mosquitto, hall_process: HallProcess, browser: WebDriver, tmp_path: Path
) -> None:
    """A kiosk frozen (or its cable cut) sends nothing and closes nothing: the broker's last
    will comes only when Mosquitto gets round to it (measured 10.0-11.0 s for a 5 s keep-alive,
    docs/hall.md); the board itself says offline after 1.5 x the keep-alive of silence."""
    import os
    import signal
    import subprocess
    import sys

    kiosk = subprocess.Popen(
        [sys.executable, "-m", "kiosk.hall.simulate", "--broker", broker.address, "--hall",
         HALL, "--data", str(tmp_path / "k"), "--tables", "t02:carrom", "--password",
         USERS["t02"], "--every", "0.5,1", "--keepalive", "5"],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert kiosk.stdout is not None and kiosk.stdout.readline().strip() == b"ready"
        browser.get(hall_process.url)
        wait_for(lambda: (tile(browser, "t02") or {}).get("state") == "online", 10, "online")
        os.kill(kiosk.pid, signal.SIGSTOP)
        frozen = time.monotonic()
        wait_for(lambda: (tile(browser, "t02") or {}).get("state") == "offline", 10, "offline")
        assert time.monotonic() - frozen <= 5 * 1.5 + 0.5
        # The board's own "offline (silent)", or the broker's last will if Mosquitto came
        # round to it first: both count 1.5 keep-alives from the kiosk's last packet, and on a
        # busy machine the will (usually 10-11 s) once came first.
        text = (tile(browser, "t02") or {})["text"]
        assert "offline (silent)" in text or "offline" in text.split("\n"), text
    finally:
        os.kill(kiosk.pid, signal.SIGKILL)
        kiosk.wait(timeout=10)
        if kiosk.stdout is not None:
            kiosk.stdout.close()


def test_the_board_shows_the_halls_broker_link_down_and_back(
    broker: Mosquitto, hall_process: HallProcess, browser: WebDriver, tmp_path: Path
) -> None:
    """The hall's own MQTT link down (the broker gone, or the MQTT thread being started again
    by the watchdog): the header says so and no tile is shown as current."""
    pub = HallPublisher(table_settings(broker, "t01"), tmp_path / "k", tile_of=tile_of).start()
    s = CarromTable(Journal(tmp_path / "k" / "journal.db"), outputs=[pub])
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
    try:
        browser.get(hall_process.url)
        wait_for(lambda: (tile(browser, "t01") or {}).get("state") == "online", 10, "online")
        broker.kill()
        link = lambda: browser.find_element(By.ID, "link").text  # noqa: E731
        wait_for(lambda: link() == "broker link down: tables not current", 5, "link down")
        assert (tile(browser, "t01") or {}).get("state") != "online"
        broker.start()
        wait_for(lambda: link() == "live", 10, "live again")
        s.confirm(s.proposal.edited(pocketed=[]), role=Role.UMPIRE)
        wait_for(lambda: "turn: Bina" in (tile(browser, "t01") or {}).get("text", ""), 10, "t01")
    finally:
        pub.stop()
