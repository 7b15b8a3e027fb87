"""PocketBeams through gpiozero's MockFactory pins (drive_low: the beam breaks)."""

from __future__ import annotations

import queue

import pytest
from gpiozero import Buzzer

from drivers.errors import DriverError, PinError
from drivers.hits import BeamFault, BeamHit, BeamReport
from drivers.mockpins import ClockedMockFactory
from drivers.pinfactory import make_pin_factory
from drivers.pockets import PocketBeams
from drivers.simulated import ManualClock

PINS = (17, 27, 22, 23)


def make(
    clock: ManualClock, *, factory: ClockedMockFactory | None = None, **kw: float
) -> tuple[PocketBeams, list[BeamReport]]:
    out: list[BeamReport] = []
    factory = factory or ClockedMockFactory(clock)
    return PocketBeams(PINS, sink=out.append, pin_factory=factory, clock=clock, **kw), out


def test_beams_edges_on_the_pins_become_hits_with_pocket_time_and_duration() -> None:
    clock = ManualClock(100.0)
    beams, out = make(clock)
    with beams:
        pin = beams.pin_of(3)
        pin.drive_low()
        clock.advance(0.014)
        pin.drive_high()
    assert out == [BeamHit(3, 100.0, pytest.approx(0.014))]


def test_beams_pockets_follow_the_pin_order() -> None:
    clock = ManualClock(1.0)
    beams, out = make(clock)
    with beams:
        for pocket in (4, 1, 2):
            beams.pin_of(pocket).drive_low()
            clock.advance(0.01)
            beams.pin_of(pocket).drive_high()
            clock.advance(0.05)
        assert str(beams.pin_of(1)) == "GPIO17" and str(beams.pin_of(4)) == "GPIO23"
    assert [r.pocket for r in out] == [4, 1, 2]


def test_beams_posts_to_a_queue_sink() -> None:
    clock = ManualClock(0.0)
    q: queue.Queue[BeamReport] = queue.Queue()
    with PocketBeams(PINS, sink=q.put, pin_factory=ClockedMockFactory(clock), clock=clock) as b:
        b.pin_of(2).drive_low()
        clock.advance(0.02)
        b.pin_of(2).drive_high()
    assert q.get_nowait() == BeamHit(2, 0.0, pytest.approx(0.02))


def test_beams_glitch_setting_drops_short_pulses_on_the_pins() -> None:
    clock = ManualClock(0.0)
    beams, out = make(clock, glitch_s=0.002)
    with beams:
        beams.pin_of(1).drive_low()
        clock.advance(0.0015)
        beams.pin_of(1).drive_high()
    assert out == []


def test_beams_stuck_beam_is_reported_by_poll_and_others_keep_working() -> None:
    clock = ManualClock(0.0)
    beams, out = make(clock, stuck_s=2.0)
    with beams:
        beams.pin_of(2).drive_low()
        assert beams.next_deadline() == 2.0
        clock.set(2.5)
        assert beams.poll() == [BeamFault(2, "stuck", 2.0)]
        assert beams.states()[2] == "stuck"
        beams.pin_of(4).drive_low()
        clock.advance(0.01)
        beams.pin_of(4).drive_high()
        clock.set(9.0)
        beams.pin_of(2).drive_high()
        assert beams.states() == {1: "clear", 2: "clear", 3: "clear", 4: "clear"}
    assert out == [
        BeamFault(2, "stuck", 2.0),
        BeamHit(4, 2.5, pytest.approx(0.01)),
        BeamFault(2, "cleared", 9.0),
    ]


