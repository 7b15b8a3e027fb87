"""The Kivy tests first: make test's two processes (pytest-xdist `--dist worksteal`) take
work from the end of each other's share, so the many short tests are what moves between
them and the long UI ones are under way from the start."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith("tests/ui/"))  # stable: in order
