"""A table's state as JSON, for a listener beside the screen: the first step towards the
tournament director's board (DESIGN.md, "Growing past one table": each kiosk will publish its
state to an MQTT broker). `JsonOutput` is an `Output` like the screen or the buzzer; what it
writes to (a file, a socket, an MQTT client's publish) is passed in.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from kiosk.clocks.patterns import Pattern
from kiosk.engine.faults import Fault
from kiosk.engine.outputs import OutputBase


def fault_to_json(fault: Fault) -> dict[str, Any]:
    return {"part": fault.part, "message": fault.message, "since": fault.since}


@runtime_checkable
class JsonView(Protocol):
    """A table's view that says itself as JSON (CarromView, ClockView: kiosk/tables)."""

    def to_json(self) -> dict[str, Any]:
        """The view as the publisher sends it."""


def view_to_json(view: object) -> dict[str, Any] | None:
    return view.to_json() if isinstance(view, JsonView) else None


class JsonOutput(OutputBase):
    """Writes one JSON line per change of the table's state, and one per fault change.
    `write` may be slow or fail: a failure shows as a fault of this output, nothing more."""

    name = "publisher"

    def __init__(self, write: Callable[[str], object], *, table: str = "table") -> None:
        self._write = write
        self.table = table

    def state_changed(self, view: object) -> None:
        data = view_to_json(view)
        if data is not None:
            self._send({"table": self.table, "state": data})

    def fault(self, fault: Fault, active: bool) -> None:
        self._send({"table": self.table, "fault": fault_to_json(fault), "active": active})

    def sound(self, pattern: Pattern) -> None:
        return None

    def _send(self, message: dict[str, Any]) -> None:
        self._write(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
