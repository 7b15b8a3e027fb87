"""A table's state as JSON, for a listener beside the screen: the first step towards the
tournament director's board (DESIGN.md, "Growing past one table": each kiosk will publish its
state to an MQTT broker). `JsonOutput` is an `Output` like the screen or the buzzer; what it
writes to (a file, a socket, an MQTT client's publish) is passed in.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from kiosk.clocks.patterns import Pattern
from kiosk.engine.faults import Fault
from kiosk.engine.outputs import OutputBase
from kiosk.rules.carrom.record import state_to_json
from kiosk.tables.backgammon_table import ClockView
from kiosk.tables.carrom_view import CarromView


def fault_to_json(fault: Fault) -> dict[str, Any]:
    return {"part": fault.part, "message": fault.message, "since": fault.since}


def carrom_view_to_json(view: CarromView) -> dict[str, Any]:
    """The carrom view: the match as `tableside replay --json` shows it, and the table."""
    p = view.proposal
    return {
        "game": "carrom",
        "match": None if view.state is None else state_to_json(view.state),
        "phase": view.phase,
        "proposal": {
            "pocketed": list(p.pocketed),
            "striker": p.striker,
            "off_board": list(p.off_board),
            "source": p.source,
            "review": p.review,
            "notes": list(p.notes),
        },
        "timer": None
        if view.timer is None
        else {
            "kind": view.timer.kind,
            "remaining": view.timer.remaining,
            "length": view.timer.length,
            "held": view.timer.held,
        },
        "expired": view.expired,
        "faults": [fault_to_json(f) for f in view.faults],
        "t": view.t,
    }


def clock_view_to_json(view: ClockView) -> dict[str, Any]:
    """The backgammon clock: the keys of `tableside clock replay --json`, and the faces."""
    return {
        "game": "backgammon",
        "clock": view.snapshot.to_json(),
        "faces": [
            {"player": s.player, "bank": s.bank, "delay": s.delay, "on_turn": s.on_turn}
            for s in view.face.sides
        ],
        "banner": view.face.banner,
        "paused": view.paused,
    }


def view_to_json(view: Any) -> dict[str, Any] | None:
    if isinstance(view, CarromView):
        return carrom_view_to_json(view)
    if isinstance(view, ClockView):
        return clock_view_to_json(view)
    return None


class JsonOutput(OutputBase):
    """Writes one JSON line per change of the table's state, and one per fault change.
    `write` may be slow or fail: a failure shows as a fault of this output, nothing more."""

    name = "publisher"

    def __init__(self, write: Callable[[str], object], *, table: str = "table") -> None:
        self._write = write
        self.table = table

    def state_changed(self, view: Any) -> None:
        data = view_to_json(view)
        if data is not None:
            self._send({"table": self.table, "state": data})

    def fault(self, fault: Fault, active: bool) -> None:
        self._send({"table": self.table, "fault": fault_to_json(fault), "active": active})

    def sound(self, pattern: Pattern) -> None:
        return None

    def _send(self, message: dict[str, Any]) -> None:
        self._write(json.dumps(message, ensure_ascii=False, separators=(",", ":")))
