"""What the session says to the world, behind one interface.

The screen, the buzzer, the player display and the hall's publisher are each an `Output`
beside the others (the buzzer's and the display's are kiosk/parts/outputs.py: they know the
drivers).
The session calls every output; an output that raises or reports itself unhealthy becomes a
fault of that part, never a crash of the session.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from kiosk.clocks.patterns import Pattern
from kiosk.engine.faults import Fault, fault_to_json
from kiosk.engine.journal_rows import Confirmed


@runtime_checkable
class Output(Protocol):
    """One listener. `name` is the part its faults are shown under ("display", "buzzer")."""

    name: str

    def state_changed(self, view: object) -> None:
        """Something visible changed (an event, a proposal, a timer's whole second, a fault)."""

    def sound(self, pattern: Pattern) -> None:
        """A timer's warning or expiry is due now: play it."""

    def confirmed(self, confirmed: Confirmed) -> None:
        """A confirmed event or undo is on disk (synced): told before the view that shows it
        (the hall's publisher sends it on)."""

    def fault(self, fault: Fault, active: bool) -> None:
        """A part failed (`active`) or works again."""

    def health(self) -> str | None:
        """None while the output works, else what is wrong (polled by the session)."""


class OutputBase:
    """An output that ignores everything; subclasses override what they care about."""

    name = "output"

    def state_changed(self, view: object) -> None:
        return None

    def sound(self, pattern: Pattern) -> None:
        return None

    def confirmed(self, confirmed: Confirmed) -> None:
        return None

    def fault(self, fault: Fault, active: bool) -> None:
        return None

    def health(self) -> str | None:
        return None


#: A view as an output takes it (CarromView, ClockView, BhukharView: kiosk/tables).
V = TypeVar("V")


class MemoryOutput(OutputBase):
    """Keeps what it was told: the latest view, the patterns, the confirmed entries, the fault
    changes. A screen that reads the view after each call can use it, and so can tests."""

    name = "memory"

    def __init__(self) -> None:
        self.view: object = None
        self.views = 0
        self.sounds: list[Pattern] = []
        self.confirmations: list[Confirmed] = []
        self.faults: list[tuple[Fault, bool]] = []

    def state_changed(self, view: object) -> None:
        self.view = view
        self.views += 1

    def latest(self, kind: type[V]) -> V:
        """The latest view, which must be a `kind` (AssertionError otherwise)."""
        assert isinstance(self.view, kind), f"the latest view is {type(self.view).__name__}"
        return self.view

    def sound(self, pattern: Pattern) -> None:
        self.sounds.append(pattern)

    def confirmed(self, confirmed: Confirmed) -> None:
        self.confirmations.append(confirmed)

    def fault(self, fault: Fault, active: bool) -> None:
        self.faults.append((fault, active))


class CallbackOutput(OutputBase, Generic[V]):
    """Calls `on_change(view)` for each change of a view of type `kind`: how a screen follows
    its table (a view of another type is not its table's and is ignored). The screen keeps the
    view and redraws through a Kivy Clock trigger (once a frame however many views arrive), so
    it draws exactly the views every other output gets."""

    name = "screen"

    def __init__(self, kind: type[V], on_change: Callable[[V], None]) -> None:
        self._kind = kind
        self._on_change = on_change

    def state_changed(self, view: object) -> None:
        if isinstance(view, self._kind):
            self._on_change(view)

    def follow(self, old: Outputs | None, new: Outputs) -> bool:
        """Listen to `new` instead of `old`; True when it was not listening to `new` yet."""
        if old is not None and old is not new:
            old.remove(self)
        if self in new.items:
            return False
        new.add(self)
        return True


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


class Outputs:
    """All the outputs; each call goes to every output, and an exception from one is kept in
    `errors` (by output name) for the session to show as a fault."""

    def __init__(self, outputs: Iterable[Output] = ()) -> None:
        self.items: list[Output] = list(outputs)
        self.errors: dict[str, str] = {}

    def add(self, output: Output) -> None:
        self.items.append(output)

    def remove(self, output: Output) -> None:
        if output in self.items:
            self.items.remove(output)

    def _each(self, call: Callable[[Output], object]) -> None:
        for output in list(self.items):
            try:
                call(output)
            except Exception as exc:
                self.errors[output.name] = f"{output.name}: {type(exc).__name__}: {exc}"

    def state_changed(self, view: object) -> None:
        self._each(lambda o: o.state_changed(view))

    def sound(self, pattern: Pattern) -> None:
        self._each(lambda o: o.sound(pattern))

    def confirmed(self, confirmed: Confirmed) -> None:
        self._each(lambda o: o.confirmed(confirmed))

    def fault(self, fault: Fault, active: bool) -> None:
        self._each(lambda o: o.fault(fault, active))

    def health(self) -> dict[str, str | None]:
        """Each output's trouble now (None: fine), errors raised since the last look included."""
        out: dict[str, str | None] = {}
        for output in list(self.items):
            try:
                problem = output.health()
            except Exception as exc:
                problem = f"{output.name}: {type(exc).__name__}: {exc}"
            raised = self.errors.pop(output.name, None)
            out[output.name] = problem or raised
        return out
