"""Before any test module: Kivy's environment, as kiosk/ui/window.py sets it for the kiosk.

Kivy reads its settings when it is first imported, and a module outside tests/ui may import
it first (the words of a ruling through kiosk/ui/i18n): whoever comes first, Kivy starts with
the PIL text provider, no argument parsing, its logs through Python's, and a home of its own.

Under pytest-xdist (`make test` runs two workers) each worker gets a virtual screen of its
own: the UI tests type through xdotool into the focused window, and two kiosks on one
screen would take each other's keys.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile

from kiosk.ui import text


def _own_screen() -> None:
    """Start an Xvfb for this worker and point DISPLAY at it (before Kivy is imported)."""
    if shutil.which("Xvfb") is None:
        return  # the UI tests skip themselves, saying why
    read, write = os.pipe()
    screen = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x600x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as chosen:
        number = chosen.readline().strip()
    if not number:
        screen.kill()
        return
    os.environ["DISPLAY"] = f":{number}"
    atexit.register(screen.kill)


if os.environ.get("PYTEST_XDIST_WORKER"):
    _own_screen()
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
text.before_kivy()
