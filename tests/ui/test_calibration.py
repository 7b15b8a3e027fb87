"""Camera calibration: the umpire taps the four pockets on the live picture (a real image
from the synthetic board renderer) and the settings keep where they are in the image."""

from __future__ import annotations

import math
import time
from pathlib import Path

import cv2
import numpy as np

from kiosk.config import Settings, with_values
from kiosk.parts.camera import empty_board_path, start_camera
from vision.calibration import Calibration
from vision.pieces import lab
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


def test_calibration_keep_empty_board_is_what_the_detector_judges_against(
    kiosk: Kiosk, hooks: Hooks, tmp_path: Path
) -> None:
    # The kiosk's camera (a real CameraFeed and BoardWatcher, calibrated) watches a board
    # with pieces; the umpire clears it, opens the calibration and taps "Empty board".
    look = Scene(pieces=()).look
    empty_bgr = render(Scene(pieces=(), look=look))
    video = tmp_path / "board.avi"  # the camera: a recorded video of the board with pieces
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 15, (640, 480))
    board = render(Scene(pieces=tuple(start_arrangement()), look=look))
    for _ in range(90):
        writer.write(board)
    writer.release()
    settings = with_values(
        Settings(), camera={"calibration": [list(p) for p in pocket_centres_image(look)]}
    )
    journal = tmp_path / "journal.db"
    feed = start_camera(f"file:{video}", settings, lambda _e: None, journal=journal)
    try:
        assert feed.watcher is not None and not feed.watcher.empty_kept
        hooks.keep = feed.keep_empty
        _open_calibration(kiosk, hooks, np.ascontiguousarray(empty_bgr[..., ::-1]))
        kiosk.tap("empty")
        assert kiosk.screen().message == "Empty board kept"
        deadline = time.monotonic() + 10.0
        kept_file = empty_board_path(journal)
        while not (feed.watcher.empty_kept and kept_file.is_file()) and time.monotonic() < deadline:
            time.sleep(0.02)  # the camera's own thread takes the picture over
        empty = feed.watcher.empty
        assert empty is not None
        warp = Calibration.from_config([list(p) for p in settings.camera.calibration]).top_warp()
        kept = lab(warp(empty_bgr))
        # The picture the umpire kept, warped as the detector sees it (the watcher then
        # blends the bare board it sees into it, slowly: a little off here and there).
        assert np.percentile(np.abs(empty.lab - kept), 95) < 1.0
        # ... kept beside the journal, and used again at the next start.
        assert kept_file.is_file()
    finally:
        feed.close()
    again = start_camera(f"file:{video}", settings, lambda _e: None, journal=journal)
    try:
        assert again.watcher is not None and again.watcher.empty_kept
        assert again.watcher.empty is not None
        assert np.abs(again.watcher.empty.lab - kept).max() < 1e-3
    finally:
        again.close()


def test_calibration_taps_pockets_beyond_the_picture_when_the_board_runs_off_it(
    kiosk: Kiosk, hooks: Hooks
) -> None:
    # A webcam that sees the board with its bottom edge cut off: pockets 1 and 4 are
    # below the picture. The umpire taps where they would be, in the room around it.
    scene = Scene(pieces=tuple(start_arrangement()))
    truth = pocket_centres_image(scene.look)
    cut = int(truth[0][1]) - 20  # the picture ends 20 px above pockets 1 and 4
    frame = np.ascontiguousarray(render(scene)[:cut, :, ::-1])
    saved = hooks.saved
    _open_calibration(kiosk, hooks, frame)
    screen = kiosk.screen()
    live = screen.ids.live
    for px, py in truth:
        kiosk.tap_at(*live.window_point(px, py))
    assert len(screen.points) == 4
    assert sum(1 for _, y in screen.points if y > frame.shape[0]) == 2
    kiosk.tap("save")
    assert screen.message == "Calibration saved"
    scale = frame.shape[1] / live.norm_image_size[0]
    for (x, y), (tx, ty) in zip(saved[-1].camera.calibration, truth, strict=True):
        assert math.hypot(x - tx, y - ty) <= 1.5 * scale + 0.5
