"""Before any test imports Kivy (kiosk.ui.i18n does, and the rulings' and the parts' words
tests import it outside tests/ui): Kivy set up as the kiosk sets it up (kiosk/ui/window.py)
and as tests/ui/harness.py expects, whichever test module is collected first. Without this
the whole suite stops at collection ("before_kivy() must run before Kivy is imported")."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

from kiosk.ui import text as _text

_text.before_kivy()  # the PIL text provider, shaped by Pillow's raqm
from kivy.config import Config  # noqa: E402

Config.set("graphics", "maxfps", "0")  # read as Kivy's clock is made: tests/ui pumps frames
