"""Coin detection on rendered camera images (tests/vision/conftest.py renders them)."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import board as B
from vision.calibration import auto_calibrate
from vision.detect import BOARD, OTHER, WHITE, BoardView, Reference, detect, detect_classes
from vision.diff import DiffSettings
from vision.sim import render as S
from vision.sim.render import Hand, Look, Piece, Scene

from .conftest import detect_scene, match_errors, truth_counts

ANGLED = Look(
    corners=((140.0, 52.0), (505.0, 40.0), (528.0, 440.0), (118.0, 430.0)),
    lamp_falloff=0.25,
    noise=3.0,
    blur=0.8,
    seed=4,
)
HARD = replace(
    ANGLED,
    glare=55.0,
    glare_mm=(300.0, 420.0),
    glare_sigma_mm=70.0,
    gradient=0.3,
    gradient_angle=0.8,
    powder=0.15,
    cloth=77,
)


@pytest.mark.parametrize("seed", range(12))
def test_detect_counts_and_positions_at_three_difficulties(seed: int) -> None:
    scene = S.random_scene(1000 + seed, seed % 3)
    view = detect_scene(scene)
    assert view.counts() == truth_counts(scene)
    assert max(match_errors(scene, view), default=0.0) < 4.0


@pytest.mark.parametrize("look", [ANGLED, HARD], ids=["angled", "glare-powder-cloth"])
def test_detect_start_arrangement_touching_coins(look: Look) -> None:
    # Law 41: nineteen coins packed round the queen, all touching.
    pieces = [*S.start_arrangement(), Piece("striker", 300.0, 622.0, 41.0)]
    scene = Scene(tuple(pieces), look)
    view = detect_scene(scene)
    assert view.counts() == {"white": 9, "black": 9, "queen": 1, "striker": 1}
    errs = match_errors(scene, view)
    assert sum(errs) / len(errs) < 1.5
    assert max(errs) < 3.0


def test_detect_black_coin_on_a_base_line_and_a_white_chain() -> None:
    y_line = B.SURFACE_MM - B.BASELINE_IN_MM  # on the outer base line (law I अ.4 क)
    d = 31.3
    pieces = [
        Piece("black", 370.0, y_line),
        Piece("black", B.BASELINE_IN_MM + 8, 300.0),
        *(Piece("white", 250.0 + k * d, 250.0) for k in range(3)),
    ]
    scene = Scene(tuple(pieces), ANGLED)
    view = detect_scene(scene)
    assert view.counts() == truth_counts(scene)
    assert max(match_errors(scene, view)) < 3.0


def test_detect_black_coins_on_an_arrow_and_a_base_circle() -> None:
    # Law I अ.5: the arrows run diagonally to the pockets; अ.4 ख: base circles end the
    # base lines. A black coin is only a little darker than the print it lies on.
    pieces = (Piece("black", 560.0, 560.0), Piece("black", 606.0, 118.0))
    scene = Scene(pieces, ANGLED)
    view = detect_scene(scene)
    assert view.counts() == truth_counts(scene)
    on_arrow, on_circle = match_errors(scene, view)
    assert on_arrow < 2.0
    # The base circle's ring, red dot and two lines under one coin: found, but placed
    # less well (docs/vision.md, what it does not handle well).
    assert on_circle < 6.0


def test_detect_red_centre_circle_is_not_the_queen() -> None:
    # Law I अ.6: the centre circle is red and the queen's size; only a queen is a queen.
    empty = detect_scene(Scene((), ANGLED))
    assert empty.coins == ()
    with_queen = detect_scene(Scene((Piece("queen", 370.0, 370.0),), ANGLED))
    assert [c.colour for c in with_queen.coins] == ["queen"]


def test_detect_powder_and_glare_are_not_coins() -> None:
    look = replace(HARD, powder=0.2, glare=60.0)
    assert detect_scene(Scene((), look)).coins == ()


def test_detect_white_coin_under_glare() -> None:
    look = replace(ANGLED, glare=60.0, glare_mm=(370.0, 370.0), glare_sigma_mm=60.0)
    scene = Scene((Piece("white", 380.0, 350.0), Piece("white", 420.0, 420.0)), look)
    view = detect_scene(scene)
    assert view.counts()["white"] == 2
    assert max(match_errors(scene, view)) < 3.0


def test_detect_striker_touching_a_white_coin_is_the_striker() -> None:
    pieces = (Piece("striker", 300.0, 500.0, 41.0), Piece("white", 300.0 + 36.3, 500.0))
    view = detect_scene(Scene(pieces, ANGLED))
    assert sorted(c.colour for c in view.coins) == ["striker", "white"]


@pytest.mark.parametrize("skin", [(130, 160, 205), (60, 80, 115)], ids=["light-skin", "dark-skin"])
def test_detect_hand_over_the_board_hides_coins_not_adds_them(skin: tuple[int, int, int]) -> None:
    hand = Hand(370.0, 560.0, -math.pi / 2, skin)  # reaching in from the bottom to the middle
    under = Piece("white", 370.0, 640.0)  # under the palm
    clear = [
        Piece("black", 150.0, 150.0),
        Piece("white", 600.0, 200.0),
        Piece("queen", 200.0, 420.0),
    ]
    scene = Scene((*clear, under), ANGLED, hand)
    assert S.visible_fraction(scene, under) == 0.0
    view = detect_scene(scene)
    assert view.counts() == {"white": 1, "black": 1, "queen": 1, "striker": 0}
    # The palm of a pale hand is nearly the board's colour; its sleeve and shadow are
    # not: the coin is within the diff's margin of what was seen to be hidden.
    assert view.hidden(under.x_mm, under.y_mm, DiffSettings().hidden_margin_mm)
    assert not any(view.hidden(p.x_mm, p.y_mm, DiffSettings().hidden_margin_mm) for p in clear)
    assert 0.005 < view.occluded < 0.5


def test_detect_confidence_is_the_share_of_the_disc() -> None:
    view = detect_scene(Scene((Piece("black", 300.0, 300.0),), ANGLED))
    (coin,) = view.coins
    assert 0.9 <= coin.confidence <= 1.0


def test_detect_black_coin_where_the_base_lines_meet_a_base_circle() -> None:
    # Law I अ.4: at each end of the base lines a base circle with its red dot; near
    # a corner two of them and the arrow (अ.5) meet. Under the lamp's fall-off the
    # print there is as dark as a pocket, and a black coin on it barely changes it.
    look = replace(ANGLED, lamp_falloff=0.35)
    for x, y in ((595.0, 126.0), (126.0, 595.0)):
        scene = Scene((Piece("black", x, y),), look)
        view = detect_scene(scene)
        assert view.counts() == truth_counts(scene), (x, y)
        assert max(match_errors(scene, view)) < 3.0


@pytest.mark.parametrize("glare", [40.0, 70.0])
def test_detect_black_coin_on_the_centre_circle_under_glare(glare: float) -> None:
    # Law I अ.6: the red centre circle. Under the lamp's glare a black coin turns
    # grey, and on the red circle it is not much darker than the print.
    look = replace(ANGLED, glare=glare, glare_mm=(370.0, 370.0), glare_sigma_mm=60.0)
    scene = Scene((Piece("black", 370.0, 370.0),), look)
    view = detect_scene(scene)
    assert view.counts() == truth_counts(scene)
    assert max(match_errors(scene, view)) < 3.0


def test_detect_pale_skin_over_a_red_dot_is_not_a_white_coin() -> None:
    # A pale palm is nearly the plywood's colour: over a red dot (law I अ.4 ख) only
    # the dot's disc changes, to a pale disc a little smaller than a coin. A white
    # coin on the dot is white over a coin's whole disc.
    d = B.BASELINE_IN_MM + B.BASELINE_GAP_MM / 2
    x, y = B.SURFACE_MM - d, B.SURFACE_MM / 2 + B.BASELINE_LEN_MM / 2  # a dot's centre
    u, v = B.mm_to_top(x, y)
    centre = (round(u * 16), round(v * 16))
    r_dot = B.BASE_RED_D_MM / 2 * B.SCALE
    r_coin = B.COIN_D_MM / 2 * B.SCALE
    for radius, colours in ((r_dot, []), (r_coin, ["white"])):
        cls = np.full((B.TOP_PX, B.TOP_PX), BOARD, np.uint8)
        cv2.circle(cls, centre, round((radius + 1.5) * 16), OTHER, -1, cv2.LINE_8, 4)
        cv2.circle(cls, centre, round(radius * 16), WHITE, -1, cv2.LINE_8, 4)
        strength = (cls != BOARD).astype(np.float32)
        view = detect_classes(cls, strength)
        assert [c.colour for c in view.coins] == colours, radius


def test_detect_bare_board_between_two_coins_on_the_base_lines_is_not_a_coin() -> None:
    # Law I अ.4: the two base lines are a coin's width apart. Two black coins lying
    # across them, a coin's length apart, enclose a patch of bare board with the
    # lines; that patch is no coin. (Board 21208 of the benchmark, square and even.)
    scene = S.random_scene(21208, 0)
    view = detect_scene(scene)
    assert view.counts() == truth_counts(scene)
    assert max(match_errors(scene, view)) < 3.0


def test_detect_black_coin_touching_a_hand_is_counted() -> None:
    # A coin fully in view beside a hand must be counted (it may be struck next);
    # only what the hand covers is hidden. (Board 20763 of the benchmark: a black
    # coin touching the edge of a hand's shadow.)
    scene = S.random_scene(20763, 3)
    mask = S.hand_mask_image(scene)
    assert all(S.visible_fraction(scene, p, mask) == 1.0 for p in scene.pieces)
    view = detect_scene(scene)
    assert view.counts() == truth_counts(scene)


def detect_as_benchmark(scene: Scene, seed: int) -> tuple[BoardView, np.ndarray]:
    """Detect with the reference the benchmark takes (its exposure drawn from the
    board's seed); also the hand's mask."""
    draw = np.random.default_rng(seed + 99).uniform(0.93, 1.07)
    look = replace(scene.look, powder=0.0, exposure=scene.look.exposure * draw)
    empty = S.render(S.Scene((), look))
    cal = auto_calibrate(empty)
    view = detect(cal.warp(S.render(scene)), Reference([cal.warp(empty)]))
    return view, S.hand_mask_image(scene)


def test_detect_white_coin_half_in_a_hands_shadow_is_counted() -> None:
    # A white coin fully in view, a base line across it and its side in the hand's
    # shadow: the piece left of its colour is smaller than a whole coin, but it is
    # still the coin, not the hand. (Board 21135 of the benchmark.)
    scene = S.random_scene(21135, 3)
    view, mask = detect_as_benchmark(scene, 21135)
    coin = min(
        (p for p in scene.pieces if p.colour == "white"),
        key=lambda p: math.hypot(p.x_mm - 498.4, p.y_mm - 647.0),
    )
    assert S.visible_fraction(scene, coin, mask) == 1.0
    assert view.counts()["white"] == truth_counts(scene)["white"]
    assert min(match_errors(Scene((coin,), scene.look), view)) < 3.0


def test_detect_striker_touching_a_hands_shadow_is_the_striker() -> None:
    # The striker on its base line, fully in view, its edge touching the hand's
    # shadow: it is the striker, not the hand nor a white coin left of it.
    # (Board 21167 of the benchmark.)
    scene = S.random_scene(21167, 3)
    view, mask = detect_as_benchmark(scene, 21167)
    striker = next(p for p in scene.pieces if p.colour == "striker")
    assert S.visible_fraction(scene, striker, mask) == 1.0
    assert view.counts() == truth_counts(scene)
    assert min(match_errors(Scene((striker,), scene.look), view)) < 3.0


def visible_missed(scene: Scene, view: BoardView, mask: np.ndarray | None) -> list[Piece]:
    """The pieces wholly in view with no detection of their colour within 3 mm."""
    return [
        p
        for p in scene.pieces
        if S.visible_fraction(scene, p, mask) == 1.0
        and min(match_errors(Scene((p,), scene.look), view)) >= 3.0
    ]


@pytest.mark.parametrize("seed", [20403, 20635])
def test_detect_coins_touching_each_other_and_a_hand_are_counted(seed: int) -> None:
    # Coins touching each other in a hand's shadow, one of them touching the hand,
    # make one piece of their colour bigger than a coin: the coins in it are still
    # coins, not the hand. (Board 20403: three white coins; 20635: the striker
    # touching a white coin; both beside a hand.)
    scene = S.random_scene(seed, 3)
    view, mask = detect_as_benchmark(scene, seed)
    assert visible_missed(scene, view, mask) == []
    for colour, n in truth_counts(scene).items():
        assert view.count(colour) <= n


def test_detect_black_coin_on_a_base_line_touching_a_hand_is_counted() -> None:
    # The base line across a black coin cuts its colour in two; beside a pale hand
    # neither half is a coin's size, but with the line between them they are the coin.
    # (Board 20903 of the benchmark.)
    scene = S.random_scene(20903, 3)
    view, mask = detect_as_benchmark(scene, 20903)
    blacks = [p for p in scene.pieces if p.colour == "black"]
    assert all(S.visible_fraction(scene, p, mask) == 1.0 for p in blacks)
    assert view.count("black") == len(blacks)


def test_detect_printed_red_dot_is_not_a_white_coin() -> None:
    # Law I अ.4 ख: the red dots are a coin's size and ringed by ink. A bright red
    # that saturates the camera can make a dot seem a little brighter than in the
    # reference, but a dot is not a pale coin under glare. (Board 40808, square.)
    scene = S.random_scene(40808, 0)
    view, _ = detect_as_benchmark(scene, 40808)
    assert view.counts() == truth_counts(scene)


@pytest.mark.parametrize(("seed", "difficulty"), [(40812, 0), (40778, 2)])
def test_detect_coin_beside_the_centre_circle_is_one_coin(seed: int, difficulty: int) -> None:
    # Law I अ.6: the centre circle is the queen's size and red with a black rim. A
    # white coin or the queen touching it hides no print of its own, so the circle
    # beside it is not a second coin. (Board 40812: a white coin; 40778: the queen.)
    scene = S.random_scene(seed, difficulty)
    view, _ = detect_as_benchmark(scene, seed)
    assert view.counts() == truth_counts(scene)
    assert max(match_errors(scene, view)) < 3.0


@pytest.mark.parametrize(
    ("seed", "difficulty"), [(40556, 0), (40886, 2), (80421, 1), (80570, 2), (80846, 2)]
)
def test_detect_white_coin_between_the_base_lines_is_not_the_striker(
    seed: int, difficulty: int
) -> None:
    # Law I अ.4: the base lines are a coin's width apart. A white coin between them
    # touches both, and with the lines it looks as deep as the striker; but it holds
    # only a coin's area of white, and the striker (law I इ) is wider. Two white coins
    # touching there are two coins, not the striker (boards 80421, 80570, 80846).
    scene = S.random_scene(seed, difficulty)
    view, _ = detect_as_benchmark(scene, seed)
    assert view.counts() == truth_counts(scene)


@pytest.mark.parametrize(("seed", "difficulty"), [(20850, 2), (60065, 1), (60729, 1)])
def test_detect_striker_touching_two_white_coins_in_a_triangle(seed: int, difficulty: int) -> None:
    # The striker (law I इ, 41.3 mm) and two white coins all touching: the gap
    # between the three fills and is as deep as the striker, but the striker is
    # where its disc fits with the least of the others around it.
    scene = S.random_scene(seed, difficulty)
    view, _ = detect_as_benchmark(scene, seed)
    assert view.counts() == truth_counts(scene)
    assert max(match_errors(scene, view)) < 3.0


@pytest.mark.parametrize(("seed", "difficulty"), [(40121, 1), (40874, 2)])
def test_detect_black_coin_over_a_base_circle_corner_is_counted(seed: int, difficulty: int) -> None:
    # Law I अ.4: where two base lines meet, their red dots overlap and the lines run
    # thick; a black coin there touching another is judged against the plywood's
    # light, which must be taken from beyond that whole patch of print. (It is
    # counted; its centre there can be some millimetres off, see docs/vision.md.)
    scene = S.random_scene(seed, difficulty)
    view, _ = detect_as_benchmark(scene, seed)
    assert view.counts() == truth_counts(scene)


@pytest.mark.parametrize("seed", [40003, 80347, 80563])
def test_detect_red_dot_in_a_hands_shadow_is_not_the_queen(seed: int) -> None:
    # A hand's shadow over a red dot (law I अ.4 ख) turns part of it a deeper red:
    # that part-red disc on the dot is not the queen, who shows her red over more of
    # hers. (Boards of the benchmark with a hand.)
    scene = S.random_scene(seed, 3)
    view, _ = detect_as_benchmark(scene, seed)
    assert view.count("queen") == truth_counts(scene)["queen"]
