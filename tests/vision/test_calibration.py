"""Calibration: finding the playing surface and its pockets, and the manual fallback."""

from __future__ import annotations

import math

import numpy as np
import pytest

from vision import board as B
from vision.calibration import Calibration, CalibrationError, auto_calibrate
from vision.sim import render as S

TRUTH_TOL_PX = 0.6


@pytest.mark.parametrize("seed", [3, 6, 11, 14, 21, 31])
def test_calibration_recovers_the_pocket_centres(seed: int) -> None:
    scene = S.empty(S.random_scene(seed, seed % 4))
    cal = auto_calibrate(S.render(scene))
    for (x, y), (tx, ty) in zip(cal.pockets, S.pocket_centres_image(scene.look), strict=True):
        assert math.hypot(x - tx, y - ty) < TRUTH_TOL_PX


def test_calibration_top_view_puts_the_centre_circle_in_the_middle() -> None:
    scene = S.empty(S.random_scene(2, 2))
    img = S.render(scene)
    top = auto_calibrate(img).warp(img)
    assert top.shape == (B.TOP_PX, B.TOP_PX, 3)
    c = B.TOP_PX // 2
    b, g, r = (int(v) for v in top[c, c])
    assert r > g + 60 and r > b + 60  # the red centre circle, law I अ.6


@pytest.mark.parametrize("seed", [2, 7])
def test_calibration_top_warp_for_every_frame_is_the_warp_to_within_rounding(seed: int) -> None:
    scene = S.random_scene(seed, seed % 4)
    img = S.render(scene)
    cal = auto_calibrate(S.render(S.empty(scene)))
    once, each = cal.warp(img).astype(int), cal.top_warp()(img).astype(int)
    assert each.shape == once.shape == (B.TOP_PX, B.TOP_PX, 3)
    assert int(np.abs(each - once).max()) <= 2


def test_calibration_with_coins_on_the_board() -> None:
    scene = S.Scene(tuple(S.start_arrangement()), S.random_look(np.random.default_rng(5), 1, 5))
    cal = auto_calibrate(S.render(scene))
    truth = S.pocket_centres_image(scene.look)
    assert (
        max(math.hypot(x - tx, y - ty) for (x, y), (tx, ty) in zip(cal.pockets, truth, strict=True))
        < 1.0
    )


def test_calibration_quarter_turns_renumber_the_pockets() -> None:
    img = S.render(S.Scene())
    straight = auto_calibrate(img)
    turned = auto_calibrate(img, quarter_turns=1)
    # The breaker's base line on the left of the image: pocket 1 is the image's top-left.
    for k in range(4):
        assert turned.pockets[k] == pytest.approx(straight.pockets[(k + 1) % 4], abs=1e-6)


def test_calibration_manual_taps_and_config_round_trip() -> None:
    truth = S.pocket_centres_image(S.Look())
    cal = Calibration.from_taps(truth)
    value = cal.to_config()
    assert isinstance(value, list) and len(value) == 4
    again = Calibration.from_config(value)
    for got, want in zip(again.pockets, value, strict=True):
        assert got == pytest.approx(tuple(want))
    # Tapped pockets give the same top view as the true ones: centre maps to the centre.
    x, y = again.image_point(370.0, 370.0)
    u, v = cal.image_point(370.0, 370.0)
    assert math.hypot(x - u, y - v) < 0.05


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("nonsense", "expected a list of four"),
        ([[1, 2], [3, 4], [5, 6]], "expected a list of four"),
        ([[100, 400], [100, 50], [500, "x"], [500, 400]], "camera.calibration[2] (pocket 3)"),
        ([[100, 400], [100, 50], [500, 50], [500, True]], "camera.calibration[3] (pocket 4)"),
        ([[100, 50], [100, 400], [500, 400], [500, 50]], "not in order"),
        ([[100, 400], [500, 50], [100, 50], [500, 400]], "not in order"),
        ([[100, 400], [101, 400], [102, 400], [103, 400]], "too close"),
    ],
)
def test_calibration_bad_config_names_the_key(value: object, words: str) -> None:
    with pytest.raises(CalibrationError) as exc:
        Calibration.from_config(value)
    assert "camera.calibration" in str(exc.value)
    assert words in str(exc.value)


def test_calibration_of_an_image_without_a_board_is_refused() -> None:
    noise = np.random.default_rng(0).integers(0, 60, (480, 640, 3)).astype(np.uint8)
    with pytest.raises(CalibrationError, match="no playing surface"):
        auto_calibrate(noise)


def test_calibration_when_the_image_centre_is_the_red_centre_circle() -> None:
    # Law I अ.6: the centre circle is red, darker than the plywood. With the board
    # straight under the camera it sits on the image's centre pixel; the surface is
    # the light area most of the image's middle lies in, not the light cloth around
    # the frame. (Board 100734 of the benchmark: a busy light cloth.)
    scene = S.empty(S.random_scene(100734, 2))
    cal = auto_calibrate(S.render(scene))
    for (x, y), (tx, ty) in zip(cal.pockets, S.pocket_centres_image(scene.look), strict=True):
        assert math.hypot(x - tx, y - ty) < TRUTH_TOL_PX
