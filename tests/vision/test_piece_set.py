"""The set in use, learned from the table (vision/piece_set.py): from the opening
arrangement (law 41) and from confirmed strokes; the detector then classes by it."""

from __future__ import annotations

import numpy as np
import pytest

from vision import board as B
from vision.calibration import Calibration, auto_calibrate
from vision.opening import learn_opening
from vision.photo import top_view
from vision.piece_set import LearnError, PieceSet
from vision.pieces import BoardView, Coin, Detector, EmptyBoard, lab
from vision.sim import render as S
from vision.sim.live import SimulatedBoard
from vision.sim.render import Look, Piece, Scene, start_arrangement
from vision.watcher import BoardWatcher

#: A dark maroon "black" set and medium-brown wooden "white" men, as real sets are.
MAROON_AND_BROWN = ((45, 80, 125), (30, 20, 60), (50, 40, 190), (225, 230, 235))


def _top(scene: Scene) -> np.ndarray:
    return top_view(S.render(scene), Calibration(tuple(S.pocket_centres_image(scene.look))))[0]


def _learned(look: Look) -> PieceSet:
    """The set learned in the kiosk: the empty board kept, then the opening."""
    detector = Detector(EmptyBoard([_top(Scene((), look))]))
    return learn_opening(_top(Scene(tuple(start_arrangement()), look)), detector)


def test_law_41_the_set_is_learned_from_the_opening_arrangement() -> None:
    # The network takes the brown men for black ones (its training never saw such a
    # set); the opening says which nine are which: the lighter are the white men.
    look = Look(seed=8, piece_bgr=MAROON_AND_BROWN)
    pieces = _learned(look)
    assert {"white", "black", "queen"} <= set(pieces.looks)
    assert pieces.looks["black"].n == 9 and pieces.looks["white"].n >= 4
    # The brown "white" men are lighter than the maroon "black" ones: that is all the
    # laws say; the set's own colours are what the detector then goes by.
    assert pieces.looks["white"].lab[0] > pieces.looks["black"].lab[0] + 4


def test_law_41_a_board_that_is_not_the_opening_teaches_nothing() -> None:
    top = _top(Scene((Piece("white", 200.0, 200.0), Piece("black", 500.0, 500.0)), Look(seed=8)))
    with pytest.raises(LearnError, match="opening arrangement"):
        learn_opening(top)


def test_the_learned_set_classes_a_piece_by_its_look_not_the_networks_guess() -> None:
    look = Look(seed=8, piece_bgr=MAROON_AND_BROWN)
    pieces = _learned(look)
    top = lab(_top(Scene((Piece("black", 200.0, 300.0), Piece("white", 500.0, 300.0)), look)))
    for x, colour in ((200.0, "black"), (500.0, "white")):
        u, v = B.mm_to_top(x, 300.0)
        wrong = "white" if colour == "black" else "black"
        assert pieces.classify(top, u, v, wrong, 0.9)[0] == colour


def test_confirmed_strokes_teach_the_set() -> None:
    pieces = PieceSet()
    look = Look(seed=8, piece_bgr=MAROON_AND_BROWN)
    view_pieces = (Coin("white", 200.0, 300.0, 1.0), Coin("black", 500.0, 300.0, 1.0))
    scene = Scene(tuple(Piece(c.colour, c.x_mm, c.y_mm) for c in view_pieces), look)
    top = lab(_top(scene))
    view = BoardView(view_pieces, np.zeros((B.TOP_PX, B.TOP_PX), np.uint8))
    pieces.learn(top, view)
    pieces.learn(top, view)
    assert pieces.looks["white"].n == 2 and pieces.looks["black"].n == 2


def test_law_41_the_watcher_learns_the_set_from_the_opening_it_sees() -> None:
    board = SimulatedBoard()  # the opening arrangement, the striker on the base line
    empty = board.empty_frame()
    watcher = BoardWatcher.from_empty_board(auto_calibrate(empty), [empty])
    watcher.feed(0.0, board.frame(0.0))
    assert watcher.detector.pieces is not None
    assert {"white", "black", "queen"} <= set(watcher.detector.pieces.looks)
    assert watcher.board is not None
    assert watcher.board.counts() == {"white": 9, "black": 9, "queen": 1, "striker": 1}
