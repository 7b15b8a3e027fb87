"""What a sign on screen may say happened, from the parts themselves (Kivy-free).

"Buzzer sounded" is said only when a buzzer was there to sound it: the table's outputs hold a
buzzer (kiosk/parts/outputs.py `BuzzerOutput`) that opened its pin, is not set silent or
muted, and has raised nothing (`health()`). A kiosk whose buzzer did not start has no such
output: the parts screen said "no sound", and the console says "Buzzer silent: check it".
"""

from __future__ import annotations

from collections.abc import Iterable

from kiosk.engine.outputs import Output
from kiosk.parts.outputs import BuzzerOutput


def buzzer_played(outputs: Iterable[Output]) -> bool:
    """True when one of `outputs` is a buzzer that can have played the sound it was given."""
    for output in outputs:
        if not isinstance(output, BuzzerOutput):
            continue
        player = output.player
        silent = bool(getattr(player, "silent", False))
        muted = float(getattr(player, "volume", 1.0)) <= 0
        if not silent and not muted and output.health() is None:
            return True
    return False
