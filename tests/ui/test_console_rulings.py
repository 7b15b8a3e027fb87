"""The carrom console round two, with real taps under Xvfb: a destructive call
asks again with its consequence from the core, in a place apart; the foul dialog says law 63
or 64; the ruling strip words the core's rulings and undo; a timer that runs out flashes
and says the buzzer sounded and what to do; the proposal reads pocket by pocket, with a
tap to set a colour the camera did not see."""

from __future__ import annotations

import time
from typing import Any

from .harness import Kiosk, confirmed_events, pump


def _start(kiosk: Kiosk) -> Any:
    kiosk.tap("carrom_icf")
    kiosk.tap("start")  # Player A breaks against Player B
    assert kiosk.current == "carrom"
    return kiosk.screen()


def _rect(w: Any) -> tuple[float, float, float, float]:
    x, y = w.to_window(w.x, w.y)
    return x, y, x + w.width, y + w.height


def _overlap(a: Any, b: Any) -> bool:
    ax0, ay0, ax1, ay1 = _rect(a)
    bx0, by0, bx1, by1 = _rect(b)
    return ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1


def test_law_139_concede_asks_again_naming_the_winner_in_another_place(kiosk: Kiosk) -> None:
    screen = _start(kiosk)
    kiosk.tap("white_plus")
    kiosk.tap("confirm")  # a board in progress
    before = confirmed_events(screen.session)
    kiosk.tap("concede")
    pick = screen.ids.pick_1
    where = pick.to_window(*pick.center)
    kiosk.tap("pick_1")  # Player B concedes: nothing happens yet
    assert screen.confirm_action == "concede"
    assert screen.confirm_text == (
        "Player B concedes the match: Player A wins, games 0-0 (laws 139, 143)"
    )
    assert screen.ids.confirm_yes.text == "Yes: concede the match"
    # Differently placed: neither button of the second dialog stands where a picker button
    # (or the picker's Cancel) stood, so a double tap cannot confirm.
    for wid in ("pick_0", "pick_1", "pick_2", "pick_3", "pick_cancel", "concede"):
        assert not _overlap(screen.ids.confirm_yes, screen.ids[wid]), wid
    kiosk.shot("carrom_concede_confirm")
    kiosk.tap_at(*where)  # the stray second tap where Player B's name was
    kiosk.tap("void")  # and one on the console behind: modal
    assert confirmed_events(screen.session) == before and screen.confirm_action == "concede"
    kiosk.tap("confirm_back")
    assert screen.confirm_action == "" and confirmed_events(screen.session) == before
    kiosk.tap("concede")
    kiosk.tap("pick_1")
    kiosk.tap("confirm_yes")
    assert screen.session.view().state.winner == "Player A"
    assert confirmed_events(screen.session)[-1] == {"event": "concede", "by": "Player B"}
    assert screen.rulings[-1] == "Player B concedes the match (laws 139, 143)"


def test_law_51_forfeit_and_law_140_void_ask_with_the_core_consequence(kiosk: Kiosk) -> None:
    screen = _start(kiosk)
    kiosk.tap("white_plus")
    kiosk.tap("confirm")  # Player A pockets a white on the break: 8 of hers left
    kiosk.tap("forfeit")
    kiosk.tap("pick_0")
    # The core's answer: Player B wins with Player A's 8 coins and the queen's 3 (law 51).
    assert (
        screen.confirm_text
        == "Player A loses the board: Player B wins it with 11 point(s) (law 51)"
    )
    kiosk.tap("confirm_back")
    kiosk.tap("void")
    assert screen.confirm_text == (
        "The board is void: the coins are set out again and Player A breaks it again "
        "(laws 140, 142)"
    )
    assert len(confirmed_events(screen.session)) == 1
    kiosk.tap("confirm_yes")
    assert confirmed_events(screen.session)[-1] == {"event": "void_board"}
    # The banner says what comes next, and that goes once it is done.
    assert screen.ids.banner.text == "Board void (law 140)  ·  tap Play for the next board"
    kiosk.tap("play")
    assert screen.ids.banner.text == "Board void (law 140)"


