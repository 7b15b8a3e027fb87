"""Choosing gpiozero's pin factory from the settings.

The setting `pockets.pin_factory` names it ("lgpio" on the Pi, "mock" on a
laptop); empty leaves the choice to gpiozero, which reads
GPIOZERO_PIN_FACTORY and otherwise tries lgpio first.
"""

from __future__ import annotations

import os
from typing import Any

from drivers.errors import DriverError


def make_pin_factory(name: str | None) -> Any:
    """A pin factory instance for `name`, or None to let gpiozero choose."""
    name = (name or os.environ.get("GPIOZERO_PIN_FACTORY") or "").strip().lower()
    if name in ("", "default", "auto"):
        return None
    if name == "mock":
        from drivers.mockpins import ClockedMockFactory

        return ClockedMockFactory()
    if name == "lgpio":
        try:
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        except Exception as exc:  # ImportError off the Pi, or no /dev/gpiochip
            raise DriverError(f"pin factory lgpio cannot start: {exc}") from exc
    raise DriverError(f"pin factory {name!r} is not known (use lgpio or mock)")
