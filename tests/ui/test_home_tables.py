"""Home lists every unfinished table, with real taps under Xvfb: before, starting
a backgammon clock made the unfinished carrom match vanish from home, a running Bhukhar
round could not be reached, and nothing warned before a new game set a table aside."""

from __future__ import annotations

from .harness import Kiosk


def test_home_lists_each_unfinished_table_and_resumes_the_one_tapped(kiosk: Kiosk) -> None:
    kiosk.tap("carrom_icf")
    kiosk.tap("start")
    kiosk.tap("white_plus")
    kiosk.tap("confirm")  # Player A pockets a white on the break
    carrom = kiosk.screen().session.view().state
    kiosk.tap("home")
    home = kiosk.screen()
    assert home.rows[0][1].startswith(
        "Resume the unfinished carrom match\nPlayer A v Player B · games 0-0 · points 0-0"
    )
    kiosk.tap("backgammon")  # a new game while the carrom match is unfinished: asked first
    assert kiosk.current == "home" and home.ask_game == "backgammon"
    assert home.ask_text == (
        "The carrom match Player A v Player B is unfinished. It stays here, to resume later."
    )
    kiosk.tap("ask_go")
    assert kiosk.current == "setup_backgammon"
    kiosk.tap("start")
    kiosk.tap("home")
    kiosk.tap("bhukhar")
    kiosk.tap("ask_go")
    kiosk.tap("start")
    kiosk.tap("start_round")
    kiosk.tap("home")
    kinds = [row[0] for row in home.rows]
    assert kinds == ["carrom", "backgammon", "bhukhar"]
    assert home.rows[1][1].startswith(
        "Resume the unfinished backgammon clock\nPlayer A v Player B · 0-0 of 7 points"
    )
    assert home.rows[2][1].startswith("Resume the unfinished Bhukhar session\nA, B")
    kiosk.shot("home_unfinished_tables")
    kiosk.tap("resume")  # the carrom match, though the Bhukhar round was the last in play
    assert kiosk.current == "carrom"
    assert kiosk.screen().session.view().state == carrom
    kiosk.tap("home")
    kiosk.tap("resume_2")
    assert kiosk.current == "bhukhar" and kiosk.screen().round_no == 1


def test_home_asks_before_a_new_match_closes_the_unfinished_one(kiosk: Kiosk) -> None:
    kiosk.tap("carrom_icf")
    kiosk.tap("start")
    first = kiosk.screen().session.match_id
    kiosk.tap("home")
    home = kiosk.screen()
    kiosk.tap("carrom_club")
    assert home.ask_text == (
        "The carrom match Player A v Player B is unfinished. A new one closes it: "
        "it can no longer be resumed."
    )
    kiosk.tap("ask_back")  # a change of mind: nothing happens
    assert kiosk.current == "home" and home.ask_game == ""
    assert kiosk.services.journal().unfinished("carrom").id == first


def test_home_lets_the_director_close_a_table_after_asking(kiosk: Kiosk) -> None:
    kiosk.tap("backgammon")
    kiosk.tap("start")
    table = kiosk.screen().table
    kiosk.tap("home")
    home = kiosk.screen()
    kiosk.tap("close_0")
    assert home.close_text == (
        "Close the backgammon clock Player A v Player B? It can no longer be resumed; "
        "the journal keeps its record."
    )
    kiosk.shot("home_close_table")
    kiosk.tap("close_back")
    assert kiosk.services.journal().unfinished("backgammon") is not None
    kiosk.tap("close_0")
    kiosk.tap("close_yes")
    assert kiosk.services.journal().unfinished("backgammon") is None
    assert kiosk.services.journal().match(table.match_id).finished  # the record is kept
    assert home.rows == [] and kiosk.widget("resume").disabled
    assert kiosk.app.runner.table is None  # no longer polled: its clock cannot sound
    kiosk.app.show("players")  # the player display no longer shows the closed clock
    assert kiosk.screen().status == "No table running" and kiosk.screen().big == ""
