"""Before any test module: Kivy's environment, as kiosk/ui/window.py sets it for the kiosk.

Kivy reads its settings when it is first imported, and a module outside tests/ui may import
it first (the words of a ruling through kiosk/ui/i18n): whoever comes first, Kivy starts with
the PIL text provider, no argument parsing, its logs through Python's, and a home of its own.
"""

from __future__ import annotations

import os
import tempfile

from kiosk.ui import text

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
text.before_kivy()
