"""The carrom umpire's calls by real taps: the toss at setup, pass, void, forfeit, concede, the
toss for the extra board, stop and restart of the count, and the proposal's quick edits.
Each test checks what the umpire expects in the rules core's state and in the journal, and
that Undo brings the state back."""

from __future__ import annotations

from typing import Any

from kiosk.access.authority import Role

from .harness import Kiosk, confirmed_events, name_players


def _setup(kiosk: Kiosk, breaker: int = 0) -> Any:
    kiosk.tap("carrom_icf")
    name_players(kiosk, "Asha", "Bina")  # typed in tests/ui/test_carrom.py
    kiosk.tap(f"break_{breaker}")
    kiosk.tap("start")
    assert kiosk.current == "carrom"
    return kiosk.screen()


def _confirmed(screen: Any) -> list[dict[str, Any]]:
    """The confirmed events that stand, as the journal on disk holds them (match time left
    out: the fake clock does not move between taps)."""
    return confirmed_events(screen.session)


def _taps(screen: Any) -> list[str]:
    session = screen.session
    return [e.data["action"] for e in session.journal.entries(session.match_id) if e.kind == "tap"]


def test_carrom_setup_toss_winner_breaks_first_laws_39_42(kiosk: Kiosk) -> None:
    kiosk.tap("carrom_icf")
    setup = kiosk.screen()
    kiosk.tap("break_1")  # Player B won the toss
    assert setup.first_break == 1
    assert setup.ids.break_1.chosen and not setup.ids.break_0.chosen
    kiosk.tap("break_0")  # the umpire taps the wrong chip first, then corrects it
    kiosk.tap("break_1")
    kiosk.tap("start")
    screen = kiosk.screen()
    header = screen.session.journal.match(screen.session.match_id).header
    assert header["first_break"] == "Player B"
    assert screen.status == "Player B to break" and screen.at_turn == [False, True]
    assert screen.colours == ["black", "white"]  # the breaker plays white (law 43)


