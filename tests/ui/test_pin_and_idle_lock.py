"""The PIN pad answers OK at once, and the idle lock closes what a role left open.

"Checking the PIN" is on the screen before the PIN is checked, and no key counts until the
answer. The check itself (two PBKDF2 hashes, the journal's note written through, then the
tap it unlocks) ran inside the touch, 2-3 s on a Pi with nothing moving, which invited a
second OK."""

from __future__ import annotations

from pathlib import Path

import pytest
from kivy.core.window import Window

from kiosk.access.authority import Role

from .harness import UMPIRE_PIN, FakeClock, Kiosk, Services, answered, pinned, pump, type_pin


@pytest.fixture
def services(tmp_path: Path, fake_clock: FakeClock) -> Services:
    return pinned(tmp_path, fake_clock)


def test_pin_ok_says_checking_on_screen_before_the_check_and_takes_no_second_ok(
    kiosk: Kiosk,
) -> None:
    gate = kiosk.app.gate
    pad = gate.pad
    kiosk.tap("carrom_icf")
    kiosk.tap("start")  # a new match: the umpire's
    assert gate.is_open
    for digit in UMPIRE_PIN:
        kiosk.tap(pad.ids[f"pad_{digit}"])
    flips = [0]
    Window.bind(on_flip=lambda *_: flips.__setitem__(0, flips[0] + 1))
    at_ok: list[int] = []
    pad.bind(on_pin=lambda *_: at_ok.append(flips[0]))
    seen: list[tuple[str, bool, int]] = []
    real = gate.authority._check

    def check(role: Role, pin: str) -> bool:
        if not seen:
            seen.append((pad.message, getattr(pad, "checking", False), flips[0]))
            pad.press("5")  # taps while the PIN is checked count for nothing
            pad.press("ok")
        return real(role, pin)

    gate.authority._check = check
    kiosk.tap(pad.ids.pad_ok)
    answered(pad)
    assert at_ok and seen
    message, checking, flipped = seen[0]
    assert message == "Checking the PIN" and checking
    assert flipped > at_ok[0], "the check ran before the pad said so on the screen"
    assert not gate.is_open and kiosk.current == "carrom"
    assert pad.digits == "" and not getattr(pad, "checking", False)
    assert gate.authority.role(kiosk.clock()) is Role.UMPIRE


def test_idle_lock_closes_the_close_question_left_open_at_home(kiosk: Kiosk) -> None:
    """The director's question left open on home (close a table?) stayed open through the
    idle lock, for the next player to tap."""
    gate = kiosk.app.gate
    kiosk.tap("carrom_icf")
    kiosk.tap("start")
    type_pin(kiosk, UMPIRE_PIN)
    assert kiosk.current == "carrom"
    kiosk.app.show("home")
    pump(4)
    home = kiosk.screen()
    kiosk.tap("close_0")
    assert home.closing == 0
    kiosk.advance(6 * 60.0)  # idle: locked
    assert gate.authority.role(kiosk.clock()) is Role.PLAYER
    assert home.closing == -1
