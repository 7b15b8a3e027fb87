"""What a stroke may claim, checked against the board before the laws apply it: no more
coins pocketed or thrown off than are on the board, the queen at most once, and nothing
pocketed by a break that touched no coin (law 44)."""

from __future__ import annotations

from kiosk.rules.carrom.core import COLOUR_NAMES, Core
from kiosk.rules.carrom.errors import N_, IllegalEvent, worded
from kiosk.rules.carrom.events import Stroke


def check_stroke(c: Core, s: Stroke) -> None:
    """Refuse a stroke that pockets or throws off more than the board holds."""
    for colour, on in zip(COLOUR_NAMES, c.on, strict=True):
        gone = s.pocketed.count(colour) + s.off_board.count(colour)
        if gone > on:
            raise IllegalEvent.of(
                "more_coins_than_on_board",
                N_(
                    "{gone} {colour} coin(s) pocketed or off the board, "
                    "but only {on} {colour} are on the board"
                ),
                gone=gone,
                colour=worded(colour),
                on=on,
            )
    queens = s.pocketed.count("queen") + s.off_board.count("queen")
    if queens > (1 if c.queen_on else 0):
        if c.queen_on:
            raise IllegalEvent.of(
                "queen_twice",
                N_("the queen is on the board once: it cannot be pocketed or go off that often"),
            )
        raise IllegalEvent.of(
            "queen_not_on_board",
            N_("the queen is not on the board: it cannot be pocketed or go off that often"),
        )
    if not c.broken and not s.touched and (s.pocketed or set(s.off_board) - {"striker"}):
        raise IllegalEvent.of(
            "untouched_break_pockets",
            N_("a break that touched no coin cannot pocket a coin or throw one off (law {law})"),
            law="44",
        )
