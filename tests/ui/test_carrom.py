"""The carrom umpire console with real taps: a whole board from setup to result, the beams'
proposal, quick edits, undo, a refused event, fouls and the scoresheet."""

from __future__ import annotations

from kiosk.access.authority import Role
from kiosk.config import with_values

from .harness import Kiosk, name_players, win_board


def _setup(kiosk: Kiosk, first: str = "Asha", second: str = "Bina", *, typed: bool = False) -> None:
    """A match started from the setup; the names typed by the keyboard only where the setup
    itself is under test (`typed`), else filled in."""
    kiosk.tap("carrom_icf")
    assert kiosk.current == "setup_carrom"
    if typed:
        kiosk.type("name_0", first)
        kiosk.type("name_1", second)
        kiosk.shot("carrom_setup")
    else:
        name_players(kiosk, first, second)
    assert list(kiosk.screen().names[:2]) == [first, second]
    kiosk.tap("start")
    assert kiosk.current == "carrom"


def test_carrom_whole_board_from_setup_to_result(kiosk: Kiosk) -> None:
    _setup(kiosk, typed=True)
    screen = kiosk.screen()
    assert screen.names == ["Asha", "Bina"] and screen.colours == ["white", "black"]
    assert screen.status == "Asha to break"
    kiosk.tap("play")  # the umpire's "play": 15 s to break (law 46)
    kiosk.advance(3.0)
    assert screen.timer == "12" and screen.timer_kind.startswith("Break")
    # A coin through pocket 1 on the simulated beams (key 1): the proposal is drawn.
    kiosk.key("1")
    kiosk.advance(0.5)
    assert screen.prop_white == 1 and screen.prop_review
    assert "beams" in screen.prop_source
    kiosk.shot("carrom_proposal")
    # The umpire adds the queen (law 97 b: with the first own coin, still to cover).
    kiosk.tap("queen_in")
    assert screen.prop_queen and screen.prop_white == 1
    kiosk.tap("confirm")
    assert screen.queen.startswith("Queen pocketed, to cover")
    assert screen.at_turn == [True, False]
    # The next stroke pockets the other eight whites: the board is Asha's, 9 + 3 (law 52 a).
    for _ in range(8):
        kiosk.tap("white_plus")
    assert screen.prop_white == 8
    kiosk.tap("confirm")
    assert screen.points == [12, 0]
    assert screen.banner == "Asha wins the board, 12 points (law 52 a)"
    assert screen.status == "Bina to break"
    kiosk.shot("carrom_board_won")
    kiosk.tap("sheet")
    assert ["1", "1", "Asha", "Asha", "12", "Asha", "law 52 a"] in screen.sheet_rows
    kiosk.shot("carrom_scoresheet")
    kiosk.tap("sheet_close")


def test_carrom_undo_takes_back_the_last_confirmed_stroke(kiosk: Kiosk) -> None:
    _setup(kiosk)
    screen = kiosk.screen()
    assert screen.ids.undo.disabled
    kiosk.tap("white_plus")
    kiosk.tap("queen_in")
    kiosk.tap("confirm")
    assert screen.queen.startswith("Queen pocketed")
    assert not screen.ids.undo.disabled
    kiosk.tap("undo")
    assert screen.queen == "Queen on the board"
    assert screen.on_board == "On the board: 9 white, 9 black"
    assert screen.ids.undo.disabled
    assert screen.session.view().events == 0


def test_carrom_refused_event_shows_the_core_reason_and_changes_nothing(kiosk: Kiosk) -> None:
    _setup(kiosk)
    screen = kiosk.screen()
    kiosk.tap("waive")  # nothing is owed: the core refuses
    assert screen.error
    assert screen.session.view().events == 0
    kiosk.shot("carrom_refused")


def test_carrom_technical_foul_on_the_player_not_at_turn(kiosk: Kiosk) -> None:
    _setup(kiosk)
    screen = kiosk.screen()
    kiosk.tap("white_plus")
    kiosk.tap("confirm")  # Asha pockets a white on the break and plays on
    kiosk.tap("foul")
    assert screen.pick_action == "foul"
    kiosk.shot("carrom_foul_picker")
    kiosk.tap("pick_1")  # Bina, not at turn: a technical foul (law 63)
    assert screen.pick_action == ""
    assert screen.session.view().events == 2
    assert screen.at_turn == [True, False]


def test_carrom_player_display_shows_the_timer_and_score_large(kiosk: Kiosk) -> None:
    # the score shows under the ICF laws only where the tournament allows it (law 128)
    kiosk.services.tables.use_settings(
        with_values(kiosk.services.settings, players={"icf_score": True})
    )
    _setup(kiosk)
    kiosk.tap("play")
    kiosk.tap("players")
    assert kiosk.current == "players"
    players = kiosk.screen()
    kiosk.advance(4.0)
    assert players.big == "11"
    assert (players.left_name, players.left_score, players.left_turn) == ("Asha", "0", True)
    # digits at least a fifth of the height (60 units): test_settings_display measures the ink
    assert players.ids.big.font_size * 0.714 >= kiosk.app.unit * 12
    kiosk.shot("players_carrom")
    kiosk.advance(8.0)
    assert players.big == "3" and players.urgent
    kiosk.tap("back")
    assert kiosk.current == "carrom"


