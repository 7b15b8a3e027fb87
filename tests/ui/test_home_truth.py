"""Home says what is true, with real taps under Xvfb: a backgammon match
decided (on time) is no longer listed as unfinished "0-0"; a new game warns about a running
backgammon clock as it does about a carrom match; the Settings button names the PIN it asks
for (the director's)."""

from __future__ import annotations

from kiosk.access.authority import Role

from .harness import Kiosk, start_backgammon


def test_home_backgammon_match_decided_on_time_is_not_listed_unfinished(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk)
    kiosk.tap("start_0")
    kiosk.advance(12.0 + 360.0 + 1.0)  # A's delay and bank run out: B wins on time (4.3 iii)
    assert "Player B wins the match on time" in screen.banner
    kiosk.tap("timeout_home")
    home = kiosk.screen()
    assert kiosk.current == "home"
    # Open only for the director's overrule (4.3 (iii)): said so, not "unfinished 0-0".
    assert home.rows[0][1].startswith(
        "Back to the backgammon clock: decided on time\nPlayer A v Player B · Player B wins "
        "on time (4.3 (iii)); the director may still overrule · started "
    ), home.rows
    kiosk.shot("home_after_time_out")
    kiosk.tap("resume")
    kiosk.tap("timeout_director")
    kiosk.tap("overrule")  # the director rules Player A had won: the match is declared
    kiosk.tap("director_close")
    kiosk.tap("timeout_home")
    assert home.rows == [] and kiosk.services.tables.unfinished() == []


def test_home_backgammon_match_won_on_points_is_not_listed_unfinished(kiosk: Kiosk) -> None:
    screen = start_backgammon(kiosk, length_steps=-3)  # a 1-point match
    kiosk.tap("start_0")
    screen.table.game_end("Player A", 1, role=Role.PLAYER)  # by the table (tested elsewhere)
    kiosk.advance(0.5)
    assert screen.winner == "Player A"
    kiosk.tap("home")
    assert kiosk.screen().rows == [] and kiosk.services.tables.unfinished() == []


def test_home_new_game_warns_about_a_running_backgammon_clock(kiosk: Kiosk) -> None:
    kiosk.tap("carrom_icf")
    kiosk.tap("start")  # a carrom match, unfinished
    kiosk.tap("home")
    kiosk.tap("backgammon")
    kiosk.tap("ask_go")
    kiosk.tap("start")
    kiosk.tap("start_0")  # Player A's clock runs
    kiosk.tap("home")
    home = kiosk.screen()
    kiosk.tap("bhukhar")  # a third game while the clock runs: asked first
    assert home.ask_game == "bhukhar"
    assert "The carrom match Player A v Player B is unfinished" in home.ask_text
    assert (
        "The backgammon clock Player A v Player B is running: its time goes on while "
        "another game is played. Tap Back and pause it if the players stopped."
    ) in home.ask_text, home.ask_text
    kiosk.shot("home_ask_running_clock")
    kiosk.tap("ask_back")
    kiosk.tap("resume_1")  # the umpire pauses the clock first
    kiosk.tap("pause")
    kiosk.tap("home")
    kiosk.tap("bhukhar")
    assert "running" not in home.ask_text
    assert "The backgammon clock Player A v Player B is unfinished" in home.ask_text


def test_home_settings_button_names_the_directors_pin_it_asks_for(kiosk: Kiosk) -> None:
    assert kiosk.widget("settings").text == "Settings (director's PIN)"
