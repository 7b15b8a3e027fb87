"""Issue 13's bar: no module in kiosk/ over 400 lines (a module that outgrows it is split by
what it holds)."""

from __future__ import annotations

from pathlib import Path

import kiosk

LIMIT = 400


def test_no_kiosk_module_is_over_400_lines() -> None:
    root = Path(kiosk.__file__).parent
    long = {
        str(path.relative_to(root)): n
        for path in sorted(root.rglob("*.py"))
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    }
    assert long == {}
