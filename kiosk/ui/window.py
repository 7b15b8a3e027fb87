"""Kivy's start-up settings for the kiosk, set before Kivy's window module is imported.

Used by `tableside run` and the benchmark, so both measure the same app.
"""

from __future__ import annotations

import os


def configure_kivy(*, fullscreen: bool) -> None:
    """The window and the clock. The "interrupt" clock lets a sensor thread's
    Clock.schedule_once wake the loop at once instead of at the next frame (a beam hit is
    drawn a few milliseconds after it arrives, not up to a frame later)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_CLOCK", "interrupt")
    from kiosk.ui import text

    text.before_kivy()  # Kivy's PIL text provider: Pillow's raqm shapes Devanagari, Gujarati
    from kivy.config import Config

    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    if fullscreen:
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
        Config.set("kivy", "keyboard_mode", "systemanddock")  # no keyboard at the table
    else:
        Config.set("graphics", "width", "1024")
        Config.set("graphics", "height", "600")
        Config.set("kivy", "keyboard_mode", "system")
    text.install()  # Noto fonts and the fallback chain on every label
