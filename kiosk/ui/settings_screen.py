"""Settings behind the umpire PIN: beam and buzzer pins, the buzzer's volume and a test,
timer lengths, the player display (its digits, what it shows, its language, its serial
port), the console's language, the camera.

The screen holds the values being edited; `save()` checks them all with
kiosk.config.with_values (the same checks as a settings file, every problem named by
its key) and hands the result to `Services.save_settings`. Nothing is kept until the
whole set is valid.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from kiosk.config import ConfigError, Settings, with_values
from kiosk.ui.i18n import LANGUAGES, Said, apply_languages, ptr, tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.lock import allowed
from kiosk.ui.widgets import ToggleChip
from kiosk.ui.words import N_

#: The timer keys the screen edits, with their labels (laws 50, 46, 88, 87 a).
TIMERS = (
    ("stroke_s", "Stroke (law 50)"),
    ("break_s", "Break (law 46)"),
    ("placing_s", "Placing (law 88)"),
    ("waive_s", "Waive decision (law 87 a)"),
)


class LanguageRow(BoxLayout):
    """A caption and a chip per language, each named in its own script ("": as the console).
    Tapping one fires `on_pick(code)`."""

    caption = StringProperty("")
    chosen = StringProperty("")
    codes = ListProperty([])
    __events__ = ("on_pick",)

    def __init__(self, **kw: object) -> None:
        super().__init__(**kw)
        tr.on_switch(self._reword)

    def on_codes(self, _row: object, codes: list[str]) -> None:
        for child in [c for c in self.children if isinstance(c, ToggleChip)]:
            self.remove_widget(child)
        for code in codes:
            chip = ToggleChip()
            chip.code = code
            chip.bind(on_release=lambda c: self.dispatch("on_pick", c.code))
            self.add_widget(chip)
        self._reword()

    def on_chosen(self, *_: object) -> None:
        self._reword()

    def _reword(self) -> None:
        for chip in self.children:
            if isinstance(chip, ToggleChip):
                chip.text = LANGUAGES.get(chip.code) or tr._("Same")
                chip.chosen = chip.code == self.chosen

    def on_pick(self, code: str) -> None:
        pass


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
    #: The console's language and the player display's ("": the console's), [ui] settings.
    language = StringProperty("en")
    display_language = StringProperty("")
    #: [buzzer] volume (percent); what the last buzzer test did.
    volume = NumericProperty(100)
    buzzer_seen = StringProperty("")
    #: [players]: the digits' height in percent of the screen's, and what is shown.
    digits = NumericProperty(22)
    show_score = BooleanProperty(True)
    show_timer = BooleanProperty(True)
    show_status = BooleanProperty(True)

    def __init__(
        self,
        get: Callable[[], Settings],
        put: Callable[[Settings], None],
        sound: Callable[[float], int] | None = None,
        **kw: object,
    ) -> None:
        super().__init__(**kw)
        self._get = get
        self._put = put
        #: Sounds the kiosk's buzzers at a volume (0-1); how many there are.
        self._sound = sound
        self._said = Said(self)

    def on_pre_enter(self, *_: object) -> None:
        self.load(self._get())

    def load(self, settings: Settings) -> None:
        self.pins = list(settings.pockets.pins)
        self.buzzer_pin = [settings.buzzer.pin]
        for key, _ in TIMERS:
            setattr(self, key, getattr(settings.timers, key))
        self.display_port = settings.display.port
        self.volume = settings.buzzer.volume
        self.buzzer_seen = ""
        players = settings.players
        self.digits = players.digits
        self.show_score = players.show_score
        self.show_timer = players.show_timer
        self.show_status = players.show_status
        # The languages in use (a tap switched them at once, before any save).
        self.language = tr.language
        self.display_language = "" if ptr.language == tr.language else ptr.language
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
        elif key == "volume":
            self.volume = min(100, max(0, int(self.volume) + 10 * delta))
        elif key == "digits":
            self.digits = min(30, max(20, int(self.digits) + delta))
        elif key.startswith("pin"):
            pins = list(self.pins)
            pocket = int(key[3:]) - 1
            pins[pocket] = (pins[pocket] + delta) % 28
            self.pins = pins
        else:
            setattr(self, key, max(1.0, float(getattr(self, key)) + delta))

    def test_buzzer(self) -> None:
        """A double beep at the volume on screen (kept for this run; Save keeps it for good)."""
        count = self._sound(int(self.volume) / 100) if self._sound is not None else 0
        if not count:
            self.buzzer_seen = tr._("No buzzer on this kiosk")
        elif int(self.volume) == 0:
            self.buzzer_seen = tr._("Volume 0: the buzzer is muted")
        else:
            self.buzzer_seen = tr._("Beep: the buzzer sounded ({n} percent)", n=int(self.volume))

    def choose_language(self, which: str, code: str) -> None:
        """A language chip: the switch takes effect at once; Save keeps it for the next start."""
        if which == "console":
            self.language = code
        else:
            self.display_language = code
        apply_languages(self.language, self.display_language)

    def save(self) -> bool:
        """Check and keep the edited settings; the message names every bad key. The
        director's, checked again at the tap (the director's window may be over):
        else the PIN pad asks, and the save runs once the PIN is given."""
        if not allowed("settings", self.save):
            return False
        try:
            settings = with_values(
                self._get(),
                pockets={"pins": list(self.pins)},
                buzzer={"pin": self.buzzer_pin[0], "volume": int(self.volume)},
                timers={key: float(getattr(self, key)) for key, _ in TIMERS},
                display={"port": self.display_port.strip()},
                ui={"language": self.language, "display_language": self.display_language},
                players={
                    "digits": int(self.digits),
                    "show_score": self.show_score,
                    "show_timer": self.show_timer,
                    "show_status": self.show_status,
                },
            )
        except ConfigError as exc:
            self.refused = True
            self._said.say(
                N_("Not saved: {problems}"),
                problems="; ".join(f"{p.key} {p.message}" for p in exc.problems),
            )
            return False
        try:
            self._put(settings)
        except OSError as exc:
            self.refused = True
            self._said.say(
                N_("Not saved: cannot write the settings ({error})"), error=exc.strerror or exc
            )
            return False
        self.refused = False
        self._said.say(N_("Saved. Pins and ports take effect at the next start."))
        return True


load_kv(__file__)
