"""The home screen: choose the table's game, resume the unfinished match, or open settings."""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.ui.kvload import load_kv


class HomeScreen(Screen):
    """Four big game buttons; `resume_text` is empty when nothing is unfinished."""

    resume_text = StringProperty("")
    #: Why the unfinished match cannot be resumed (a damaged record names its line).
    problem = StringProperty("")


load_kv(__file__)
