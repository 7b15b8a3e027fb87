"""State-changing requests to the hall (kiosk/hall/server.py): every POST from the board's own
origin only, and every one but the login with the session's token, given to the page with
the session. Before, `POST /ack` and `/decide` had only the cookie's `SameSite=Strict`, which
a page on another port of the same host gets past (the same site): it answered calls and
decided protests in the director's name."""

from __future__ import annotations

import asyncio
import http.server
import shutil
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from kiosk.hall.listener import HallListener
from kiosk.hall.mosquitto import Mosquitto, free_port
from kiosk.hall.publisher import HallPublisher
from kiosk.hall.record import HallRecord
from kiosk.hall.server import HallServer
from kiosk.kinds import tile_of

from .conftest import CHROMEDRIVER, DIRECTOR_PASSWORD, HallProcess, table_settings, tile, wait_for

H = "hall"
ACK = {"hall": H, "table": "t01", "id": 1}
DECIDE = {"hall": H, "table": "t01", "match": "1-1", "board": [1, 1], "upheld": True}


def _server(folder: Path) -> HallServer:
    record = HallRecord(folder / "hall.db")
    record.add_call(H, "t01", {"id": 1, "reason": "a dispute", "wall": 1.0})
    return HallServer(record, HallListener(record, ("127.0.0.1", 1)), "right")


def test_posts_without_the_origin_or_the_token_are_refused_and_change_nothing(
    tmp_path: Path,
) -> None:
    server = _server(tmp_path)

    async def run() -> None:
        async with TestClient(TestServer(server.app())) as client:
            own = f"http://{client.host}:{client.port}"
            other_port = f"http://{client.host}:{client.port + 1}"
            # A login from elsewhere is refused and not even counted against the back-off.
            for _ in range(10):
                r = await client.post("/login", json={"password": "x"}, headers={"Origin":
                                      other_port})  # fmt: skip
                assert r.status == 403 and "Origin" in await r.text()
            r = await client.post("/login", json={"password": "right"}, headers={"Origin": own})
            assert r.status == 200
            token = (await r.json())["token"]
            assert len(token) >= 32
            wrong = token[:-1] + ("1" if token[-1] == "0" else "0")
            forged: list[dict[str, str]] = [
                {},  # no Origin at all
                {"Origin": "null"},
                {"Origin": other_port, "X-Tableside-Token": token},  # the same host, a port away
                {"Origin": f"https://{client.host}:{client.port}", "X-Tableside-Token": token},
                {"Origin": "http://evil.example", "X-Tableside-Token": token},
                {"Origin": own},  # no token
                {"Origin": own, "X-Tableside-Token": ""},
                {"Origin": own, "X-Tableside-Token": wrong},
                {"Origin": own, "X-Tableside-Token": token, "Sec-Fetch-Site": "same-site"},
            ]
            for headers in forged:
                for path, body in (("/ack", ACK), ("/decide", DECIDE)):
                    r = await client.post(path, json=body, headers=headers)
                    assert r.status == 403, (path, headers, r.status)
            # Nothing changed: the call is open, no decision was sent.
            assert [c["id"] for c in server.record.open_calls()] == [1]
            assert server.listener._decisions == {}
            good = {"Origin": own, "X-Tableside-Token": token}
            r = await client.post("/ack", json=ACK, headers=good)
            assert r.status == 200 and server.record.open_calls() == []
            r = await client.post("/decide", json=DECIDE, headers=good)
            assert r.status == 200 and server.listener._decisions != {}
            # Another session's token is not this one's.
            r = await client.post("/login", json={"password": "right"}, headers={"Origin": own})
            second = (await r.json())["token"]
            assert second != token
            r = await client.post("/ack", json=ACK, headers={"Origin": own,
                                  "X-Tableside-Token": token})  # fmt: skip
            assert r.status == 403  # the cookie is the second session's now

    asyncio.run(run())


