"""The board's fan-out (kiosk/hall/server.py) and the hall's door (kiosk/hall/schema.py):
one bad tile, or one page whose send fails, can no longer stop the board for everyone.

Before: a player name with a lone surrogate ("X\\ud800", legal JSON) passed `schema.state`,
`send_str` raised UnicodeEncodeError in `_send_all`, and that ended `_fan_out` for every page
while the heartbeats went on saying "live"; new pages got no snapshot. Here through aiohttp's
real server on a real socket, the listener not started (the web side alone)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from kiosk.hall import schema
from kiosk.hall.listener import HallListener
from kiosk.hall.record import HallRecord
from kiosk.hall.server import HallServer

H, T = "hall", "t01"
TILE = {"game": "carrom", "players": ["Asha", "Bina"], "sides": ["Asha", "Bina"]}
#: A lone surrogate as a kiosk (or anyone with a table's password) can send it: JSON's escape.
LONE = '"X\\ud800"'


def _state(**tile: Any) -> dict[str, Any]:
    return {"tile": {**TILE, **tile}, "seq": 1, "wall": time.time(), "heartbeat": 2.0}


def _payload(name_json: str) -> bytes:
    """A carrom state whose first player is `name_json` (JSON text, escapes as they are)."""
    before = '"Asha", "Bina"], "sides"'
    text = json.dumps(_state()).replace(before, f'{name_json}, "Bina"], "sides"')
    assert name_json in text
    return text.encode()


# -- the door ---------------------------------------------------------------------------


def test_a_lone_surrogate_is_refused_at_the_door_and_a_pair_is_taken() -> None:
    with pytest.raises(schema.Refused, match=r"tile.players\[0\]: text that is not Unicode"):
        schema.state(_payload(LONE), H, T)
    for lone in ('"\\udfff"', '"a\\uDC00b"', '"\\ud83d"'):
        with pytest.raises(schema.Refused, match="not Unicode"):
            schema.state(_payload(lone), H, T)
    # A key, a field the board does not use, an event's data, a call's reason: all text.
    keyed = json.dumps({**_state(), "x": 1}).replace('"x"', '"\\ud800"').encode()
    extra = json.dumps({**_state(), "x": "\\ud800"}).replace("\\\\ud800", "\\ud800").encode()
    for payload in (keyed, extra):
        with pytest.raises(schema.Refused, match="not Unicode"):
            schema.state(payload, H, T)
    event = {"seq": 1, "prev": 0, "outbox": "journal-1", "match": "1-1", "game": "carrom",
             "kind": "event", "data": {"name": "X"}, "t": 1.0, "wall": 1.0}  # fmt: skip
    bad_event = json.dumps(event).replace('"X"', LONE).encode()
    with pytest.raises(schema.Refused, match=r"data.name: text that is not Unicode"):
        schema.event(bad_event, H, T)
    bad_call = b'{"id": 1, "reason": "help \\udc80"}'
    with pytest.raises(schema.Refused, match="not Unicode"):
        schema.call(bad_call, H, T)
    # A pair is one character (an emoji): taken.
    taken = schema.state(_payload('"\\ud83d\\ude00 Asha"'), H, T)
    assert taken["tile"]["players"][0] == "\U0001f600 Asha"


# -- the fan-out ------------------------------------------------------------------------


def _server(folder: Path) -> HallServer:
    record = HallRecord(folder / "hall.db")
    return HallServer(record, HallListener(record, ("127.0.0.1", 1)), "right")


async def _next(ws: ClientWebSocketResponse, kind: str, timeout: float = 10) -> dict[str, Any]:
    """The next message of `kind` on a page's stream (a hung fan-out: the timeout)."""
    async with asyncio.timeout(timeout):
        while True:
            msg = await ws.receive()
            assert msg.type == WSMsgType.TEXT, msg
            news: dict[str, Any] = json.loads(msg.data)
            if news.get("type") == kind:
                return news


async def _registered(server: HallServer, count: int) -> list[Any]:
    """The server's side of the open pages, once there are `count` of them."""
    async with asyncio.timeout(10):
        while True:
            pages = list(getattr(server, "clients", None) or getattr(server, "sockets", None) or ())
            if len(pages) >= count:
                return pages
            await asyncio.sleep(0.01)


def _status(table: str) -> dict[str, Any]:
    return {"type": "status", "hall": H, "table": table, "status": "online"}


def test_an_exception_in_one_pages_send_does_not_stop_the_others(tmp_path: Path) -> None:
    server = _server(tmp_path)

    async def run() -> None:
        async with TestClient(TestServer(server.app())) as client:
            first = await client.ws_connect("/live")
            await _next(first, "snapshot")
            (broken,) = await _registered(server, 1)

            def boom(*_: Any, **__: Any) -> None:
                raise ValueError("this page's send fails")

            broken.send_str = boom
            broken.send_frame = boom
            second = await client.ws_connect("/live")
            await _next(second, "snapshot")
            await _registered(server, 2)
            for n in range(3):
                server.news(_status(f"t0{n}"))
            for n in range(3):
                assert (await _next(second, "status"))["table"] == f"t0{n}"
            # The page that failed was let go (it reconnects); the fan-out goes on.
            assert (await _next(second, "hb"))["n"] == 3
            await first.close()
            await second.close()

    asyncio.run(run())


