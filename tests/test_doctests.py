"""The examples in the docstrings run: every module in kiosk/, drivers/ and vision/ that has
one (kiosk/rules/carrom/match.py's example match among them)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts)
    for package in ("kiosk", "drivers", "vision")
    for path in (ROOT / package).rglob("*.py")
    if ">>> " in path.read_text(encoding="utf-8")
)


def test_doctests_are_found() -> None:
    assert "kiosk.rules.carrom.match" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_doctests_pass(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, result