def test_beams_blocked_at_start_are_reported_and_clear() -> None:
    clock = ManualClock(5.0)
    factory = ClockedMockFactory(clock)
    got: list[BeamReport] = []
    # Receivers driving the line both ways (no pull): a coin rests in pocket 1's
    # beam, so its line is already low when the kiosk starts.
    factory.pin(17).drive_low()
    for pin in (27, 22, 23):
        factory.pin(pin).drive_high()
    with PocketBeams(PINS, sink=got.append, pin_factory=factory, clock=clock, pull_up=None) as b:
        assert got == [BeamFault(1, "blocked_at_start", 5.0)]
        assert b.states() == {1: "stuck", 2: "clear", 3: "clear", 4: "clear"}
        clock.advance(1.0)
        b.pin_of(1).drive_high()
        assert b.states()[1] == "clear"
    assert got[-1] == BeamFault(1, "cleared", 6.0)


def test_beams_blocked_at_start_with_a_receiver_that_drives_high() -> None:
    clock = ManualClock(5.0)
    factory = ClockedMockFactory(clock)
    got: list[BeamReport] = []
    factory.pin(27).drive_high()  # the others float low: clear for these receivers
    with PocketBeams(
        PINS, sink=got.append, pin_factory=factory, clock=clock, pull_up=None, broken_high=True
    ):
        assert got == [BeamFault(2, "blocked_at_start", 5.0)]


def test_beams_pin_in_use_names_the_pocket_and_the_pin() -> None:
    factory = ClockedMockFactory()
    other = Buzzer(22, pin_factory=factory)
    try:
        with pytest.raises(PinError, match=r"pocket 3, GPIO pin 22: already in use"):
            PocketBeams(PINS, sink=print, pin_factory=factory)
        # the pockets opened before the failure were released again
        PocketBeams((*PINS[:2], 5, 6), sink=print, pin_factory=factory).close()
    finally:
        other.close()


def test_beams_missing_pin_names_the_pocket_and_the_pin() -> None:
    with pytest.raises(PinError, match=r"pocket 4, GPIO pin 99: no such GPIO pin"):
        PocketBeams((17, 27, 22, 99), sink=print, pin_factory=ClockedMockFactory())


def test_beams_pin_given_twice_names_both_pockets() -> None:
    with pytest.raises(PinError, match=r"pocket 3, GPIO pin 17: given twice \(pocket 1"):
        PocketBeams((17, 27, 17, 23), sink=print, pin_factory=ClockedMockFactory())


def test_beams_need_four_pins() -> None:
    with pytest.raises(PinError, match="need 4 pins"):
        PocketBeams((17, 27), sink=print, pin_factory=ClockedMockFactory())


def test_beams_edge_ticks_on_another_clock_are_mapped_onto_ours() -> None:
    # lgpio may stamp edges with a clock other than ours (e.g. CLOCK_REALTIME):
    # the pins here run 1000 s ahead of the kiosk clock.
    clock = ManualClock(50.0)
    factory = ClockedMockFactory(lambda: clock() + 1000.0)
    got: list[BeamReport] = []
    with PocketBeams(PINS, sink=got.append, pin_factory=factory, clock=clock) as beams:
        beams.pin_of(1).drive_low()
        clock.advance(0.01)
        beams.pin_of(1).drive_high()
    assert got == [BeamHit(1, pytest.approx(50.0), pytest.approx(0.01))]


def test_beams_pin_factory_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(make_pin_factory("mock"), ClockedMockFactory)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    assert make_pin_factory("") is None  # gpiozero's own choice
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert isinstance(make_pin_factory(""), ClockedMockFactory)
    with pytest.raises(DriverError, match=r"pockets\.pin_factory: 'nonsense'"):
        make_pin_factory("nonsense")


def test_beams_watch_thread_reports_stuck_without_polling() -> None:
    import time

    got: queue.Queue[BeamReport] = queue.Queue()
    factory = ClockedMockFactory()
    with PocketBeams(PINS, sink=got.put, pin_factory=factory, stuck_s=0.1, watch_s=0.01) as b:
        b.pin_of(4).drive_low()
        fault = got.get(timeout=2.0)  # real time: the thread's own clock is real
        assert fault == BeamFault(4, "stuck", pytest.approx(time.monotonic(), abs=1.0))
        assert fault.kind == "stuck"
