"""Camera calibration: the umpire taps the four pockets on the live picture (a real image
from the synthetic board renderer) and the settings keep where they are in the image."""

from __future__ import annotations

import math

import numpy as np

from vision.sim.render import Scene, pocket_centres_image, render, start_arrangement

from .conftest import PIN
from .harness import Kiosk


def test_calibration_taps_the_four_pockets_on_the_live_image(kiosk: Kiosk) -> None:
    scene = Scene(pieces=tuple(start_arrangement()))
    frame = np.ascontiguousarray(render(scene)[..., ::-1])  # BGR -> RGB for the screen
    kiosk.services.grab_frame = lambda: frame
    saved = []
    kiosk.services.save_settings = saved.append
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