def test_carrom_change_sides_banner_after_the_first_game_law_60(kiosk: Kiosk) -> None:
    _setup(kiosk)
    screen = kiosk.screen()
    boards = 0
    session = screen.session
    while not any(session.view().state.games_won.values()) and boards < 8:
        win_board(session)  # the rules tests cover the boards: driven, not tapped
        boards += 1
    kiosk.advance(0.0)
    assert max(screen.games) == 1
    assert screen.banner_kind == "sides"
    assert screen.banner == "Change sides (law 58): 2 minutes (law 61)"
    assert screen.points == [0, 0] and screen.title.startswith("Game 2 · Board 1/8")
    assert screen.timer_kind.startswith("Change sides (law 61)")
    kiosk.shot("carrom_change_sides")
    kiosk.tap("players")
    assert kiosk.screen().banner == "Change sides (law 58): 2 minutes (law 61)"
    kiosk.shot("players_change_sides")


def test_carrom_resume_after_a_restart_comes_back_to_the_last_confirmed_event(
    kiosk: Kiosk,
) -> None:
    _setup(kiosk)
    kiosk.tap("white_plus")
    kiosk.tap("queen_in")
    kiosk.tap("confirm")
    before = kiosk.screen().session.view().state
    kiosk.tap("home")
    kiosk.services.tables.in_play = None  # as after a restart: only the journal remains
    assert kiosk.widget("resume").text.startswith("Resume the unfinished carrom match\n")
    kiosk.tap("resume")
    assert kiosk.current == "carrom"
    screen = kiosk.screen()
    assert screen.session is not None and screen.session.view().state == before
    assert screen.queen.startswith("Queen pocketed, to cover")


def test_carrom_doubles_setup_names_the_sides_by_partners(kiosk: Kiosk) -> None:
    kiosk.tap("carrom_club")
    kiosk.tap("doubles")
    kiosk.tap("break_1")  # the toss winner, Player B, breaks first
    kiosk.shot("carrom_setup_doubles")
    kiosk.tap("start")
    screen = kiosk.screen()
    assert screen.names == ["Player A & Player C", "Player B & Player D"]
    assert screen.status == "Player B to break" and screen.at_turn == [False, True]
    assert screen.title.startswith("Round 1")


def test_carrom_console_fits_an_800x480_screen(kiosk: Kiosk) -> None:
    from kivy.core.window import Window

    from .harness import pump

    _setup(kiosk)
    Window.size = (800, 480)
    try:
        pump(10)
        assert kiosk.app.unit == 8.0
        screen = kiosk.screen()
        for wid in ("confirm", "white_plus", "undo", "concede", "home", "play"):
            w = screen.ids[wid]
            x, y = w.to_window(w.x, w.y)
            assert x >= 0 and x + w.width <= 800 and y >= 0 and y + w.height <= 480, wid
            assert w.height >= 36, f"{wid} is {w.height:.0f} px high: too small to tap"
        kiosk.tap("white_plus")
        assert screen.prop_white == 1
        kiosk.shot("carrom_800x480")
    finally:
        Window.size = (1024, 600)
        pump(10)


def test_carrom_law_73_due_is_placed_within_the_placing_countdown(kiosk: Kiosk) -> None:
    _setup(kiosk)
    screen = kiosk.screen()
    kiosk.tap("white_plus")
    kiosk.tap("confirm")  # a white on the break: Asha plays on
    kiosk.tap("white_plus")
    kiosk.tap("striker_in")
    kiosk.tap("confirm")  # own coin with the striker: it goes back with one due (law 73)
    assert screen.placing == "Bina places 2 coins (law 88): tap Dues placed when done"
    assert screen.timer_kind.startswith("Placing dues (law 88)") and screen.timer == "15"
    kiosk.advance(6.0)
    assert screen.timer == "9"
    kiosk.shot("carrom_placing")
    kiosk.tap("dues_placed")
    assert screen.timer_kind.startswith("Stroke (law 50)") and screen.timer == "15"
    # The purple banner went on showing after the tap; now it goes at once.
    assert screen.placing == "" and screen.ids.banner.text == screen.status
    assert screen.rulings[-1] == (
        "Dues placed: 2 coin(s) by Bina; the next stroke within 15 s (law 50)"
    )


def test_carrom_setup_stroke_timer_of_10_s_runs_after_the_striker_is_lifted(kiosk: Kiosk) -> None:
    kiosk.tap("carrom_icf")
    kiosk.tap("stroke_10")
    kiosk.tap("start")
    screen = kiosk.screen()
    kiosk.tap("confirm")  # the break pockets nothing: Bina's turn
    assert screen.at_turn == [False, True]
    kiosk.tap("lifted")  # law 124 b: Bina's count starts when the striker is lifted
    assert screen.timer_kind.startswith("Stroke (law 50)") and screen.timer == "10"
    kiosk.advance(7.5)
    assert screen.timer == "3" and screen.timer_low


def test_carrom_interval_banner_before_the_third_game_law_138(kiosk: Kiosk) -> None:
    _setup(kiosk)
    screen = kiosk.screen()
    session = screen.session
    # Two games played through the session itself (the taps are tested above), then the
    # screen must show the interval.
    for _ in range(40):
        state = session.view().state
        if len(state.games) >= 2 and state.games[1].winner is not None:
            break
        now = state.now
        own = now.colours[now.turn_side]
        pocketed = [own, "queen"] if now.on_board["queen"] else [own] * int(now.on_board[own])
        session.edit(pocketed=pocketed, role=Role.UMPIRE)
        session.confirm(role=Role.UMPIRE)
    kiosk.advance(1.0)
    assert screen.banner_kind == "interval", screen.banner
    assert screen.banner == "Interval before the third game (law 138)"
    assert screen.timer == "9:59"
    kiosk.shot("carrom_interval")
