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
from typing import Protocol

from kiosk.engine.notify import Notifier


class Polled(Protocol):
    """What the runner steps of the table in play (kiosk/tables/base.py `Table` is one): the
    engine knows no table, only this."""

    def poll(self, now: float | None = None) -> object:
        """Take the queued inputs and fire what fell due by `now`; returns the view."""

    def next_deadline(self) -> float | None:
        """When `poll` next has something to do without an input, or None."""


#: The name the table in play goes by here.
Table = Polled


class Runner:
    """Steps the table in play (`in_play()`, None while there is none: kiosk/wiring.py's
    `Tables` owns it) and the parts' `pollers` (each called with `now`) with their
    `deadlines`. A poller that raises is kept in `errors`, never a stop of the table."""

    def __init__(
        self,
        table: Table | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        notifier: Notifier | None = None,
        pollers: Iterable[Callable[[float], object]] = (),
        deadlines: Iterable[Callable[[], float | None]] = (),
        in_play: Callable[[], Table | None] | None = None,
    ) -> None:
        #: Where the table in play is found at each step (kiosk/wiring.py `Tables` owns it);
        #: a runner built with a `table` has that one.
        self.in_play: Callable[[], Table | None] = in_play or (lambda: table)
        self.clock = clock
        self.notifier = notifier or Notifier({})
        self.pollers = list(pollers)
        self.deadlines = list(deadlines)
        self.steps = 0
        self.pings = 0
        self.errors: list[str] = []
        self._next_ping: float | None = None

    @property
    def table(self) -> Table | None:
        """The table in play now (None while there is none)."""
        return self.in_play()

    @table.setter
    def table(self, table: Table | None) -> None:
        self.in_play = lambda: table

    def refit(
        self,
        pollers: Iterable[Callable[[float], object]],
        deadlines: Iterable[Callable[[], float | None]],
    ) -> None:
        """The parts started again (the start screen's Retry): their pollers and deadlines."""
        self.pollers = list(pollers)
        self.deadlines = list(deadlines)

    def ready(self, status: str = "table ready") -> None:
        """Tell systemd the kiosk is up (READY=1); the watchdog pings start from here."""
        self.notifier.ready(status)
        every = self.notifier.ping_every_s
        self._next_ping = None if every is None else self.clock() + every

    def step(self, now: float | None = None) -> object:
        """One turn: the pollers, the table, the watchdog. Returns the table's poll (its view),
        or None without a table."""
        now = self.clock() if now is None else now
        for poll in self.pollers:
            try:
                poll(now)
            except Exception as exc:  # a part's trouble must not stop the table
                self.errors.append(f"{getattr(poll, '__qualname__', poll)}: {exc}")
        table = self.in_play()
        view = None if table is None else table.poll(now)
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
        table = self.in_play()
        if table is not None:
            candidates.append(table.next_deadline())
        for deadline in self.deadlines:
            try:
                candidates.append(deadline())
            except Exception as exc:
                self.errors.append(f"deadline: {exc}")
        due = [c for c in candidates if c is not None]
        return min([now + within, *due])