def test_news_that_does_not_encode_still_goes_and_news_that_cannot_be_sent_is_a_gap(
    tmp_path: Path,
) -> None:
    """A lone surrogate that got into the record before the door refused it is sent escaped
    (the page reads it as JSON says); news that cannot be made into JSON at all is logged
    and its number skipped: the heartbeat says the last number, so the page knows it missed
    one. Every item after goes on."""
    server = _server(tmp_path)

    async def run() -> None:
        async with TestClient(TestServer(server.app())) as client:
            ws = await client.ws_connect("/live")
            snap = await _next(ws, "snapshot")
            assert snap["n"] == 0
            await _registered(server, 1)
            server.news({"type": "state", "hall": H, "table": T, "state": _state(
                players=["X\ud800", "Bina"]), "received": 1.0})  # fmt: skip
            got = await _next(ws, "state")
            assert got["state"]["tile"]["players"][0] == "X\ud800" and got["n"] == 1
            server.news({"type": "state", "hall": H, "table": T, "odd": object()})
            server.news(_status(T))
            after = await _next(ws, "status")
            assert after["n"] == 3  # 2 was skipped
            beat = await _next(ws, "hb")
            assert beat["n"] == 3
            await ws.close()

    asyncio.run(run())


def test_a_new_page_gets_its_snapshot_from_a_record_holding_a_lone_surrogate(
    tmp_path: Path,
) -> None:
    """A hall.db written before the door refused them (the state stored as it came): a
    restarted hall still gives every new page its snapshot, and then each change."""
    record = HallRecord(tmp_path / "hall.db")
    record.set_table(H, "t02", status="online", state=_payload(LONE).decode(), received=1.0)
    record.set_table(H, "t03", status="online", state="{not json", received=1.0)
    record.close()
    server = _server(tmp_path)

    async def run() -> None:
        async with TestClient(TestServer(server.app())) as client:
            ws = await client.ws_connect("/live")
            snap = await _next(ws, "snapshot")
            tables = {t["table"]: t for t in snap["tables"]}
            assert tables["t02"]["state"]["tile"]["players"][0] == "X\ud800"
            assert tables["t03"]["state"] is None
            await _registered(server, 1)
            server.news(_status(T))
            assert (await _next(ws, "status"))["table"] == T
            await ws.close()

    asyncio.run(run())


def test_a_page_that_joins_mid_stream_misses_nothing(tmp_path: Path) -> None:
    """The snapshot says the number it is current to; whatever is fanned out while it is
    being made follows it, in order, with no number skipped."""
    server = _server(tmp_path)

    async def run() -> None:
        async with TestClient(TestServer(server.app())) as client:
            first = await client.ws_connect("/live")
            await _next(first, "snapshot")
            await _registered(server, 1)
            for n in range(200):
                server.news(_status(f"t{n:03d}"))
            second = await client.ws_connect("/live")
            for n in range(200, 400):
                server.news(_status(f"t{n:03d}"))
            snap = await _next(second, "snapshot")
            seen = [snap["n"]]
            while seen[-1] < 400:
                msg = json.loads((await second.receive(timeout=10)).data)
                if msg["type"] == "hb":
                    assert msg["n"] == seen[-1], "the heartbeat says a number not sent yet"
                else:
                    seen.append(msg["n"])
            assert seen == list(range(seen[0], 401))
            await first.close()
            await second.close()

    asyncio.run(run())


def test_a_fan_out_that_stopped_is_started_again_and_loses_nothing(tmp_path: Path) -> None:
    """Whatever stops the fan-out task, the heartbeat's timer starts it again within a
    second; what was queued meanwhile goes out in order, numbered as ever."""
    server = _server(tmp_path)

    async def run() -> None:
        async with TestClient(TestServer(server.app())) as client:
            ws = await client.ws_connect("/live")
            await _next(ws, "snapshot")
            await _registered(server, 1)
            assert server._fan is not None
            server._fan.cancel()
            for n in range(3):
                server.news(_status(f"t0{n}"))
            got = [await _next(ws, "status") for _ in range(3)]
            assert [g["n"] for g in got] == [1, 2, 3]
            assert (await _next(ws, "hb"))["n"] == 3
            await ws.close()

    asyncio.run(run())


def test_a_backlog_too_long_is_dropped_and_every_page_told_it_missed_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More changes waiting than the pages could ever catch up with: dropped (the record
    has them) and counted as sent, so the heartbeat says the page missed them and it takes a
    fresh snapshot, instead of the hall holding them all in memory."""
    from kiosk.hall import server as server_module

    monkeypatch.setattr(server_module, "MAX_BACKLOG", 10)
    server = _server(tmp_path)

    async def run() -> None:
        async with TestClient(TestServer(server.app())) as client:
            ws = await client.ws_connect("/live")
            assert (await _next(ws, "snapshot"))["n"] == 0
            await _registered(server, 1)
            for n in range(100):  # all queued before the fan-out runs again
                server.news(_status(f"t{n:03d}"))
            seen = 0
            while True:
                msg = json.loads((await ws.receive(timeout=10)).data)
                if msg["type"] == "hb":
                    break
                seen += 1
            assert seen < 100 and msg["n"] == 100  # the page knows it missed some
            again = await client.ws_connect("/live")
            assert (await _next(again, "snapshot"))["n"] == 100
            await ws.close()
            await again.close()

    asyncio.run(run())
