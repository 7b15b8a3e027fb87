"""The players run their own clock at a locked backgammon console, the director corrects
(RULES.md, rulings of 2026-11-27: a backgammon table has no umpire), by real taps.

The players press, pause on a passed double (4.4 (iii): the player who passes stops the
clock), restart the delay after an invalid roll (4.3 (v)) and end the game, the loser
confirming its points (4.5), all without a PIN; the director corrects the score (4.7) and
the match length (4.8) with the director's PIN, a refusal worded in the console's language.
Each step is checked in the journal with the role that made it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kiosk.access.authority import Role
from kiosk.ui.i18n import apply_languages, tr

from .harness import (
    DIRECTOR_PIN,
    UMPIRE_PIN,
    FakeClock,
    Kiosk,
    Services,
    confirmed_events,
    pinned,
    type_pin,
)

UMPIRE, DIRECTOR = UMPIRE_PIN, DIRECTOR_PIN


@pytest.fixture
def services(tmp_path: Path, fake_clock: FakeClock) -> Services:
    """A kiosk with both PINs set: the console locks after 5 idle minutes."""
    return pinned(tmp_path, fake_clock)


def _sources(screen: Any) -> list[tuple[str, str]]:
    """Each clock event in the journal with the role that made it."""
    table = screen.table
    return [
        (e.data["event"], e.source) for e in table.journal.entries(table.match_id)
        if e.kind == "event"
    ]  # fmt: skip


def _locked_clock(kiosk: Kiosk) -> Any:
    """A 7-point match the players started themselves at a locked console."""
    gate = kiosk.app.gate
    assert gate.authority.role(kiosk.clock()) is Role.PLAYER
    kiosk.tap("backgammon")
    kiosk.tap("start")
    assert kiosk.current == "backgammon" and not gate.is_open
    return kiosk.screen()


def test_ruling_2026_12_01_players_set_up_and_start_their_match_without_a_pin(
    kiosk: Kiosk,
) -> None:
    """RULES.md, rulings of 2026-12-01 (4.1 (v)-(vi), 4.3, 5.1): at a backgammon table with
    no umpire the players set up and start the match and its clock; no PIN is asked, and the
    start is journaled as theirs."""
    gate = kiosk.app.gate
    kiosk.tap("backgammon")
    kiosk.tap("length_minus")  # a 5-point match
    kiosk.tap("score_0_plus")
    kiosk.tap("start")
    assert not gate.is_open, gate.pad.message
    assert kiosk.current == "backgammon"
    screen = kiosk.screen()
    assert screen.view is not None and screen.view.match_length == 5
    kiosk.tap("start_0")  # the match clock
    assert not gate.is_open and screen.running
    assert gate.authority.role(kiosk.clock()) is Role.PLAYER  # nobody unlocked it
    assert _sources(screen) == [("start", "player")]


def test_4_4_iii_4_5_4_7_players_pause_on_a_passed_double_and_end_the_game_at_a_locked_console(
    kiosk: Kiosk,
) -> None:
    gate = kiosk.app.gate
    screen = _locked_clock(kiosk)
    kiosk.tap("start_0")  # the players start their own clock
    kiosk.advance(5.0)
    kiosk.tap("half_0")  # A ends the turn
    kiosk.advance(3.0)
    kiosk.tap("restart_delay")  # B's roll was invalid (4.3 (v)): B's delay whole again
    assert screen.delays[1] == "12.0"
    # B redoubles to 4 and A passes: A stops the clock himself (4.4 (iii)).
    kiosk.tap("pause")
    assert screen.paused and not gate.is_open
    kiosk.tap("game_over")
    kiosk.tap("end_winner_1")
    kiosk.tap("end_points_plus")  # the cube stood at 2 before the redouble: 2 points
    assert kiosk.widget("end_claim").text == "Player B wins 2 points: Player A, do you confirm?"
    assert kiosk.widget("end_confirm").text == "Player A confirms"  # the loser's own tap (4.5)
    kiosk.shot("backgammon_loser_confirms")
    kiosk.tap("end_confirm")
    assert not gate.is_open and screen.scores == [0, 2] and not screen.in_game
    assert _sources(screen) == [
        ("start", "player"),
        ("press", "player"),
        ("restart_delay", "player"),
        ("pause", "player"),
        ("game_end", "player"),
    ]
    # The redouble had been taken: the cube stood at 4. The director corrects the score
    # (4.7: as soon as the error is found, even one both players agreed to).
    kiosk.tap("director")
    kiosk.tap("fix_open")
    assert kiosk.widget("fix_0_text").text == "0" and kiosk.widget("fix_1_text").text == "2"
    kiosk.tap("fix_1_plus")
    kiosk.tap("fix_1_plus")
    assert kiosk.widget("fix_score").text == "Correct the score to 0-4"
    kiosk.shot("backgammon_correct_score")
    kiosk.tap("fix_score")
    assert gate.is_open and gate.pad.message == "This needs the director's PIN"
    type_pin(kiosk, UMPIRE)  # the umpire's PIN does not correct a score
    assert gate.is_open and screen.scores == [0, 2]
    type_pin(kiosk, DIRECTOR)
    assert not gate.is_open and screen.scores == [0, 4] and not screen.fix_open
    assert _sources(screen)[-1] == ("correct_score", "director")
    assert confirmed_events(screen.table)[-1] == {
        "event": "correct_score",
        "score": {"Player A": 0, "Player B": 4},
    }


def test_4_8_the_director_corrects_the_length_a_refusal_worded_in_the_consoles_language(
    kiosk: Kiosk,
) -> None:
    gate = kiosk.app.gate
    screen = _locked_clock(kiosk)
    kiosk.tap("start_0")
    kiosk.tap("game_over")
    kiosk.tap("end_winner_1")
    kiosk.tap("end_points_plus")
    kiosk.tap("end_points_plus")
    kiosk.tap("end_points_plus")  # a gammon on a cube of 2: 4 points
    kiosk.tap("end_confirm")
    assert screen.scores == [0, 4]
    kiosk.tap("director")
    kiosk.tap("fix_open")
    assert kiosk.widget("fix_length_text").text == "match to 7"
    for _ in range(4):
        kiosk.tap("fix_length_minus")  # 3 points: 4 would already have won it
    kiosk.tap("fix_length")
    type_pin(kiosk, DIRECTOR)
    assert not gate.is_open and screen.fix_open
    assert "would already be over at 4 for Player B" in screen.message
    apply_languages("el")
    try:
        kiosk.tap("fix_length")  # the director's window is open: no PIN this time
        greek = screen.message
        assert greek == tr._(
            "a {length}-point match would already be over at {score} for {player}: the match "
            "goes on at {current} points ({law})",
            length=3,
            score=4,
            player="Player B",
            current=7,
            law="4.8",
        )
        assert "would" not in greek and "Player B" in greek
    finally:
        apply_languages("en")
    for _ in range(6):
        kiosk.tap("fix_length_plus")  # 9 points: the length was entered wrongly
    kiosk.tap("fix_length")
    assert not screen.fix_open and screen.message == ""
    assert screen.match_line == "match to 9 · cube 1"
    assert screen.view is not None and screen.view.match_length == 9
    assert confirmed_events(screen.table)[-1] == {"event": "match_length", "length": 9}
    # 4.8: corrected before the next game, not during one.
    kiosk.tap("director_close")
    kiosk.tap("start_1")
    kiosk.tap("director")
    kiosk.tap("fix_open")
    kiosk.tap("fix_length_minus")
    kiosk.tap("fix_length")
    assert "before the next game" in screen.message and screen.view.match_length == 9
