"""Power cuts at random moments on a filesystem that drops what was not synced (lazyfs.py):
no acknowledged event is ever lost, and every restart is the last synced state exactly."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .powercut import fuse_usable, run

pytestmark = pytest.mark.skipif(
    fuse_usable() is not None or os.geteuid() != 0, reason=f"FUSE: {fuse_usable()}"
)


def test_journal_power_cuts_lose_no_acknowledged_event(tmp_path: Path) -> None:
    figures = run(tmp_path, cuts=8, seed=14, max_wait=0.2)
    assert figures.refused == [] and figures.wrong == []
    assert figures.cuts == 8 and figures.lost == 0
    assert figures.acked > 8  # the cuts fell while events were being written
