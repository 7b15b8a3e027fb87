"""The hall's web side (aiohttp): the live board, the overlays, the results.

- `/`: the board (kiosk/hall/static/board.html, plain JavaScript), live over `/live`, a
  WebSocket that sends a snapshot, then every change, and a heartbeat each second so the page
  notices a dead link itself and reconnects;
- `/overlay/<table>`: one table on a transparent page, for a streaming browser source;
- `/results` (JSON), `/results.csv`, `/record/<hall>/<table>/<match>.jsonl` (a carrom match
  record for `tableside replay`);
- `/login`, `/ack`, `/decide`: the board is read-only until the director logs in; answering
  a call and deciding a protest (sent to the kiosk on the table's `protest/decide`) need it.
  After 5 wrong passwords from one address the next try waits (1 s, doubling to 5 min, the
  password not even looked at meanwhile); a director's session ends after `session_s` (8
  hours unless told).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import importlib.resources
import json
import secrets
import time
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from kiosk.hall import results, schema
from kiosk.hall.listener import HallListener
from kiosk.hall.record import HallRecord

#: The board's heartbeat: a page that hears nothing for 3 of them reconnects.
HEARTBEAT_S = 1.0
COOKIE = "tableside-director"
#: Wrong passwords from one address before the back-off starts, and its longest wait.
FREE_TRIES = 5
LONGEST_WAIT_S = 300.0
#: How long a director's login lasts.
SESSION_S = 8 * 3600.0
TASKS = web.AppKey("tasks", list["asyncio.Task[None]"])


def _page(name: str) -> str:
    return (importlib.resources.files("kiosk.hall") / "static" / name).read_text("utf-8")


class HallServer:
    def __init__(
        self,
        record: HallRecord,
        listener: HallListener,
        director_password: str,
        *,
        wall: Callable[[], float] = time.time,
        clock: Callable[[], float] = time.monotonic,
        session_s: float = SESSION_S,
    ) -> None:
        self.record = record
        self.listener = listener
        self.password = director_password
        self.wall = wall
        self.clock = clock
        self.session_s = session_s
        self.sockets: set[web.WebSocketResponse] = set()
        #: Each director's session: its token and when it ends (on `clock`).
        self.tokens: dict[str, float] = {}
        #: Per address: wrong passwords in a row, and until when the next try waits.
        self.failures: dict[str, tuple[int, float]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[dict[str, Any]] | None = None
        listener.on_news = self.news

    # -- from paho's thread ----------------------------------------------------------

    def news(self, item: dict[str, Any]) -> None:
        loop, queue = self._loop, self._queue
        if loop is not None and queue is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(queue.put_nowait, item)

    # -- the app ---------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application()
        app.add_routes(
            [
                web.get("/", self.board),
                web.get("/hall.js", self.script),
                web.get("/overlay/{table}", self.overlay),
                web.get("/live", self.live),
                web.get("/results", self.results_json),
                web.get("/results.csv", self.results_csv),
                web.get("/record/{hall}/{table}/{match}.jsonl", self.match_record),
                web.post("/login", self.login),
                web.post("/ack", self.ack),
                web.post("/decide", self.decide),
            ]
        )
        app.on_startup.append(self._start)
        app.on_shutdown.append(self._stop)  # before aiohttp waits for open connections
        return app

    async def _start(self, app: web.Application) -> None:
        self._loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        app[TASKS] = [
            asyncio.create_task(self._fan_out()),
            asyncio.create_task(self._heartbeat()),
        ]

    async def _stop(self, app: web.Application) -> None:
        for task in app[TASKS]:
            task.cancel()
        for ws in list(self.sockets):
            await ws.close()

    async def _fan_out(self) -> None:
        assert self._queue is not None
        while True:
            item = await self._queue.get()
            await self._send_all(json.dumps(item, ensure_ascii=False))

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            beat = {"type": "hb", "now": self.wall(), "broker": self.listener.connected}
            await self._send_all(json.dumps(beat))

    async def _send_all(self, text: str) -> None:
        for ws in list(self.sockets):
            try:
                await ws.send_str(text)
            except (ConnectionError, RuntimeError):
                self.sockets.discard(ws)

    def snapshot(self) -> dict[str, Any]:
        return {
            "type": "snapshot",
            "now": self.wall(),
            "broker": self.listener.connected,
            "tables": self.record.tables(),
            "calls": self.record.open_calls(),
        }

    # -- pages -------------------------------------------------------------------------

    async def board(self, request: web.Request) -> web.Response:
        return web.Response(text=_page("board.html"), content_type="text/html")

    async def script(self, request: web.Request) -> web.Response:
        return web.Response(text=_page("hall.js"), content_type="application/javascript")

    async def overlay(self, request: web.Request) -> web.Response:
        return web.Response(text=_page("overlay.html"), content_type="text/html")

    async def live(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=None)
        await ws.prepare(request)
        snapshot = await asyncio.to_thread(self.snapshot)
        snapshot["director"] = self._director(request)
        await ws.send_str(json.dumps(snapshot, ensure_ascii=False))
        self.sockets.add(ws)
        try:
            async for msg in ws:
                if msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
        finally:
            self.sockets.discard(ws)
        return ws

    async def results_json(self, request: web.Request) -> web.Response:
        def build() -> dict[str, Any]:
            return {
                "carrom": results.carrom_results(self.record),
                "backgammon": results.backgammon_results(self.record),
                "bhukhar": results.bhukhar_standings(self.record),
                "breaks": self.record.breaks(),
            }

        return web.json_response(await asyncio.to_thread(build))

    async def results_csv(self, request: web.Request) -> web.Response:
        text = await asyncio.to_thread(results.results_csv, self.record)
        return web.Response(
            text=text,
            content_type="text/csv",
            headers={"Content-Disposition": 'attachment; filename="results.csv"'},
        )

    async def match_record(self, request: web.Request) -> web.Response:
        m = request.match_info
        text = await asyncio.to_thread(
            results.carrom_record, self.record, m["hall"], m["table"], m["match"]
        )
        if text is None:
            raise web.HTTPNotFound(text="no such carrom match in the hall record")
        name = f"{m['hall']}-{m['table']}-{m['match']}.jsonl"
        return web.Response(
            text=text,
            content_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    # -- the director ------------------------------------------------------------------

    def _director(self, request: web.Request) -> bool:
        token = request.cookies.get(COOKIE, "")
        ends = self.tokens.get(token)
        if ends is None:
            return False
        if self.clock() >= ends:
            del self.tokens[token]  # the session is over: the director logs in again
            return False
        return True

    async def login(self, request: web.Request) -> web.Response:
        where = request.remote or "?"
        now = self.clock()
        wrong, until = self.failures.get(where, (0, 0.0))
        wait: float
        if now < until:
            seconds = max(1, int(until - now + 0.999))
            raise web.HTTPTooManyRequests(
                text=f"too many wrong passwords: try again in {seconds} s",
                headers={"Retry-After": str(seconds)},
            )
        data = await _json(request)
        given = str(data.get("password", ""))
        if not self.password or not hmac.compare_digest(given.encode(), self.password.encode()):
            wrong += 1
            wait = 0.0 if wrong < FREE_TRIES else min(LONGEST_WAIT_S, 2.0 ** (wrong - FREE_TRIES))
            self.failures[where] = (wrong, now + wait)
            raise web.HTTPForbidden(text="wrong password")
        self.failures.pop(where, None)
        token = secrets.token_hex(16)
        self.tokens = {t: end for t, end in self.tokens.items() if end > now}
        self.tokens[token] = now + self.session_s
        response = web.json_response({"director": True})
        response.set_cookie(
            COOKIE, token, httponly=True, samesite="Strict", max_age=int(self.session_s)
        )
        return response

    async def ack(self, request: web.Request) -> web.Response:
        if not self._director(request):
            raise web.HTTPForbidden(text="the director logs in to answer a call")
        data = await _json(request)
        try:
            hall, table, call_id = str(data["hall"]), str(data["table"]), int(data["id"])
        except (KeyError, TypeError, ValueError):
            raise web.HTTPBadRequest(text="ack needs hall, table and id") from None
        await asyncio.to_thread(self.listener.acknowledge, hall, table, call_id)
        return web.json_response({"acked": call_id})

    async def decide(self, request: web.Request) -> web.Response:
        """The director's decision on a protest (laws 144-151), from the board: sent to the
        kiosk on the table's own topic, journaled there by the table as the director's."""
        if not self._director(request):
            raise web.HTTPForbidden(text="the director logs in to decide a protest")
        data = await _json(request)
        board = data.get("board")
        upheld = data.get("upheld")
        try:
            hall, table, match = str(data["hall"]), str(data["table"]), str(data["match"])
            game, number = (int(n) for n in board)  # type: ignore[union-attr]
        except (KeyError, TypeError, ValueError):
            raise web.HTTPBadRequest(text="decide needs hall, table, match and board") from None
        ids = (hall, table, match)
        if not isinstance(upheld, bool) or not all(schema.ID.fullmatch(i) for i in ids):
            raise web.HTTPBadRequest(text="decide needs upheld true or false, and ids")
        sent = await asyncio.to_thread(
            self.listener.decide, hall, table, match, (game, number), upheld
        )
        return web.json_response({"sent": sent})


async def _json(request: web.Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except ValueError:
        raise web.HTTPBadRequest(text="a JSON body is needed") from None
    if not isinstance(data, dict):
        raise web.HTTPBadRequest(text="a JSON object is needed")
    return data
