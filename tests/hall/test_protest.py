"""Protests in the hall (laws 144-151): the tile shows a protest waiting with the
minutes left of the officials' hour (151 c) and the result under protest (150); the director,
logged in on the board, decides it; the decision goes to the kiosk on the table's own
`protest/decide` topic, which only the director may write (the ACL), is checked there like
every message (kiosk/hall/schema.py), and is journaled by the table as the director's act.
A real Mosquitto, the real `tableside hall`, headless Chromium."""

from __future__ import annotations

import json
import shutil
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from drivers.simulated import ManualClock
from kiosk.access.authority import Role
from kiosk.engine.journal import Journal
from kiosk.hall import schema, topics
from kiosk.hall.mosquitto import Mosquitto
from kiosk.hall.publisher import HallPublisher, decision_command
from kiosk.hall.security import acl_text
from kiosk.kinds import tile_of
from kiosk.rules.carrom.events import MatchStart
from kiosk.tables.carrom_table import CarromTable
from kiosk.tables.commands import Command
from kiosk.tables.registry import CarromStart, Fitted
from kiosk.wiring import Tables

from .conftest import (
    CHROMEDRIVER,
    DIRECTOR_PASSWORD,
    HALL,
    USERS,
    HallProcess,
    table_settings,
    tile,
    wait_for,
)

DECIDE = f"tableside/{HALL}/t01/{topics.DECIDE}"
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


def _kiosk(broker: Mosquitto, folder: Path, clock: ManualClock) -> tuple[CarromTable, Any]:
    """A carrom table with its hall publisher; the director's decisions go to the table as
    at a kiosk (kiosk/startup.py: `Tables.post`), taken at its next poll."""
    pub = HallPublisher(table_settings(broker, "t01"), folder, tile_of=tile_of)
    s = CarromTable(Journal(folder / "journal.db"), clock=clock, outputs=[pub], beams=())
    pub.on_command = s.post
    pub.start()
    s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
    return s, pub


def _asha_wins_board_and_bina_protests(s: CarromTable, clock: ManualClock) -> None:
    for coins in (["white"], ["white", "queen"], ["white"] * 7):
        s.confirm(s.proposal.edited(pocketed=coins), role=Role.UMPIRE)
    clock.advance(60)
    s.protest(
        "Bina", (1, 1), "The queen was covered after the striker left", "R-17", role=Role.UMPIRE
    )


def _client(user: str, port: int) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=user)
    client.username_pw_set(user, USERS[user])
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client


def _retained(port: int, name: str) -> bytes | None:
    """The message retained on `name` now (None: none), as the director reads it."""
    got: list[bytes] = []
    done = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="director-look")
    client.username_pw_set("director", USERS["director"])

    def on_message(_c: Any, _u: Any, message: mqtt.MQTTMessage) -> None:
        got.append(bytes(message.payload))
        done.set()

    client.on_message = on_message
    client.on_connect = lambda c, *_: c.subscribe(name, qos=1)
    client.connect("127.0.0.1", port)
    client.loop_start()
    done.wait(1.5)  # a retained message comes at once with the subscription
    client.loop_stop()
    client.disconnect()
    return got[0] if got and got[0] else None


@pytest.mark.skipif(shutil.which(CHROMEDRIVER) is None, reason="chromium-driver is missing")
def test_law_151_the_tile_shows_the_protest_and_the_director_upholds_it_from_the_board(
    broker: Mosquitto, hall_process: HallProcess, browser: WebDriver, tmp_path: Path
) -> None:
    clock = ManualClock(1000.0)
    s, pub = _kiosk(broker, tmp_path / "k", clock)
    try:
        _asha_wins_board_and_bina_protests(s, clock)
        browser.get(hall_process.url)

        def text() -> str:
            return (tile(browser, "t01") or {}).get("text", "")

        waiting = "protest by Bina against board 1 of game 1: waiting, 60 min left of the hour"
        wait_for(lambda: waiting in text(), 10, "the protest on the tile")
        assert "(law 151 c)" in text()
        assert "protesting" in (
            browser.find_element(By.CSS_SELECTOR, '.tile[data-table="t01"]').get_attribute("class")
            or ""
        )
        assert not browser.find_elements(By.CSS_SELECTOR, "button.decide")  # read-only
        clock.advance(600)  # ten minutes of the hour gone (151 c)
        s.poll()
        wait_for(lambda: "50 min left of the hour" in text(), 10, "the hour counted down")
        browser.find_element(By.NAME, "password").send_keys(DIRECTOR_PASSWORD)
        browser.find_element(By.CSS_SELECTOR, "#login button").click()
        wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "button.decide"), 10, "Decide")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "hall_protest_tile.png"))
        uphold = browser.find_element(By.CSS_SELECTOR, 'button.decide[data-upheld="1"]')
        uphold.click()
        browser.switch_to.alert.accept()  # asked again: the boards set aside (151 a)
        wait_for(lambda: "decision sent: upheld" in text(), 10, "the decision sent")

        def decided() -> bool:
            s.poll()  # the runner's poll: the table takes the hall's command
            state = s.view().state
            return state is not None and state.protests[0].decision == "upheld"

        wait_for(decided, 10, "the decision at the kiosk")
        assert s.match_id is not None
        last = s.journal.entries(s.match_id, ["event"])[-1]
        assert last.source == "director" and last.data["event"] == "protest_decided"
        assert last.data["upheld"] is True and last.data["via"].startswith("hall:")
        state = s.view().state
        assert state is not None and state.now is not None
        assert (state.now.board, state.now.breaker) == (2, "Asha")  # board 1 played again
        upheld = "protest by Bina against board 1 of game 1: upheld, the board is played again"
        wait_for(lambda: upheld in text(), 10, "the decision on the tile")
        assert "decision sent" not in text() and not browser.find_elements(
            By.CSS_SELECTOR, "button.decide"
        )
        # Journaled: the hall no longer keeps the message for a kiosk that starts later.
        wait_for(lambda: _retained(broker.port, DECIDE) is None, 10, "the message cleared")
    finally:
        pub.stop()


