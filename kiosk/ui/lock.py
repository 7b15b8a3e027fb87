"""The one gate every console action passes (issue 15): `allowed(owner, action, retry)`.

A screen calls it first thing in its command method. With the role the action needs
(kiosk/authority.py ACTIONS) it returns True and the action runs. Without it nothing
changes: the PIN pad opens over the screen, saying whose PIN the action needs; the right
PIN unlocks the console and runs `retry` (the same tap again), a wrong one says so and
after five starts the doubling back-off, shown as a countdown. The screen behind keeps
showing everything and the tables keep their time: the gate only stands in front of taps.

A kiosk without an authority (`Services.authority` None: tests and benches that build the
services themselves) allows everything, as before roles existed.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.clock import Clock, ClockEvent
from kivy.core.window import Window
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.authority import Authority, Note, Role, needs
from kiosk.engine.journal import JournalError
from kiosk.engine.roles import journal_note
from kiosk.ui.i18n import tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.widgets import Overlay

MAX_DIGITS = 8


class PinPad(BoxLayout):
    """Digits shown as dots, 0-9, Clear, OK and Cancel; fires on_pin(digits) and on_cancel.
    `message` is already worded (the gate words it in the console's language)."""

    message = StringProperty("")
    digits = StringProperty("")
    refused = BooleanProperty(False)
    __events__ = ("on_pin", "on_cancel")

    def press(self, key: str) -> None:
        if key == "clear":
            self.digits = ""
        elif key == "ok":
            entered, self.digits = self.digits, ""
            if entered:
                self.dispatch("on_pin", entered)
        elif key == "cancel":
            self.digits = ""
            self.dispatch("on_cancel")
        elif key.isdigit() and len(self.digits) < MAX_DIGITS:
            self.digits += key

    def on_pin(self, pin: str) -> None:
        pass

    def on_cancel(self) -> None:
        pass


class LockOverlay(Overlay):
    """The PIN pad over the whole window (modal: a tap beside it acts on nothing)."""


class Gate:
    """The console's gate: the app's `authority`, its PIN pad, and its journal notes."""

    def __init__(self, app: Any, authority: Authority) -> None:
        self.app = app
        self.authority = authority
        authority.note = self._journal
        self.overlay = LockOverlay()
        self.pad: PinPad = self.overlay.ids.pad
        self.pad.bind(on_pin=lambda _pad, pin: self.submit(pin), on_cancel=lambda _p: self.close())
        self._wanted = Role.UMPIRE
        self._action = ""
        self._retry: Callable[[], None] | None = None
        self._countdown: ClockEvent | None = None
        self.last_note: Note | None = None

    def now(self) -> float:
        return float(self.app.services.clock())

    # -- the gate ----------------------------------------------------------------------
    def allow(self, action: str, retry: Callable[[], None]) -> bool:
        """Whether `action` may run now; if not, the PIN pad asks for its role's PIN."""
        if self.authority.may(action, self.now()):
            return True
        self.ask(action, retry)
        return False

    def ask(self, action: str, retry: Callable[[], None] | None) -> None:
        wanted = max(needs(action), Role.UMPIRE)
        self._wanted, self._action, self._retry = wanted, action, retry
        self.pad.refused = False
        self.pad.digits = ""
        if wanted is Role.DIRECTOR:
            self.pad.message = tr._("This needs the director's PIN")
        else:
            self.pad.message = tr._("Locked: the umpire's PIN unlocks the console")
        self._open()
        self.refresh()

    def submit(self, pin: str) -> None:
        attempt = self.authority.enter(pin, self._wanted, self.now(), self._action)
        if attempt.role is None:
            self.pad.refused = True
            if attempt.reason == "wrong_role":
                self.pad.message = tr._("That is not the director's PIN: nothing was changed")
            elif attempt.reason == "wrong" and not attempt.wait_s:
                self.pad.message = tr._("Wrong PIN: nothing was changed")
            self.refresh()
            return
        retry = self._retry
        self.close()
        if retry is not None:
            retry()

    def lock(self, reason: str) -> None:
        """Lock the console now (the player display shown, or the umpire's own tap)."""
        self.authority.lock(self.now(), reason)

    def close(self) -> None:
        self._retry = None
        if self._countdown is not None:
            self._countdown.cancel()
            self._countdown = None
        if self.overlay.parent is not None:
            self.overlay.parent.remove_widget(self.overlay)

    @property
    def is_open(self) -> bool:
        return self.overlay.parent is not None

    # -- inside --------------------------------------------------------------------------
    def _open(self) -> None:
        if self.overlay.parent is None:
            Window.add_widget(self.overlay)
        if self._countdown is None:
            self._countdown = Clock.schedule_interval(lambda _dt: self.refresh(), 0.5)

    def refresh(self) -> None:
        """The back-off's countdown, while it runs (also at each of the app's ticks, so it
        follows the services' clock, the fake one in the tests)."""
        if not self.is_open:
            return
        wait = self.authority.wait_s(self.now())
        if wait > 0:
            self.pad.refused = True
            self.pad.message = tr._("Too many wrong PINs: try again in {s} s", s=int(-(-wait // 1)))

    def _journal(self, note: Note) -> None:
        self.last_note = note
        # A journal that cannot be opened is said on home; the refusal stands all the same.
        with contextlib.suppress(JournalError):
            journal_note(self.app.services.journal(), self.app.runner.table, note)


def gate_of(app: Any) -> Gate | None:
    """The app's gate, made at first use; None when the kiosk has no roles."""
    gate = getattr(app, "gate", None)
    if gate is None:
        authority = getattr(getattr(app, "services", None), "authority", None)
        if authority is None:
            return None
        gate = Gate(app, authority)
        app.gate = gate
        # The player display shown: the console locks (players must not find it open).
        manager = getattr(app, "manager", None)
        if manager is not None:
            manager.bind(
                current=lambda _m, name: gate.lock("display") if name == "players" else None
            )
    return gate


def install(app: Any) -> None:
    """At the app's build: its gate, and the first-start screen when no PIN is set yet."""
    gate_of(app)
    if getattr(app.services, "first_start", False):
        app.screen("pins").first = True
        app.manager.current = "pins"


def _action(owner: Any, action: str) -> str:
    """An undo that takes back a board's (or a game's, the match's) last event goes past the
    board's end: the director's (the console's latest view says what the last event ended)."""
    if action != "undo":
        return action
    view = getattr(owner, "_latest", None)
    outcome = getattr(view, "outcome", None)
    ended = outcome is not None and (outcome.board is not None or outcome.game is not None)
    state = getattr(view, "state", None)
    return "undo_past_board" if ended or getattr(state, "winner", None) else action


def allowed(owner: Any, action: str, retry: Callable[[], None]) -> bool:
    """THE gate: True if `action` may run now; else the PIN pad asks and `retry` runs once
    the right PIN is typed. `owner` is the screen asking (its latest view decides an undo)."""
    gate = gate_of(App.get_running_app())
    return gate is None or gate.allow(_action(owner, action), retry)


load_kv(__file__)
