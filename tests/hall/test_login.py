"""The director's login (kiosk/hall/server.py, kiosk/hall/backoff.py) through aiohttp's real
server on a real socket, with the server's clocks injected: after 5 wrong passwords the next
try waits, the right password included; a burst of logins whose bodies arrive together gets
one comparison; the back-off outlives a restart of the hall, and a back-off file missing,
unreadable or absurd fails closed; a session ends after its time."""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, TCPConnector, web
from aiohttp.test_utils import TestClient, TestServer

from kiosk.hall.backoff import FILE, GLOBAL_FREE_TRIES
from kiosk.hall.listener import HallListener
from kiosk.hall.record import HallRecord
from kiosk.hall.server import COOKIE, HallServer


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _server(folder: Path, clock: Clock) -> HallServer:
    record = HallRecord(folder / "hall.db")
    listener = HallListener(record, ("127.0.0.1", 1))  # not started: the web side alone
    return HallServer(record, listener, "right", clock=clock, wall=clock, session_s=3600)


def origin(client: TestClient[Any, Any]) -> dict[str, str]:
    """The headers of a request the board's own page makes."""
    return {"Origin": f"http://{client.host}:{client.port}"}


async def _login(client: TestClient[Any, Any], password: str) -> Any:
    return await client.post("/login", json={"password": password}, headers=origin(client))


def test_login_backs_off_after_five_wrong_passwords(tmp_path: Path) -> None:
    clock = Clock()

    async def run() -> None:
        async with TestClient(TestServer(_server(tmp_path, clock).app())) as client:
            for _ in range(5):
                r = await _login(client, "guess")
                assert r.status == 403
            # The 6th, even the right one, waits: the password is not looked at.
            r = await _login(client, "right")
            assert r.status == 429 and r.headers["Retry-After"] == "1"
            clock.now += 1.0
            r = await _login(client, "guess")  # wrong again: 2 s
            assert r.status == 403
            r = await _login(client, "right")
            assert r.status == 429 and "try again in 2 s" in await r.text()
            for _ in range(20):  # doubling, to 5 minutes at most
                clock.now += 301
                await _login(client, "guess")
            r = await _login(client, "right")
            assert r.status == 429 and r.headers["Retry-After"] == "300"
            clock.now += 300
            r = await _login(client, "right")
            assert r.status == 200
            # Answered right, the count starts again.
            r = await _login(client, "guess")
            assert r.status == 403

    asyncio.run(run())


