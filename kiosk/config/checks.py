"""The settings' value checkers: each takes what TOML gave and returns the typed value, or
raises `Bad` saying what was expected (kiosk/config/__init__.py names the file, line and key).

A dataclass field says how its value is checked with `metadata=checked_by(checker)`; a
section whose type belongs to another layer (the clocks' `TimerSettings`) has its checkers
in a table of its own (`EXTERNAL`, in kiosk/config/sections.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kiosk.access.pins import MAX_PIN_ITERATIONS, MIN_PIN_ITERATIONS, PIN_HASH_SCHEME, _split_hash

#: BCM numbers of the 40-pin header's GPIO lines.
BCM_PINS = range(0, 28)


class Bad(Exception):
    """A value a checker refuses; the message says what was expected."""


def checked_by(checker: Callable[[Any], Any]) -> dict[str, Callable[[Any], Any]]:
    return {"check": checker}


def as_written(value: Any) -> str:
    return repr(value) if not isinstance(value, str) else f'"{value}"'


def choice(*options: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in options:
            shown = ", ".join(f'"{o}"' for o in options)
            raise Bad(f"must be one of {shown}, not {as_written(value)}")
        return str(value)

    return check


def whole(lo: int, hi: int) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise Bad(f"must be a whole number, not {as_written(value)}")
        if not lo <= value <= hi:
            raise Bad(f"must be from {lo} to {hi}, not {value}")
        return value

    return check


def seconds(lo: float, hi: float, *, open_low: bool = False) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise Bad(f"must be a number, not {as_written(value)}")
        low_ok = value > lo if open_low else value >= lo
        if not low_ok or value > hi:
            low = f"more than {lo:g}" if open_low else f"at least {lo:g}"
            raise Bad(f"must be {low} and at most {hi:g}, not {value}")
        return float(value)

    return check


def whole_seconds(lo: int, hi: int) -> Callable[[Any], float]:
    check_number = seconds(lo, hi)

    def check(value: Any) -> float:
        seconds = check_number(value)
        if not seconds.is_integer():
            raise Bad(f"must be a whole number of seconds, not {value}")
        return seconds

    return check


def boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Bad(f"must be true or false, not {as_written(value)}")
    return value


def text(value: Any) -> str:
    if not isinstance(value, str):
        raise Bad(f"must be a string, not {as_written(value)}")
    return value


def pocket_pins(value: Any) -> tuple[int, ...]:
    """Four BCM numbers, pocket 1 to 4 (contracts: 1 bottom-left, 2 top-left, ...)."""
    if not isinstance(value, list) or len(value) != 4:
        raise Bad(f"must list 4 BCM pin numbers, pocket 1 to 4, not {as_written(value)}")
    for pocket, pin in enumerate(value, start=1):
        if isinstance(pin, bool) or not isinstance(pin, int) or pin not in BCM_PINS:
            raise Bad(f"pocket {pocket}: {as_written(pin)} is not a BCM pin (0 to 27)")
    for pocket, pin in enumerate(value, start=1):
        if value.index(pin) != pocket - 1:
            raise Bad(
                f"pocket {pocket} uses pin {pin}, already used by pocket {value.index(pin) + 1}"
            )
    return tuple(value)


def boards_or_none(value: Any) -> int | None:
    """8 boards before the quarter-final (law 56); 0 means no limit (a game to 25 only)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Bad(f"must be a number of boards, or 0 for no limit, not {as_written(value)}")
    return value or None


def camera_source(value: Any) -> str:
    if isinstance(value, str):
        if value in ("none", "synthetic", "picamera2"):
            return value
        if re.fullmatch(r"usb:\d+", value):
            return value
        if value.startswith("file:") and len(value) > len("file:"):
            return value
    raise Bad(
        f'must be "usb:N", "picamera2", "file:PATH", "synthetic" or "none", not {as_written(value)}'
    )


def calibration_points(value: Any) -> tuple[tuple[float, float], ...]:
    """The four pocket centres in the camera image, pocket 1 to 4, or [] when not calibrated."""
    if not isinstance(value, list) or len(value) not in (0, 4):
        raise Bad(f"must be [] or 4 [x, y] points (pockets 1 to 4), not {as_written(value)}")
    points: list[tuple[float, float]] = []
    for pocket, point in enumerate(value, start=1):
        ok = isinstance(point, list) and len(point) == 2
        ok = ok and all(isinstance(c, int | float) and not isinstance(c, bool) for c in point)
        if not ok:
            raise Bad(f"pocket {pocket}: {as_written(point)} is not an [x, y] point")
        points.append((float(point[0]), float(point[1])))
    return tuple(points)


def stored_pin_hash(value: Any) -> str:
    if value == "":
        return ""  # no PIN set yet: the first start asks for it (kiosk/ui/first_start.py)
    if not isinstance(value, str) or _split_hash(value) is None:
        raise Bad(
            f'must be "{PIN_HASH_SCHEME}$ITERATIONS$SALT$HASH" as made by '
            "kiosk.access.pins.hash_pin,"
            f' ITERATIONS from {MIN_PIN_ITERATIONS} to {MAX_PIN_ITERATIONS}, or "" (none yet)'
        )
    return value


def minutes_list(value: Any) -> tuple[float, ...]:
    """Minutes before the end of a round at which a warning sounds ([] for none)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, list):
        raise Bad(f"must be a list of minutes, e.g. [5, 1], not {as_written(value)}")
    out: list[float] = []
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int | float) or item <= 0:
            raise Bad(f"{as_written(item)} is not a number of minutes above 0")
        out.append(float(item))
    return tuple(sorted(set(out), reverse=True))


def nothing_if_zero(
    check: Callable[[Any], float], kind: Callable[[float], Any] = float
) -> Callable[[Any], Any]:
    """`check`, with 0 meaning "none" (None): a warning the table does not give."""

    def checked(value: Any) -> Any:
        number = check(value)
        return None if number == 0 else kind(number)

    return checked
