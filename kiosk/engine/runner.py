"""The loop that keeps a table going: drain the inputs, fire timers at their deadlines, ping
the systemd watchdog.

`step(now)` is one turn of the loop and never blocks: the Kivy app calls it from its Clock
(every 50-100 ms), a headless kiosk calls `run()`, which sleeps until the next deadline (a
timer's warning, the camera's silence, a beam's stuck check, the watchdog's next ping) or until
a sensor posts an input, whichever comes first. Nothing here counts ticks: every deadline is a
timestamp on the one monotonic clock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from kiosk.engine.notify import Notifier


class Table(Protocol):
    """What a runner drives: a carrom session or a backgammon clock table."""

    def poll(self, now: float | None = None) -> Any: ...

    def next_deadline(self) -> float | None: ...


class Runner:
    """Drives `table` and the parts that need a look without an edge (`pollers`: e.g. the
    pocket beams' stuck check, `PocketBeams.poll(now)`, with their `deadlines`).

    `max_sleep_s` bounds a sleep so a stop request is seen promptly.
    """

    def __init__(
        self,
        table: Table,
        *,
        clock: Callable[[], float] = time.monotonic,
        notifier: Notifier | None = None,
        pollers: Iterable[Callable[[float], object]] = (),
        deadlines: Iterable[Callable[[], float | None]] = (),
        max_sleep_s: float = 0.5,
    ) -> None:
        self.table = table
        self.clock = clock
        self.notifier = notifier or Notifier({})
        self.pollers = list(pollers)
        self.deadlines = list(deadlines)
        self.max_sleep_s = max_sleep_s
        self.stop_event = threading.Event()
        self.steps = 0
        self.pings = 0
        self.errors: list[str] = []
        self._next_ping: float | None = None
        self._ready = False

    def ready(self, status: str = "table ready") -> None:
        """Tell systemd the kiosk is up (READY=1); the watchdog pings start from here."""
        self._ready = True
        self.notifier.ready(status)
        every = self.notifier.ping_every_s
        self._next_ping = None if every is None else self.clock() + every

    def step(self, now: float | None = None) -> Any:
        """One turn: the pollers, the table, the watchdog. Returns the table's view."""
        now = self.clock() if now is None else now
        for poll in self.pollers:
            try:
                poll(now)
            except Exception as exc:  # a part's trouble must not stop the table
                self.errors.append(f"{getattr(poll, '__qualname__', poll)}: {exc}")
        view = self.table.poll(now)
        self.steps += 1
        if self._next_ping is not None and now >= self._next_ping:
            # Pinging from the loop itself: a loop that hangs stops the pings, and systemd
            # restarts the kiosk (WatchdogSec).
            self.notifier.watchdog()
            self.pings += 1
            every = self.notifier.ping_every_s or 1.0
            self._next_ping = now + every
        return view

    def next_wake(self, now: float) -> float:
        """When the loop must look again: the earliest deadline, at most max_sleep_s away."""
        candidates = [self.table.next_deadline(), self._next_ping]
        for deadline in self.deadlines:
            try:
                candidates.append(deadline())
            except Exception as exc:
                self.errors.append(f"deadline: {exc}")
        due = [c for c in candidates if c is not None]
        return min([now + self.max_sleep_s, *due])

    def run(self) -> None:
        """Loop until `stop()`: step, then sleep until the next deadline or an input."""
        if not self._ready:
            self.ready()
        wait: Callable[[float | None], bool] | None = getattr(self.table, "wait", None)
        try:
            while not self.stop_event.is_set():
                self.step()
                now = self.clock()
                timeout = max(0.0, self.next_wake(now) - now)
                if wait is not None:
                    wait(timeout)
                else:
                    self.stop_event.wait(timeout)
        finally:
            self.notifier.stopping()

    def stop(self) -> None:
        self.stop_event.set()
