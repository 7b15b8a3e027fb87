"""Simulated pocket beams: the real PocketBeams on MockFactory pins.

For `make run` on a laptop and for tests. Nothing is bypassed: a key press or
a script line drives a MockPin low and high, gpiozero hands the edge to
PocketBeams, and the same BeamFilter makes the hit. Two ways to drive it:

- real time (`press`, `play`): edges at the moments they happen, timers
  clear the beam after the hit's duration (the UI calls `press(pocket)` on
  keys 1-4);
- a `ManualClock` (`feed`, `drive`): the clock is set to each edge's time
  and the pin driven at once, so a long script runs in milliseconds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from drivers.hits import POCKETS
from drivers.mockpins import ClockedMockFactory
from drivers.pockets import PocketBeams, Sink

DEFAULT_PINS: tuple[int, ...] = (5, 6, 13, 19)
KEY_PRESS_S = 0.015  # how long a key press keeps the beam broken: a coin's passage


class ManualClock:
    """A clock that moves only when told (seconds): the one fake clock of the simulation and
    the tests. `tick`: each reading moves it on by that much (a clock that runs as it is
    read, as a camera's frames do)."""

    def __init__(self, t: float = 0.0, *, tick: float = 0.0) -> None:
        self.t = t
        self.tick = tick

    def __call__(self) -> float:
        t = self.t
        self.t += self.tick
        return t

    @property
    def now(self) -> float:
        """The time now, without moving it."""
        return self.t

    def set(self, t: float) -> None:
        if t < self.t:
            raise ValueError(f"a monotonic clock cannot go back from {self.t} to {t}")
        self.t = t

    def advance(self, dt: float) -> float:
        """Move on by `dt` seconds; returns the new time."""
        self.set(self.t + dt)
        return self.t

    def reboot(self, t: float) -> None:
        """A new boot: a monotonic clock starts again, lower than it was."""
        self.t = t


class ScriptHit(NamedTuple):
    """One line of a beam script: at `t` s from the start, `pocket` is broken
    for `duration` s."""

    t: float
    pocket: int
    duration: float


class Edge(NamedTuple):
    t: float
    pocket: int
    broken: bool


def edges_of(script: Iterable[tuple[float, int, float]]) -> list[Edge]:
    """The edges a script makes, in time order (a clearing edge before a
    breaking one at the same instant)."""
    edges: list[Edge] = []
    for n, (t, pocket, duration) in enumerate(script, 1):
        if pocket not in POCKETS:
            raise ValueError(f"beam script line {n}: pocket {pocket} is not 1-4")
        if t < 0 or duration <= 0:
            raise ValueError(f"beam script line {n}: t must be >= 0 and duration > 0")
        edges.append(Edge(t, pocket, True))
        edges.append(Edge(t + duration, pocket, False))
    edges.sort(key=lambda e: (e.t, e.broken))
    return edges


class SimulatedBeams:
    """PocketBeams on a ClockedMockFactory driven by keys or a script."""

    def __init__(
        self,
        *,
        sink: Sink,
        clock: Callable[[], float] = time.monotonic,
        pins: Sequence[int | str] = DEFAULT_PINS,
        pin_factory: Any = None,
        **settings: Any,
    ) -> None:
        self.clock = clock
        self.factory = pin_factory if pin_factory is not None else ClockedMockFactory(clock)
        self.beams = PocketBeams(pins, sink=sink, pin_factory=self.factory, clock=clock, **settings)
        self._timers: list[threading.Timer] = []
        self._lock = threading.Lock()  # one edge at a time from the UI and the timers

    def _drive(self, pocket: int, broken: bool) -> None:
        with self._lock:
            if self.beams.closed:
                return  # a timer that fired after close
            pin = self.beams.pin_of(pocket)
            if broken:  # receivers pull the line low while the beam is broken
                pin.drive_low()
            else:
                pin.drive_high()

    def hold(self, pocket: int) -> None:
        """Break the beam of `pocket` until `release` (a coin stuck in it)."""
        self._drive(pocket, True)

    def release(self, pocket: int) -> None:
        self._drive(pocket, False)

    def press(self, pocket: int, duration: float = KEY_PRESS_S) -> None:
        """A coin through `pocket` (the UI's key 1-4). Returns at once; with a
        ManualClock both edges are driven now, the clock moved by `duration`."""
        if pocket not in POCKETS:
            raise ValueError(f"pocket {pocket} is not 1-4")
        if isinstance(self.clock, ManualClock):
            self._drive(pocket, True)
            self.clock.advance(duration)
            self._drive(pocket, False)
            return
        self._drive(pocket, True)
        timer = threading.Timer(duration, self._drive, args=(pocket, False))
        timer.daemon = True
        self._timers = [t for t in self._timers if t.is_alive()] + [timer]
        timer.start()

    def drive(self, edges: Iterable[Edge], *, start: float | None = None) -> None:
        """Drive edges at once, setting the ManualClock to each edge's time
        (`start` + edge.t; default: the clock now)."""
        if not isinstance(self.clock, ManualClock):
            raise TypeError("drive() needs a ManualClock; use play() in real time")
        base = self.clock() if start is None else start
        for edge in edges:
            self.clock.set(base + edge.t)
            self._drive(edge.pocket, edge.broken)

    def feed(self, script: Iterable[tuple[float, int, float]]) -> None:
        """Run a script of (t, pocket, duration) against the ManualClock."""
        self.drive(edges_of(script))

    def play(self, script: Iterable[tuple[float, int, float]]) -> threading.Thread:
        """Run a script in real time on a thread (for `make run`); returns it."""
        edges = edges_of(script)

        def run() -> None:
            t0 = time.monotonic()
            for edge in edges:
                delay = t0 + edge.t - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                if self.beams.closed:
                    return
                self._drive(edge.pocket, edge.broken)

        thread = threading.Thread(target=run, name="beam-script", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self.beams.close()
