"""The one shape of every table (carrom, backgammon, Bhukhar), as the engine sees it.

A table takes timestamped inputs (`post`, from any thread: it only queues), answers `poll(now)`
(take the inputs, fire what fell due, tell the outputs what changed) and `next_deadline()`
(when `poll` next has something to do without an input), and gives its `view()`. The umpire's
commands are the table's own methods: each returns nothing, or refuses with the table's error
(a `kiosk.errors.Refused`: IllegalEvent, IllegalAction, SessionError) and changes nothing.
Every change of the view goes to the table's `outputs`: the screen, the player display, the
buzzer and the hall publisher alike, so that what the screen draws is what every output gets.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from kiosk.engine.outputs import Outputs


@runtime_checkable
class Table(Protocol):
    """What the runner drives and the outputs listen to."""

    outputs: Outputs

    def post(self, item: object) -> None:
        """Queue an input (any thread); never blocks."""

    def poll(self, now: float | None = None) -> Any:
        """Take the queued inputs and fire what fell due by `now` (the runner's one clock)."""

    def next_deadline(self) -> float | None:
        """When `poll` next has something to do without an input, or None."""

    def view(self) -> Any:
        """What the table shows now (the same view every output is given)."""
