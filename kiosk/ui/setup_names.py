"""The name a setup's blank seat plays under (the carrom and backgammon setups).

The fields show it as a hint, in the console's language, rather than holding it as text: a
pre-filled English name had to be erased, letter by letter, on a Hindi or Greek screen.
"""

from __future__ import annotations

from kiosk.ui.i18n import tr

#: The seats' letters, as the hints name them.
SEAT_LETTERS = "ABCD"


def default_name(seat: int) -> str:
    """Seat `seat`'s name when none was typed: "Player A", "Player B", ..."""
    return tr._("Player {letter}", letter=SEAT_LETTERS[seat])
