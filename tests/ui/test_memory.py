"""kiosk/ui/memory.py: garbage is collected before the freeze, so a freeze never makes it
permanent; the trim runs (glibc's malloc_trim, or nothing elsewhere)."""

from __future__ import annotations

import gc
import weakref

import pytest

from kiosk.ui import memory
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


class _Trigger:
    """Kivy's trigger as the Trimmer uses it: how often it was set and cancelled."""

    def __init__(self) -> None:
        self.set = self.cancelled = 0

    def __call__(self) -> None:
        self.set += 1

    def cancel(self) -> None:
        self.cancelled += 1


def test_a_switch_is_given_back_two_frames_after_it_and_stillness_is_still_awaited(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trims: list[int] = []
    monkeypatch.setattr(memory, "trim", lambda: trims.append(1))
    still = _Trigger()
    trimmer = memory.Trimmer(still)
    trimmer.drawn()
    assert trims == [] and still.set == 1  # a frame: only the half second of stillness
    trimmer.switched()
    trimmer.drawn()  # the new words drawn; the old textures go at the end of this frame
    assert trims == []
    trimmer.drawn()
    assert trims == [1]
    trimmer.drawn()
    assert trims == [1] and still.set == 4 and still.cancelled == 4
