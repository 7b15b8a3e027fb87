"""The Xvfb harness (used by conftest.py): one Kivy window per session, real taps via X.

Taps are delivered with xdotool (mousemove, mousedown, mouseup on the Xvfb display)
while the test pumps Kivy's event loop, so they travel the same path as a finger
on the touchscreen: X server -> SDL2 -> Kivy's motion events -> the widget.
Time is a fake clock the test advances; nothing sleeps for a deadline. Kivy's own clock
moves on by at least a frame's time at each pumped frame, and a frame is drawn only for a
screenshot (see `pump`): a tap waits for the X server's events, not for a sleep.
Every test may save screenshots under tests/artifacts/.
"""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"

if not os.environ.get("DISPLAY"):
    pytest.skip(
        "the Kivy tests need an X display: run them under "
        "xvfb-run -a -s '-screen 0 1024x600x24' (make test does)",
        allow_module_level=True,
    )
if shutil.which("xdotool") is None:
    pytest.skip("xdotool is missing: `make setup` installs it", allow_module_level=True)

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

from kiosk.ui import text as _text  # noqa: E402

_text.before_kivy()  # as kiosk/ui/window.py: the PIL provider, shaped by Pillow's raqm
from kivy.config import Config  # noqa: E402

Config.set("graphics", "maxfps", "0")  # read as the clock is made: pump() paces the frames
_text.install()

Config.set("graphics", "width", "1024")
Config.set("graphics", "height", "600")
Config.set("graphics", "position", "custom")
Config.set("graphics", "left", "0")
Config.set("graphics", "top", "0")
Config.set("graphics", "resizable", "0")
Config.set("input", "mouse", "mouse,disable_multitouch")
Config.remove_option("input", "%(name)s") if Config.has_option("input", "%(name)s") else None
Config.set("kivy", "exit_on_escape", "0")
# Mesa's software GL (llvmpipe, under Xvfb) resolves Kivy's default 2x multisampling at each
# swap: 145 ms a frame at 1024x600 here, 26 ms without. The kiosk keeps it on the Pi's GPU.
Config.set("graphics", "multisamples", "0")

from kivy.app import App  # noqa: E402
from kivy.base import EventLoop, runTouchApp  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402
from kivy.lang import Builder, global_idmap  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

from drivers.simulated import ManualClock as FakeClock  # noqa: E402
from drivers.simulated import SimulatedBeams  # noqa: E402
from kiosk.access.authority import Role  # noqa: E402
from kiosk.engine.outputs import Output  # noqa: E402
from kiosk.runner import Runner  # noqa: E402
from kiosk.tables.commands import Command  # noqa: E402
from kiosk.ui.app import TablesideApp  # noqa: E402
from kiosk.ui.seen import SEEN_S, Seen  # noqa: E402
from kiosk.wiring import Services  # noqa: E402

_started = False


class _FrameTime:
    """Kivy's clock, on which the app's ticks and the widgets' triggers are scheduled (in real
    seconds), moved on by at least a frame's time at each pumped frame: a frame drawn by
    Xvfb's software GL took 30-40 ms, and `advance` counts on a few frames letting the
    app's 50 ms tick come; undrawn frames take a few ms of real time."""

    FRAME_S = 1 / 30

    def __init__(self, real: Any) -> None:
        self.real = real
        self.ahead = 0.0
        self.last = real()

    def __call__(self) -> float:
        return float(self.real()) + self.ahead

    def frame(self) -> None:
        now = self()
        if now - self.last < self.FRAME_S:
            self.ahead += self.FRAME_S - (now - self.last)
        self.last = self()


_frame_time = _FrameTime(Clock.time)
Clock.time = _frame_time


