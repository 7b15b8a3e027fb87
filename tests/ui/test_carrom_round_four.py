"""The carrom console by real taps, after the fourth tap trial: a call while a stroke is
proposed drops no coin; a chattering beam is a fault, the proposal clears in one tap and a
pocket's count is set; the beams and the camera disagree out loud; protests are typed on the
on-screen keyboard and their words reach the director, the hall's tile and the export; the
count after Undo, the ruling strip after a restart and the scoresheet's board numbers."""

from __future__ import annotations

from typing import Any

from kiosk.config import with_values
from kiosk.hall.views import carrom_tile
from kiosk.tables.carrom_inputs import (
    CameraDiff,
    CameraMotion,
    CameraRest,
    RecordedDiff,
    RecordedGone,
)
from kiosk.tables.carrom_record import export_match_record
from kiosk.ui.carrom_rulings import RulingLog
from kiosk.ui.keyboard import NameField, shared_keyboard

from .harness import Kiosk, confirmed_events, name_players, pump

#: The four pockets' centres in the camera's picture (a calibrated board).
CALIBRATION = [[0, 0], [100, 0], [100, 100], [0, 100]]


def _setup(kiosk: Kiosk) -> Any:
    kiosk.tap("carrom_icf")
    name_players(kiosk, "Sita", "Gita")
    kiosk.tap("break_0")
    kiosk.tap("start")
    assert kiosk.current == "carrom"
    return kiosk.screen()


def _events(screen: Any) -> list[str]:
    s = screen.session
    return [e.data["event"] for e in s.journal.entries(s.match_id, ["event"])]


