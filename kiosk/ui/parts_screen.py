"""The parts that did not start, said plainly at start (the kiosk started with its
beams dead and showed only a tiny truncated red line).

Shown before home when `Services.startup_faults` is not empty: a row per missing part (the
pocket beams, the camera, the player display, the buzzer, the GPIO pins) with what the table
does without it, and two choices: go on by hand, or retry (`Services.retry_parts` starts the
parts again; without one, only going on is offered). The faults stay on the carrom console
(an icon and a line, tap for details) until the part works again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.ui.i18n import tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.words import N_, said_words

#: Each part's name and what the table does without it.
PARTS = {
    "beams": (N_("Pocket beams"), N_("no pockets are counted: the umpire enters each stroke")),
    "gpio": (N_("GPIO pins"), N_("no beams and no buzzer: the umpire enters each stroke")),
    "camera": (N_("Camera"), N_("no colours are seen: the umpire taps them")),
    "display": (N_("Player display"), N_("the players read the clock on this screen")),
    "buzzer": (N_("Buzzer"), N_("no sound: the screen flashes when time runs out")),
}


def part_name(part: str) -> str:
    """A fault's part ("beams", "beam 3", "display") as the umpire's language names it."""
    if part.startswith("beam ") and part[5:].isdigit():
        return tr._("Pocket {n}'s beam", n=int(part[5:]))
    name = PARTS.get(part, (part[:1].upper() + part[1:], ""))[0]
    return tr._(name) if part in PARTS else name


def part_rows(problems: list[tuple[str, str]]) -> list[list[str]]:
    """[name, what it means, the part's own message] for each part that did not start: the
    message worded from its facts (the pin, the port, the camera) in the umpire's language
    when the driver gave them, else its English."""
    rows = []
    for part, message in problems:
        name, means = PARTS.get(part.split(" ")[0], (part, ""))
        rows.append([tr._(name), tr._(means) if means else "", said_words(message, tr._)])
    return rows


class PartsScreen(Screen):
    """`problems` the parts that did not start; `go_on` leaves for home, `retry` (None: not
    offered) starts the parts again and returns what still does not start."""

    rows = ListProperty([])
    can_retry = BooleanProperty(False)
    #: What the last Retry found, so a tap that starts nothing new still shows it tried.
    tried = StringProperty("")
    tries = NumericProperty(0)

    def __init__(
        self,
        problems: list[tuple[str, str]],
        go_on: Callable[[], None],
        retry: Callable[[], list[tuple[str, str]]] | None,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self._go_on = go_on
        self._retry = retry
        self.can_retry = retry is not None
        self.problems = list(problems)
        self.rows = part_rows(self.problems)
        tr.on_switch(self._reword)  # a method: held weakly, the screen is not kept alive

    def _reword(self) -> None:
        self.rows = part_rows(self.problems)
        self._said()

    def go_on(self) -> None:
        self._go_on()

    def retry(self) -> None:
        if self._retry is None:
            return
        self.problems = list(self._retry())
        self.rows = part_rows(self.problems)
        self.tries += 1
        self._said()
        if not self.problems:
            self._go_on()

    def _said(self) -> None:
        if self.tries:
            self.tried = tr._(
                "Tried again ({n}): {parts} still not working",
                n=int(self.tries),
                parts=len(self.rows),
            )


load_kv(__file__)
