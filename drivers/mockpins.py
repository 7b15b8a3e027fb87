"""gpiozero's MockFactory with an injected clock, for simulation and tests.

MockPin stamps every edge with `time.monotonic()`. These subclasses stamp it
with the factory's `clock` instead, so a script or a test can set the time and
then drive the pin through gpiozero's own path (pin -> device -> our callback)
without sleeping. With the default clock they behave exactly like MockPin.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, NamedTuple

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin, PinState


class ClockedMockFactory(MockFactory):  # type: ignore[misc]
    """A MockFactory whose pins and `ticks()` read `clock` (seconds)."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, *, pwm: bool = False, **kwargs: Any
    ) -> None:
        pin_class = ClockedMockPWMPin if pwm else ClockedMockPin
        super().__init__(pin_class=pin_class, **kwargs)
        self.clock = clock

    def ticks(self) -> float:
        return self.clock()

    def ticks_diff(self, later: float, earlier: float) -> float:
        return later - earlier


def _clock_of(pin: MockPin) -> Callable[[], float]:
    factory = pin.factory
    clock = getattr(factory, "clock", None)
    return clock if clock is not None else time.monotonic


class ClockedMockPin(MockPin):  # type: ignore[misc]
    """A MockPin whose edges carry the factory clock's time."""

    _state: Any

    def clear_states(self) -> None:
        self._last_change = _clock_of(self)()
        self.states = [PinState(0.0, self._state)]

    def _change_state(self, value: Any) -> bool:
        if self._state != value:
            t = _clock_of(self)()
            self._state = value
            self.states.append(PinState(t - self._last_change, value))
            self._last_change = t
            return True
        return False


class Level(NamedTuple):
    """One change of a PWM output: when, the duty cycle, the frequency (None: off)."""

    t: float
    value: float
    frequency: float | None


class ClockedMockPWMPin(ClockedMockPin, MockPWMPin):  # type: ignore[misc]
    """A clocked MockPWMPin that also keeps the frequency in force at each change, so a
    test can read back the tones of a buzzer."""

    _frequency: float | None

    def __init__(self, factory: Any, info: Any) -> None:
        self.levels: list[Level] = []
        super().__init__(factory, info)

    def clear_states(self) -> None:
        super().clear_states()
        self.levels = []

    def _set_frequency(self, value: float | None) -> None:
        super()._set_frequency(value)
        self.levels.append(Level(_clock_of(self)(), float(self._state), value))

    def _change_state(self, value: Any) -> bool:
        changed: bool = super()._change_state(value)
        if changed:
            self.levels.append(Level(self._last_change, float(value), self._frequency))
        return changed
