"""What the screens say is true, with real taps under Xvfb: the player
display follows the table's whole state (paused, a fallen flag, waiting out the delay, the
turn; the carrom score only as law 128 and `[players] icf_score` allow), "Buzzer sounded"
only when a buzzer played, and the backgammon "on turn" highlight follows the turn."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from drivers.buzzer import BuzzerPlayer
from kiosk.config import with_values
from kiosk.parts.outputs import BuzzerOutput

from .conftest import PIN
from .harness import FakeClock, Kiosk, Services, make_kiosk, start_backgammon

GREEN = (0.55, 1, 0.65, 1)


def _players(kiosk: Kiosk, back: str) -> Any:
    """The player display, reached as the umpire does: Home, then Player display."""
    kiosk.tap(back)  # the game screen's Home
    kiosk.tap("players")
    assert kiosk.current == "players"
    kiosk.advance(0.1)
    return kiosk.screen()


def test_backgammon_on_turn_highlight_follows_the_turn_rule_4_1(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk)
    halves = (screen.ids.half_0, screen.ids.half_1)
    kiosk.tap("start_0")
    assert [h.live for h in halves] == [True, False]
    kiosk.tap("half_0")  # A ends the turn: B's delay and bank run
    assert list(screen.turns) == [False, True]
    assert [h.live for h in halves] == [False, True], "the green half stayed with A"
    kiosk.tap("half_1")
    assert [h.live for h in halves] == [True, False]


def test_player_display_shows_the_backgammon_clock_paused_rule_4_3_ii(kiosk: Kiosk) -> None:
    start_backgammon(kiosk)
    kiosk.tap("start_0")
    kiosk.advance(2.0)
    kiosk.tap("pause")
    players = _players(kiosk, "home")
    assert players.banner == "PAUSED: the clock stands"
    assert players.ids.banner.text == "0-0 to 3  ·  PAUSED: the clock stands"  # the score leads
    # the side on turn stays marked, but not in the running side's green
    assert players.left_turn and players.ids.left_name.text.startswith("> ")
    assert tuple(players.ids.left_name.color) != GREEN
    assert tuple(players.ids.left.color) != GREEN
    kiosk.advance(5.0)  # nothing runs
    assert players.left_score == "6:00" and players.banner == "PAUSED: the clock stands"
    kiosk.shot("players_backgammon_paused")
    kiosk.tap("back")  # Umpire: back to the clock
    kiosk.tap("pause")  # Resume
    players = _players(kiosk, "home")
    assert players.banner == "" and tuple(players.ids.left_name.color) == GREEN


def test_player_display_says_who_waits_after_an_early_pickup_4_1_v_b(kiosk: Kiosk) -> None:
    start_backgammon(kiosk)
    kiosk.tap("start_0")
    kiosk.tap("director")
    kiosk.tap("pickup_1")  # B picked up the dice before A pressed
    kiosk.tap("director_close")
    kiosk.tap("half_0")  # B must wait out the delay
    players = _players(kiosk, "home")
    assert players.right_turn and not players.left_turn
    assert players.banner == "Player B waits: no move until the delay has run"
    assert players.caption == "Player B: WAIT for the delay (4.1 (v) b)"
    assert players.urgent
    kiosk.shot("players_backgammon_wait")


def test_player_display_says_the_flag_fell_rule_4_3_iii(kiosk: Kiosk) -> None:
    start_backgammon(kiosk)
    kiosk.tap("start_0")
    kiosk.advance(12.0 + 360.0 + 1.0)  # A's delay and bank run out
    players = _players(kiosk, "timeout_home")
    assert players.urgent
    assert "Player B wins the match on time" in players.banner


def _carrom(kiosk: Kiosk, icf: bool) -> Any:
    kiosk.tap("carrom_icf" if icf else "carrom_club")
    kiosk.tap("start")
    assert kiosk.current == "carrom"
    return kiosk.screen()


def test_law_128_the_player_display_hides_the_icf_score_by_default(kiosk: Kiosk) -> None:
    _carrom(kiosk, icf=True)
    kiosk.tap("white_plus")
    kiosk.tap("confirm")  # Player A pockets a white on the break: 1 point on the board
    players = _players(kiosk, "home")
    assert players.left_name == "Player A" and players.left_turn
    # Drawn, not only known: "Player A" at 12 mm is wider than its half of the row.
    assert players.ids.left_name.text == "> P. A"
    assert (players.left_score, players.right_score) == ("", "")
    assert not players.scores_shown and players.ids.left.text == players.ids.right.text == ""
    assert "Games" not in players.status and "Board 1/8" in players.status


def test_law_128_the_tournament_may_show_the_icf_score(kiosk: Kiosk) -> None:
    services = kiosk.services
    services.tables.use_settings(with_values(services.settings, players={"icf_score": True}))
    _carrom(kiosk, icf=True)
    players = _players(kiosk, "home")
    assert (players.left_score, players.right_score) == ("0", "0")
    assert "Games 0-0" in players.status


def test_law_128_club_rules_show_the_score(kiosk: Kiosk) -> None:
    _carrom(kiosk, icf=False)
    players = _players(kiosk, "home")
    assert (players.left_score, players.right_score) == ("0", "0")


def test_law_121_the_player_display_shows_the_carrom_clock_stopped(kiosk: Kiosk) -> None:
    _carrom(kiosk, icf=True)
    kiosk.tap("confirm")  # the break pockets nothing: Player B's turn
    kiosk.tap("lifted")  # B's count runs (laws 50, 124 b)
    kiosk.tap("stop_clock")
    players = _players(kiosk, "home")
    assert players.paused
    assert players.banner == "PAUSED: the umpire stopped the clock (law 121)"
    assert players.right_turn and tuple(players.ids.right_name.color) != GREEN
    assert not players.urgent


# -- the buzzer's sign (item 2) ---------------------------------------------------------------


@pytest.fixture
def with_buzzer(tmp_path: Path) -> Iterator[tuple[Kiosk, BuzzerPlayer]]:
    clock = FakeClock(1000.0)
    player = BuzzerPlayer(18, pin_factory=MockFactory())
    services = Services(
        data_dir=tmp_path,
        check_pin=lambda pin: pin == PIN,
        clock=clock,
        outputs=(BuzzerOutput(player),),
    )
    try:
        yield from ((k, player) for k in make_kiosk(services, clock))
    finally:
        player.close()


def _expire(kiosk: Kiosk) -> Any:
    screen = _carrom(kiosk, icf=True)
    kiosk.tap("confirm")  # the break pockets nothing: Player B's turn
    kiosk.tap("lifted")  # the count starts (law 124 b)
    kiosk.advance(15.5)
    assert screen.alarm and screen.buzzed
    return screen


def test_law_50_buzzer_silent_when_the_kiosk_has_no_buzzer(kiosk: Kiosk) -> None:
    screen = _expire(kiosk)  # this kiosk's buzzer did not start: no buzzer output
    assert screen.ids.buzzer_sign.text == "Buzzer silent: check it"
    kiosk.shot("carrom_buzzer_silent")


def test_law_50_buzzer_sounded_when_the_buzzer_played(
    with_buzzer: tuple[Kiosk, BuzzerPlayer],
) -> None:
    kiosk, _player = with_buzzer
    screen = _expire(kiosk)
    assert screen.ids.buzzer_sign.text == "Buzzer sounded"


def test_law_50_buzzer_silent_when_it_is_muted(with_buzzer: tuple[Kiosk, BuzzerPlayer]) -> None:
    kiosk, player = with_buzzer
    player.volume = 0.0  # an on/off buzzer at volume 0 makes no sound
    screen = _expire(kiosk)
    assert screen.ids.buzzer_sign.text == "Buzzer silent: check it"
