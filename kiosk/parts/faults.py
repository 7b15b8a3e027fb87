"""A part's fault as facts: a code and what it is about (the pin, the port, the camera), so
the dead-parts screen and the console's fault line word it in the umpire's
language, while the log and the journal keep the driver's English text.

Each function returns a `ReasonedText` (kiosk/errors.py): the English text as it was,
carrying the `Reason` the interface words (kiosk/ui/words.py `said_words`). A fault nothing
here knows stays plain English. The messages are the catalogue's msgids (babel.cfg reads this file).
"""

from __future__ import annotations

import errno

from drivers.errors import PinError, PinFactoryError
from drivers.serial_link import DeviceStatus
from kiosk.errors import N_, Reason, ReasonedText

MESSAGES = {
    "no_pin_factory": N_("No GPIO pin factory can start on this computer"),
    "unknown_pin_factory": N_("{factory} is not a GPIO pin factory (pockets.pin_factory)"),
    "bad_pin_factory": N_("The GPIO pin factory {factory} cannot start on this computer"),
    "pin_in_use": N_("GPIO pin {pin} is in use by another program"),
    "pocket_pin_in_use": N_("Pocket {pocket}: GPIO pin {pin} is in use by another program"),
    "pin_missing": N_("GPIO pin {pin} does not exist on this board"),
    "pocket_pin_missing": N_("Pocket {pocket}: GPIO pin {pin} does not exist on this board"),
    "pocket_pin_twice": N_("Pocket {pocket}: GPIO pin {pin} is already pocket {other}'s"),
    "pin_count": N_("The settings give {given} pins: one is needed for each of the {need} pockets"),
    "pin_other": N_("GPIO pin {pin}: {detail}"),
    "pocket_pin_other": N_("Pocket {pocket}: GPIO pin {pin}: {detail}"),
    "port_missing": N_("There is no serial port {port}"),
    "port_denied": N_("No permission to open the serial port {port}"),
    "port_busy": N_("The serial port {port} is held by another program"),
    "port_unplugged": N_("The USB device {device} is not plugged in"),
    "port_silent": N_("No answer on the serial port {port}"),
    "port_other": N_("Serial port {port}: {detail}"),
    "camera_index": N_("USB camera {index} cannot be opened"),
    "camera_source": N_("The camera {source} cannot be opened"),
    "other": N_("Did not start: {detail}"),
}


def said(text: str, code: str, **facts: object) -> ReasonedText:
    """`text` (the English kept in the log) with the reason `code` and its facts."""
    return ReasonedText(text, Reason(code, MESSAGES[code], facts=tuple(facts.items())))


def _detail(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def pin_said(text: str, exc: PinError) -> ReasonedText:
    if exc.code == "count":
        given = len(exc.pin) if isinstance(exc.pin, list | tuple) else 1
        return said(text, "pin_count", given=given, need=4)
    if exc.code == "twice":
        return said(text, "pocket_pin_twice", pocket=exc.pocket, pin=exc.pin, other=exc.other)
    code = {"in_use": "pin_in_use", "missing": "pin_missing"}.get(exc.code, "pin_other")
    if exc.pocket:
        return said(text, f"pocket_{code}", pocket=exc.pocket, pin=exc.pin, detail=exc.reason)
    return said(text, code, pin=exc.pin, detail=exc.reason)


def port_said(text: str, port: str, exc: BaseException | None) -> ReasonedText:
    """A serial port that cannot be opened: missing, not allowed, held, unplugged."""
    identity = getattr(exc, "identity", None)
    if identity is not None:
        return said(text, "port_unplugged", device=str(identity))
    number = getattr(exc, "errno", None)
    if number == errno.ENOENT or (number is None and "No such file" in str(exc)):
        return said(text, "port_missing", port=port)
    if number in (errno.EACCES, errno.EPERM):
        return said(text, "port_denied", port=port)
    if number == errno.EBUSY:
        return said(text, "port_busy", port=port)
    return said(text, "port_other", port=port, detail=_detail(exc) if exc else text)


def start_said(text: str, exc: BaseException, source: str = "") -> str:
    """A part that did not start (kiosk/parts/hardware.py): `text` its English line, `exc`
    why, `source` the camera's source when it is the camera."""
    if isinstance(exc, PinFactoryError):
        if not exc.factory:
            return said(text, "no_pin_factory")
        code = "bad_pin_factory" if exc.known else "unknown_pin_factory"
        return said(text, code, factory=exc.factory)
    if isinstance(exc, PinError):
        return pin_said(text, exc)
    if source:
        if source.startswith("usb:") and source[4:].isdigit():
            return said(text, "camera_index", index=int(source[4:]))
        return said(text, "camera_source", source=source)
    if isinstance(exc, OSError):  # pyserial's SerialException is one
        return port_said(text, str(exc.filename or ""), exc)
    return said(text, "other", detail=_detail(exc))


def link_said(status: DeviceStatus) -> str:
    """A serial part's trouble (a display or sensor bridge unplugged or silent), from its
    status; any other state keeps its detail as it is."""
    if status.state == "silent":
        return said(status.detail, "port_silent", port=status.port)
    if status.state == "unplugged":
        return port_said(status.detail, status.port, status.cause)
    return status.detail
