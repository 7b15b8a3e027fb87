"""Before any test imports Kivy (kiosk.ui.i18n does, and the rulings' and the parts' words
tests import it outside tests/ui): Kivy set up as the kiosk sets it up (kiosk/ui/window.py)
and as tests/ui/harness.py expects, whichever test module is collected first. Without this
the whole suite stops at collection ("before_kivy() must run before Kivy is imported").

With `-n 3` (make test, pytest-xdist) each worker draws on an X display of its own."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile


def _own_display() -> None:
    """The second worker's own Xvfb (the first keeps xvfb-run's): tests/ui taps with xdotool
    at window coordinates, and two kiosks' windows on one display would take each other's
    taps and focus."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    if worker == "gw0" or not os.environ.get("DISPLAY") or shutil.which("Xvfb") is None:
        return
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x600x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as answer:
        number = answer.readline().strip()  # written once the server takes connections
    if not number:
        server.kill()
        raise RuntimeError(f"worker {worker}: Xvfb did not start")
    os.environ["DISPLAY"] = f":{number}"
    atexit.register(server.terminate)


_own_display()
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

from kiosk.ui import text as _text  # noqa: E402

_text.before_kivy()  # the PIL text provider, shaped by Pillow's raqm
from kivy.config import Config  # noqa: E402

Config.set("graphics", "maxfps", "0")  # read as Kivy's clock is made: tests/ui pumps frames

import pytest  # noqa: E402
from hypothesis import settings as _hypothesis  # noqa: E402

from drivers.simulated import ManualClock  # noqa: E402

# Property tests draw the same examples on every run and keep none between runs: a run can
# fail only on the code, never by the examples it happened to draw, and a busy machine does
# not fail a slow example (no deadline). A wider search is a deliberate run of bench/.
_hypothesis.register_profile("tableside", derandomize=True, database=None, deadline=None)
_hypothesis.load_profile("tableside")


@pytest.fixture
def clock() -> ManualClock:
    """The one fake clock (drivers.simulated.ManualClock) as a table's monotonic clock."""
    return ManualClock(1000.0)


@pytest.fixture
def wall() -> ManualClock:
    """The same fake clock as the wall clock, at a date in 2023."""
    return ManualClock(1_700_000_000.0)
