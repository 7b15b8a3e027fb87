"""The Tableside app: one window, a screen manager, and a tick that follows the engine.

The app is the navigator: screens call `app.show(name)`, `app.choose_game(...)`,
and so on; each screen binds to properties that mirror a session's state and
calls the session's commands. Time comes only from `Services.clock`, so tests
drive the app with a fake clock. Threads (beams, camera) reach the UI only
through `Clock.schedule_once` (see `post`).

The tick is one step of the engine's `Runner` (the parts' pollers, the table in play, the
watchdog); the next tick is scheduled at the runner's next wake, the earliest deadline of the
table in play (a turn timer's warning or expiry sounds at its deadline), at most `TICK_S`
away so the time left on the screen keeps moving.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.app import App
from kivy.clock import Clock, ClockEvent
from kivy.core.window import Window
from kivy.properties import NumericProperty
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from kiosk.access.authority import Role
from kiosk.config import Settings
from kiosk.engine.journal import JournalError
from kiosk.errors import Refused
from kiosk.parts.outputs import BuzzerOutput
from kiosk.runner import Runner
from kiosk.tables.bhukhar_table import TableFileError
from kiosk.tables.registry import AnyTable, CarromStart, ClockStart, Start
from kiosk.ui import widgets as _widgets  # noqa: F401  (registers the shared styles)
from kiosk.ui.backgammon import BackgammonScreen, BackgammonSetupScreen
from kiosk.ui.bhukhar import BhukharScreen
from kiosk.ui.bhukhar_setup import BhukharSetupScreen
from kiosk.ui.calibration import CalibrationScreen
from kiosk.ui.carrom import CarromScreen
from kiosk.ui.carrom_setup import CarromSetupScreen, SetupError
from kiosk.ui.first_start import PinsScreen
from kiosk.ui.hall_corner import add_hall_corner  # hall
from kiosk.ui.home import HomeScreen
from kiosk.ui.i18n import apply_languages, tr
from kiosk.ui.lock import allowed, gate_of, role_for
from kiosk.ui.lock import install as install_roles
from kiosk.ui.memory import Trimmer, settle, trim
from kiosk.ui.parts_screen import PartsScreen
from kiosk.ui.pin import PinScreen
from kiosk.ui.players import PlayersScreen
from kiosk.ui.scale import unit_for
from kiosk.ui.settings_screen import SettingsScreen
from kiosk.ui.words import error_words
from kiosk.wiring import Services, Tables, changed_keys

if TYPE_CHECKING:  # numpy only where a camera gives pictures
    import numpy as np
    import numpy.typing as npt

#: The longest gap between two ticks (seconds): how often the visible screen asks its
#: session for the time left. Deadlines come sooner when they are due sooner.
TICK_S = 0.05
#: How long another thread may keep the GIL once the tick wants it (seconds; Python's
#: default is 5 ms). The camera's detection runs Python code on its own thread: at the
#: default a tick waited 5-10 ms for it before the buzzer heard a due warning.
GIL_SWITCH_S = 0.001
#: Still glass (seconds) before freed memory is given back: a trim takes a few ms.
TRIM_AFTER_S = 0.5
#: After the carrom setup is shown, when its console is made (`choose_game`).
PREPARE_S = 0.2


class TablesideApp(App):
    """The kiosk. `unit` follows the window (kiosk/ui/scale.py): every size in the .kv files
    is a multiple of it, so the layout fits 800x480 to 1920x1080 alike."""

    unit = NumericProperty(10.0)
    title = "Tableside"
    use_kivy_settings = False

    def __init__(self, services: Services, runner: Runner | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self.services = services
        tables = services.tables
        self.runner = runner or Runner(clock=services.clock, in_play=lambda: tables.in_play)
        self.manager: ScreenManager | None = None
        #: The tick scheduled next, and its delay on `Services.clock` (seconds).
        self.next_tick: ClockEvent | None = None
        self.next_tick_in = 0.0

    # -- building ---------------------------------------------------------------
    def build(self) -> ScreenManager:
        sys.setswitchinterval(min(sys.getswitchinterval(), GIL_SWITCH_S))
        Window.bind(size=self._resized)
        self._resized(Window, Window.size)
        ui = getattr(self.services.settings, "ui", None)
        if ui is not None:  # [ui] language: the console's and the player display's
            apply_languages(ui.language, ui.display_language)
        tr.on_switch(self.refresh_home)
        # Freed textures and shaped runs given back to the system once the glass has been
        # still for half a second, and a switch's at once (kiosk/ui/memory.py).
        self._memory = Trimmer(Clock.create_trigger(lambda _dt: trim(), TRIM_AFTER_S))
        tr.on_switch(self._memory.switched)
        Window.bind(on_flip=self._memory.drawn)
        manager = ScreenManager(transition=NoTransition())
        # Screens are made when first shown: a quicker start and less memory on the Pi.
        self._factories: dict[str, Callable[[], Screen]] = {
            "home": lambda: HomeScreen(name="home"),
            "pin": lambda: PinScreen(
                self.services.check_pin, lambda: self.show("settings"), name="pin"
            ),
            "settings": lambda: SettingsScreen(
                self._settings, self._keep_settings, self.test_buzzer, name="settings"
            ),
            "calibration": lambda: CalibrationScreen(
                lambda: self.services.grab_frame(),
                self._settings,
                self._keep_settings,
                keep_empty=self._keep_empty,
                name="calibration",
            ),
            "setup_carrom": lambda: CarromSetupScreen(name="setup_carrom"),
            "carrom": lambda: CarromScreen(name="carrom"),
            "setup_backgammon": lambda: BackgammonSetupScreen(name="setup_backgammon"),
            "backgammon": lambda: BackgammonScreen(name="backgammon"),
            "setup_bhukhar": lambda: BhukharSetupScreen(name="setup_bhukhar"),
            "bhukhar": lambda: BhukharScreen(name="bhukhar"),
            "players": lambda: PlayersScreen(name="players"),
            "parts": lambda: PartsScreen(
                list(self.services.startup_faults),
                lambda: self.show(getattr(self, "_after_parts", "home")),
                self.services.retry_parts,
                name="parts",
            ),
            "pins": lambda: PinsScreen(name="pins"),  # roles: the director changes the PINs
        }
        manager.add_widget(self._factories["home"]())
        self.manager = manager
        install_roles(self)  # the console's gate and the first start (kiosk/ui/lock.py)
        self.next_tick = Clock.schedule_once(self.tick, 0)
        # A sensor thread's input: Clock.schedule_once is the one way in from another thread.
        self.tables.wake = lambda: Clock.schedule_once(self.tick, 0)
        Window.bind(on_key_down=self._key_down)
        return manager

    def _resized(self, _window: object, size: tuple[float, float]) -> None:
        self.unit = unit_for(*size)

    # -- navigation -------------------------------------------------------------
    def show(self, name: str) -> None:
        """Bring a screen to the front by name."""
        assert self.manager is not None
        if name in self._factories:
            self.screen(name)
            self.manager.current = name
        if name == "home":
            self.refresh_home()

    def screen(self, name: str) -> Screen:
        """The screen called `name`, made at its first use."""
        assert self.manager is not None
        if not self.manager.has_screen(name):
            self.manager.add_widget(self._factories[name]())
            # hall: the "Call director" button on the umpire screens (docs/hall.md)
            add_hall_corner(self.manager.get_screen(name), list(self.services.outputs))  # hall
            settle()  # a screen lives as long as the app: see _first_frame
        return self.manager.get_screen(name)

    def choose_game(self, game: str) -> None:
        """Home's game buttons: each game has its own setup screen."""
        if game.startswith("carrom_"):
            setup = self.screen("setup_carrom")
            setup.rules = game.removeprefix("carrom_")
            setup.stroke_s = self.services.settings.timers.stroke_s
            setup.board_limit = self.services.settings.rules.board_limit or 0
            self.show("setup_carrom")
            # The console made and its words drawn while the umpire fills in the setup, so
            # that Start only shows it (its first frame: docs/benchmarks.md, session 5).
            Clock.schedule_once(lambda _dt: self.screen("carrom"), PREPARE_S)
        else:
            self.show(f"setup_{game}")

    # -- settings ---------------------------------------------------------------
    def _settings(self) -> Settings:
        return self.services.settings

    def _keep_settings(self, settings: Settings) -> None:
        """Write the settings (OSError: not written) and keep them; the save is journaled
        with the director's role (the settings are the director's), naming the keys
        that changed, never their values (a PIN's hash among them)."""
        before = self.services.settings
        self.services.save_settings(settings)
        self.tables.use_settings(settings)
        with contextlib.suppress(JournalError):  # a journal that cannot open: said on home
            self.tables.note("settings", Role.DIRECTOR, {"changed": changed_keys(before, settings)})

    def _keep_empty(self, rgb: npt.NDArray[np.uint8]) -> None:
        """The calibration screen's "Keep empty board": to the camera (the detector judges
        against it; kept beside the journal, `journal.db.empty.png`), and journaled with
        the director's role (the calibration is the director's, behind the settings' PIN):
        the calibration it was taken with and the picture's size."""
        self.services.keep_empty(rgb)
        data = {
            "calibration": [list(p) for p in self.services.settings.camera.calibration],
            "size": [int(rgb.shape[1]), int(rgb.shape[0])],
        }
        with contextlib.suppress(JournalError):  # a journal that cannot open: said on home
            self.tables.note("empty_board", Role.DIRECTOR, data)

    def test_buzzer(self, volume: float) -> int:
        """The settings' buzzer test: a double beep on each buzzer of the kiosk at `volume`
        (0-1, kept for this run); how many buzzers there are."""
        buzzers = [o for o in self.services.outputs if isinstance(o, BuzzerOutput)]
        for buzzer in buzzers:
            buzzer.test(volume)
        return len(buzzers)

    def on_stop(self) -> None:
        # The window outlives the app (one window a process): what this app bound on it goes
        # with it, or a later app in the process would have this one's trims and keys too.
        Window.unbind(size=self._resized, on_flip=self._memory.drawn, on_key_down=self._key_down)
        self._memory.stop()
        self.tables.wake = lambda: None  # a sensor's input no longer ticks this app
        # A later change of language no longer words its home screen (its rules would look
        # for a running app, `app.unit`, and find none).
        tr.off_switch(self.refresh_home)
        self.services.close()

    def on_start(self) -> None:
        self.refresh_home()
        if self.services.startup_faults:  # a part is missing: say so before anything else
            assert self.manager is not None
            self._after_parts = self.manager.current  # home, or the first start's PINs
            self.show("parts")
        Window.bind(on_flip=self._first_frame)

    def _first_frame(self, *_: object) -> None:
        """READY=1 to systemd once the home screen is on the glass (the first frame drawn);
        the watchdog pings start from here."""
        Window.unbind(on_flip=self._first_frame)
        # What start-up made (Kivy, the screens, the fonts, the catalogues: about 120,000
        # objects) lives as long as the app; out of the collector's sight, a full collection
        # no longer stalls the loop for 30-50 ms in the middle of a stroke.
        settle()
        self.runner.ready("home screen shown")

    def refresh_home(self) -> None:
        """List every unfinished table on the home screen (kiosk/ui/home.py); a journal that
        cannot be opened (damaged, shortened, held by another kiosk) is said there."""
        home = self.screen("home")
        try:
            home.show_tables(self.tables.unfinished())
        except JournalError as exc:
            home.show_tables([])
            home.problem = error_words(exc, tr._)

    @property
    def tables(self) -> Tables:
        return self.services.tables

    def resume(self, kind: str | None = None) -> None:
        """Home's resume buttons: the unfinished table of `kind` (default: the latest),
        exactly where it was (the table in play, if it is that one: the umpire only went
        home); a journal that cannot be read or replayed is said on home, not a traceback.
        One path for every kind of table (kiosk/tables/registry.py)."""
        try:
            table = self.tables.resume(kind)
        except JournalError as exc:
            self.screen("home").resume_text = ""
            self.screen("home").problem = error_words(exc, tr._)
            return
        if table is not None:
            self._playing(table)

    def close_table(self, match_id: int) -> None:
        """The director closes an unfinished table from home (journaled with the role); one
        in play stops being polled."""
        role = role_for("close_table", lambda: self.close_table(match_id))  # roles
        if role is None:
            return
        self.tables.close(match_id, role)
        if self.tables.in_play is None:
            self.screen("players").show_game(None)
        self.refresh_home()

    # -- starting matches ---------------------------------------------------------
    def _playing(self, table: AnyTable) -> None:
        """`table` is now the one in play (the tables own it: the runner polls it, even
        behind another screen, its timers must sound); its screen (named by its kind) follows
        it as one of its outputs, and the player display shows it."""
        screen = self.screen(table.kind)
        screen.attach(table)
        self.screen("players").show_game(table)
        self.show(table.kind)

    def start(self, start: Start, setup: Screen) -> None:
        """A setup's Start: a new table of the start's kind. Over an unfinished table of that
        game it is the director's (closing a table; home asked first), else the umpire's (the
        players' at a backgammon table). A
        refusal is worded on the setup screen; nothing changed."""
        retry = lambda: self.start(start, setup)  # noqa: E731
        kind = self.tables.kind_of(start)
        try:
            over = self.tables.has_unfinished(kind)
        except JournalError as exc:  # a damaged journal, or one held by another kiosk
            setup.message = error_words(exc, tr._)
            return
        # Backgammon players start their own match (no umpire at that table).
        fresh = "start_backgammon" if kind == "backgammon" else "start_match"
        role = role_for("close_table" if over else fresh, retry)  # roles
        if role is None:
            return
        try:
            table = self.tables.create(start, role)
        except (Refused, JournalError, TableFileError, ValueError) as exc:
            setup.message = error_words(exc, tr._)
            return
        setup.message = ""
        self._playing(table)

    def start_bhukhar(self, setup: BhukharSetupScreen) -> None:
        """The setup's Start: a new session record with teams of three (rule 2)."""
        try:
            start = setup.session_start()
        except (Refused, ValueError) as exc:
            setup.message = error_words(exc, tr._)
            return
        self.start(start, setup)

    def start_carrom(self, setup: CarromSetupScreen) -> None:
        """The setup's Start: the record's first line and the stroke timer chosen."""
        try:
            start = CarromStart(setup.match_start(), float(setup.stroke_s))
        except (SetupError, Refused) as exc:
            setup.message = error_words(exc, tr._)
            return
        self.start(start, setup)

    def start_backgammon(self, setup: BackgammonSetupScreen) -> None:
        """The setup's Start: a new clocked match (3.5 (vi) banks from the score)."""
        start = ClockStart(
            setup.players(),
            int(setup.match_length),
            (int(setup.score[0]), int(setup.score[1])),
            **setup.clock_options(),
        )
        self.start(start, setup)

    def open_settings_pin(self) -> None:
        if allowed("settings", lambda: self.show("settings")):  # roles: the director's
            self.show("settings" if gate_of(self) else "pin")

    def open_settings(self, *_: object) -> bool:
        # Kivy's own settings panel (F1) would bypass the PIN: send it to the pad instead.
        self.open_settings_pin()
        return False

    # -- keys -------------------------------------------------------------------
    def _key_down(
        self, _window: object, _key: int, _scancode: int, text: str | None, *_: object
    ) -> bool:
        """Keys 1-4 are coins through pockets 1-4 when the beams are simulated, except while
        a text field is typed in (a receipt "R-17" is no coin through pocket 1)."""
        from kivy.uix.behaviors.focus import FocusBehavior

        press = self.services.press_pocket
        typing = any(w is not None for w in FocusBehavior._keyboards.values())
        if press is not None and text in ("1", "2", "3", "4") and not typing:
            press(int(text))
            return True
        return False

    # -- time -------------------------------------------------------------------
    def tick(self, _dt: float = 0.0) -> None:
        """One step of the runner: the parts' pollers, the table in play (its timers must
        sound even while another screen shows; its screen hears of it as an output), the
        watchdog; then a screen in front that watches something else (the camera's frame,
        the players' view) follows, and the next tick is scheduled."""
        assert self.manager is not None
        now = self.services.clock()
        self.runner.step(now)
        follow = getattr(self.manager.current_screen, "follow", None)
        if follow is not None:
            follow(now)
        gate = gate_of(self)
        if gate is not None:
            gate.refresh()
        self._schedule_tick(now)

    def _schedule_tick(self, now: float) -> None:
        """The next tick at the runner's next wake (the earliest deadline, at most TICK_S
        away), in place of the one scheduled before."""
        delay = max(0.0, self.runner.next_wake(now, TICK_S) - self.services.clock())
        if self.next_tick is not None:
            self.next_tick.cancel()
        self.next_tick_in = delay
        # Kivy counts a delay from the start of the frame, not from this call: add the time
        # the frame has run so far, or the tick comes early by it.
        self.next_tick = Clock.schedule_once(self.tick, delay + Clock.time() - Clock.get_time())

    @staticmethod
    def post(callback: Callable[[], None]) -> None:
        """Run `callback` on the UI thread at the next frame (the only way in for threads)."""
        Clock.schedule_once(lambda _dt: callback(), 0)
