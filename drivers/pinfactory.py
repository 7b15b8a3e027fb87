"""Choosing gpiozero's pin factory from the settings.

The setting `pockets.pin_factory` names it by gpiozero's names ("lgpio" on the
Pi, "mock" on a laptop); empty leaves the choice to gpiozero, which reads
GPIOZERO_PIN_FACTORY and otherwise tries lgpio first. "mock" gives our
ClockedMockFactory with PWM pins, so a TonalBuzzer works in simulation too.
"""

from __future__ import annotations

import os
from importlib.metadata import entry_points
from typing import Any

from drivers.errors import PinFactoryError


def make_pin_factory(name: str | None) -> Any:
    """A pin factory instance for `name`, or None to let gpiozero choose."""
    name = (name or os.environ.get("GPIOZERO_PIN_FACTORY") or "").strip().lower()
    if name in ("", "default"):
        return None
    if name == "mock":
        from drivers.mockpins import ClockedMockFactory

        return ClockedMockFactory(pwm=True)
    found = entry_points(group="gpiozero_pin_factories", name=name)
    if not found:
        message = f"pockets.pin_factory: {name!r} is not a gpiozero pin factory"
        raise PinFactoryError(message, factory=name, known=False)
    try:
        return next(iter(found)).load()()
    except Exception as exc:  # ImportError off the Pi, no /dev/gpiochip, ...
        raise PinFactoryError(
            f"pockets.pin_factory: {name} cannot start: {exc}", factory=name
        ) from exc
