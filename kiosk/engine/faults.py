"""Faults: a part beside the table that does not work (a stuck beam, a camera without frames,
a display that stops acknowledging). The session carries on with what remains, shows the
fault and records it in the journal; it clears when the part works again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Fault:
    """`part` names the part ("beam 3", "camera", "display", "buzzer", ...); `since` is the
    monotonic time it was first seen."""

    part: str
    message: str
    since: float


class FaultBoard:
    """The faults active now, one per part; `raise_` and `clear` say whether anything changed
    so the caller records and shows only changes."""

    def __init__(self) -> None:
        self._active: dict[str, Fault] = {}

    def raise_(self, part: str, message: str, now: float) -> Fault | None:
        """Record a fault; returns it if it is new or its message changed, else None."""
        current = self._active.get(part)
        if current is not None and current.message == message:
            return None
        fault = Fault(part, message, now if current is None else current.since)
        self._active[part] = fault
        return fault

    def clear(self, part: str) -> Fault | None:
        """The part works again; returns the fault that ended, or None if there was none."""
        return self._active.pop(part, None)

    def active(self, part: str) -> bool:
        return part in self._active

    @property
    def faults(self) -> tuple[Fault, ...]:
        return tuple(sorted(self._active.values(), key=lambda f: (f.since, f.part)))


@dataclass(frozen=True, slots=True)
class PartFault:
    """A part reports trouble (`message`) or that it works again (`message` None), at `t`:
    an input a part posts to the table in play (kiosk/parts/hardware.py)."""

    t: float
    part: str
    message: str | None


def fault_to_json(fault: Fault) -> dict[str, Any]:
    """A fault as the outputs that speak JSON send it (the hall's tile)."""
    return {"part": fault.part, "message": fault.message, "since": fault.since}