def test_law_150_the_result_is_marked_under_protest_in_the_tile(
    broker: Mosquitto, hall_process: HallProcess, browser: WebDriver, tmp_path: Path
) -> None:
    clock = ManualClock(1000.0)
    s, pub = _kiosk(broker, tmp_path / "k", clock)
    try:
        _asha_wins_board_and_bina_protests(s, clock)
        s.concede("Bina", role=Role.DIRECTOR)  # play is over: Asha won on the board
        browser.get(hall_process.url)
        under = "won on the board: Asha (under protest: no result, law 150)"
        wait_for(lambda: under in (tile(browser, "t01") or {}).get("text", ""), 10, "the mark")

        def result() -> dict[str, Any]:
            with urllib.request.urlopen(hall_process.url + "results", timeout=5) as r:
                found = json.loads(r.read())["carrom"]
            return found[0] if found else {}

        wait_for(lambda: result().get("under_protest"), 10, "the results marked")
        assert (result()["provisional_winner"], result()["finished"]) == ("Asha", False)
        s.decide_protest((1, 1), False, role=Role.DIRECTOR)
        wait_for(
            lambda: "winner: Asha" in (tile(browser, "t01") or {}).get("text", ""), 10, "declared"
        )
        wait_for(lambda: result().get("finished"), 10, "the result declared")
        assert result()["protests"] == [{"by": "Bina", "board": [1, 1], "decision": "rejected"}]
    finally:
        pub.stop()


def test_only_the_director_may_write_a_tables_decision_and_the_kiosk_checks_it(
    broker: Mosquitto, tmp_path: Path
) -> None:
    """A table's password (it sits in every kiosk's settings) cannot decide a protest: the
    broker drops its message on `protest/decide`; a malformed one from the director's user is
    refused by the kiosk's check; the director's own reaches the table as a command."""
    assert f"topic read {DECIDE}" in acl_text(HALL, ["t01"])
    assert f"topic write {DECIDE}" not in acl_text(HALL, ["t01"])
    heard: list[Command] = []
    pub = HallPublisher(table_settings(broker, "t01"), tmp_path / "k", tile_of=tile_of)
    pub.on_command = heard.append
    pub.start()
    t02 = _client("t02", broker.port)
    director = _client("director", broker.port)
    try:
        wait_for(lambda: pub.online, 10, "the kiosk online")
        message = {"id": 7, "match": "1", "board": [1, 1], "upheld": True, "wall": time.time()}
        t02.publish(DECIDE, json.dumps(message), qos=1).wait_for_publish(5)  # not t02's to write
        bad = {**message, "upheld": "yes"}
        director.publish(DECIDE, json.dumps(bad), qos=1).wait_for_publish(5)
        wait_for(lambda: pub.decision_refused, 10, "the kiosk's check")
        assert "'upheld' must be true or false" in str(pub.decision_refused)
        other = {**message, "table": "t02"}  # a message for another table on this one's topic
        director.publish(DECIDE, json.dumps(other), qos=1).wait_for_publish(5)
        wait_for(lambda: "says table 't02'" in str(pub.decision_refused), 10, "refused")
        assert heard == []  # neither the table's message nor the bad ones
        director.publish(DECIDE, json.dumps({**message, "id": 8}), qos=1).wait_for_publish(5)
        wait_for(lambda: heard, 10, "the director's decision")
        assert heard == [
            Command.of(
                "decide_protest", Role.DIRECTOR, board=(1, 1), upheld=True, via="hall:8", match="1"
            )
        ]
    finally:
        for client in (t02, director):
            client.loop_stop()
            client.disconnect()
        pub.stop()


