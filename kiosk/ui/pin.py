"""The umpire's PIN pad: settings open only after `Services.check_pin` accepts the digits.

The screen keeps the digits typed and shows dots; it never knows the PIN, only
whether the check said yes. A refused PIN clears the digits and says so.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.properties import NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.ui.kvload import load_kv
from kiosk.ui.words import N_

MAX_DIGITS = 8


class PinScreen(Screen):
    """Digits 0-9, clear, OK, back; `message` says why the PIN was refused."""

    digits = StringProperty("")
    #: A catalogue message, worded by pin.kv in the console's language.
    message = StringProperty(N_("Enter the umpire PIN"))
    refusals = NumericProperty(0)

    def __init__(self, check: Callable[[str], bool], on_accept: Callable[[], None], **kw: object):
        super().__init__(**kw)
        self._check = check
        self._on_accept = on_accept

    def on_pre_enter(self, *_: object) -> None:
        self.digits = ""
        self.message = N_("Enter the umpire PIN")

    def press(self, key: str) -> None:
        """One key of the pad: a digit, 'clear' or 'ok'."""
        if key == "clear":
            self.digits = ""
        elif key == "ok":
            self._submit()
        elif key.isdigit() and len(self.digits) < MAX_DIGITS:
            self.digits += key

    def _submit(self) -> None:
        entered, self.digits = self.digits, ""
        if entered and self._check(entered):
            self.message = N_("Enter the umpire PIN")
            self._on_accept()
        else:
            self.refusals += 1
            self.message = N_("PIN refused. Try again.")


load_kv(__file__)
