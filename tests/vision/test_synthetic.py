"""The synthetic board renderer and the simulated live board: real images, known truth."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision import board as B
from vision.sim import render as S
from vision.sim.live import SimulatedBoard


def test_synthetic_render_is_a_camera_image_and_reproducible() -> None:
    scene = S.random_scene(7, 3)
    a, b = S.render(scene), S.render(scene)
    assert a.shape == (480, 640, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)


def test_synthetic_start_arrangement_has_nineteen_touching_coins() -> None:
    pieces = S.start_arrangement()
    assert sorted(p.colour for p in pieces).count("white") == 9
    assert sorted(p.colour for p in pieces).count("black") == 9
    assert [p.colour for p in pieces].count("queen") == 1
    d = min(
        np.hypot(p.x_mm - q.x_mm, p.y_mm - q.y_mm)
        for i, p in enumerate(pieces)
        for q in pieces[i + 1 :]
    )
    assert B.COIN_D_MM <= d < B.COIN_D_MM + 1.0


@pytest.mark.parametrize("seed", range(5))
def test_synthetic_random_pieces_do_not_overlap(seed: int) -> None:
    pieces = S.random_pieces(np.random.default_rng(seed), touching=0.5)
    for i, p in enumerate(pieces):
        for q in pieces[i + 1 :]:
            assert np.hypot(p.x_mm - q.x_mm, p.y_mm - q.y_mm) >= (p.d_mm + q.d_mm) / 2


def test_synthetic_pocket_centres_are_dark_in_the_image() -> None:
    look = S.random_look(np.random.default_rng(1), 2, 1)
    img = S.render(S.Scene((), look))
    for x, y in S.pocket_centres_image(look):
        assert int(img[round(y), round(x)].max()) < 60


def test_simboard_pocketed_coin_vanishes_after_the_stroke() -> None:
    board = SimulatedBoard()
    before = board.counts()
    board.strike(1.0, [("black", 2)], duration=0.5)
    assert board.pieces_at(0.9) == board.pieces
    assert len(board.pieces_at(1.25)) == sum(before.values())
    assert board.pieces_at(2.0)
    assert board.counts()["black"] == before["black"] - 1
    with pytest.raises(ValueError, match="pocket must be 1-4"):
        board.strike(3.0, [("white", 5)])


def test_count_off_lets_a_piece_the_hand_half_hides_be_counted_or_not() -> None:
    visible = [1.0, 1.0, 0.5, 0.0]  # two in full view, one half hidden, one wholly hidden
    assert [S.count_off(n, visible) for n in range(5)] == [-2, -1, 0, 0, 1]


def test_blurred_hand_hides_the_piece_under_it_and_labels_it_hidden() -> None:
    # A hand that moved while the shutter was open is an occluder moving over a still
    # board: a man under its palm for the whole exposure is hidden, and the labels say
    # so. (Drawn as `bare + smear(image - bare)`, the man's edges showed through the
    # palm at full contrast and the bench required the detector not to count him.)
    look = replace(S.Look(), hand_blur=14.0, noise=0.0, seed=5)
    hand = S.Hand(370.0, 370.0, 0.0)  # fingertips at the centre, the palm about x 275
    under = S.Piece("black", 275.0, 370.0)
    beside = S.Piece("black", 275.0, 470.0)  # 100 mm off the palm's axis: in full view
    edge = S.Piece("white", 180.0, 330.0)  # on the forearm's edge
    without = S.Scene((beside, edge), look, hand)
    with_man = S.Scene((under, beside, edge), look, hand)
    a = S.render(without).astype(np.int16)
    b = S.render(with_man).astype(np.int16)
    h = S.homography_mm_to_image(look)
    (u, v), (bu, bv) = S.project(h, [(under.x_mm, under.y_mm), (beside.x_mm, beside.y_mm)])
    r = round(B.COIN_D_MM / 2 * 0.55) + 3
    hidden = np.abs(b - a)[round(v) - r : round(v) + r, round(u) - r : round(u) + r]
    assert hidden.max() <= 1, "the man under the palm shows through the hand"
    shown = np.abs(S.render(S.Scene((under, edge), look, hand)).astype(np.int16) - a)
    assert shown[round(bv) - 4 : round(bv) + 4, round(bu) - 4 : round(bu) + 4].min() > 60
    mask = S.hand_mask_image(with_man)
    assert S.visible_fraction(with_man, under, mask) == 0.0
    assert S.visible_fraction(with_man, beside, mask) == 1.0
    assert 0.0 < S.visible_fraction(with_man, edge, mask) < 1.0
