"""What the person at a console has seen: the version of the view a tap is made from.

Every command a screen sends carries the version of the table's view it was made from
(kiosk/tables/commands.py `Command.view`), and the table refuses one made from a view it has
moved on from. A view counts as seen once it has been on the screen for `SEEN_S`: a person
cannot see a change and tap on it faster than that (a simple visual reaction takes 0.2 to
0.25 s), so the second tap of a double tap, or a tap that lands as a beam changes the
proposal, is made from the view before, and is refused rather than acting twice or on what
nobody saw.
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: How long a view must have been on screen before a tap is taken as made from it.
SEEN_S = 0.3


class Seen:
    """The versions a screen drew, with when. `clock` is the console's clock for this (the
    monotonic clock; the UI tests move a clock of their own at each tap, as a person's time
    between two deliberate taps)."""

    clock: Callable[[], float] = time.monotonic

    def __init__(self) -> None:
        self._drawn: list[tuple[int, float]] = []  # (version, drawn at), newest last

    def drawn(self, version: int) -> None:
        """The view of `version` is on the screen now."""
        if self._drawn and self._drawn[-1][0] == version:
            return
        self._drawn = [*self._drawn[-1:], (version, Seen.clock())]

    def version(self) -> int | None:
        """The version a tap now is made from: the newest view on screen for `SEEN_S`, else
        the one before it (the table refuses that one as no longer current); None before any
        view was drawn (the tap is made from no view)."""
        if not self._drawn:
            return None
        version, at = self._drawn[-1]
        if Seen.clock() - at >= SEEN_S or len(self._drawn) == 1:
            return version
        return self._drawn[-2][0]

    def newest(self) -> int | None:
        """The version of the view on screen now, seen or not: for a correction of what the
        view shows (a coin counter's "+", a card), where a quick second tap means a second
        change, made from the view the first one drew."""
        return self._drawn[-1][0] if self._drawn else None

    def forget(self) -> None:
        """The screen left its table (another table, no match): nothing of it was seen."""
        self._drawn = []
