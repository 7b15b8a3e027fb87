"""The drivers' exceptions: one root, each also the builtin that fits."""

from __future__ import annotations

from kiosk.errors import TablesideError


class DriverError(TablesideError):
    """Root of the errors raised while setting up a part beside the table."""


class PinError(DriverError, ValueError):
    """A GPIO pin that cannot be used (in use, missing, given twice), naming
    the part it was meant for and the pin. `code` says which, as a fact the
    interface words: "in_use", "missing", "twice" (`other`: the pocket that has it),
    "count" (not one pin per pocket) or "other"; `pocket` is 0 for a part that is
    not a pocket's beam."""

    def __init__(
        self,
        part: str,
        pin: object,
        reason: str,
        *,
        code: str = "other",
        pocket: int = 0,
        other: int = 0,
    ) -> None:
        super().__init__(f"{part}, GPIO pin {pin}: {reason}")
        self.part = part
        self.pin = pin
        self.reason = reason
        self.code = code
        self.pocket = pocket
        self.other = other


class PinFactoryError(DriverError, RuntimeError):
    """No GPIO pin factory: none can start on this computer (`factory` ""), the one named is
    not one (`known` False), or it cannot start."""

    def __init__(self, message: str, *, factory: str = "", known: bool = True) -> None:
        super().__init__(message)
        self.factory = factory
        self.known = known


def pin_error(part: str, pin: object, exc: Exception, pocket: int = 0) -> PinError:
    """The PinError for a pin gpiozero (or its pin library) refused with `exc`."""
    from gpiozero.exc import GPIOPinInUse, GPIOPinMissing, PinInvalidPin

    if isinstance(exc, GPIOPinInUse):
        code, reason = "in_use", f"already in use ({exc})"
    elif isinstance(exc, PinInvalidPin):
        code, reason = "missing", f"no such GPIO pin on this board ({exc})"
    elif isinstance(exc, GPIOPinMissing):
        code, reason = "other", "no pin given"
    else:
        code, reason = "other", str(exc) or type(exc).__name__
    return PinError(part, pin, reason, code=code, pocket=pocket)
