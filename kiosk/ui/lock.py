"""The one gate every console action passes: it only unlocks.

A screen sends a table's command with `send(table, action, retry, **args)`: the table says
what role the command needs (`table.needs`: an undo past a board's end is the director's),
the gate gives the console's role, and the command goes to the table carrying it
(`Command.by`); the table checks the role again and journals the command with it. The
kiosk's own actions (settings, a new match, closing a table) pass `allowed(action, retry)`.
Without the role nothing changes: the PIN pad opens over the screen, saying whose PIN is
needed; the right PIN unlocks the console and runs `retry` (the same tap again), a wrong one
says so and after five starts the doubling back-off, shown as a countdown. The screen behind
keeps showing everything and the tables keep their time: the gate only stands in front of
taps.

When the console locks (idle, the player display shown, the umpire's own tap) every screen's
open dialog closes (`locked()`), and a director's screen (settings, PINs, calibration) goes
home: nothing the director opened stays open for a player.

A kiosk without an authority (`Services.authority` None: tests and benches that build the
services themselves) allows everything, as before roles existed: a command carries the role
it needs.
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

from kiosk.access.authority import Authority, Note, Role, needs
from kiosk.access.settings_authority import journal_note
from kiosk.engine.journal import JournalError
from kiosk.tables.commands import Command, Commands
from kiosk.ui.i18n import tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.widgets import Overlay

MAX_DIGITS = 8
#: The director's screens: a lock sends the console home from them.
DIRECTORS_SCREENS = ("settings", "pins", "calibration", "pin")


class PinPad(BoxLayout):
    """Digits shown as dots, 0-9, Clear, OK and Cancel; fires on_pin(digits) and on_cancel.
    `message` is already worded (the gate words it in the console's language). From OK until
    the gate has answered (`checking`) every key is ignored: a second OK, or digits typed
    while the PIN is checked, must not count as another try."""

    message = StringProperty("")
    digits = StringProperty("")
    refused = BooleanProperty(False)
    checking = BooleanProperty(False)
    __events__ = ("on_pin", "on_cancel")

    def press(self, key: str) -> None:
        if self.checking:
            return
        if key == "clear":
            self.digits = ""
        elif key == "ok":
            entered, self.digits = self.digits, ""
            if entered:
                self.dispatch("on_pin", entered)  # the gate sets `checking` at once
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
        self.pad.bind(on_pin=lambda _pad, pin: self.check(pin), on_cancel=lambda _p: self.close())
        self._checking: ClockEvent | None = None
        self._pin = ""  # typed, to be checked once the pad says so
        self._wanted = Role.UMPIRE
        self._action = ""
        self._retry: Callable[[], object] | None = None
        self._countdown: ClockEvent | None = None
        #: The back-off's countdown is shown: its end is said too.
        self._backing_off = False
        self.last_note: Note | None = None
        self._screen = ""  # the screen the console shows

    def now(self) -> float:
        return float(self.app.services.clock())

    # -- the gate ----------------------------------------------------------------------
    def allow(
        self, wanted: Role, action: str, retry: Callable[[], object], *, keep: bool = False
    ) -> Role | None:
        """The console's role for `action` (which needs `wanted`), or None: the PIN pad asks
        for the PIN and `retry` runs once it is given. `keep`: a confirmation is asked first,
        and its tap is checked again (kiosk/access/authority.py `allows`)."""
        role = self.authority.allows(wanted, action, self.now(), keep=keep)
        if role is None:
            self.ask(wanted, action, retry)
        return role

    def ask(self, wanted: Role, action: str, retry: Callable[[], object] | None) -> None:
        wanted = max(wanted, Role.UMPIRE)
        self._wanted, self._action, self._retry = wanted, action, retry
        self.pad.refused = False
        self.pad.digits = ""
        self.pad.message = self._asking()
        self._open()
        self.refresh()

    def check(self, pin: str) -> None:
        """OK: the pad says at once that the PIN is being checked, and the check (two PBKDF2
        hashes, the journal's note written through, then the tap it unlocks: a new match, a
        screen built) runs from the next frame, once that is on the screen. Done in the
        touch itself, nothing moved on a Pi for 2-3 s, and a second OK seemed called for."""
        self.pad.checking, self.pad.refused = True, False
        self.pad.message = tr._("Checking the PIN")
        self._pin = pin
        Window.unbind(on_flip=self._shown)
        Window.bind(on_flip=self._shown)

    def _shown(self, *_: object) -> None:
        """The frame that says "checking" is drawn: the check runs at the next one."""
        Window.unbind(on_flip=self._shown)
        pin, self._pin = self._pin, ""
        if self._checking is not None:
            self._checking.cancel()
        self._checking = Clock.schedule_once(lambda _dt: self.submit(pin), 0)

    def submit(self, pin: str) -> None:
        self._checking = None
        try:
            self._submit(pin)
        finally:
            self.pad.checking = False

    def _submit(self, pin: str) -> None:
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

    def went_to(self, screen: str) -> None:
        """The console shows `screen`: the player display locks it (players must not find it
        open); leaving the director's screens ends the director's window, so the strokes
        confirmed next are the umpire's, not the director's."""
        was, self._screen = self._screen, screen
        if screen == "players":
            self.lock("display")
        elif was in DIRECTORS_SCREENS and screen not in DIRECTORS_SCREENS:
            self.authority.end_director(self.now(), was)

    def close(self) -> None:
        self._retry = None
        Window.unbind(on_flip=self._shown)
        if self._checking is not None:  # the pad closed (a lock) while a PIN waited
            self._checking.cancel()
            self._checking = None
        self.pad.checking = False
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
        """At each of the app's ticks (the services' clock, the fake one in the tests): an
        idle console locks, and the back-off's countdown, while it runs."""
        self.authority.role(self.now())  # an idle console locks now, not at its next tap
        if not self.is_open:
            return
        wait = self.authority.wait_s(self.now())
        if wait > 0:
            self._backing_off = True
            self.pad.refused = True
            self.pad.message = tr._("Too many wrong PINs: try again in {s} s", s=int(-(-wait // 1)))
        elif self._backing_off:  # the wait is over: the pad asks again, and takes a PIN
            self._backing_off = False
            self.pad.refused = False
            self.pad.message = self._asking()

    def _asking(self) -> str:
        """Whose PIN the pad asks for."""
        if self._wanted is Role.DIRECTOR:
            return tr._("This needs the director's PIN")
        return tr._("Locked: the umpire's PIN unlocks the console")

    def _journal(self, note: Note) -> None:
        self.last_note = note
        # A journal that cannot be opened is said on home; the refusal stands all the same.
        with contextlib.suppress(JournalError):
            tables = self.app.services.tables
            journal_note(tables.journal(), tables.in_play, note)
        if note.what == "lock":
            self._locked()

    def _locked(self) -> None:
        """The console locked: what a role opened closes. Each screen's dialogs
        (its `locked()`), the PIN pad's pending retry, and a director's screen goes home."""
        self.close()
        manager = getattr(self.app, "manager", None)
        if manager is None:
            return
        for screen in manager.screens:
            locked = getattr(screen, "locked", None)
            if locked is not None:
                locked()
        if manager.current in DIRECTORS_SCREENS:
            self.app.show("home")


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
            manager.bind(current=lambda _m, name: gate.went_to(name))
    return gate


def install(app: Any) -> None:
    """At the app's build: its gate, and the first-start screen when no PIN is set yet."""
    gate_of(app)
    if getattr(app.services, "first_start", False):
        app.screen("pins").first = True
        app.manager.current = "pins"


def _role(
    wanted: Role, action: str, retry: Callable[[], object], *, keep: bool = False
) -> Role | None:
    gate = gate_of(App.get_running_app())
    if gate is None:  # no roles (tests and benches): the command carries the role it needs
        return wanted
    return gate.allow(wanted, action, retry, keep=keep)


def role_for(action: str, retry: Callable[[], object], *, keep: bool = False) -> Role | None:
    """THE gate of the kiosk's own actions (settings, a new match, closing a table): the
    console's role if it may do `action` now (the role it is journaled with); else None, and
    the PIN pad asks and `retry` runs once the right PIN is typed. `keep`: a confirmation is
    asked before the action, which checks it again."""
    return _role(needs(action), action, retry, keep=keep)


def allowed(action: str, retry: Callable[[], object], *, keep: bool = False) -> bool:
    """`role_for` as a yes or no."""
    return role_for(action, retry, keep=keep) is not None


def command_for(
    table: Commands,
    action: str,
    retry: Callable[[], None],
    /,
    *,
    view: int | None,
    keep: bool = False,
    **args: object,
) -> Command | None:
    """The command `action` to `table`, made from the view of version `view` (kiosk/ui/seen.py)
    and carrying the console's role; None: the role may not send it, and the PIN pad asks
    (then `retry`). The table says what it needs. `keep`: the command is shown for a
    confirmation first, and checked again when it is sent."""
    command = Command(action, Role.PLAYER, tuple(args.items()))
    role = _role(table.needs(command), action, retry, keep=keep)
    return None if role is None else Command(action, role, command.args, view)


def send(
    table: Commands | None,
    action: str,
    retry: Callable[[], None],
    /,
    *,
    view: int | None,
    **args: object,
) -> bool:
    """THE way a screen changes a table: the command made from the view of version `view`
    (the screen's `Seen.version()`), with the console's role, sent. False: no table, or the
    PIN pad asks first. A refusal raises the table's error (a `Refused`, its Reason worded by
    the screen: a `StaleView` when the table moved on since that view); nothing changed."""
    if table is None:
        return False
    command = command_for(table, action, retry, view=view, keep=False, **args)
    if command is None:
        return False
    table.send(command)
    return True


load_kv(__file__)
