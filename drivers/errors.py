"""The drivers' exceptions: one root, each also the builtin that fits."""

from __future__ import annotations

from kiosk.errors import TablesideError


class DriverError(TablesideError):
    """Root of the errors raised while setting up a part beside the table."""


class PinError(DriverError, ValueError):
    """A GPIO pin that cannot be used (in use, missing, given twice), naming
    the part it was meant for and the pin."""

    def __init__(self, part: str, pin: object, reason: str) -> None:
        super().__init__(f"{part}, GPIO pin {pin}: {reason}")
        self.part = part
        self.pin = pin
        self.reason = reason