def test_the_page_gets_the_token_with_the_session_and_another_origin_does_not(
    tmp_path: Path,
) -> None:
    server = _server(tmp_path)

    async def run() -> None:
        async with TestClient(TestServer(server.app())) as client:
            own = f"http://{client.host}:{client.port}"
            r = await client.post("/login", json={"password": "right"}, headers={"Origin": own})
            token = (await r.json())["token"]

            async def snapshot(origin: str) -> dict[str, Any]:
                ws = await client.ws_connect("/live", headers={"Origin": origin})
                try:
                    got: dict[str, Any] = await ws.receive_json(timeout=10)
                finally:
                    await ws.close()
                return got

            mine = await snapshot(own)
            assert mine["director"] is True and mine["token"] == token
            theirs = await snapshot(f"http://{client.host}:{client.port + 1}")
            assert "token" not in theirs

    asyncio.run(run())


class _Attacker:
    """A page on another port of the same host (the same site, so a SameSite=Strict cookie
    goes with its requests) that posts to the hall's /ack as a form would: no CORS asked."""

    def __init__(self, hall_url: str) -> None:
        body = f"""<!doctype html><title>waiting</title><script>
          const to = {hall_url!r};
          Promise.all([
            fetch(to + "ack", {{method: "POST", mode: "no-cors", credentials: "include",
              headers: {{"Content-Type": "text/plain"}},
              body: JSON.stringify({{hall: "hall", table: "t03", id: 1}})}}),
            fetch(to + "decide", {{method: "POST", mode: "no-cors", credentials: "include",
              headers: {{"Content-Type": "text/plain"}},
              body: JSON.stringify({{hall: "hall", table: "t03", match: "1-1", board: [1, 1],
                upheld: true}})}}),
          ]).then(() => {{ document.title = "sent"; }},
                  e => {{ document.title = "failed " + e; }});
        </script>""".encode()

        class Page(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_: Any) -> None:
                pass

        self.port = free_port()
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", self.port), Page)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(10)


@pytest.fixture
def attacker(hall_process: HallProcess) -> Iterator[_Attacker]:
    a = _Attacker(hall_process.url)
    yield a
    a.close()


@pytest.mark.skipif(shutil.which(CHROMEDRIVER) is None, reason="chromium-driver is missing")
def test_a_page_on_another_port_cannot_answer_a_call_in_the_directors_name(
    broker: Mosquitto,
    hall_process: HallProcess,
    attacker: _Attacker,
    browser: WebDriver,
    tmp_path: Path,
) -> None:
    pub = HallPublisher(table_settings(broker, "t03"), tmp_path / "k", tile_of=tile_of).start()
    try:
        pub.show({"game": "bhukhar", "round": 1, "left": 1800.0, "running": False,
                  "time_called": False, "games": 0, "faults": []})  # fmt: skip
        browser.get(hall_process.url)
        wait_for(lambda: tile(browser, "t03"), 10, "the tile")
        pub.call_director("a dispute")
        wait_for(lambda: (tile(browser, "t03") or {}).get("calling"), 10, "the call")
        browser.find_element(By.NAME, "password").send_keys(DIRECTOR_PASSWORD)
        browser.find_element(By.CSS_SELECTOR, "#login button").click()
        wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "button.ack"), 10, "logged in")
        # The director, still logged in, opens a page another service on the host serves.
        browser.get(f"http://127.0.0.1:{attacker.port}/")
        wait_for(lambda: browser.title.startswith(("sent", "failed")), 10, "the forged posts")
        assert browser.title == "sent"  # the hall answered both: refused
        db = hall_process.data / "hall.db"
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
            acked = c.execute("SELECT acked FROM calls WHERE tbl = 't03'").fetchall()
        assert acked == [(None,)], "a page on another port answered the call"
        assert pub.call_acked is None
        # The board itself, its page from the hall, still answers it.
        browser.get(hall_process.url)
        button = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "button.ack"), 10, "ack")
        assert isinstance(button, list)
        button[0].click()
        wait_for(lambda: pub.call_acked is not None, 10, "the answer at the kiosk")
    finally:
        pub.stop()
