"""The buzzer: plays the timers' patterns (kiosk/clocks/patterns.py) on a pin.

`play()` returns at once; a worker thread plays the tones. One pattern waits
at most: a newer one replaces a waiting one (the timers only care about the
latest warning), and `interrupt=True` also cuts the one playing. A plain
buzzer (gpiozero Buzzer) sounds every tone with a pitch; a TonalBuzzer plays
the pitch, clamped into its range. `silent` opens no pin and plays nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from gpiozero import Buzzer, TonalBuzzer
from gpiozero.exc import BadPinFactory, GPIODeviceError
from gpiozero.exc import PinError as GpioPinError
from gpiozero.tones import Tone as GpioTone

from drivers.closing import Closing
from drivers.errors import PinError, PinFactoryError, pin_error
from kiosk.clocks.patterns import Pattern, Tone


class BuzzerPlayer(Closing):
    """Plays patterns on `pin` without blocking the caller.

    `sleep(seconds)` is how the worker waits out a tone; tests inject one that
    advances a fake clock. The default wait is cut short by `interrupt` or
    `close`.
    """

    def __init__(
        self,
        pin: int | str | None,
        *,
        tonal: bool = False,
        silent: bool = False,
        pin_factory: Any = None,
        sleep: Callable[[float], None] | None = None,
        mid_tone: str = "A6",
        octaves: int = 1,
        volume: float = 1.0,
    ) -> None:
        self.tonal = tonal
        self.silent = silent
        #: 0 to 1: a piezo's PWM duty (half of the period at 1, its loudest); an on/off
        #: buzzer has one loudness, so it only mutes at 0. May be changed while playing.
        self.volume = volume
        self.last_error: str | None = None
        self.played = 0  # patterns played to the end
        self._device: Any = None
        if not silent:
            try:
                if tonal:
                    self._device = TonalBuzzer(
                        pin, mid_tone=GpioTone(mid_tone), octaves=octaves, pin_factory=pin_factory
                    )
                else:
                    self._device = Buzzer(pin, pin_factory=pin_factory)
            except BadPinFactory as exc:
                raise PinFactoryError(f"no GPIO pin factory can start here: {exc}") from exc
            except (GPIODeviceError, GpioPinError) as exc:
                raise pin_error("buzzer", pin, exc) from exc
            except Exception as exc:  # e.g. lgpio.error "GPIO busy": held by another process
                raise PinError("buzzer", pin, str(exc) or type(exc).__name__) from exc
        self._cond = threading.Condition()
        self._cut = threading.Event()  # set: stop the tone playing now
        self._waiting: Pattern | None = None
        self._busy = False
        self._closed = False
        self._sleep = sleep if sleep is not None else self._cut.wait
        self._thread = threading.Thread(target=self._run, name="buzzer", daemon=True)
        self._thread.start()

    def play(self, pattern: Pattern, *, interrupt: bool = False) -> None:
        """Queues `pattern`, replacing one still waiting; never blocks or raises
        for the device (errors are kept in `last_error`)."""
        if self.silent or not pattern:
            return
        with self._cond:
            if self._closed:
                return
            self._waiting = pattern
            if interrupt:
                self._cut.set()
            self._cond.notify_all()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Blocks until nothing is playing or waiting; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._busy and self._waiting is None, timeout)

    @property
    def busy(self) -> bool:
        with self._cond:
            return self._busy or self._waiting is not None

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._closed or self._waiting is not None)
                if self._closed:
                    return
                pattern, self._waiting = self._waiting, None
                self._busy = True
                self._cut.clear()
            assert pattern is not None
            try:
                for tone in pattern:
                    if self._cut.is_set():
                        break
                    self._sound(tone)
                    self._sleep(tone.seconds)
                else:
                    self.played += 1
            except Exception as exc:  # a device error must not end the worker
                self.last_error = f"buzzer: {exc}"
            finally:
                self._quiet()
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def _sound(self, tone: Tone) -> None:
        if self._device is None:
            return
        if tone.hz is None:
            self._quiet()
        elif self.tonal:
            low = self._device.min_tone.frequency
            high = self._device.max_tone.frequency
            # As gpiozero's TonalBuzzer.play, but at the volume's duty (half: the loudest a
            # piezo goes), set at once so no tone starts at full volume.
            pwm = self._device.pwm_device
            pwm.pin.frequency = min(max(tone.hz, low), high)
            pwm.value = 0.5 * min(1.0, max(0.0, self.volume))
        elif self.volume > 0:
            self._device.on()

    def _quiet(self) -> None:
        if self._device is None:
            return
        try:
            if self.tonal:
                self._device.stop()
            else:
                self._device.off()
        except Exception as exc:
            self.last_error = f"buzzer: {exc}"

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cut.set()
            self._cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        if self._device is not None:
            self._device.close()
            self._device = None
