"""The harness lets a stopped kiosk go (harness.py `_let_go`). What Kivy's globals held of a
test's app (the last touches, the last text field typed in, a running animation) kept its
whole widget tree alive into the next tests, where each language switch worded its labels
again: the fit story at its second size took 2.4 times as long as alone."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from kivy.animation import Animation
from kivy.uix.label import Label

from .harness import FakeClock, Services, make_kiosk


def test_a_stopped_kiosk_is_collected_after_taps_typing_and_an_animation(tmp_path: Path) -> None:
    clock = FakeClock(1000.0)
    # Its own parts, let go with it (the fixtures' live until the test's teardown).
    running = make_kiosk(
        Services(data_dir=tmp_path, check_pin=lambda _pin: False, clock=clock), clock
    )
    kiosk = next(running)
    kiosk.tap("carrom_icf")
    kiosk.type("name_0", "Asha")  # typed: the field keeps the keyboard, TextInput's trigger
    screen = kiosk.screen()
    assert screen.name == "setup_carrom"
    Animation(opacity=0.5, duration=60).start(screen.ids.name_0)  # still running at the end
    kiosk.tap("limit_none")  # the last tap: Kivy's double and triple tap keep its touches
    held = [weakref.ref(w) for w in screen.walk(restrict=True) if isinstance(w, Label)]
    held.append(weakref.ref(screen))
    del kiosk, screen
    running.close()
    gc.collect()
    alive = [type(ref()).__name__ for ref in held if ref() is not None]
    assert not alive, f"{len(alive)} of the stopped kiosk's widgets live on: {alive[:5]}"