def test_a_foul_while_a_coin_is_proposed_is_refused_and_the_coin_is_kept(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    kiosk.key("2")  # a white through pocket 2
    kiosk.advance(0.5)
    assert screen.prop_white == 1
    kiosk.tap("foul")
    kiosk.tap("pick_0")
    assert _events(screen) == [] and screen.prop_white == 1
    assert screen.error.startswith("A stroke is proposed (1 piece(s) in it)")
    assert "law 64 b" in screen.error and not screen.error_quiet
    kiosk.tap("confirm")  # the stroke first: its white counts, then the foul
    kiosk.tap("foul")
    kiosk.tap("pick_0")
    assert _events(screen) == ["stroke", "foul"]
    assert confirmed_events(screen.session)[0]["pocketed"] == ["white"]


def test_a_chattering_beam_is_a_fault_and_its_pocket_is_counted_by_hand(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    press = kiosk.services.press_pocket
    assert press is not None
    for _ in range(61):  # key 3 held: the keyboard repeats it, slower than the drivers flap
        press(3)
        kiosk.clock.advance(0.06)
    kiosk.advance(0.5)
    assert screen.fault_line.startswith("Pocket 3")
    assert "counted 21 coins in one stroke, more than the 20 on the board" in screen.fault_details
    assert screen.prop_white == 0 and screen.prop_black == 0  # its 61 hits are not coins
    kiosk.tap("pockets")  # the pocket line: the count of the pocket at fault
    assert screen.counting == 3
    kiosk.shot("carrom_count_pocket")
    kiosk.tap("count_1")
    assert screen.counting == 0 and screen.prop_white == 1
    kiosk.tap("confirm")
    assert confirmed_events(screen.session)[0]["pocketed"] == ["white"]
    assert screen.fault_details == ""  # the doubt ends with its stroke


def test_the_proposal_clears_in_one_tap(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    for _ in range(7):
        kiosk.key("1")
        kiosk.advance(0.2)
    assert screen.prop_white + screen.prop_black == 7
    kiosk.tap("clear_stroke")
    assert screen.prop_white == screen.prop_black == 0 and not screen.prop_held
    kiosk.tap("confirm")
    assert confirmed_events(screen.session)[0]["pocketed"] == []


def test_beams_and_camera_disagree_out_loud_and_the_header_names_working_sources(
    kiosk: Kiosk,
) -> None:
    screen = _setup(kiosk)
    session = screen.session
    # A camera fitted and calibrated (an uncalibrated one adds nothing to the proposal:
    # tests/ui/test_camera_uncalibrated.py).
    session.settings = with_values(session.settings, camera={"calibration": CALIBRATION})
    session.fit((1, 2, 3, 4), True)
    clock, press = kiosk.clock, kiosk.services.press_pocket
    assert press is not None
    session.post(CameraMotion(clock()))
    for _ in range(7):  # seven fast presses of key 1
        press(1)
        clock.advance(0.1)
    gone = tuple(RecordedGone("white", None) for _ in range(5))  # seen, not at a pocket
    session.post(CameraRest(clock()))
    session.post(CameraDiff(clock(), RecordedDiff(gone, False, ())))
    kiosk.advance(0.5)
    assert screen.prop_white == 5
    assert screen.ids.pockets.text == (
        "Beams and camera disagree: pocket 1: beam 7, camera 0; the stroke holds 5: set the count"
    )
    assert screen.prop_source == "beams + camera"
    kiosk.shot("carrom_disagree")
    kiosk.tap("pockets")
    assert screen.counting == 1


def _key(kiosk: Kiosk, typed: str) -> None:
    """A key of the on-screen keyboard tapped (a space by its own key)."""
    keyboard = shared_keyboard()
    if typed == " ":
        target = next(k for k in keyboard.walk() if getattr(k, "text", "") == "Space")
    else:
        target = next(k for k in keyboard.walk() if getattr(k, "typed", None) == typed)
    kiosk.tap(target)


def _type_on_screen(kiosk: Kiosk, field: Any, text: str) -> None:
    kiosk.tap(field)
    assert shared_keyboard().shown and shared_keyboard().target == field
    for letter in text:
        _key(kiosk, letter)
    assert field.text == text
    _key_done(kiosk)


def _key_done(kiosk: Kiosk) -> None:
    """The keyboard's Done: away with it, the screen back down."""
    keyboard = shared_keyboard()
    kiosk.tap(next(k for k in keyboard.walk() if getattr(k, "text", "") == "Done"))
    assert not keyboard.shown


def test_a_protest_is_typed_on_the_keyboard_and_its_words_reach_the_director_hall_and_export(
    kiosk: Kiosk,
) -> None:
    from .harness import win_board

    screen = _setup(kiosk)
    win_board(screen.session)
    kiosk.advance(30.0)
    kiosk.tap("protest")
    panel = screen.protests
    assert isinstance(panel.ids.protest_words, NameField)
    kiosk.tap(panel.ids.protest_side_1)
    kiosk.tap(panel.ids.protest_board_0)
    kiosk.tap(panel.ids.protest_words)
    kiosk.shot("protest_keyboard")
    _type_on_screen(kiosk, panel.ids.protest_words, "queen late")
    _type_on_screen(kiosk, panel.ids.protest_receipt, "r17")
    kiosk.tap(panel.ids.protest_lodge)
    assert not panel.shown and _events(screen)[-1] == "protest"
    kiosk.tap("protest")  # the director's list: the words and the receipt
    assert "“queen late” · fee receipt r17" in panel.ids.protest_lines.text
    kiosk.tap(panel.ids.decide_0)
    assert screen.decision.words_text == "“queen late” · fee receipt r17"
    assert screen.decision.ids.decide_words.text == screen.decision.words_text
    kiosk.tap(screen.decision.ids.decide_back)
    tile = carrom_tile(screen.session.view())
    assert tile["protests"][0]["words"] == "queen late"
    assert tile["protests"][0]["receipt"] == "r17"
    record = export_match_record(screen.session.journal)
    assert "# protest against board 1 of game 1: queen late (fee receipt r17)\n" in record


def test_the_protest_keyboard_opens_in_the_consoles_script(kiosk: Kiosk) -> None:
    from kiosk.ui.i18n import apply_languages

    from .harness import win_board

    screen = _setup(kiosk)
    win_board(screen.session)
    apply_languages("hi", "")
    try:
        pump(4)
        kiosk.tap("protest")
        kiosk.tap(screen.protests.ids.protest_receipt)
        assert shared_keyboard().shown and shared_keyboard().code == "hi"
        shared_keyboard().close()
    finally:
        apply_languages("en", "")
        pump(4)


def test_the_settings_field_opens_the_keyboard(kiosk: Kiosk) -> None:
    kiosk.app.show("settings")  # the director's screen (its PIN is another test's)
    pump(4)
    field = kiosk.widget("display_port")
    assert isinstance(field, NameField)
    kiosk.tap(field)
    assert shared_keyboard().shown and shared_keyboard().target == field
    shared_keyboard().close()


def test_the_stroke_timer_comes_back_after_undo(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    kiosk.tap("white_plus")
    kiosk.tap("confirm")  # Sita plays on: her stroke's 15 s run (law 124 a)
    assert screen.timer_kind.startswith("Stroke (law 50)")
    kiosk.tap("confirm")  # an empty stroke: Gita's count waits for the striker (124 b)
    kiosk.tap("undo")
    assert screen.at_turn == [True, False]
    assert screen.timer_kind.startswith("Stroke (law 50)") and screen.timer == "15"


def test_the_ruling_strip_after_a_restart_shows_the_last_rulings(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    kiosk.tap("white_plus")
    kiosk.tap("confirm")
    kiosk.tap("white_plus")
    kiosk.tap("striker_in")
    kiosk.tap("confirm")  # law 73: a due
    kiosk.tap("dues_placed")
    kiosk.tap("confirm")  # Gita's stroke pockets nothing: no call on it
    assert screen.session.view().state.calls == ()
    before = [line for line in screen.rulings if "(law 73)" in line]
    assert before
    kiosk.tap("home")
    kiosk.services.tables.in_play = None  # as after a restart: only the journal remains
    screen.log = RulingLog()  # and a console that starts again: its strip starts empty
    kiosk.tap("resume")
    assert kiosk.current == "carrom"
    assert [line for line in screen.rulings if "(law 73)" in line] == before


def test_the_scoresheet_numbers_a_replayed_board_as_the_title_does(kiosk: Kiosk) -> None:
    screen = _setup(kiosk)
    kiosk.tap("white_plus")
    kiosk.tap("confirm")
    kiosk.tap("void")
    kiosk.tap("confirm_yes")
    kiosk.tap("confirm")  # the replayed board's break
    assert screen.title.startswith("Game 1 · Board 1/8 · 1 void")
    kiosk.tap("sheet")
    assert [row[:2] for row in screen.sheet_rows] == [["1", "1"], ["1", "1"]]
    assert screen.sheet_rows[1][6] == "in progress"
    kiosk.tap("sheet_close")
