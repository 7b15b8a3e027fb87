"""Banners belong to a state and clear when it ends, with real taps under
Xvfb: the stroke timer's "Time!" with its red flash and buzzer sign goes once the next count
runs (the strip keeps it); the board's result and its "tap Play" go once Play starts the
break; the change of sides stops asking for Play once the break's count runs."""

from __future__ import annotations

from kiosk.config import with_values
from kiosk.tables.carrom_inputs import CameraDiff, CameraMotion, CameraRest
from vision.diff import GoneCoin, StrokeDiff

from .harness import Kiosk, win_board
from .test_carrom import _setup
from .test_carrom_round_four import CALIBRATION


def test_stale_banner_time_clears_when_the_next_timer_runs(kiosk: Kiosk) -> None:
    _setup(kiosk)
    screen = kiosk.screen()
    table = screen.session
    kiosk.tap("confirm")  # the break pockets nothing: Bina's turn
    kiosk.tap("lifted")  # Bina's 15 s (laws 50, 124 b)
    kiosk.advance(15.5)
    assert screen.banner_kind == "expired" and screen.alarm
    assert screen.ids.buzzer_sign.opacity == 1
    # Bina strikes late and pockets her own coin: the camera sees the coins move and come
    # to rest, and her next stroke's count starts at once (law 124 a).
    now = kiosk.clock()
    table.settings = with_values(table.settings, camera={"calibration": CALIBRATION})
    table.post(CameraMotion(now))
    table.post(
        CameraDiff(now + 0.9, StrokeDiff((GoneCoin("black", 10.0, 10.0, 1, 5.0),), False, ()))
    )
    table.post(CameraRest(now + 1.0))
    kiosk.advance(1.5, frames=8)
    assert screen.timer_kind.startswith("Stroke") and screen.timer != ""
    assert screen.banner_kind != "expired", screen.banner
    assert not screen.alarm and not screen.flash
    assert screen.ids.buzzer_sign.text == "" and screen.ids.buzzer_sign.opacity == 0
    assert any("ran out" in line for line in screen.rulings), screen.rulings
    kiosk.shot("carrom_stale_time_cleared")


def test_stale_banner_board_won_tap_play_stays_gone_once_the_break_is_played(
    kiosk: Kiosk,
) -> None:
    _setup(kiosk)
    screen = kiosk.screen()
    win_board(screen.session)  # Asha clears the board (the rules tests cover it)
    kiosk.advance(0.0)
    assert screen.banner_kind == "board" and screen.banner_next == "tap Play for the next board"
    kiosk.tap("play")  # 15 s to break (law 46)
    assert "tap Play" not in screen.ids.banner.text
    kiosk.key("1")  # Bina breaks: a coin through pocket 1, the count stops
    kiosk.advance(0.5)
    assert screen.session.view().phase == "moving"
    assert "tap Play" not in screen.ids.banner.text, screen.ids.banner.text
    kiosk.shot("carrom_stale_board_banner")


def test_stale_banner_change_sides_goes_once_play_starts_the_break(kiosk: Kiosk) -> None:
    _setup(kiosk)
    screen = kiosk.screen()
    session = screen.session
    while not any(session.view().state.games_won.values()):
        win_board(session)  # the boards by the table's commands; the change by taps
    kiosk.advance(30.0)
    assert screen.banner_kind == "sides"
    assert "tap Play once the players have changed sides" in screen.ids.banner.text
    kiosk.tap("play")  # the players have changed sides: 15 s to break (law 46)
    assert screen.timer_kind.startswith("Break")
    assert screen.banner_kind != "sides", screen.ids.banner.text
    assert "tap Play" not in screen.ids.banner.text, screen.ids.banner.text
    kiosk.tap("players")
    assert "Change sides" not in kiosk.screen().banner
