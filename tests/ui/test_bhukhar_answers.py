"""Bhukhar's answers by real taps: they name the teams as typed at the setup (not "ટીમ A"),
a refusal goes once the draft is put right, the totals "how it adds up" still open after a
restart, and a licence meld spoiled later says what becomes of its table points (RULES.md,
rulings of 2026-12-01, 17.2: its cards go back into the hand)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kiosk.ui.i18n import apply_languages, tr

from .harness import Kiosk, pump


@pytest.fixture
def gujarati(kiosk: Kiosk) -> Iterator[Kiosk]:
    apply_languages("gu")
    yield kiosk
    apply_languages("en")


def _named_session(kiosk: Kiosk) -> object:
    kiosk.tap("bhukhar")
    setup = kiosk.screen()
    for team, name in ((0, "Shah"), (1, "Lions")):
        kiosk.tap(f"names_{team}")
        setup.ids.team_name.text = name  # typing is tests/ui/test_bhukhar_console.py's
        pump(2)
    kiosk.tap("start")
    assert kiosk.current == "bhukhar", setup.message
    screen = kiosk.screen()
    kiosk.tap("start_round")
    return screen


def test_bhukhar_answers_name_the_teams_a_refusal_clears_totals_after_a_restart(
    gujarati: Kiosk,
) -> None:
    kiosk = gujarati
    screen: object = _named_session(kiosk)
    side_a, side_b = screen.ids.side_0, screen.ids.side_1  # type: ignore[attr-defined]
    for _ in range(4):
        kiosk.tap(side_a.ids.points_p50)
    kiosk.tap(side_b.ids.points_p50)  # B's licence at 50: under the 100 any licence is worth
    kiosk.tap("end_stock")
    kiosk.tap("enter")
    assert screen.refused  # type: ignore[attr-defined]
    refused = screen.message  # type: ignore[attr-defined]
    team = tr._("Team {team}", team="B").split()[0]  # "ટીમ"
    assert "Lions" in refused and f"{team} B" not in refused, refused
    assert "100" in refused, refused
    kiosk.tap(side_b.ids.points_p50)  # B's table was 100: the cause is gone
    assert not screen.refused and screen.message == ""  # type: ignore[attr-defined]
    kiosk.tap("bhukhar")  # the bhukhar to A
    kiosk.tap("enter")
    entered = screen.message  # type: ignore[attr-defined]
    assert not screen.refused, entered  # type: ignore[attr-defined]
    assert "Shah" in entered and "Lions" in entered, entered
    assert not kiosk.widget("totals").disabled
    # A restart: only the record remains; the totals of the last game still open.
    kiosk.tap("home")
    kiosk.app.screen("bhukhar").table = None
    kiosk.app.services.tables.in_play = None
    kiosk.tap("resume")
    assert kiosk.current == "bhukhar"
    screen = kiosk.screen()
    assert screen.table is not None and screen.table.view().entered is not None
    assert not kiosk.widget("totals").disabled
    kiosk.tap("totals")
    assert "Shah" in screen.totals_lines


def test_17_2_the_scoresheet_says_what_becomes_of_a_spoiled_melds_table_points(
    kiosk: Kiosk,
) -> None:
    """RULES.md, rulings of 2026-12-01 (17.2): a meld spoiled after the licence is void, its
    cards go back into the hand; the totals say so, beside the licence that stands."""
    screen: object = _named_session(kiosk)
    side_a, side_b = screen.ids.side_0, screen.ids.side_1  # type: ignore[attr-defined]
    for _ in range(4):
        kiosk.tap(side_a.ids.points_p50)
    for _ in range(2):
        kiosk.tap(side_b.ids.points_p50)
    kiosk.tap(side_b.ids.spoiled)  # a meld of B's licence was spoiled later
    kiosk.tap("bhukhar")
    kiosk.tap("enter")
    assert not screen.refused, screen.message  # type: ignore[attr-defined]
    kiosk.tap("totals")
    said = screen.totals_lines  # type: ignore[attr-defined]
    assert "Lions: a licence meld spoiled later is void: its table points are not counted" in said
    assert "its cards go back into the hand and may be laid again" in said
