"""A second kiosk over a journal another kiosk holds said so in grey on
grey, and nothing of it reached the log. Home says it in red on dark red; every refused
open is an error in the log (the journal of systemd on the kiosk)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.engine.journal import Journal

from .harness import Kiosk


@pytest.fixture
def held(tmp_path: Path) -> Iterator[Journal]:
    """The data folder's journal, held by another kiosk (this process: the lock is the
    same for a second open here as for another process)."""
    journal = Journal(tmp_path / "journal.db")
    yield journal
    journal.close()


def test_second_kiosk_says_the_journal_is_held_in_red_and_logs_it(
    held: Journal, kiosk: Kiosk, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger="kiosk")
    kiosk.app.refresh_home()
    home = kiosk.screen("home")
    button = kiosk.widget("resume", "home")
    assert "in use by another kiosk" in home.problem
    assert button.text == home.problem and button.disabled
    red, green, blue, _ = button.color
    assert red > 0.9 and green < 0.8 and blue < 0.8  # not the disabled grey
    logged = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert any("in use by another kiosk" in line for line in logged), logged
