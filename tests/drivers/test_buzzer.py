"""The buzzer player on MockFactory pins (MockPWMPin for the TonalBuzzer)."""

from __future__ import annotations

import threading

import pytest
from gpiozero import Buzzer

from drivers.buzzer import BuzzerPlayer
from drivers.errors import PinError
from drivers.mockpins import ClockedMockFactory, Level
from drivers.simulated import ManualClock
from kiosk.clocks.patterns import DOUBLE_BEEP, LONG_BUZZ, TICK, Pattern, Tone


class GatedSleep:
    """Advances the fake clock instead of waiting; can hold the worker inside a
    tone until the test opens the gate (to queue patterns behind it)."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.gate = threading.Event()
        self.gate.set()
        self.inside = threading.Event()

    def __call__(self, seconds: float) -> None:
        self.inside.set()
        assert self.gate.wait(5.0), "the test never opened the gate"
        self.clock.advance(seconds)


def tones(levels: list[Level]) -> list[tuple[float, float | None]]:
    """(time, frequency) of each change that starts or stops a sound."""
    out: list[tuple[float, float | None]] = []
    for level in levels:
        sound = level.frequency if level.value > 0 else None
        if (out[-1][1] if out else None) != sound:  # the pin starts silent
            out.append((round(level.t, 6), None if sound is None else round(sound, 3)))
    return out


def test_buzzer_plain_plays_double_beep_in_order_with_durations() -> None:
    clock = ManualClock(0.0)
    factory = ClockedMockFactory(clock)
    with BuzzerPlayer(18, pin_factory=factory, sleep=GatedSleep(clock)) as player:
        pin = factory.pin(18)
        pin.clear_states()
        player.play(DOUBLE_BEEP)
        assert player.wait_idle(5.0)
        assert player.played == 1
    # on 0.1 s, off 0.1 s, on 0.1 s, off: each PinState holds the time since the last change
    assert [s.state for s in pin.states] == [False, True, False, True, False]
    assert [round(s.timestamp, 6) for s in pin.states[2:]] == [0.1, 0.1, 0.1]


def test_buzzer_play_does_not_block_the_caller() -> None:
    clock = ManualClock(0.0)
    sleep = GatedSleep(clock)
    sleep.gate.clear()
    factory = ClockedMockFactory(clock)
    with BuzzerPlayer(18, pin_factory=factory, sleep=sleep) as player:
        player.play(LONG_BUZZ)  # returns while the worker is held inside the tone
        assert sleep.inside.wait(5.0)
        assert player.busy
        assert factory.pin(18).state
        sleep.gate.set()
        assert player.wait_idle(5.0)
        assert not factory.pin(18).state


def test_buzzer_tonal_plays_the_pitches_on_a_pwm_pin() -> None:
    clock = ManualClock(0.0)
    factory = ClockedMockFactory(clock, pwm=True)
    with BuzzerPlayer(12, tonal=True, pin_factory=factory, sleep=GatedSleep(clock)) as player:
        pin = factory.pin(12)
        pin.clear_states()
        player.play((Tone(0.05, 2500.0), Tone(0.05, None), Tone(0.2, 1500.0)))
        assert player.wait_idle(5.0)
    assert tones(pin.levels) == [(0.0, 2500.0), (0.05, None), (0.1, 1500.0), (0.3, None)]


def test_buzzer_tonal_clamps_a_pitch_outside_its_range() -> None:
    clock = ManualClock(0.0)
    factory = ClockedMockFactory(clock, pwm=True)
    with BuzzerPlayer(12, tonal=True, pin_factory=factory, sleep=GatedSleep(clock)) as player:
        pin = factory.pin(12)
        pin.clear_states()
        player.play((Tone(0.1, 100.0), Tone(0.1, 9000.0)))
        assert player.wait_idle(5.0)
        assert player.last_error is None
    # A6 with one octave each way: 880 Hz to 3520 Hz
    assert tones(pin.levels) == [(0.0, 880.0), (0.1, 3520.0), (0.2, None)]


def test_buzzer_newer_pattern_replaces_the_one_waiting() -> None:
    clock = ManualClock(0.0)
    sleep = GatedSleep(clock)
    sleep.gate.clear()
    factory = ClockedMockFactory(clock, pwm=True)
    first: Pattern = (Tone(0.1, 1000.0),)
    second: Pattern = (Tone(0.1, 2000.0),)
    third: Pattern = (Tone(0.1, 3000.0),)
    with BuzzerPlayer(12, tonal=True, pin_factory=factory, sleep=sleep) as player:
        pin = factory.pin(12)
        pin.clear_states()
        player.play(first)
        assert sleep.inside.wait(5.0)
        player.play(second)
        player.play(third)  # second never plays
        sleep.gate.set()
        assert player.wait_idle(5.0)
        assert player.played == 2
    assert [f for _, f in tones(pin.levels) if f is not None] == [1000.0, 3000.0]


def test_buzzer_interrupt_cuts_the_pattern_playing() -> None:
    clock = ManualClock(0.0)
    sleep = GatedSleep(clock)
    sleep.gate.clear()
    factory = ClockedMockFactory(clock, pwm=True)
    with BuzzerPlayer(12, tonal=True, pin_factory=factory, sleep=sleep) as player:
        pin = factory.pin(12)
        pin.clear_states()
        player.play((Tone(0.1, 1000.0), Tone(0.1, 1100.0), Tone(0.1, 1200.0)))
        assert sleep.inside.wait(5.0)
        player.play(TICK, interrupt=True)
        sleep.gate.set()
        assert player.wait_idle(5.0)
    assert [f for _, f in tones(pin.levels) if f is not None] == [1000.0, 2500.0]


def test_buzzer_silent_setting_opens_no_pin_and_plays_nothing() -> None:
    factory = ClockedMockFactory()
    with BuzzerPlayer(18, silent=True, pin_factory=factory) as player:
        player.play(DOUBLE_BEEP)
        assert player.wait_idle(1.0)
        assert player.played == 0
        Buzzer(18, pin_factory=factory).close()  # the pin is free for anyone


def test_buzzer_pin_in_use_is_named() -> None:
    factory = ClockedMockFactory()
    other = Buzzer(18, pin_factory=factory)
    try:
        with pytest.raises(PinError, match=r"buzzer, GPIO pin 18: already in use"):
            BuzzerPlayer(18, pin_factory=factory)
    finally:
        other.close()


def test_buzzer_tonal_needs_a_pwm_pin_and_says_which() -> None:
    with pytest.raises(PinError, match=r"buzzer, GPIO pin 12"):
        BuzzerPlayer(12, tonal=True, pin_factory=ClockedMockFactory())


def test_buzzer_default_sleep_is_cut_short_by_close() -> None:
    factory = ClockedMockFactory()
    player = BuzzerPlayer(18, pin_factory=factory)
    player.play((Tone(30.0),))  # real wait, but close must not wait 30 s
    thread = player._thread
    player.close()
    assert not thread.is_alive()


def test_buzzer_volume_sets_a_piezos_duty_cycle() -> None:
    clock = ManualClock(0.0)
    factory = ClockedMockFactory(clock, pwm=True)
    with BuzzerPlayer(
        12, tonal=True, pin_factory=factory, sleep=GatedSleep(clock), volume=0.4
    ) as player:
        pin = factory.pin(12)
        pin.clear_states()
        player.play((Tone(0.1, 2000.0),))
        assert player.wait_idle(5.0)
        loud = [s.state for s in pin.states if s.state > 0]
        player.volume = 1.0
        pin.clear_states()
        player.play((Tone(0.1, 2000.0),))
        assert player.wait_idle(5.0)
        full = [s.state for s in pin.states if s.state > 0]
    assert loud[-1] == pytest.approx(0.2)  # 40 % of the loudest, half duty
    assert full[-1] == pytest.approx(0.5)


def test_buzzer_volume_zero_mutes_an_on_off_buzzer() -> None:
    clock = ManualClock(0.0)
    factory = ClockedMockFactory(clock)
    with BuzzerPlayer(18, pin_factory=factory, sleep=GatedSleep(clock), volume=0.0) as player:
        pin = factory.pin(18)
        pin.clear_states()
        player.play(DOUBLE_BEEP)
        assert player.wait_idle(5.0)
        assert player.played == 1
    assert not any(s.state for s in pin.states)
