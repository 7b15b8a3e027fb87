"""One turn of the kiosk's loop, and when the next must come.

`step(now)` never blocks: it looks at the parts that need a look without an edge (the beams'
stuck check, the sensor bridge's link), polls the table in play (kiosk/tables/base.py: its
queued inputs are taken and what fell due fires; its outputs, the screen among them, hear of
every change), and pings the systemd watchdog. `next_wake(now, within)`
is the earliest deadline (the table's next warning or expiry, an auto-confirm, the camera's
silence, a beam's stuck check, the watchdog's next ping), at most `within` seconds away.

The Kivy app (kiosk/ui/app.py) calls `step` from its tick and schedules the next tick at
`next_wake`, so a warning sounds at its deadline rather than at the next fixed tick. Nothing
here counts ticks: every deadline is a timestamp on the one monotonic clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from kiosk.engine.notify import Notifier
from kiosk.tables.base import Table

__all__ = ["Runner", "Table"]


class Runner:
    """Steps `table` (the table in play, None while there is none; the app sets it when a
    match starts or resumes) and the parts' `pollers` (each called with `now`) with their
    `deadlines`. A poller that raises is kept in `errors`, never a stop of the table."""

    def __init__(
        self,
        table: Table | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        notifier: Notifier | None = None,
        pollers: Iterable[Callable[[float], object]] = (),
        deadlines: Iterable[Callable[[], float | None]] = (),
    ) -> None:
        self.table = table
        self.clock = clock
        self.notifier = notifier or Notifier({})
        self.pollers = list(pollers)
        self.deadlines = list(deadlines)
        self.steps = 0
        self.pings = 0
        self.errors: list[str] = []
        self._next_ping: float | None = None

    def ready(self, status: str = "table ready") -> None:
        """Tell systemd the kiosk is up (READY=1); the watchdog pings start from here."""
        self.notifier.ready(status)
        every = self.notifier.ping_every_s
        self._next_ping = None if every is None else self.clock() + every

    def step(self, now: float | None = None) -> Any:
        """One turn: the pollers, the table, the watchdog. Returns the table's poll (its view),
        or None without a table."""
        now = self.clock() if now is None else now
        for poll in self.pollers:
            try:
                poll(now)
            except Exception as exc:  # a part's trouble must not stop the table
                self.errors.append(f"{getattr(poll, '__qualname__', poll)}: {exc}")
        view = None if self.table is None else self.table.poll(now)
        self.steps += 1
        if self._next_ping is not None and now >= self._next_ping:
            # Pinging from the loop itself: a loop that hangs stops the pings, and systemd
            # restarts the kiosk (WatchdogSec).
            self.notifier.watchdog()
            self.pings += 1
            every = self.notifier.ping_every_s or 1.0
            self._next_ping = now + every
        return view

    def next_wake(self, now: float, within: float) -> float:
        """When the loop must step again: the earliest deadline, at most `within` seconds
        after `now` (the app's screen refresh)."""
        candidates = [self._next_ping]
        if self.table is not None:
            candidates.append(self.table.next_deadline())
        for deadline in self.deadlines:
            try:
                candidates.append(deadline())
            except Exception as exc:
                self.errors.append(f"deadline: {exc}")
        due = [c for c in candidates if c is not None]
        return min([now + within, *due])
