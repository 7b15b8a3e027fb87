"""The Kivy tests first: make test's two processes (pytest-xdist `--dist load`) are handed
tests in this order, so both start on the long UI tests and the many short ones fill in at
the end, instead of the UI tests making a tail one process runs alone."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith("tests/ui/"))  # stable: in order