def test_law_63_64_the_foul_dialog_says_which_and_the_strip_says_undo(kiosk: Kiosk) -> None:
    screen = _start(kiosk)
    kiosk.tap("foul")  # before the first stroke of the turn: technical for both (63 a, b)
    assert screen.pick_notes == [
        "technical foul (law 63): turn goes on",
        "technical foul (law 63): out of turn",
    ]
    assert screen.ids.pick_0.text == "Player A\ntechnical foul (law 63): turn goes on"
    kiosk.tap("pick_cancel")
    kiosk.tap("white_plus")
    kiosk.tap("confirm")  # Player A pockets on the break and plays on
    kiosk.tap("foul")
    assert screen.pick_notes[0] == "foul (law 64): the turn ends"
    kiosk.shot("carrom_foul_laws")
    kiosk.tap("pick_0")
    assert screen.rulings[-1] == "Foul on Player A: one coin back, the turn ends (law 64 a)"
    assert screen.ids.ruling_1.text == screen.rulings[-1]
    kiosk.tap("undo")
    assert screen.rulings[-1] == "Undone: foul on Player A"
    kiosk.shot("carrom_ruling_strip")


def test_law_73_the_strip_words_the_core_ruling(kiosk: Kiosk) -> None:
    screen = _start(kiosk)
    kiosk.tap("white_plus")
    kiosk.tap("confirm")
    kiosk.tap("white_plus")
    kiosk.tap("striker_in")
    kiosk.tap("confirm")  # own coin with the striker (law 73)
    assert "Own coin with the striker: it goes back with one due, turn goes on (law 73)" in (
        screen.rulings
    )
    assert screen.placing.startswith("Player B places 2 coins (law 88)")


def test_law_50_expiry_flashes_says_the_buzzer_sounded_and_what_to_do(kiosk: Kiosk) -> None:
    screen = _start(kiosk)
    kiosk.tap("confirm")  # the break pockets nothing: Player B's turn
    kiosk.tap("lifted")  # the count starts (law 124 b)
    kiosk.advance(15.5)
    assert screen.banner == "Time! The stroke timer ran out (law 50): tap Foul, or Stop clock"
    assert screen.alarm and screen.buzzed
    assert screen.ids.buzzer_sign.text == "Buzzer silent: check it"  # this kiosk has no buzzer
    seen = {screen.flash}
    deadline = time.monotonic() + 5  # the border and the clock blink in real time
    while seen != {True, False} and time.monotonic() < deadline:
        pump(5)
        seen.add(screen.flash)
    assert seen == {True, False}
    kiosk.shot("carrom_expired")
    kiosk.tap("stop_clock")  # the umpire acts: the alarm and its banner go
    assert not screen.alarm and not screen.flash and screen.banner == ""
    assert screen.ids.buzzer_sign.text == ""


def test_the_proposal_reads_in_words_and_a_tap_sets_the_colour(kiosk: Kiosk) -> None:
    screen = _start(kiosk)
    kiosk.tap("play")
    kiosk.key("3")  # a coin through pocket 3: the beams count it, no camera saw its colour
    kiosk.advance(0.5)
    assert screen.prop_pockets == "Pocket 3: colour not seen"
    assert screen.ids.pockets.text == "Pocket 3: colour not seen · tap to set the colour"
    kiosk.shot("carrom_pocket_words")
    kiosk.tap("pockets")
    assert screen.fixing == 3
    assert screen.ids.colour_box.children[-1].text == "Pocket 3: which colour went in?"
    kiosk.tap("colour_black")
    assert screen.fixing == 0
    assert list(screen.session.proposal.pocketed) == ["black"]
    assert screen.prop_black == 1 and screen.prop_white == 0


def test_an_error_banner_starts_with_a_capital_and_clears(kiosk: Kiosk) -> None:
    screen = _start(kiosk)
    kiosk.tap("waive")  # nothing is owed: the core refuses
    assert screen.error[0].isupper() and screen.ids.banner.text == screen.error
    kiosk.tap("confirm")  # the next call that stands clears it
    assert screen.error == "" and screen.ids.banner.text == screen.status
