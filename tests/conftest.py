"""The Kivy tests first: with make test's two processes (pytest-xdist), the long UI files
start at once and the many short ones fill in at the end, instead of the UI files making a
tail one process runs alone."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith("tests/ui/"))  # stable: in order
