"""Camera calibration: the umpire taps the four pockets on the live picture (a real image
from the synthetic board renderer) and the settings keep where they are in the image."""

from __future__ import annotations

import math

import numpy as np

from vision.sim.render import Scene, pocket_centres_image, render, start_arrangement

from .conftest import PIN, Hooks
from .harness import Kiosk


def test_calibration_taps_the_four_pockets_on_the_live_image(kiosk: Kiosk, hooks: Hooks) -> None:
    scene = Scene(pieces=tuple(start_arrangement()))
    frame = np.ascontiguousarray(render(scene)[..., ::-1])  # BGR -> RGB for the screen
    hooks.frame = frame
    saved = hooks.saved
    kiosk.tap("settings")
    for key in PIN:
        kiosk.tap(f"key_{key}")
    kiosk.tap("key_ok")
    kiosk.tap("calibrate")
    assert kiosk.current == "calibration"
    screen = kiosk.screen()
    live = screen.ids.live
    truth = pocket_centres_image(scene.look)
    for px, py in truth:
        x, y = live.window_point(px, py)
        kiosk.tap_at(x, y)
    assert len(screen.points) == 4
    kiosk.shot("calibration")
    kiosk.tap("save")
    assert screen.message == "Calibration saved"
    points = saved[-1].camera.calibration
    scale = scene.look.width / live.norm_image_size[0]  # one screen pixel in image pixels
    for (x, y), (tx, ty) in zip(points, truth, strict=True):
        assert math.hypot(x - tx, y - ty) <= 1.5 * scale + 0.5


def test_calibration_without_a_camera_says_so(kiosk: Kiosk) -> None:
    kiosk.app.show("calibration")
    kiosk.advance(0.1)
    assert kiosk.screen().no_picture
    assert kiosk.widget("message").text == "No picture from the camera"
    kiosk.tap("save")
    assert kiosk.screen().message == "Mark all four pockets first"


def _open_calibration(kiosk: Kiosk, hooks: Hooks, frame: np.ndarray) -> None:
    hooks.frame = frame
    kiosk.app.show("calibration")
    kiosk.advance(0.1)


def test_calibration_suggest_marks_the_pockets_for_the_umpire_to_confirm(
    kiosk: Kiosk, hooks: Hooks
) -> None:
    scene = Scene(pieces=tuple(start_arrangement()))
    frame = np.ascontiguousarray(render(scene)[..., ::-1])
    _open_calibration(kiosk, hooks, frame)
    screen = kiosk.screen()
    kiosk.tap("suggest")
    assert len(screen.points) == 4 and screen.message.startswith("Suggested")
    for (x, y), (tx, ty) in zip(screen.points, pocket_centres_image(scene.look), strict=True):
        assert math.hypot(x - tx, y - ty) < 3.0
    kiosk.tap("save")
    assert screen.message == "Calibration saved"


def test_calibration_refuses_taps_that_are_not_a_square_board(kiosk: Kiosk, hooks: Hooks) -> None:
    scene = Scene(pieces=())
    frame = np.ascontiguousarray(render(scene)[..., ::-1])
    saved = hooks.saved
    _open_calibration(kiosk, hooks, frame)
    screen = kiosk.screen()
    live = screen.ids.live
    truth = pocket_centres_image(scene.look)
    truth[2] = (truth[2][0] - 70.0, truth[2][1] + 10.0)  # pocket 3 tapped well off
    for px, py in truth:
        kiosk.tap_at(*live.window_point(px, py))
    kiosk.tap("save")
    assert screen.message.startswith("Not saved: the pockets are not a square board")
    assert saved == []


def test_calibration_keeps_the_empty_board_once(kiosk: Kiosk, hooks: Hooks) -> None:
    frame = np.ascontiguousarray(render(Scene(pieces=()))[..., ::-1])
    _open_calibration(kiosk, hooks, frame)
    kiosk.tap("empty")
    screen = kiosk.screen()
    assert screen.message == "Empty board kept"
    assert screen.empty_board is not None and screen.empty_board.shape == frame.shape
