"""Before any test imports Kivy (kiosk.ui.i18n does, and the rulings' and the parts' words
tests import it outside tests/ui): Kivy set up as the kiosk sets it up (kiosk/ui/window.py)
and as tests/ui/harness.py expects, whichever test module is collected first. Without this
the whole suite stops at collection ("before_kivy() must run before Kivy is imported")."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

from kiosk.ui import text as _text

_text.before_kivy()  # the PIL text provider, shaped by Pillow's raqm
from kivy.config import Config  # noqa: E402

Config.set("graphics", "maxfps", "0")  # read as Kivy's clock is made: tests/ui pumps frames

#: Tests that open windows on the one X display (tests/ui taps it with xdotool; the installed
#: kiosk's runs and the screen sizes open windows of their own): with `-n 2` (make test,
#: pytest-xdist's loadgroup) they all run on one worker, one after the other, while the
#: other worker takes the rest.
ON_THE_DISPLAY = ("tests/ui/", "tests/install/test_wheel.py", "tests/install/test_screen_sizes.py")
ON_THE_DISPLAY += ("tests/hall/test_call_button.py",)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(str(config.rootpath))
    for item in items:
        where = Path(str(item.path)).relative_to(root).as_posix()
        if where.startswith(ON_THE_DISPLAY):
            item.add_marker(pytest.mark.xdist_group("display"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "xdist_group(name): run on one pytest-xdist worker")
