"""kiosk/ui/memory.py: garbage is collected before the freeze, so a freeze never makes it
permanent; the trim runs (glibc's malloc_trim, or nothing elsewhere)."""

from __future__ import annotations

import gc
import weakref

from kiosk.ui.memory import settle, trim


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_settle_collects_cyclic_garbage_before_freezing_the_rest() -> None:
    kept = _Node()
    dropped = weakref.ref(_Node())
    try:
        settle()
        assert dropped() is None  # freed, not frozen
        assert gc.get_freeze_count() > 0
        assert kept.me is kept
    finally:
        gc.unfreeze()


def test_trim_collects_what_is_not_frozen() -> None:
    dropped = weakref.ref(_Node())
    trim()
    assert dropped() is None