class _PersonTime:
    """The clock a console's `Seen` reads (kiosk/ui/seen.py): a person's time, moved on by
    twice `SEEN_S` at each deliberate tap or key, so a tap is made from the view the last step drew;
    never moved between the two taps of a double tap, whatever the real time between them."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def step(self) -> None:
        self.now += 2 * SEEN_S  # a deliberate tap comes well after the last change was seen


_person = _PersonTime()
Seen.clock = _person


def look() -> None:
    """A person looks at the screen before acting on it without a tap (a story that calls a
    screen's method): what changed is laid out, and seen."""
    pump(1)
    _person.step()


def pump(frames: int = 6, draw: bool = False) -> None:
    """Run Kivy's loop `frames` times: SDL's event queue, the clock, input and layout, as
    `EventLoop.idle` does; the last is drawn only if `draw`. The layout, the labels' textures
    and the taps are all made undrawn; what waits for a drawn frame asks for one: a
    screenshot (`Kiosk.shot`), a kiosk's first frame (`make_kiosk`: the window shown, the app
    ready), the PIN's check (`answered`), a `Line`'s points. Xvfb's software GL takes 10 ms a
    frame or more: about a fifth of a Kivy test's time when every tap was drawn. Nothing
    sleeps: what waits for the X server (a tap, a key) pumps until it came."""
    for left in range(frames - 1, -1, -1):
        _frame_time.frame()
        if left or not draw:
            _idle_undrawn()
        else:
            EventLoop.idle()
        Window.mainloop()


def _poll() -> None:
    """One undrawn turn of the loop while waiting for the X server, which is given a moment."""
    _idle_undrawn()
    Window.mainloop()
    time.sleep(0.002)


def _idle_undrawn() -> None:
    """`EventLoop.idle` without its drawing: the window's canvas waits for the next drawn
    frame (kivy/base.py)."""
    Clock.tick()
    EventLoop.dispatch_input()
    Builder.sync()
    Clock.tick_draw()
    Builder.sync()


def _xdotool(*args: str) -> None:
    subprocess.run(["xdotool", *args], check=True, timeout=10)


def _focus_under_pointer() -> None:
    where = subprocess.run(
        ["xdotool", "getmouselocation", "--shell"],
        check=True,
        capture_output=True,
        text=True,
        timeout=10,
    ).stdout
    window = dict(line.split("=", 1) for line in where.split() if "=" in line).get("WINDOW")
    if window:
        _xdotool("windowfocus", "--sync", window)


def _scroll_into_view(widget: Widget) -> Any:
    """A widget in a scroll view (the settings' rows) is scrolled to first, as a finger would;
    the scroll view is returned (None if there is none)."""
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    for _ in range(64):  # the window is its own parent: stop at the top
        if parent is None or isinstance(parent, ScrollView):
            break
        parent = parent.parent
    if isinstance(parent, ScrollView):
        parent.scroll_to(widget, padding=10, animate=False)
        pump(3)
        return parent
    return None


class _Seen:
    """Counts a Window event (a touch or a key) while in use; `wait` pumps until one came."""

    def __init__(self, event: str) -> None:
        self.event = event
        self.count = 0

    def _saw(self, *_: object) -> bool:
        self.count += 1
        return False  # let the event go on to the widgets

    def __enter__(self) -> _Seen:
        Window.fbind(self.event, self._saw)
        return self

    def __exit__(self, *_: object) -> None:
        Window.funbind(self.event, self._saw)

    def wait(self, timeout: float = 10.0, count: int = 1) -> None:
        deadline = time.monotonic() + timeout
        while self.count < count:
            assert time.monotonic() < deadline, f"the X server never delivered {self.event}"
            _poll()


class Kiosk:
    """A running app with a hand to tap it and an eye to photograph it."""

    def __init__(self, app: TablesideApp, clock: FakeClock, services: Services) -> None:
        self.app = app
        self.clock = clock
        self.services = services

    # screens and widgets
    @property
    def current(self) -> str:
        assert self.app.manager is not None
        return str(self.app.manager.current)

    def screen(self, name: str | None = None) -> Any:
        return self.app.screen(name or self.current)

    def widget(self, wid: str, screen: str | None = None) -> Any:
        return self.screen(screen).ids[wid]

    # input
    def tap(self, target: Widget | str, screen: str | None = None) -> None:
        """Tap the centre of a widget (or the id of one on the current screen) with the pointer."""
        widget = self.widget(target, screen) if isinstance(target, str) else target
        pump(2)  # laid out
        scroller = _scroll_into_view(widget)
        assert widget.get_root_window() is not None, f"{widget!r} is not on screen"
        assert not widget.disabled, f"{widget!r} is disabled"
        self._press(*widget.to_window(*widget.center))
        # A scroll view holds a touch until it knows it is not a scroll: let it finish with
        # this tap, or it is still holding one when the next test's window takes taps.
        for _ in range(100):
            if scroller is None or getattr(scroller, "_touch", None) is None:
                break
            pump(1)

    def tap_at(self, x: float, y: float) -> None:
        """Tap a point of the window (Kivy coordinates: origin bottom-left)."""
        pump(2)
        self._press(x, y)

    def double_tap(
        self, target: Widget | str, frames_between: int = 3, screen: str | None = None
    ) -> None:
        """Tap a widget twice, as a finger's double tap 50 ms apart: Kivy runs
        `frames_between` frames (3 at 60 frames/s) between the two, so the first tap is taken,
        and what it changed laid out, before the second comes; the second lands on what the
        screen shows by then (a dialog the first tap closed is gone, and the widget under it
        takes the tap). Counted in frames, not in seconds, so that a busy machine cannot put
        both taps in one frame. The person's clock is not moved between the two
        (kiosk/ui/seen.py)."""
        widget = self.widget(target, screen) if isinstance(target, str) else target
        pump(2)
        assert widget.get_root_window() is not None, f"{widget!r} is not on screen"
        x, y = widget.to_window(*widget.center)
        _person.step()
        self._click(x, y)
        pump(frames_between)
        self._click(x, y)
        pump(3)

    def _press(self, x: float, y: float) -> None:
        """One tap at (x, y), made from the view the last step drew: the person's clock
        moves on first."""
        _person.step()
        self._click(x, y)
        pump(3)

    def _click(self, x: float, y: float) -> None:
        """The pointer moved to (x, y), pressed and released by xdotool. Waits until Kivy has
        seen the press and the release, however slowly the X server delivers them."""
        with _Seen("on_touch_down") as down, _Seen("on_touch_up") as up:
            _xdotool(
                "mousemove",
                str(round(Window.left + x)),
                str(round(Window.top + Window.height - y)),
                "mousedown",
                "1",
                "mouseup",
                "1",
            )
            down.wait(count=1)
            up.wait(count=1)

    def tap_text(self, text: str) -> None:
        """Tap the visible button whose text is `text` on the current screen."""
        from kivy.uix.button import Button

        found = [
            w
            for w in self.screen().walk(restrict=True)
            if isinstance(w, Button) and w.text == text and w.get_root_window() is not None
        ]
        assert found, f"no button {text!r} on screen {self.current}"
        self.tap(found[0])

    def key(self, name: str) -> None:
        """Press a key on the keyboard (xdotool's key names: "1", "Return", ...), to the
        window under the pointer, focused first (as `type`)."""
        pump(2)
        _focus_under_pointer()
        _person.step()
        with _Seen("on_key_up") as seen:
            _xdotool("key", name)
            seen.wait()
        pump(3)

    def type(self, wid: str, text: str) -> None:
        """Tap a text field, select all it holds, and type `text` over it. The keyboard focus
        goes to the window under the pointer first: without a window manager, a window of an
        earlier test's `tableside run` that closed leaves the X server's focus nowhere."""
        self.tap(wid)
        _focus_under_pointer()
        _xdotool("key", "ctrl+a")
        pump(2)
        _xdotool("type", "--delay", "20", text)
        field = self.widget(wid)
        deadline = time.monotonic() + 10
        while field.text != text and time.monotonic() < deadline:
            _poll()
        pump(3)

    def advance(self, seconds: float, frames: int = 4) -> None:
        """Move the fake clock and let the app follow it (a tick at once, then `frames` of
        Kivy's loop, in which the ticks the app scheduled may come too)."""
        self.clock.advance(seconds)
        pump(1)
        self.app.tick()  # the app's own tick, at once rather than at the next interval
        pump(frames)

    def shot(self, name: str) -> Path:
        """Save what the window shows as tests/artifacts/<name>.png."""
        pump(3, draw=True)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        target = ARTIFACTS / f"{name}.png"
        made = Window.screenshot(name=str(ARTIFACTS / f"{name}-tmp.png"))
        os.replace(made, target)
        return target


def _start_loop() -> None:
    global _started
    if not _started:
        runTouchApp(embedded=True)
        _started = True


def _let_go() -> None:
    """What Kivy's globals still hold of a stopped app, let go. Each held the app's whole
    widget tree alive through the next test's collection and freeze: its .kv rules were
    run again at every language switch there, each of its labels drawn again (the fit story
    at a second size took 2.4 times as long as alone). Found by walking from sys.modules to a
    label of the stopped app (tests/ui/test_harness_lets_go.py):
    - the text field focused last holds the keyboard (`FocusBehavior._keyboards`);
    - an animation running (a scroll bar fading) holds its widget in `Animation._instances`;
    - double and triple tap keep the last touches until a frame 250 ms on (a touch's `ud`
      holds the widgets it went to);
    - TextInput's `_adjust_viewport` is one trigger for the class (kivy.clock.triggered):
      it keeps the arguments of its last call, the last text field, in its closure."""
    from kivy.animation import Animation
    from kivy.uix.behaviors.focus import FocusBehavior
    from kivy.uix.textinput import TextInput

    for focused in list(FocusBehavior._keyboards.values()):
        if focused is not None:
            focused.focus = False
    for animation in list(Animation._instances):
        for running in list(animation._widgets.values()):
            animation.cancel(running["widget"])
    pump(2)  # what letting go of the keyboard scheduled runs now
    for module in EventLoop.postproc_modules:
        for held in ("touches", "last_touches"):
            getattr(module, held, {}).clear()
    TextInput._adjust_viewport.cancel()
    for cell in getattr(TextInput._adjust_viewport, "__closure__", None) or ():
        if isinstance(cell.cell_contents, (list, dict)):
            cell.cell_contents.clear()


def make_kiosk(services: Services, clock: FakeClock) -> Iterator[Kiosk]:
    # The real simulated beams (MockFactory pins, the drivers' edge filter) feed the session;
    # the runner looks at them as kiosk/startup.py has it look at the parts.
    beams = SimulatedBeams(sink=services.tables.post, clock=clock)
    services = services.but(press_pocket=beams.press)
    tables = services.tables
    runner = Runner(
        clock=clock,
        pollers=[beams.beams.poll],
        deadlines=[beams.beams.next_deadline],
        in_play=lambda: tables.in_play,
    )
    # The last test's app is garbage by now (its fixture let go of it): collected, and what
    # is left (pytest, the modules, Kivy) frozen as a start freezes it, so that this app's
    # collections (one for each screen it makes, kiosk/ui/memory.py) scan only its own.
    gc.collect()
    gc.freeze()
    app = TablesideApp(services, runner)
    app._run_prepare()
    _start_loop()
    # The first frame drawn: the window is shown (and takes the X server's events), the app
    # settles and says ready (kiosk/ui/app.py).
    pump(8, draw=True)
    try:
        yield Kiosk(app, clock, services)
    finally:
        app.dispatch("on_stop")
        Window.remove_widget(app.root)
        for left in list(Window.children):  # a PIN pad the gate put over the window
            Window.remove_widget(left)
        Clock.unschedule(app.tick)
        beams.close()
        services.close()
        pump(2)
        _let_go()
        # The .kv rules' `app` keeps the first app it was asked for until that app stops: if
        # anything asked after this one's on_stop, the next test's buttons would call this one.
        object.__setattr__(global_idmap["app"], "_obj", None)
        App._running_app = None  # as App.stop() has it, which would stop the event loop too
        # The app froze what it built out of the collector's sight (kiosk/ui/memory.py
        # settle): one app a process on the kiosk, one a test here. Let this one go, or its
        # screens live on, and their .kv rules still answer a later test's language switch.
        # (The fixture holds this app until its teardown is over: the next make_kiosk, or
        # the collector in time, frees it.)
        gc.unfreeze()


def fit_output(kiosk: Kiosk, output: Output) -> None:
    """One more output every new table speaks to (a buzzer, a stand-in for the hall), fitted
    as the start screen's Retry fits the parts: the tables' Fitted replaced whole."""
    tables = kiosk.services.tables
    tables.refit(replace(tables.fitted, outputs=(*tables.fitted.outputs, output)))


def confirmed_events(owner: Any) -> list[dict[str, Any]]:
    """The confirmed events that stand of a carrom session or a backgammon clock table, as
    its journal on disk holds them (match time left out: the fake clock does not move
    between taps)."""
    events = owner.journal.confirmed(owner.match_id)
    return [{k: v for k, v in e.items() if k != "t"} for e in events]


def name_players(kiosk: Kiosk, *names: str) -> None:
    """The setup's name fields filled in without typing (the fields are not under test: one
    test types them, tests/ui/test_carrom.py)."""
    for i, name in enumerate(names):
        kiosk.widget(f"name_{i}").text = name
    pump(2)


def win_board(session: Any) -> None:
    """The player at turn clears the board by the table's commands, no taps (the rules tests
    cover the board; a UI test taps only the widget it is about): own coin and the queen,
    then the other eight."""
    state = session.view().state
    assert state is not None and state.now is not None
    own = state.now.turn_colour
    session.send(Command.of("edit", Role.UMPIRE, pocketed=[own, "queen"]))
    session.send(Command.of("confirm", Role.UMPIRE))
    session.send(Command.of("edit", Role.UMPIRE, pocketed=[own] * 8))
    session.send(Command.of("confirm", Role.UMPIRE))


def start_backgammon(kiosk: Kiosk, length_steps: int = -2) -> Any:
    """A backgammon match started from home (the match length stepped from 7 points);
    the clock screen."""
    kiosk.tap("backgammon")
    assert kiosk.current == "setup_backgammon"
    for _ in range(abs(length_steps)):
        kiosk.tap("length_minus" if length_steps < 0 else "length_plus")
    kiosk.tap("start")
    assert kiosk.current == "backgammon"
    return kiosk.screen()


#: The PINs of the tests that lock the console (hashed into the settings by `pinned`).
UMPIRE_PIN, DIRECTOR_PIN = "1357", "8642"


def pinned(
    data_dir: Path,
    clock: FakeClock,
    *,
    umpire: str = UMPIRE_PIN,
    director: str = DIRECTOR_PIN,
    lock_after_min: float = 5.0,
    director_window_s: float = 120.0,
) -> Services:
    """A kiosk whose console locks: both PINs set (hashed as a real start keeps them; "" for
    none), the lock after `lock_after_min` idle minutes, the director's window."""
    from kiosk.access.pins import MIN_PIN_ITERATIONS
    from kiosk.access.settings_authority import SettingsAuthority
    from kiosk.config import Settings, hash_pin, with_values

    def pin(p: str) -> str:
        return hash_pin(p, iterations=MIN_PIN_ITERATIONS) if p else ""

    settings = with_values(
        Settings(),
        umpire={
            "pin_hash": pin(umpire),
            "director_pin_hash": pin(director),
            "lock_after_min": lock_after_min,
            "director_window_s": director_window_s,
        },
    )
    services = Services(
        data_dir=data_dir, check_pin=lambda _pin: False, clock=clock, settings=settings
    )
    return services.but(authority=SettingsAuthority(lambda: services.settings, lambda _n: None))


def type_pin(kiosk: Kiosk, pin: str, pad: Any = None) -> None:
    """The PIN tapped digit by digit on the pad (the gate's, unless another is given)."""
    pad = pad or kiosk.app.gate.pad
    for digit in pin:
        kiosk.tap(pad.ids[f"pad_{digit}"])
    kiosk.tap(pad.ids.pad_ok)
    answered(pad)


def answered(pad: Any) -> None:
    """Frames until the gate has answered the PIN given: it checks it once "Checking the PIN"
    is drawn (kiosk/ui/lock.py), so these frames are drawn."""
    for _ in range(100):
        if not getattr(pad, "checking", False):
            break
        pump(1, draw=True)


def tap_cards(kiosk: Kiosk, screen: Any, *cards: str) -> None:
    """Cards tapped on the Bhukhar cards panel's 52-card grid ("3S", "AH", ...)."""
    for card in cards:
        kiosk.tap(screen.ids.card_grid.buttons[card])


def meld(kiosk: Kiosk, screen: Any, *cards: str) -> None:
    """A meld tapped on the cards panel, then closed."""
    tap_cards(kiosk, screen, *cards)
    kiosk.tap("close_meld")
