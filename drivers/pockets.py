"""The four pocket beams: one gpiozero input per pocket, edges to hits.

A composite device in gpiozero's manner: pins from the settings, an injected
pin factory (lgpio on the Pi, MockFactory in tests and simulation). The pin
callback runs on gpiozero's thread and does only a constant-time step: it
stamps the edge, runs the pocket's BeamFilter (a few comparisons) and posts
any BeamHit/BeamFault to `sink` (e.g. `queue.Queue.put`). Everything else
happens on the consumer's side of the queue.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from gpiozero import DigitalInputDevice
from gpiozero.exc import (
    BadPinFactory,
    GPIODeviceError,
)
from gpiozero.exc import PinError as GpioPinError

from drivers.closing import Closing
from drivers.errors import PinError, PinFactoryError, pin_error
from drivers.hits import POCKETS, BeamFilter, BeamReport

Sink = Callable[[BeamReport], Any]
BeamState = Literal["clear", "broken", "stuck", "flapping"]

# Edge ticks within this of our clock are taken to be on our clock (MockFactory,
# lgpio with CLOCK_MONOTONIC line events); farther off, an offset is learned.
_SAME_CLOCK_S = 1.0


class _Beam(DigitalInputDevice):  # type: ignore[misc]
    """One pocket's input; hands every edge (ticks, broken) to `on_edge`."""

    def __init__(
        self,
        pin: int | str,
        *,
        on_edge: Callable[[float, bool], None],
        pull_up: bool | None,
        active_state: bool | None,
        pin_factory: Any,
    ) -> None:
        self._on_edge = on_edge
        super().__init__(pin, pull_up=pull_up, active_state=active_state, pin_factory=pin_factory)

    def _pin_changed(self, ticks: float, state: int) -> None:
        # Replaces gpiozero's event firing: we want the edge time, not callbacks.
        self._on_edge(ticks, bool(self._state_to_value(state)))


class PocketBeams(Closing):
    """The break-beams of pockets 1-4 (pins[0] is pocket 1, see contracts).

    `pins`: BCM numbers (or gpiozero pin names) for pockets 1-4, in order.
    `pull_up`: receivers are open-collector, pulled up, so the pin reads low
    while the beam is broken (the default). None: no pull, for receivers that
    drive the line both ways; then `broken_high` says which level is broken.
    `glitch_s`, `merge_s`, `stuck_s`: the BeamFilter settings.
    `watch_s`: if set, a small thread calls `poll()` this often so a stuck beam
    is reported without the engine polling; otherwise the engine calls `poll`.
    """

    def __init__(
        self,
        pins: Sequence[int | str],
        *,
        sink: Sink,
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        glitch_s: float = 0.0005,
        merge_s: float = 0.005,
        stuck_s: float = 2.0,
        pull_up: bool | None = True,
        broken_high: bool = False,
        watch_s: float | None = None,
    ) -> None:
        if len(pins) != len(POCKETS):
            raise PinError(
                "pockets", list(pins), f"need {len(POCKETS)} pins, one per pocket", code="count"
            )
        seen: dict[str, int] = {}
        for pocket, pin in zip(POCKETS, pins, strict=True):
            key = str(pin)
            if key in seen:
                raise PinError(
                    f"pocket {pocket}",
                    pin,
                    f"given twice (pocket {seen[key]} uses it too)",
                    code="twice",
                    pocket=pocket,
                    other=seen[key],
                )
            seen[key] = pocket
        self._sink = sink
        self._clock = clock
        self._lock = threading.Lock()
        self._offset: float | None = None
        self.pins: dict[int, int | str] = dict(zip(POCKETS, pins, strict=True))
        self.filters: dict[int, BeamFilter] = {
            p: BeamFilter(p, glitch_s=glitch_s, merge_s=merge_s, stuck_s=stuck_s) for p in POCKETS
        }
        self._beams: dict[int, _Beam] = {}
        active = broken_high if pull_up is None else None
        try:
            for pocket, pin in self.pins.items():
                self._beams[pocket] = self._open(pocket, pin, pull_up, active, pin_factory)
        except BaseException:
            self.close()
            raise
        now = clock()
        with self._lock:
            for pocket, beam in self._beams.items():
                for report in self.filters[pocket].start(now, bool(beam.is_active)):
                    self._sink(report)
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        if watch_s is not None:
            self._watcher = threading.Thread(
                target=self._watch, args=(watch_s,), name="pocket-beams-watch", daemon=True
            )
            self._watcher.start()

    def _open(
        self,
        pocket: int,
        pin: int | str,
        pull_up: bool | None,
        active_state: bool | None,
        pin_factory: Any,
    ) -> _Beam:
        def on_edge(ticks: float, broken: bool) -> None:
            self._edge(pocket, ticks, broken)

        try:
            return _Beam(
                pin,
                on_edge=on_edge,
                pull_up=pull_up,
                active_state=active_state,
                pin_factory=pin_factory,
            )
        except BadPinFactory as exc:
            raise PinFactoryError(f"no GPIO pin factory can start here: {exc}") from exc
        except (GPIODeviceError, GpioPinError) as exc:
            raise pin_error(f"pocket {pocket}", pin, exc, pocket) from exc
        except Exception as exc:  # e.g. lgpio.error "GPIO busy": held by another process
            raise pin_error(f"pocket {pocket}", pin, exc, pocket) from exc

    def _edge(self, pocket: int, ticks: float, broken: bool) -> None:
        now = self._clock()
        with self._lock:
            if self._offset is None:
                self._offset = 0.0 if abs(now - ticks) < _SAME_CLOCK_S else now - ticks
            elif self._offset != 0.0:
                self._offset = min(self._offset, now - ticks)  # lowest latency seen
            for report in self.filters[pocket].edge(ticks + self._offset, broken):
                self._sink(report)

    def poll(self, now: float | None = None) -> list[BeamReport]:
        """Reports beams that became stuck by `now` (default: the clock); they
        also go to the sink. Other pockets are unaffected by a stuck one."""
        t = self._clock() if now is None else now
        out: list[BeamReport] = []
        with self._lock:
            for f in self.filters.values():
                out.extend(f.poll(t))
            for report in out:
                self._sink(report)
        return out

    def next_deadline(self) -> float | None:
        """The earliest time `poll` may report something (None: nothing pending)."""
        with self._lock:
            deadlines = [d for f in self.filters.values() if (d := f.deadline()) is not None]
        return min(deadlines, default=None)

    def states(self) -> Mapping[int, BeamState]:
        """Each pocket's beam now: clear, broken, stuck (blocked too long) or flapping."""
        with self._lock:
            return {
                p: "flapping"
                if f.flapping
                else "stuck"
                if f.stuck
                else "broken"
                if f.broken
                else "clear"
                for p, f in self.filters.items()
            }

    def _watch(self, interval: float) -> None:
        while not self._stop.wait(interval):
            self.poll()

    def close(self) -> None:
        stop = getattr(self, "_stop", None)
        if stop is not None:
            stop.set()
        watcher = getattr(self, "_watcher", None)
        if watcher is not None and watcher is not threading.current_thread():
            watcher.join(timeout=1.0)
        for beam in self._beams.values():
            beam.close()
        self._beams.clear()

    @property
    def closed(self) -> bool:
        return not self._beams

    def pin_of(self, pocket: int) -> Any:
        """The gpiozero pin object of `pocket` (a MockPin in simulation)."""
        return self._beams[pocket].pin