def test_carrom_pass_hands_the_turn_over_and_undo_takes_it_back_law_137(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    kiosk.tap("pass_turn")  # the break cannot be passed (law 46): refused, nothing written
    assert screen.error.startswith("The break cannot be passed")
    assert screen.session.view().events == 0 and _confirmed(screen) == []
    kiosk.tap("confirm")  # Asha's break pockets nothing: Bina's turn
    assert screen.at_turn == [False, True]
    kiosk.tap("pass_turn")
    assert screen.error == ""
    assert screen.at_turn == [True, False] and screen.status == "Asha to play"
    assert _confirmed(screen)[-1] == {"event": "pass"}
    assert screen.session.view().state.now.passes == 1
    kiosk.tap("undo")
    assert screen.at_turn == [False, True] and screen.status == "Bina to play"
    assert screen.session.view().state.now.passes == 0
    assert [e["event"] for e in _confirmed(screen)] == ["stroke"]


def test_carrom_void_board_is_not_counted_and_undo_restores_it_law_140(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    kiosk.tap("void")  # nothing has begun: nothing to void
    assert screen.confirm_action == ""  # the core refuses: nothing to confirm
    assert screen.error == "No board is in progress: there is nothing to void"
    assert _confirmed(screen) == []
    kiosk.tap("white_plus")
    kiosk.tap("queen_in")
    kiosk.tap("confirm")  # Asha pockets a white and the queen on the break
    assert screen.on_board == "On the board: 8 white, 9 black"
    kiosk.tap("void")
    assert screen.confirm_action == "void_board" and _confirmed(screen)[-1]["event"] == "stroke"
    kiosk.tap("confirm_yes")
    assert screen.banner == "Board void (law 140)"
    # Replayed by the same breaker with a full board; no points, not counted to the limit.
    assert screen.points == [0, 0] and screen.status == "Asha to break"
    assert screen.on_board == "On the board: 9 white, 9 black"
    assert screen.queen == "Queen on the board"
    assert screen.title.startswith("Game 1 · Board 1/8 · 1 void")
    state = screen.session.view().state
    assert [b.void for b in state.games[0].boards] == [True]
    assert all(b.winner is None for b in state.games[0].boards)
    assert _confirmed(screen)[-1] == {"event": "void_board"}
    kiosk.tap("sheet")
    assert ["1", "1", "Asha", "-", "", "", "void (law 140)"] in screen.sheet_rows
    kiosk.shot("carrom_void_sheet")
    kiosk.tap("sheet_close")
    kiosk.tap("undo")
    assert screen.banner == "" and screen.title.startswith("Game 1 · Board 1/8 · ICF")
    assert screen.on_board == "On the board: 8 white, 9 black"
    assert screen.queen.startswith("Queen pocketed, to cover")
    assert [e["event"] for e in _confirmed(screen)] == ["stroke"]


def test_carrom_forfeit_board_scores_the_loser_coins_and_queen_law_51(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    kiosk.tap("white_plus")
    kiosk.tap("confirm")  # Asha pockets a white: 8 of hers left
    kiosk.tap("forfeit")
    assert screen.pick_action == "forfeit_board"
    kiosk.shot("carrom_forfeit_picker")
    kiosk.tap("pick_cancel")  # a change of mind writes nothing
    assert screen.pick_action == "" and len(_confirmed(screen)) == 1
    kiosk.tap("forfeit")
    kiosk.tap("pick_0")  # Asha loses the board (e.g. struck out of turn, law 51)
    kiosk.tap("confirm_yes")
    # Bina wins it with Asha's coins on the board (8) and the queen's 3.
    assert screen.banner == "Bina wins the board, 11 points (law 51)"
    assert screen.points == [0, 11]
    assert screen.status == "Bina to break"  # the next board: the break alternates (law 49)
    assert _confirmed(screen)[-1] == {"event": "forfeit_board", "by": "Asha"}
    board = screen.session.view().state.games[0].boards[0]
    assert (board.winner, board.points) == ("Bina", 11)
    kiosk.tap("undo")
    assert screen.points == [0, 0] and screen.status == "Asha to play"
    assert screen.on_board == "On the board: 8 white, 9 black"
    assert len(_confirmed(screen)) == 1


def test_carrom_concede_names_the_winner_and_undo_reopens_the_match_law_139(
    kiosk: Kiosk,
) -> None:
    screen = _setup(kiosk)
    session = screen.session
    kiosk.tap("concede")
    assert screen.pick_question == "Who concedes the match? (law 139)"
    kiosk.tap("pick_1")  # Bina concedes
    kiosk.tap("confirm_yes")
    state = session.view().state
    assert state.winner == "Asha"
    assert session.view().outcome.match.winner == "Asha"
    assert screen.banner == "Asha wins the match" and screen.status == "Asha wins the match"
    assert screen.ids.confirm.disabled  # nothing may follow (the core refuses it too)
    assert _confirmed(screen)[-1] == {"event": "concede", "by": "Bina"}
    assert session.journal.unfinished("carrom") is None  # over: not offered for resuming
    kiosk.shot("carrom_conceded")
    kiosk.tap("undo")
    assert session.view().state.winner is None and screen.status == "Asha to break"
    assert not screen.ids.confirm.disabled
    assert session.journal.unfinished("carrom") is not None
    assert _confirmed(screen) == []


def _tie_at_the_board_limit(screen: Any) -> None:
    """Eight boards through the session (the taps for each call are tested above): on each,
    the breaker's empty break, the opponent pockets eight of their coins and forfeits, so
    the breaker wins 1 + 3 points; the break alternates, so 16-16 after the limit."""
    session = screen.session
    for _ in range(8):
        session.confirm(role=Role.UMPIRE)
        now = session.view().state.now
        own = now.colours[now.turn_side]
        session.edit(pocketed=[own] * 8, role=Role.UMPIRE)
        session.confirm(role=Role.UMPIRE)
        session.forfeit_board(by=session.view().state.now.turn, role=Role.DIRECTOR)


def test_carrom_toss_for_the_extra_board_after_a_tie_law_56_b(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    assert kiosk.widget("toss").disabled  # no toss is due
    _tie_at_the_board_limit(screen)
    kiosk.advance(0.5)
    assert screen.points == [16, 16] and screen.toss_due
    assert screen.banner == "Tie at the board limit: toss for the extra board (law 56 b)"
    kiosk.tap("confirm")  # a stroke before the toss is refused, nothing written
    assert screen.error.startswith("A toss is due first")
    assert len(_confirmed(screen)) == 24
    # Regression: the Toss button followed the banner, so a timer that ran out (its banner
    # in front) disabled it. The umpire calls "play" too soon and the count runs out.
    kiosk.tap("play")
    kiosk.advance(16.0)
    assert screen.banner_kind == "expired"
    assert not kiosk.widget("toss").disabled
    kiosk.tap("toss")
    assert screen.pick_question == "Who won the toss? (law 56 b)"
    kiosk.shot("carrom_toss_picker")
    kiosk.tap("pick_1")  # Bina won the toss and breaks the extra board
    assert not screen.toss_due and kiosk.widget("toss").disabled
    assert screen.status == "Bina to break" and screen.at_turn == [False, True]
    assert screen.title == "Game 1 · Extra board (law 56 b) · ICF"
    assert _confirmed(screen)[-1] == {"event": "toss", "winner": "Bina"}
    kiosk.tap("undo")
    assert screen.toss_due and not kiosk.widget("toss").disabled
    assert len(_confirmed(screen)) == 24


def test_carrom_stop_clock_holds_the_count_and_restart_gives_it_again_law_121(
    kiosk: Kiosk,
) -> None:
    screen = _setup(kiosk)
    kiosk.tap("play")  # 15 s to break (law 46)
    kiosk.advance(5.0)
    assert screen.timer == "10"
    kiosk.tap("stop_clock")  # a complaint: the count stops (law 121 a)
    assert screen.timer_held and screen.ids.stop_clock.text == "Restart\nclock"
    assert screen.timer_kind == "Break (law 46)  · stopped"
    kiosk.advance(30.0)
    assert screen.timer == "10" and screen.banner_kind == ""  # held: nothing runs out
    kiosk.tap("play")  # "play": the count goes on where it stopped
    assert not screen.timer_held
    kiosk.advance(2.0)
    assert screen.timer == "8"
    kiosk.tap("stop_clock")
    kiosk.tap("stop_clock")  # now "Restart clock": the full 15 s again
    assert not screen.timer_held and screen.ids.stop_clock.text == "Stop\nclock"
    assert screen.timer == "15"
    kiosk.advance(14.5)
    assert screen.timer == "1" and screen.banner_kind == ""
    assert _taps(screen) == ["play", "stop_clock", "play", "stop_clock", "restart_clock"]
    assert _confirmed(screen) == []  # the clock's calls are not match events


def test_carrom_quick_edits_reach_the_confirmed_stroke(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    # The break touched no coin (law 44): the chip shows only on a break.
    kiosk.tap("not_touched")
    assert not screen.touched
    kiosk.tap("confirm")
    assert screen.status == "Asha to break (attempt 2 of 3)"
    assert _confirmed(screen)[-1]["touched"] is False
    assert kiosk.widget("not_touched").disabled is False  # still the break
    kiosk.tap("confirm")  # the second attempt touches a coin: Bina's turn
    assert screen.at_turn == [False, True]
    assert kiosk.widget("not_touched").disabled
    # Bina's stroke: a black, a white and back, coins off the board, a foul stroke.
    kiosk.tap("black_plus")
    kiosk.tap("black_plus")
    kiosk.tap("black_minus")
    kiosk.tap("white_plus")
    kiosk.tap("white_minus")
    kiosk.tap("white_minus")  # none left to take away: no change
    assert (screen.prop_black, screen.prop_white) == (1, 0)
    kiosk.tap("off_white")
    kiosk.tap("off_striker")
    assert screen.prop_off == "white, striker"
    kiosk.tap("off_clear")
    assert screen.prop_off == ""
    kiosk.tap("off_black")
    kiosk.tap("improper")
    kiosk.tap("improper")
    kiosk.tap("improper")
    assert screen.prop_improper and screen.prop_source == "as the umpire set it"
    kiosk.shot("carrom_quick_edits")
    kiosk.tap("confirm")
    stroke = _confirmed(screen)[-1]
    assert stroke["pocketed"] == ["black"] and stroke["off_board"] == ["black"]
    assert stroke["improper"] is True
    assert screen.at_turn == [True, False]  # a foul stroke ends the turn (law 64)
    kiosk.tap("undo")
    assert screen.at_turn == [False, True]
    assert len(_confirmed(screen)) == 2


def test_carrom_setup_doubles_no_limit_and_a_partner_concedes_law_139(kiosk: Kiosk) -> None:
    kiosk.tap("carrom_icf")
    setup = kiosk.screen()
    kiosk.tap("doubles")
    kiosk.tap("break_3")  # Player D won the toss
    kiosk.tap("singles")  # back to singles: a breaker beyond two seats falls back to seat 1
    assert setup.first_break == 0 and not setup.doubles
    kiosk.tap("doubles")
    kiosk.tap("break_2")
    kiosk.tap("limit_none")  # quarter-final on: no board limit (law 56)
    kiosk.tap("limit_8")
    kiosk.tap("limit_none")
    kiosk.tap("stroke_10")
    kiosk.tap("stroke_15")
    kiosk.tap("start")
    screen = kiosk.screen()
    session = screen.session
    header = session.journal.match(session.match_id).header
    assert header["first_break"] == "Player C" and len(header["players"]) == 4
    assert header.get("board_limit") is None
    assert session.timers.settings.length("stroke") == 15.0
    assert screen.title == "Game 1 · Board 1 · ICF"  # no "/8"
    kiosk.tap("confirm")  # Player C's break pockets nothing: Player D's turn
    kiosk.tap("foul")
    kiosk.tap("pick_2")  # Player C, not at turn: a technical foul (law 63)
    assert _confirmed(screen)[-1] == {"event": "foul", "by": "Player C"}
    kiosk.tap("concede")
    kiosk.tap("pick_3")  # Player D concedes for the side
    kiosk.tap("confirm_yes")
    assert session.view().state.winner == "Player A & Player C"
    assert screen.banner == "Player A & Player C wins the match"
    kiosk.tap("undo")
    assert session.view().state.winner is None and len(_confirmed(screen)) == 2
