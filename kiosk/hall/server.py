"""The hall's web side (aiohttp): the live board, the overlays, the results.

- `/`: the board (kiosk/hall/static/board.html, plain JavaScript), live over `/live`, a
  WebSocket that sends a snapshot, then every change, and a heartbeat each second so the page
  notices a dead link itself and reconnects. Every change is numbered (`n`), the snapshot
  says the number it is current to, and the heartbeat the last number sent, all through one
  queue in order: a page that misses one says "stale" and takes a fresh snapshot, so the
  heartbeat alone never keeps a page "live";
- `/overlay/<table>`: one table on a transparent page, for a streaming browser source;
- `/results` (JSON), `/results.csv`, `/record/<hall>/<table>/<match>.jsonl` (a carrom match
  record for `tableside replay`);
- `/login`, `/ack`, `/decide`: the board is read-only until the director logs in; answering
  a call and deciding a protest (sent to the kiosk on the table's `protest/decide`) need it.
  Every POST must come from the board's own origin (`Origin`), and every POST but the login
  carries the session's token (`X-Tableside-Token`, given to the page with the session).
  The login back-off (kiosk/hall/backoff.py) is decided, the password compared and the
  count kept in one step; a director's session ends after `session_s` (8 hours unless told).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import importlib.resources
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web
from yarl import URL

from kiosk.hall import backoff, results, schema
from kiosk.hall.listener import HallListener
from kiosk.hall.record import HallRecord

log = logging.getLogger("kiosk.hall")

#: The board's heartbeat: a page that hears nothing for 3 of them reconnects.
HEARTBEAT_S = 1.0
COOKIE = "tableside-director"
#: The header a state-changing request carries the session's token in.
TOKEN_HEADER = "X-Tableside-Token"
#: Wrong passwords from one address before the back-off starts, and its longest wait.
FREE_TRIES = backoff.FREE_TRIES
LONGEST_WAIT_S = backoff.LONGEST_WAIT_S
#: How long a director's login lasts.
SESSION_S = 8 * 3600.0
#: A page that takes longer than this to take one message is dropped (it reconnects).
SEND_S = 5.0
#: More changes than this waiting for the pages: the pages are told they missed them (each
#: takes a fresh snapshot) instead of the hall holding them all in memory.
MAX_BACKLOG = 20_000
#: The fan-out lets the rest of the server run (a new page's snapshot, the heartbeat's
#: timer) at least every this many messages: with a backlog nothing it awaits would wait.
YIELD_EVERY = 50
TASKS = web.AppKey("tasks", list["asyncio.Task[None]"])
#: What never changes anything on the server.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: The heartbeat's place in the news queue.
_BEAT: dict[str, Any] = {"type": "hb"}


def _page(name: str) -> str:
    return (importlib.resources.files("kiosk.hall") / "static" / name).read_text("utf-8")


def frame(item: dict[str, Any]) -> bytes:
    """One message for the pages, as UTF-8 JSON. A text that does not encode (a lone
    surrogate in a record written before the schema refused it) is sent escaped, as JSON
    says it (`\ud800`): never an exception in the middle of a fan-out."""
    text = json.dumps(item, ensure_ascii=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(item).encode("ascii")


@dataclass(slots=True)
class Session:
    """A director's login: when it ends (on the server's `clock`) and its request token."""

    ends: float
    token: str


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
        data_dir: Path | None = None,
    ) -> None:
        self.record = record
        self.listener = listener
        self.password = director_password
        self.wall = wall
        self.clock = clock
        self.session_s = session_s
        #: Each open page, with the messages held for it while its snapshot is being made
        #: (None: it is sent each one as it comes).
        self.clients: dict[web.WebSocketResponse, list[bytes] | None] = {}
        #: Each director's session by its cookie.
        self.sessions: dict[str, Session] = {}
        folder = data_dir if data_dir is not None else record.path.parent
        self.backoff = backoff.LoginBackoff(
            folder / backoff.FILE, wall=wall, fresh=bool(getattr(record, "fresh", False))
        )
        #: The number of the last change sent to the pages.
        self.sent = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[dict[str, Any]] | None = None
        self._fan: asyncio.Task[None] | None = None
        self._closing: set[asyncio.Task[None]] = set()
        listener.on_news = self.news

    # -- from paho's thread ----------------------------------------------------------

    def news(self, item: dict[str, Any]) -> None:
        loop, queue = self._loop, self._queue
        if loop is not None and queue is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(queue.put_nowait, item)

    # -- the app ---------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
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
        self._fan = asyncio.create_task(self._fan_out())
        app[TASKS] = [asyncio.create_task(self._heartbeat())]

    async def _stop(self, app: web.Application) -> None:
        for task in [*app[TASKS], self._fan]:
            if task is not None:
                task.cancel()
        for ws in list(self.clients):
            with contextlib.suppress(Exception):
                await ws.close()

    async def _fan_out(self) -> None:
        """Every change, numbered, then the heartbeat, to every page in the order they came.
        Nothing one change or one page does stops it: a change that cannot be sent is
        logged and its number skipped (every page sees the gap and takes a fresh snapshot)."""
        assert self._queue is not None
        since_yield = 0
        while True:
            if self._queue.qsize() > MAX_BACKLOG:
                self._shed()
            item = await self._queue.get()
            since_yield += 1
            if since_yield >= YIELD_EVERY:
                since_yield = 0
                await asyncio.sleep(0)
            try:
                if item is _BEAT:
                    beat = {"type": "hb", "now": self.wall(), "broker": self.listener.connected,
                            "n": self.sent}  # fmt: skip
                    data = frame(beat)
                else:
                    self.sent += 1
                    data = frame({**item, "n": self.sent})
            except Exception:
                log.exception("news %d for the board not sent (the pages will resync)", self.sent)
                continue
            await self._send_all(data)

    def _shed(self) -> None:
        """Drop the backlog: its changes are counted as sent, so every page sees the gap at
        the next heartbeat and takes a fresh snapshot (the record has them all)."""
        assert self._queue is not None
        dropped = 0
        while not self._queue.empty():
            if self._queue.get_nowait() is not _BEAT:
                dropped += 1
        self.sent += dropped
        log.warning("the board fell %d changes behind: every page takes a fresh snapshot",
                    dropped)  # fmt: skip
        self._queue.put_nowait(_BEAT)

    async def _heartbeat(self) -> None:
        """A heartbeat each second, through the fan-out (a dead fan-out sends none, and the
        pages say the link is lost); a fan-out that stopped is started again."""
        assert self._queue is not None
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            fan = self._fan
            if fan is not None and fan.done():
                why = None if fan.cancelled() else fan.exception()
                log.error("the board's fan-out stopped (%r): started again", why)
                self._fan = asyncio.create_task(self._fan_out())
            self._queue.put_nowait(_BEAT)

    async def _send_all(self, data: bytes) -> None:
        for ws, held in list(self.clients.items()):
            if held is not None:
                held.append(data)  # its snapshot is on its way: sent after it
            elif not await self._send(ws, data):
                self._drop(ws)

    async def _send(self, ws: web.WebSocketResponse, data: bytes) -> bool:
        """One message to one page; False (logged) if it could not take it, whatever the
        reason: that page is dropped and reconnects, the others go on."""
        try:
            async with asyncio.timeout(SEND_S):
                await ws.send_frame(data, WSMsgType.TEXT)
        except (ConnectionError, RuntimeError, TimeoutError):
            return False
        except Exception:
            log.exception("a page of the board could not be sent the news: dropped")
            return False
        return True

    def _drop(self, ws: web.WebSocketResponse) -> None:
        if ws not in self.clients:
            return
        del self.clients[ws]
        task = asyncio.create_task(self._close(ws))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    @staticmethod
    async def _close(ws: web.WebSocketResponse) -> None:
        with contextlib.suppress(Exception):
            async with asyncio.timeout(SEND_S):
                await ws.close()

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
        # Held from now: what is fanned out while the snapshot is made follows it in order.
        self.clients[ws] = []
        current = self.sent
        try:
            snapshot = await asyncio.to_thread(self.snapshot)
            session = self._session(request)
            snapshot["director"] = session is not None
            snapshot["n"] = current
            if session is not None and _same_origin(request):
                snapshot["token"] = session.token  # the page's token for its POSTs
            data = await asyncio.to_thread(frame, snapshot)
            if not await self._send(ws, data):
                return ws
            while held := self.clients.get(ws):
                if not await self._send(ws, held.pop(0)):
                    return ws
            if ws in self.clients:
                self.clients[ws] = None  # nothing awaited since the last check: none missed
            async for msg in ws:
                if msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
        finally:
            self.clients.pop(ws, None)
        return ws

    async def results_json(self, request: web.Request) -> web.Response:
        def build() -> dict[str, Any]:
            return {
                "carrom": results.carrom_results(self.record),
                "backgammon": results.backgammon_results(self.record),
                "bhukhar": results.bhukhar_standings(self.record),
                "breaks": self.record.breaks(),
            }

        body = await asyncio.to_thread(lambda: frame(build()))
        return web.Response(body=body, content_type="application/json")

    async def results_csv(self, request: web.Request) -> web.Response:
        text = await asyncio.to_thread(results.results_csv, self.record)
        return web.Response(
            body=text.encode("utf-8", "backslashreplace"),
            content_type="text/csv",
            charset="utf-8",
            headers={"Content-Disposition": 'attachment; filename="results.csv"'},
        )

    async def match_record(self, request: web.Request) -> web.Response:
        m = request.match_info
        if not all(schema.ID.fullmatch(m[k]) for k in ("hall", "table", "match")):
            raise web.HTTPNotFound(text="no such carrom match in the hall record")
        text = await asyncio.to_thread(
            results.carrom_record, self.record, m["hall"], m["table"], m["match"]
        )
        if text is None:
            raise web.HTTPNotFound(text="no such carrom match in the hall record")
        name = f"{m['hall']}-{m['table']}-{m['match']}.jsonl"
        return web.Response(
            body=text.encode("utf-8", "backslashreplace"),
            content_type="application/x-ndjson",
            charset="utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    # -- the director ------------------------------------------------------------------

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Every request that can change something: from the board's own origin only, and,
        but for the login itself, with the director's session and its token."""
        if request.method in SAFE_METHODS:
            return await handler(request)
        if not _same_origin(request):
            raise web.HTTPForbidden(text="refused: not sent by the hall's own board (Origin)")
        if request.path != "/login":
            session = self._session(request)
            if session is None:
                raise web.HTTPForbidden(text="the director logs in first")
            given = request.headers.get(TOKEN_HEADER, "")
            if not hmac.compare_digest(_bytes(given), _bytes(session.token)):
                raise web.HTTPForbidden(text="the page's token is missing or wrong: reload")
        return await handler(request)

    def _session(self, request: web.Request) -> Session | None:
        cookie = request.cookies.get(COOKIE, "")
        session = self.sessions.get(cookie)
        if session is None:
            return None
        if self.clock() >= session.ends:
            del self.sessions[cookie]  # the session is over: the director logs in again
            return None
        return session

    def _director(self, request: web.Request) -> bool:
        return self._session(request) is not None

    def _waiting(self, where: str) -> None:
        """429 while `where` (or the whole hall) waits out its back-off."""
        wait = self.backoff.wait_s(where)
        if wait > 0:
            seconds = max(1, int(wait + 0.999))
            raise web.HTTPTooManyRequests(
                text=f"too many wrong passwords: try again in {seconds} s",
                headers={"Retry-After": str(seconds)},
            )

    def _right(self, given: str) -> bool:
        return bool(self.password) and hmac.compare_digest(_bytes(given), _bytes(self.password))

    async def login(self, request: web.Request) -> web.Response:
        where = request.remote or "?"
        self._waiting(where)  # early, before the body is read
        data = await _json(request)
        # From here to the answer nothing is awaited: the back-off decided again (other
        # tries may have failed while this body came), the password compared and the count
        # kept, as one step.
        self._waiting(where)
        if not self._right(str(data.get("password", ""))):
            self.backoff.failed(where)
            raise web.HTTPForbidden(text="wrong password")
        self.backoff.succeeded(where)
        cookie = secrets.token_hex(16)
        now = self.clock()
        self.sessions = {c: s for c, s in self.sessions.items() if s.ends > now}
        session = self.sessions[cookie] = Session(now + self.session_s, secrets.token_hex(16))
        response = web.json_response({"director": True, "token": session.token})
        response.set_cookie(
            COOKIE, cookie, httponly=True, samesite="Strict", max_age=int(self.session_s)
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
        if not (schema.ID.fullmatch(hall) and schema.ID.fullmatch(table)):
            raise web.HTTPBadRequest(text="ack needs a hall and a table id")
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


def _bytes(text: str) -> bytes:
    """Any text as bytes, lone surrogates included (a header or a JSON body may hold one)."""
    return text.encode("utf-8", "surrogatepass")


def _same_origin(request: web.Request) -> bool:
    """The request's `Origin` is the board's own (scheme, host and port, as the browser
    addressed the board); a missing or `null` Origin is not."""
    origin = request.headers.get("Origin", "")
    if not origin or origin == "null":
        return False
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        return False
    try:
        theirs = URL(origin)
        ours = URL(f"{request.scheme}://{request.host}")
    except (ValueError, TypeError):
        return False
    if theirs.path not in ("", "/") or theirs.query_string or not theirs.host or not ours.host:
        return False
    return (theirs.scheme, theirs.host.lower(), theirs.port) == (
        ours.scheme,
        ours.host.lower(),
        ours.port,
    )


async def _json(request: web.Request) -> dict[str, Any]:
    try:
        data = await request.json()
    except (ValueError, UnicodeDecodeError):
        raise web.HTTPBadRequest(text="a JSON body is needed") from None
    if not isinstance(data, dict):
        raise web.HTTPBadRequest(text="a JSON object is needed")
    return data
