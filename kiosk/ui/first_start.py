"""Choosing the umpire's and the director's PINs: at the first start (a real kiosk has no
default PIN) and from the settings, by the director.

Four steps on the PIN pad: the umpire's PIN, again, the director's, again. A PIN is 4 to 8
digits and the two must differ (the director's opens more than the umpire's). Only the
salted hashes are kept, in the settings file (kiosk/config/__init__.py `hash_pin`); nothing is saved
until both are chosen. Cancel starts over (at the first start there is nowhere else to go)
or, from the settings, goes back to them with nothing changed.
"""

from __future__ import annotations

import contextlib
from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.access.authority import Role
from kiosk.config import ConfigError, hash_pin, with_values
from kiosk.engine.journal import JournalError
from kiosk.ui.i18n import tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.lock import (
    PinPad,  # noqa: F401  (the pad's kv rule)
    allowed,
)

MIN_DIGITS = 4


class PinsScreen(Screen):
    """`first`: the first start (no way back); else the settings' "Change the PINs"."""

    first = BooleanProperty(False)
    step = NumericProperty(0)
    title = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._chosen: list[str] = []
        self.ids.pad.bind(
            on_pin=lambda _pad, pin: self.typed(pin), on_cancel=lambda _pad: self.cancel()
        )

    def on_pre_enter(self, *_: object) -> None:
        self._start()

    def _start(self, problem: str = "") -> None:
        self._chosen = []
        self.step = 0
        self._ask(problem)

    def _ask(self, problem: str = "") -> None:
        asks = (
            tr._("Choose the umpire's PIN (4 to 8 digits)"),
            tr._("Type the umpire's PIN again"),
            tr._("Choose the director's PIN (4 to 8 digits, not the umpire's)"),
            tr._("Type the director's PIN again"),
        )
        self.title = (
            tr._("First start: no PIN is set yet") if self.first else tr._("Change the PINs")
        )
        pad = self.ids.pad
        pad.refused = bool(problem)
        pad.message = f"{problem}\n{asks[int(self.step)]}" if problem else asks[int(self.step)]

    def typed(self, pin: str) -> None:
        step = int(self.step)
        if step in (0, 2):
            if len(pin) < MIN_DIGITS:
                self._ask(tr._("At least 4 digits"))
                return
            if step == 2 and pin == self._chosen[0]:
                self._ask(tr._("The director's PIN must differ from the umpire's"))
                return
            self._chosen.append(pin)
        elif pin != self._chosen[-1]:
            self._chosen.pop()
            self.step = step - 1
            self._ask(tr._("The two did not match: choose it again"))
            return
        if step < 3:
            self.step = step + 1
            self._ask()
            return
        self._save(self._chosen[0], self._chosen[1])

    def _save(self, umpire: str, director: str) -> None:
        """Keep the two PINs' hashes. A change (not the first start) is the director's,
        checked again at this moment; either is journaled with the role, never
        the PINs."""
        app = App.get_running_app()
        services = app.services
        if not self.first and not allowed("settings", lambda: self._save(umpire, director)):
            return
        try:
            settings = with_values(
                services.settings,
                umpire={"pin_hash": hash_pin(umpire), "director_pin_hash": hash_pin(director)},
            )
            services.save_settings(settings)
        except (ConfigError, OSError) as exc:
            self._start(tr._("The PINs could not be saved: {error}", error=str(exc)))
            return
        services.tables.use_settings(settings)  # the first start is over: the PINs are set
        with contextlib.suppress(JournalError):  # a journal that cannot open: said on home
            what = "set" if self.first else "changed"
            services.tables.note("pins", Role.DIRECTOR, {"what": what})
        first, self.first = self.first, False  # from now on this screen is the settings'
        app.show("home" if first else "settings")

    def cancel(self) -> None:
        if self.first:
            self._start()
        else:
            App.get_running_app().show("settings")


load_kv(__file__)
