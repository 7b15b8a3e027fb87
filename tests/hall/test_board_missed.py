"""A page that misses a change says "stale", never "live" on the heartbeat alone, and takes a
fresh snapshot: the board page in headless Chromium against the hall's web side, run in this
process on a real socket so that a change the fan-out cannot send can be made to happen.

Before: the fan-out died on such a change (any exception ended it), the heartbeats, sent
apart, went on, and the page said "live" with its tiles frozen."""

from __future__ import annotations

import asyncio
import json
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from kiosk.hall.listener import HallListener
from kiosk.hall.mosquitto import free_port
from kiosk.hall.record import HallRecord
from kiosk.hall.server import HallServer

from .conftest import CHROMEDRIVER, tile, wait_for

pytestmark = pytest.mark.skipif(
    shutil.which(CHROMEDRIVER) is None, reason="chromium-driver is not installed (make debs)"
)

H = "hall"


def _state(round_no: int) -> dict[str, Any]:
    tile = {"game": "bhukhar", "round": round_no, "left": 600.0, "running": False,
            "time_called": False, "games": 0, "faults": []}  # fmt: skip
    return {"tile": tile, "seq": round_no, "wall": time.time(), "heartbeat": 600.0}


class InProcessHall:
    """The hall's web side on its own event loop in a thread, on a real port; the listener
    is not started (the test says the news itself)."""

    def __init__(self, folder: Path) -> None:
        self.record = HallRecord(folder / "hall.db")
        self.server = HallServer(self.record, HallListener(self.record, ("127.0.0.1", 1)), "x")
        self.server.listener._connected = True  # the broker link shown up
        self.server.listener._network = threading.current_thread()  # "alive"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.runner = web.AppRunner(self.server.app())
        self._run(self.runner.setup())
        self._run(web.TCPSite(self.runner, "127.0.0.1", self.port).start())

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def close(self) -> None:
        self._run(self.runner.cleanup())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()
        self.record.close()


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[InProcessHall]:
    h = InProcessHall(tmp_path)
    yield h
    h.close()


def _say_state(hall: InProcessHall, round_no: int) -> None:
    state = _state(round_no)
    hall.record.set_table(H, "t01", state=state, received=time.time())
    hall.server.news({"type": "state", "hall": H, "table": "t01", "state": state,
                      "received": time.time()})  # fmt: skip


def test_a_page_that_misses_a_change_says_stale_and_catches_up(
    hall: InProcessHall, browser: WebDriver
) -> None:
    hall.record.set_table(H, "t01", status="online")
    _say_state(hall, 1)
    browser.get(hall.url)
    link = lambda: browser.find_element(By.ID, "link").text  # noqa: E731
    wait_for(lambda: "round 1" in (tile(browser, "t01") or {}).get("text", ""), 10, "round 1")
    wait_for(lambda: link() == "live", 10, "live")
    # The page's link states, as it shows them, kept from here on.
    browser.execute_script(
        "window.seen = []; const el = document.getElementById('link');"
        "new MutationObserver(() => window.seen.push(el.textContent))"
        ".observe(el, {childList: true, characterData: true, subtree: true});"
    )
    # A change that cannot be sent (nothing JSON can say): the fan-out logs it and skips
    # its number; the change after it is kept in the record but its news is what is lost.
    hall.record.set_table(H, "t01", state=_state(2), received=time.time())
    hall.server.news({"type": "state", "hall": H, "table": "t01", "odd": object()})
    missed = lambda: browser.execute_script("return hall.missed || 0")  # noqa: E731
    wait_for(lambda: missed() >= 1, 10, "the page to notice the change it missed")
    seen = browser.execute_script("return window.seen")
    assert "stale: changes missed, catching up" in seen
    # It takes a fresh snapshot: what the record holds, and live again.
    wait_for(lambda: "round 2" in (tile(browser, "t01") or {}).get("text", ""), 10, "round 2")
    wait_for(lambda: link() == "live", 10, "live again")
    # And the changes after it come as ever.
    _say_state(hall, 3)
    wait_for(lambda: "round 3" in (tile(browser, "t01") or {}).get("text", ""), 10, "round 3")
    assert json.loads(json.dumps(browser.execute_script("return hall.n"))) >= 3
