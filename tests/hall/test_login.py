"""The director's login (kiosk/hall/server.py) through aiohttp's real server on a real
socket, with the server's clock injected: after 5 wrong passwords the next try waits, the
right password included; a session ends after its time."""

from __future__ import annotations

import asyncio
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from kiosk.hall.listener import HallListener
from kiosk.hall.record import HallRecord
from kiosk.hall.server import COOKIE, HallServer


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _server(tmp_path: Path, clock: Clock) -> HallServer:
    record = HallRecord(tmp_path / "hall.db")
    listener = HallListener(record, ("127.0.0.1", 1))  # not started: the web side alone
    return HallServer(record, listener, "right", clock=clock, session_s=3600)


def test_login_backs_off_after_five_wrong_passwords(tmp_path: Path) -> None:
    clock = Clock()

    async def run() -> None:
        async with TestClient(TestServer(_server(tmp_path, clock).app())) as client:
            for _ in range(5):
                r = await client.post("/login", json={"password": "guess"})
                assert r.status == 403
            # The 6th, even the right one, waits: the password is not looked at.
            r = await client.post("/login", json={"password": "right"})
            assert r.status == 429 and r.headers["Retry-After"] == "1"
            clock.now += 1.0
            r = await client.post("/login", json={"password": "guess"})  # wrong again: 2 s
            assert r.status == 403
            r = await client.post("/login", json={"password": "right"})
            assert r.status == 429 and "try again in 2 s" in await r.text()
            for _ in range(20):  # doubling, to 5 minutes at most
                clock.now += 301
                await client.post("/login", json={"password": "guess"})
            r = await client.post("/login", json={"password": "right"})
            assert r.status == 429 and r.headers["Retry-After"] == "300"
            clock.now += 300
            r = await client.post("/login", json={"password": "right"})
            assert r.status == 200
            # Answered right, the count starts again.
            r = await client.post("/login", json={"password": "guess"})
            assert r.status == 403

    asyncio.run(run())


def test_the_directors_session_expires(tmp_path: Path) -> None:
    clock = Clock()

    async def run() -> None:
        async with TestClient(TestServer(_server(tmp_path, clock).app())) as client:
            r = await client.post("/login", json={"password": "right"})
            assert r.status == 200 and r.cookies[COOKIE]["max-age"] == "3600"
            ack = {"hall": "h", "table": "t1", "id": 1}
            clock.now += 3599
            r = await client.post("/ack", json=ack)
            assert r.status != 403  # still the director
            clock.now += 1
            r = await client.post("/ack", json=ack)
            assert r.status == 403 and "logs in" in await r.text()

    asyncio.run(run())