def test_a_decision_heard_before_the_match_is_resumed_reaches_it(
    broker: Mosquitto, tmp_path: Path
) -> None:
    """A kiosk restarted with a protest waiting hears the retained decision at once, before
    the umpire resumes the match (no table in play: `Tables.post` lets it go); the publisher
    offers it again with the resumed table's first view, and the table journals it once."""
    clock = ManualClock(1000.0)
    data = tmp_path / "k"
    pub = HallPublisher(table_settings(broker, "t01"), data, tile_of=tile_of)
    tables = Tables(data, Fitted(clock=clock, outputs=(pub,), beams=()))
    pub.on_command = lambda command: tables.post(command)
    pub.start()
    director = _client("director", broker.port)
    try:
        s = tables.create(CarromStart(MatchStart("icf", ("Asha", "Bina"), "Asha")), Role.UMPIRE)
        assert isinstance(s, CarromTable)
        _asha_wins_board_and_bina_protests(s, clock)
        match = str(s.match_id)
        tables.close_all()  # the kiosk restarts: no table in play until the umpire resumes
        wait_for(lambda: pub.online, 10, "the kiosk online")
        message = {"id": 5, "match": match, "board": [1, 1], "upheld": False, "wall": 1.0}
        director.publish(DECIDE, json.dumps(message), qos=1, retain=True).wait_for_publish(5)
        wait_for(lambda: pub._held is not None, 10, "the decision heard")
        tables = Tables(data, Fitted(clock=clock, outputs=(pub,), beams=()))
        resumed = tables.resume("carrom")  # its first view goes to the publisher
        assert isinstance(resumed, CarromTable)

        def decided() -> bool:
            resumed.poll()
            state = resumed.view().state
            return (
                state is not None
                and state.winner is None
                and state.protests[0].decision == ("rejected")
            )

        wait_for(decided, 10, "the decision at the resumed table")
        for _ in range(3):  # more views: it is not offered again once decided
            clock.advance(1.0)
            resumed.poll()
        events = resumed.journal.entries(resumed.match_id, ["event"])
        assert [e.data.get("via") for e in events if "via" in e.data] == ["hall:5"]
        assert pub._held is None
    finally:
        director.loop_stop()
        director.disconnect()
        pub.stop()
        tables.close_all()


def test_the_same_decision_heard_again_is_not_taken_twice(tmp_path: Path) -> None:
    """A retained decision comes again at each reconnect: the table journals it once, even
    after the director undid it at the console; one for another match is let go."""
    clock = ManualClock(1000.0)
    with Journal(tmp_path / "journal.db") as journal:
        s = CarromTable(journal, clock=clock, beams=())
        s.start_match(MatchStart("icf", ("Asha", "Bina"), "Asha"), role=Role.UMPIRE)
        _asha_wins_board_and_bina_protests(s, clock)
        data = {"id": 9, "match": str(s.match_id), "board": [1, 1], "upheld": False}
        for _ in range(2):
            s.post(decision_command(data))
            s.poll()
        s.post(decision_command({**data, "id": 10, "match": "99"}))  # another match's
        s.poll()
        assert s.match_id is not None
        decided = [e for e in journal.entries(s.match_id, ["event"]) if "via" in e.data]
        assert [(e.source, e.data["via"]) for e in decided] == [("director", "hall:9")]
        s.undo(role=Role.DIRECTOR)
        s.post(decision_command(data))
        s.poll()
        state = s.view().state
        assert state is not None and state.protest_pending  # the undo stands
        assert s.view().refusal is None


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"board": [1]}, "'board' must be [game, board]"),
        ({"board": [0, 1]}, "'board' item 0 must be from 1"),
        ({"upheld": 1}, "'upheld' must be true or false"),
        ({"match": "../x"}, "'match' must be an id"),
        ({"hall": "other"}, "says hall 'other'"),
        ({"id": -1}, "'id' must be from 1"),
    ],
)
def test_schema_a_decision_is_checked_like_every_message(change: dict[str, Any], why: str) -> None:
    good = {"id": 3, "match": "2", "board": [1, 2], "upheld": True, "wall": 1.0}
    assert schema.decision(json.dumps(good).encode(), HALL, "t01") == good
    with pytest.raises(schema.Refused, match=why.replace("[", r"\[").replace("]", r"\]")):
        schema.decision(json.dumps({**good, **change}).encode(), HALL, "t01")
    with pytest.raises(schema.Refused, match="more than the 1024 allowed"):
        schema.decision(json.dumps({**good, "pad": "x" * 2000}).encode(), HALL, "t01")
