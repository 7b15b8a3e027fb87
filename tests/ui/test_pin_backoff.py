"""The PIN pad's back-off counts down and then gives way, with real taps
under Xvfb: before, the pad said "try again in 1 s" for ever once the wait was over."""

from __future__ import annotations

from kiosk.access.authority import BACKOFF_S

from .harness import Kiosk
from .harness import type_pin as _type_pin
from .test_roles import UMPIRE, _lock_by_the_display, _start_carrom
from .test_roles import services as services  # the kiosk with roles and PINs


def test_pin_backoff_counts_down_to_the_end_then_accepts_the_pin(kiosk: Kiosk) -> None:
    screen = _start_carrom(kiosk)
    gate = kiosk.app.gate
    _lock_by_the_display(kiosk)
    kiosk.tap("white_plus")  # locked: the pad asks for the umpire's PIN
    for _ in range(5):
        _type_pin(kiosk, "0000")
    assert gate.pad.message == f"Too many wrong PINs: try again in {BACKOFF_S:.0f} s"
    kiosk.advance(BACKOFF_S - 0.5)
    assert gate.pad.message == "Too many wrong PINs: try again in 1 s"
    kiosk.advance(1.0)  # the back-off is over: the pad says so and takes a PIN again
    assert "try again in" not in gate.pad.message, gate.pad.message
    assert gate.pad.message == "Locked: the umpire's PIN unlocks the console"
    assert not gate.pad.refused
    kiosk.shot("pin_backoff_over")
    _type_pin(kiosk, UMPIRE)
    assert not gate.is_open and screen.prop_white == 1
