""" "Dues placed" with nothing owed is refused, with real taps under Xvfb:
before, it was taken, its line went to the strip and the stroke's 15 s replaced the break's
count. The rules core says whether anything is to place (law 88)."""

from __future__ import annotations

from .harness import Kiosk
from .test_carrom import _setup


def test_dues_placed_with_nothing_owed_is_refused_and_keeps_the_break_timer_law_88(
    kiosk: Kiosk,
) -> None:
    _setup(kiosk)
    screen = kiosk.screen()
    kiosk.tap("play")  # 15 s to break (law 46)
    kiosk.advance(3.0)
    assert screen.timer == "12" and screen.timer_kind.startswith("Break")
    kiosk.tap("dues_placed")
    assert screen.error == "Nothing to place: no dues or penalties are owed (law 88)"
    assert screen.ids.banner.text == screen.error  # said where everyone looks
    assert screen.timer == "12" and screen.timer_kind.startswith("Break"), screen.timer_kind
    assert not any("Dues placed" in line for line in screen.rulings), screen.rulings
    kiosk.shot("carrom_dues_refused")
