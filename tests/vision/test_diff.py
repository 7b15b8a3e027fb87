"""Stroke diffs: coins gone and near which pocket, off the board, hidden, the striker."""

from __future__ import annotations

import numpy as np

from vision import board as B
from vision.diff import Sighting, stroke_diff
from vision.pieces import BoardView, Coin, Doubt


def view(*coins: Coin, hidden_box: tuple[int, int, int, int] | None = None) -> BoardView:
    occ = np.zeros((B.TOP_PX, B.TOP_PX), np.uint8)
    if hidden_box is not None:
        x0, y0, x1, y1 = hidden_box
        occ[y0:y1, x0:x1] = 255
    return BoardView(tuple(coins), occ)


W1 = Coin("white", 300.0, 300.0, 1.0)
W2 = Coin("white", 500.0, 200.0, 1.0)
K1 = Coin("black", 400.0, 500.0, 1.0)
Q = Coin("queen", 370.0, 370.0, 1.0)
ST = Coin("striker", 370.0, 620.0, 1.0)


def test_diff_coin_seen_near_a_pocket_then_gone() -> None:
    before = view(W1, W2, K1, ST)
    after = view(W2, K1, ST)
    track = [
        Sighting(0.1, Coin("white", 200.0, 200.0, 0.9)),
        Sighting(0.2, Coin("white", 60.0, 50.0, 0.8)),
    ]
    diff = stroke_diff(before, after, track)
    assert [(g.colour, g.pocket) for g in diff.gone] == [("white", 2)]
    assert diff.gone[0].distance_mm < 75
    assert diff.pocketed() == ("white",)
    assert not diff.striker_gone and diff.off_board == () and diff.unseen == ()


def test_diff_two_of_a_colour_into_two_pockets() -> None:
    before = view(W1, W2, K1)
    after = view(K1)
    track = [
        Sighting(0.1, Coin("white", 690.0, 60.0, 0.9)),  # near pocket 3
        Sighting(0.2, Coin("white", 60.0, 690.0, 0.9)),  # near pocket 1
    ]
    diff = stroke_diff(before, after, track)
    assert sorted(g.pocket or 0 for g in diff.gone) == [1, 3]


def test_diff_coin_that_stayed_near_a_pocket_is_not_gone() -> None:
    near = Coin("black", 80.0, 80.0, 1.0)
    before = view(near, W1)
    after = view(near, Coin("white", 340.0, 330.0, 1.0))  # the white only moved
    diff = stroke_diff(before, after, [Sighting(0.1, near)])
    assert diff.gone == ()


def test_law_65_coin_last_seen_at_the_edge_jumped_off() -> None:
    before = view(W1, K1)
    after = view(K1)
    track = [Sighting(0.1, Coin("white", 370.0, 12.0, 0.7))]  # at the top edge, far from pockets
    diff = stroke_diff(before, after, track)
    assert diff.off_board == ("white",)
    assert diff.gone == ()


def test_diff_vanished_unseen_is_gone_pocket_unknown() -> None:
    diff = stroke_diff(view(W1, K1), view(K1))
    assert [(g.colour, g.pocket) for g in diff.gone] == [("white", None)]


def test_diff_coin_under_a_hand_is_unseen_not_gone() -> None:
    u, v = (round(c) for c in B.mm_to_top(K1.x_mm, K1.y_mm))
    diff = stroke_diff(view(W1, K1), view(W1, hidden_box=(u - 30, v - 30, u + 30, v + 30)))
    assert diff.gone == ()
    assert diff.unseen == ("black",)


def test_law_72_striker_gone_from_the_board() -> None:
    assert stroke_diff(view(W1, ST), view(W1)).striker_gone
    assert not stroke_diff(view(W1, ST), view(W1, ST)).striker_gone
    # Not on the board before, but seen during the stroke.
    seen = [Sighting(0.1, Coin("striker", 370.0, 300.0, 0.9))]
    assert stroke_diff(view(W1), view(W1), seen).striker_gone


def test_diff_queen_pocketed_near_pocket_4() -> None:
    track = [Sighting(0.3, Coin("queen", 700.0, 700.0, 0.9))]
    diff = stroke_diff(view(Q, W1), view(W1), track)
    assert [(g.colour, g.pocket) for g in diff.gone] == [("queen", 4)]


def test_diff_says_which_classes_the_camera_is_unsure_of() -> None:
    hidden = np.zeros((400, 400), np.uint8)
    before = BoardView((Coin("white", 300.0, 300.0, 0.9),), hidden)
    doubt = Doubt("queen", 370.0, 370.0, 0.5, True, "at the centre")
    after = BoardView((Coin("white", 300.0, 300.0, 0.9),), hidden, (doubt,))
    assert stroke_diff(before, after).unsure == ("queen",)
    assert stroke_diff(before, before).unsure == ()
