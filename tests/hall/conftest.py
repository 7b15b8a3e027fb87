"""The hall's tests: a real Mosquitto per test (own config, password file and ACL, free port),
the real `tableside hall` process when a page is needed, kiosks as real engines."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from kiosk.config.hall import HallSettings
from kiosk.hall.mosquitto import Mosquitto, free_port

HALL = "hall"
USERS = {"director": "dir-pw", "t01": "pw-t01", "t02": "pw-t02", "t03": "pw-t03"}
DIRECTOR_PASSWORD = "boss"


def wait_for(check: Callable[[], object], timeout: float = 5.0, what: str = "it") -> object:
    """Poll `check` until it returns something true (a real broker and threads: not a timer)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(0.02)


def table_settings(broker: Mosquitto, table: str, **more: object) -> HallSettings:
    values: dict[str, object] = {
        "broker": broker.address, "hall": HALL, "table_id": table, "username": table,
        "password": USERS[table], "keepalive_s": 5.0, "heartbeat_s": 2.0,
    }  # fmt: skip
    values.update(more)
    return HallSettings(**values)  # type: ignore[arg-type]


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    with Mosquitto(tmp_path / "broker", users=USERS, hall=HALL) as b:
        yield b


@dataclass
class HallProcess:
    """`tableside hall` running as its own process."""

    url: str
    data: Path
    process: subprocess.Popen[bytes]
    args: list[str]

    def kill(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def start(self) -> HallProcess:
        log = open(self.data / "hall.log", "ab")  # noqa: SIM115 (the child writes to it)
        self.process = subprocess.Popen(self.args, stdout=log, stderr=log)
        log.close()
        wait_for(self._up, 15, "the hall's HTTP server")
        return self

    def _up(self) -> bool:
        try:
            with urllib.request.urlopen(self.url + "results", timeout=1):
                return True
        except OSError:
            return False


def start_hall(
    broker: Mosquitto,
    data: Path,
    port: int | None = None,
    *,
    hall: str = HALL,
    user: str = "director",
    password: str = USERS["director"],
    tls_ca: Path | None = None,
) -> HallProcess:
    data.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    args = [
        sys.executable, "-m", "kiosk.cli", "hall", "--broker", broker.address,
        "--http", str(port), "--bind", "127.0.0.1", "--data", str(data), "--hall", hall,
        "--user", user, "--password", password, "--director-password", DIRECTOR_PASSWORD,
    ]  # fmt: skip
    if tls_ca is not None:
        args += ["--tls-ca", str(tls_ca)]
    proc = HallProcess(f"http://127.0.0.1:{port}/", data, None, args)  # type: ignore[arg-type]
    return proc.start()


@pytest.fixture
def hall_process(broker: Mosquitto, tmp_path: Path) -> Iterator[HallProcess]:
    proc = start_hall(broker, tmp_path / "hall")
    yield proc
    proc.stop()


# -- the board in a real headless Chromium (Debian's chromium and chromium-driver) ----------

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def chromium(profile: Path) -> WebDriver:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1280,900",
    ):  # fmt: skip
        options.add_argument(flag)
    # The driver named outright: Selenium's own driver manager never runs.
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


@pytest.fixture(scope="module")
def chromium_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    driver = chromium(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def browser(chromium_once: WebDriver) -> WebDriver:
    """One Chromium for the module (it takes seconds to start), a fresh page per test."""
    chromium_once.delete_all_cookies()
    chromium_once.get("about:blank")
    return chromium_once


def tile_age(driver: WebDriver, table: str) -> str:
    """The tile's "data N s old" line ("" while it is not on the page)."""
    try:
        found = driver.find_elements(By.CSS_SELECTOR, f'.tile[data-table="{table}"] .age')
        return found[0].text if found else ""
    except StaleElementReferenceException:  # rewritten between finding and reading it
        return ""


def tile(driver: WebDriver, table: str) -> dict[str, str] | None:
    """The tile's state and text (None while it is not on the page)."""
    found = driver.find_elements(By.CSS_SELECTOR, f'.tile[data-table="{table}"]')
    if not found:
        return None
    el = found[0]
    return {
        "state": el.get_attribute("data-state") or "",
        "calling": "calling" if "calling" in (el.get_attribute("class") or "") else "",
        "text": el.text,
    }


class LiveStream:
    """The board's live stream (/live, the page's WebSocket) read in a thread, as the page
    reads it: the last snapshot and every event news item."""

    def __init__(self, url: str) -> None:
        import asyncio
        import threading

        self.url = url.replace("http://", "ws://") + "live"
        self.snapshot: dict[str, Any] = {}
        self.events: list[dict[str, Any]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self._thread.start()

    async def _run(self) -> None:
        import asyncio
        import json

        import aiohttp

        async with aiohttp.ClientSession() as session:
            while not self._stop.is_set():
                try:
                    async with session.ws_connect(self.url, heartbeat=None) as ws:
                        while not self._stop.is_set():
                            # As the page: 3 heartbeats of silence and the link is dead.
                            msg = await ws.receive(timeout=3.5)
                            if msg.type != aiohttp.WSMsgType.TEXT:
                                break
                            news = json.loads(msg.data)
                            if news.get("type") == "snapshot":
                                self.snapshot = news
                            elif news.get("type") == "event":
                                self.events.append(news)
                except (aiohttp.ClientError, TimeoutError, OSError):
                    await asyncio.sleep(0.2)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