def test_a_burst_of_200_logins_whose_bodies_arrive_together_gets_one_comparison(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The back-off has started and its wait is over: one try is allowed. 200 logins send
    their headers, and only once the server holds all 200 waiting for their bodies do the
    bodies go, all at once. Before, the back-off was read before the body and counted after
    the comparison: all 200 were compared (and the right one, among them, logged in)."""
    clock = Clock()
    server = _server(tmp_path, clock)
    compared: list[int] = []
    real = hmac.compare_digest

    def counting(a: Any, b: Any) -> bool:
        compared.append(1)
        return real(a, b)

    async def run() -> None:
        app = server.app()
        waiting = asyncio.Event()
        begun: list[int] = []

        @web.middleware
        async def count(request: web.Request, handler: Any) -> web.StreamResponse:
            begun.append(1)
            if len(begun) == 200:
                waiting.set()
            return await handler(request)  # type: ignore[no-any-return]

        app.middlewares.append(count)
        async with TestClient(TestServer(app)) as client:
            for _ in range(5):
                assert (await _login(client, "guess")).status == 403
            clock.now += 1.0  # the 1 s wait is over: one more try may be compared
            monkeypatch.setattr(hmac, "compare_digest", counting)
            body = json.dumps({"password": "guess"}).encode()
            conns = [await asyncio.open_connection(client.host, client.port) for _ in range(200)]
            head = (
                f"POST /login HTTP/1.1\r\nHost: {client.host}:{client.port}\r\n"
                f"Origin: http://{client.host}:{client.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n"
            ).encode()
            for _, writer in conns:
                writer.write(head)
                await writer.drain()
            await asyncio.wait_for(waiting.wait(), 60)  # all 200 in, none with its body
            for _, writer in conns:
                writer.write(body)
            await asyncio.gather(*(w.drain() for _, w in conns))
            answers = [await reader.read() for reader, _ in conns]
            for _, writer in conns:
                writer.close()
            statuses = sorted(int(a.split(b" ", 2)[1]) for a in answers)
            monkeypatch.setattr(hmac, "compare_digest", real)
            assert statuses == [403] + [429] * 199
            assert len(compared) == 1

    asyncio.run(run())


def test_the_back_off_is_global_across_addresses(tmp_path: Path) -> None:
    """Guesses spread over many addresses, each under its own limit, still meet the whole
    hall's: after 20 wrong passwords in all the next address waits too."""
    clock = Clock()

    async def run() -> None:
        async with TestServer(_server(tmp_path, clock).app(), host="127.0.0.1") as server:
            url = f"http://127.0.0.1:{server.port}/login"
            headers = {"Origin": f"http://127.0.0.1:{server.port}"}

            async def login(source: str, password: str) -> int:
                connector = TCPConnector(local_addr=(source, 0))
                async with ClientSession(connector=connector) as session:
                    body = {"password": password}
                    async with session.post(url, json=body, headers=headers) as r:
                        return r.status

            for n in range(GLOBAL_FREE_TRIES // 4):  # 4 wrong from each of 5 addresses
                for _ in range(4):
                    assert await login(f"127.0.0.{10 + n}", "guess") == 403
            assert await login("127.0.0.99", "right") == 429, "a fresh address waits too"
            clock.now += 1.0
            assert await login("127.0.0.99", "right") == 200

    asyncio.run(run())


def test_the_back_off_outlives_a_restart_of_the_hall(tmp_path: Path) -> None:
    clock = Clock()

    async def run() -> None:
        async with TestClient(TestServer(_server(tmp_path, clock).app())) as client:
            for n in range(8):  # 5 free, then 1, 2 and 4 s, and the 8th: 8 s
                clock.now += 10 if n else 0
                r = await _login(client, "guess")
                assert r.status == 403
        # The hall started again on the same folder: the 8 s wait still stands.
        clock.now += 1
        async with TestClient(TestServer(_server(tmp_path, clock).app())) as client:
            r = await _login(client, "right")
            assert r.status == 429, "a restart of the hall ended the back-off"
            assert r.headers["Retry-After"] == "7"
            clock.now += 7
            assert (await _login(client, "right")).status == 200

    asyncio.run(run())


def _absurd(path: Path) -> None:
    path.write_text('{"version": 1, "all": {"wrong": 0, "until": 1e400}, "sources": {}}')


def _far(path: Path) -> None:
    path.write_text('{"version": 1, "all": {"wrong": 0, "until": -1}, "sources": '
                    '{"127.0.0.1": {"wrong": 0, "until": 1e12}}}')  # fmt: skip


def _garbage(path: Path) -> None:
    path.write_bytes(b"\x00\xff not json")


def _folder(path: Path) -> None:
    path.unlink()
    path.mkdir()  # reading it fails: unreadable


def _missing(path: Path) -> None:
    path.unlink()


@pytest.mark.parametrize(
    ("spoil", "said"),
    [
        (_missing, "missing"),
        (_folder, "unreadable"),
        (_garbage, "not a back-off this hall wrote"),
        (_absurd, "until must be a time"),
        (_far, "past the longest back-off"),
    ],
)
def test_a_back_off_file_missing_unreadable_or_absurd_fails_closed(
    tmp_path: Path, spoil: Any, said: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The hall's folder has been used (its record is there): a back-off file deleted,
    unreadable, or holding what the hall never writes (1e400, a wait of decades) is not a
    clean slate but the longest back-off, said in the log."""
    clock = Clock()
    _server(tmp_path, clock).record.close()  # the first start: the record and the file made
    assert (tmp_path / FILE).is_file()
    spoil(tmp_path / FILE)

    async def run() -> None:
        with caplog.at_level(logging.ERROR, logger="kiosk.hall"):
            server = _server(tmp_path, clock)
        async with TestClient(TestServer(server.app())) as client:
            r = await _login(client, "right")
            assert r.status == 429 and r.headers["Retry-After"] == "300"
            clock.now += 300
            assert (await _login(client, "right")).status == 200

    asyncio.run(run())
    text = caplog.text
    assert said in text and "the longest back-off, 300 s" in text and FILE in text


def test_a_hall_folder_used_for_the_first_time_has_no_back_off(tmp_path: Path) -> None:
    clock = Clock()

    async def run() -> None:
        async with TestClient(TestServer(_server(tmp_path / "new", clock).app())) as client:
            assert (await _login(client, "right")).status == 200

    asyncio.run(run())
    saved = json.loads((tmp_path / "new" / FILE).read_text())
    assert saved["all"] == {"wrong": 0, "until": 0.0} and saved["sources"] == {}
    assert (tmp_path / "new" / FILE).stat().st_mode & 0o777 == 0o600


def test_the_directors_session_expires(tmp_path: Path) -> None:
    clock = Clock()

    async def run() -> None:
        async with TestClient(TestServer(_server(tmp_path, clock).app())) as client:
            r = await _login(client, "right")
            assert r.status == 200 and r.cookies[COOKIE]["max-age"] == "3600"
            headers = {**origin(client), "X-Tableside-Token": (await r.json())["token"]}
            ack = {"hall": "h", "table": "t1", "id": 1}
            clock.now += 3599
            r = await client.post("/ack", json=ack, headers=headers)
            assert r.status != 403  # still the director
            clock.now += 1
            r = await client.post("/ack", json=ack, headers=headers)
            assert r.status == 403 and "logs in" in await r.text()

    asyncio.run(run())
