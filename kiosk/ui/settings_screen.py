"""Settings behind the umpire PIN: beam and buzzer pins, timer lengths, display port, camera.

The screen holds the values being edited; `save()` checks them all with
kiosk.config.with_values (the same checks as a settings file, every problem named by
its key) and hands the result to `Services.save_settings`. Nothing is kept until the
whole set is valid.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.config import ConfigError, Settings, with_values
from kiosk.ui.kvload import load_kv

#: The timer keys the screen edits, with their labels (laws 50, 46, 88, 87 a).
TIMERS = (
    ("stroke_s", "Stroke (law 50)"),
    ("break_s", "Break (law 46)"),
    ("placing_s", "Placing (law 88)"),
    ("waive_s", "Waive decision (law 87 a)"),
)


class SettingsScreen(Screen):
    """Pins, timers, display port; `message` reports a save or the problems found."""

    pins = ListProperty([17, 27, 22, 23])
    buzzer_pin = ListProperty([18])
    stroke_s = NumericProperty(15.0)
    break_s = NumericProperty(15.0)
    placing_s = NumericProperty(15.0)
    waive_s = NumericProperty(15.0)
    display_port = StringProperty("")
    calibration = StringProperty("")
    message = StringProperty("")
    refused = BooleanProperty(False)

    def __init__(
        self,
        get: Callable[[], Settings],
        put: Callable[[Settings], None],
        **kw: object,
    ) -> None:
        super().__init__(**kw)
        self._get = get
        self._put = put

    def on_pre_enter(self, *_: object) -> None:
        self.load(self._get())

    def load(self, settings: Settings) -> None:
        self.pins = list(settings.pockets.pins)
        self.buzzer_pin = [settings.buzzer.pin]
        for key, _ in TIMERS:
            setattr(self, key, getattr(settings.timers, key))
        self.display_port = settings.display.port
        points = settings.camera.calibration
        self.calibration = (
            "not calibrated"
            if not points
            else "  ".join(f"{i}: ({x:.0f}, {y:.0f})" for i, (x, y) in enumerate(points, 1))
        )
        self.message = ""
        self.refused = False

    def step(self, key: str, delta: int) -> None:
        """A stepper's - or +: "pin1".."pin4" and "buzzer" move a BCM pin (wrapping within
        0-27); a timer key moves that timer by `delta` seconds (at least 1 s)."""
        if key == "buzzer":
            self.buzzer_pin = [(self.buzzer_pin[0] + delta) % 28]
        elif key.startswith("pin"):
            pins = list(self.pins)
            pocket = int(key[3:]) - 1
            pins[pocket] = (pins[pocket] + delta) % 28
            self.pins = pins
        else:
            setattr(self, key, max(1.0, float(getattr(self, key)) + delta))

    def save(self) -> bool:
        """Check and keep the edited settings; the message names every bad key."""
        try:
            settings = with_values(
                self._get(),
                pockets={"pins": list(self.pins)},
                buzzer={"pin": self.buzzer_pin[0]},
                timers={key: float(getattr(self, key)) for key, _ in TIMERS},
                display={"port": self.display_port.strip()},
            )
        except ConfigError as exc:
            self.refused = True
            self.message = "Not saved: " + "; ".join(f"{p.key} {p.message}" for p in exc.problems)
            return False
        try:
            self._put(settings)
        except OSError as exc:
            self.refused = True
            self.message = f"Not saved: cannot write the settings ({exc.strerror or exc})"
            return False
        self.refused = False
        self.message = "Saved. Pins and ports take effect at the next start."
        return True


load_kv(__file__)
