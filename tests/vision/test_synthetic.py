"""The synthetic board renderer and the simulated live board: real images, known truth."""

from __future__ import annotations

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
