"""The app's tick: it comes at the turn timer's deadlines (a warning sounds at its deadline, not
at the next 50 ms refresh), and at once for a sensor's input from another thread. A stopped
app lets go of the window it shared."""

from __future__ import annotations

import gc
import threading
import time
import weakref
from collections.abc import Callable

import pytest

from drivers.hits import BeamHit
from kiosk.clocks.patterns import LONG_BUZZ, SHORT_BEEP, TICK, Pattern
from kiosk.engine.outputs import OutputBase
from kiosk.ui.app import TICK_S

from .harness import FakeClock, Kiosk, Services, fit_output, make_kiosk, pump


class _Stamped(OutputBase):
    """An output beside the buzzer that notes the clock's time of each pattern it is given."""

    name = "stamped"

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.sounds: list[tuple[float, Pattern]] = []

    def sound(self, pattern: Pattern) -> None:
        self.sounds.append((self.clock(), pattern))


def _play(kiosk: Kiosk) -> _Stamped:
    """A carrom match started and the umpire's "play": the break count runs (law 46)."""
    stamped = _Stamped(kiosk.clock)
    fit_output(kiosk, stamped)  # before the session is made: it speaks to all
    kiosk.tap("carrom_icf")
    kiosk.tap("start")
    kiosk.tap("play")
    return stamped


def test_app_tick_sounds_the_break_count_warnings_at_their_deadlines_law_46(
    kiosk: Kiosk,
) -> None:
    stamped = _play(kiosk)
    app = kiosk.app
    warning = kiosk.screen().session.next_deadline()  # 5 s left of 15 (law 46)
    assert warning is not None
    # 20 ms before the warning: the app asks Kivy for its next tick at the warning, not at
    # the 50 ms refresh.
    kiosk.advance(warning - 0.02 - kiosk.clock())
    assert stamped.sounds == []
    assert app.next_tick_in == pytest.approx(0.02)
    # The fake clock reaches the warning when that tick comes; Kivy's loop delivers it.
    kiosk.clock.advance(app.next_tick_in)
    limit = time.monotonic() + 5.0
    while not stamped.sounds and time.monotonic() < limit:
        pump(1)
    assert [p for _t, p in stamped.sounds] == [SHORT_BEEP]
    assert stamped.sounds[0][0] == pytest.approx(warning, abs=1e-9)
    # The rest of the count with time passing as the app asks: each step moves the fake clock
    # to the tick the app scheduled and runs it. The ticks at 3, 2, 1 s left and the long
    # buzz at 0 sound exactly at their deadlines.
    while kiosk.clock() < warning + 5.5:
        assert 0.0 < app.next_tick_in <= TICK_S
        kiosk.clock.advance(app.next_tick_in)
        app.tick()
    assert [p for _t, p in stamped.sounds[1:]] == [TICK, TICK, TICK, LONG_BUZZ]
    after = [t - warning for t, _p in stamped.sounds[1:]]
    assert after == pytest.approx([2.0, 3.0, 4.0, 5.0], abs=1e-9)
    kiosk.advance(0.0)
    assert kiosk.screen().timer == "0"


def test_app_input_from_a_sensor_thread_wakes_the_tick_at_once(kiosk: Kiosk) -> None:
    kiosk.tap("carrom_icf")
    kiosk.tap("start")
    session = kiosk.screen().session
    assert kiosk.app.next_tick is not None
    kiosk.app.next_tick.cancel()  # no tick due: only the input's wake-up can take it
    hit = BeamHit(2, kiosk.clock(), 0.01)
    sensor = threading.Thread(target=kiosk.services.tables.post, args=(hit,))
    sensor.start()
    sensor.join()
    pump(1)  # one turn of Kivy's loop
    assert session.view().proposal.hits == 1


def test_a_stopped_app_lets_go_of_the_window(services: Services, fake_clock: FakeClock) -> None:
    """The window outlives the app: a stopped app's trims and keys must not answer its frames
    (in one process of tests, 30 stopped apps each collected the garbage after every frame)."""
    running = make_kiosk(services, fake_clock)
    kiosk = next(running)
    kiosk.tap("carrom_icf")
    kiosk.tap("start")
    gone = weakref.ref(kiosk.app)
    del kiosk
    running.close()
    gc.collect()
    assert gone() is None
