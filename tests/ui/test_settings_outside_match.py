"""A settings change made during a match was exported as the match's
correction ("correction by the director: settings" in the protest record). A settings save
is the kiosk's own act: journaled with the director's role outside any match, it is not in
the match's entries, its record or its protest record."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.access.settings_authority import KIND, describe
from kiosk.tables.carrom_record import export_match_record

from .harness import DIRECTOR_PIN, FakeClock, Kiosk, Services, pinned, type_pin
from .test_roles import _start_carrom


@pytest.fixture
def services(tmp_path: Path, fake_clock: FakeClock) -> Services:
    return pinned(tmp_path, fake_clock)


def test_settings_saved_during_a_match_are_not_a_correction_of_it(kiosk: Kiosk) -> None:
    _start_carrom(kiosk)  # the umpire's PIN starts it
    kiosk.app.show("home")
    kiosk.tap("settings")
    type_pin(kiosk, DIRECTOR_PIN)
    kiosk.tap(kiosk.widget("stroke_s").ids.plus)
    kiosk.tap("save")
    journal = kiosk.services.journal()
    (match,) = journal.matches()
    saved = journal.entries(None, ["settings"])
    assert [(e.source, e.data) for e in saved] == [("director", {"changed": ["timers.stroke_s"]})]
    # the protest record words the match's entries: the PIN typed for the settings is
    # there (the console was unlocked during the match), no correction nor the save
    entries = journal.entries(match.id)
    assert [e for e in entries if e.kind == "settings"] == []
    words = [describe(e.data)[1] for e in entries if e.kind == KIND]
    assert "director's PIN unlocks the console for settings" in words
    assert not any("correction" in w for w in words)
    assert "settings" not in export_match_record(journal, match.id)
