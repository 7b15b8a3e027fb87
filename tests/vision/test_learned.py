"""What the learned stage (vision/coin_net.py) counts: home sets' pieces of law I, the
opening arrangement of law 41, hands, and the tuning home boards, through the photo path
`tableside vision detect` runs (the true pockets given)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from kiosk.cli import main
from vision import board as B
from vision.photo import detect_photo
from vision.sim import render as S
from vision.sim.render import Look, Markings, Piece, Scene, start_arrangement
from vision.sim.variations import INKS, QUEENS, REDS, SLATE_SET, WOOD_SET, random_home_scene

# A tuning home board (seeds 1-200): net pockets, red cloth, 13 pieces, no hand.
PHONE_SEED = 22


def _counts(scene: Scene) -> dict[str, int]:
    return detect_photo(S.render(scene), S.pocket_centres_image(scene.look)).counts()


def _truth(scene: Scene) -> dict[str, int]:
    return {c: sum(1 for p in scene.pieces if p.colour == c) for c in B.COLOURS}


@pytest.mark.parametrize("d_mm", [50.0, 72.0])
def test_law_i_home_striker_is_the_striker_by_the_learned_stage(d_mm: float) -> None:
    pieces = (Piece("striker", 370.0, 620.0, d_mm), Piece("white", 200.0, 200.0))
    scene = Scene(pieces, Look(seed=23, piece_bgr=SLATE_SET))
    assert _counts(scene) == _truth(scene)


def test_law_i_wooden_striker_of_40_mm_is_no_man_by_the_learned_stage() -> None:
    pieces = (
        Piece("striker", 372.0, B.SURFACE_MM - B.BASELINE_IN_MM - 16, 40.0),
        Piece("white", 250.0, 250.0),
        Piece("black", 450.0, 300.0),
    )
    scene = Scene(pieces, Look(seed=31, piece_bgr=WOOD_SET))
    assert _counts(scene) == _truth(scene)


def test_law_i_men_of_the_plywoods_own_wood_touching_are_counted_by_the_learned_stage() -> None:
    pieces = (
        Piece("white", 300.0, 300.0),
        Piece("white", 331.2, 300.0),
        Piece("white", 315.6, 327.0),
        Piece("black", 450.0, 300.0),
        Piece("black", 481.2, 300.0),
    )
    scene = Scene(pieces, Look(seed=36, piece_bgr=WOOD_SET, wear=0.8))
    assert _counts(scene) == _truth(scene)


@pytest.mark.parametrize("colours", [SLATE_SET, WOOD_SET], ids=["slate", "wood"])
def test_law_41_opening_arrangement_is_counted_by_the_learned_stage(
    colours: tuple[tuple[int, int, int], ...],
) -> None:
    y = B.SURFACE_MM - B.BASELINE_IN_MM - B.BASELINE_GAP_MM / 2
    pieces = (*start_arrangement(), Piece("striker", 300.0, y, 55.0))
    scene = Scene(pieces, Look(seed=41, piece_bgr=colours))
    assert _counts(scene) == {"white": 9, "black": 9, "queen": 1, "striker": 1}


# A home board's print (law I अ.4-अ.7 say where, not how): thin maroon lines, hollow dots,
# no arrows, and a pattern at the centre.
HOME_PRINT = Markings(
    ink=INKS[2], red=REDS[1], line_mm=1, base_line_mm=2, filled=False, arrows=False
)


@pytest.mark.parametrize("centre", ["star", "rings", "petals"])
def test_law_i_home_print_hollow_dots_and_a_centre_pattern_are_no_men_by_the_learned_stage(
    centre: str,
) -> None:
    look = Look(seed=51, markings=replace(HOME_PRINT, centre=centre))
    assert sum(_counts(Scene((), look)).values()) == 0
    pieces = (
        Piece("white", 250.0, 250.0),
        Piece("black", 480.0, 260.0),
        Piece("queen", 300.0, 470.0),
        Piece("striker", 420.0, B.SURFACE_MM - B.BASELINE_IN_MM - 16, 60.0),
    )
    colours = (WOOD_SET[0], SLATE_SET[1], QUEENS[1], WOOD_SET[3])
    scene = Scene(pieces, Look(seed=52, piece_bgr=colours, markings=look.markings))
    assert _counts(scene) == _truth(scene)


def test_law_41_opening_on_red_petals_is_one_queen_by_the_learned_stage() -> None:
    y = B.SURFACE_MM - B.BASELINE_IN_MM - B.BASELINE_GAP_MM / 2
    pieces = (*start_arrangement(), Piece("striker", 300.0, y, 55.0))
    markings = replace(HOME_PRINT, red=REDS[0], centre="petals")
    scene = Scene(pieces, Look(seed=53, piece_bgr=WOOD_SET, markings=markings))
    assert _counts(scene) == {"white": 9, "black": 9, "queen": 1, "striker": 1}


def test_learned_stage_sees_nothing_on_an_empty_board_with_net_pockets_and_red_cloth() -> None:
    look = Look(seed=24, net_pockets=True, red_cloth=True, cloth=5, wear=1.0)
    assert sum(_counts(Scene((), look)).values()) == 0


def test_vision_detect_counts_as_the_kiosks_detector_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scene = random_home_scene(37)
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), S.render(scene))
    pts = S.pocket_centres_image(scene.look)
    pockets = ",".join(f"{x:.1f},{y:.1f}" for x, y in pts)
    given = [(float(f"{x:.1f}"), float(f"{y:.1f}")) for x, y in pts]  # as the command reads them
    image = cv2.imread(str(path))
    assert main(["vision", "detect", str(path), "--pockets", pockets, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    want = detect_photo(image, given)
    assert [c["class"] for c in out["coins"]] == [c.colour for c in want.coins]
    assert {c: out[c] for c in B.COLOURS} == _truth(scene)


def test_vision_detect_counts_a_phones_jpeg_by_the_learned_stage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A phone's photo: three times the size, sensor noise, saved as JPEG at quality 60 (its
    8-pixel blocks), read from the file as an installer's photo is."""
    scene = random_home_scene(PHONE_SEED)
    big = cv2.resize(S.render(scene), None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    noisy = np.clip(big + np.random.default_rng(1).normal(0.0, 4.0, big.shape), 0, 255)
    path = tmp_path / "phone.jpg"
    cv2.imwrite(str(path), noisy.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 60])
    pockets = ",".join(f"{3 * x:.1f},{3 * y:.1f}" for x, y in S.pocket_centres_image(scene.look))
    assert main(["vision", "detect", str(path), "--pockets", pockets, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {c: out[c] for c in B.COLOURS} == _truth(scene)
