"""`tableside vision detect` and the photo path: calibration from the pockets in any
order, the square check, the JSON, the annotation, and one-line errors."""

from __future__ import annotations

import json
import math
import struct
import time
import zlib
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from kiosk.cli import main
from vision import board as B
from vision.calibration import Calibration, CalibrationError, check_square, order_pockets
from vision.photo import PhotoError, auto_pockets, detect_photo, load_image, parse_pockets
from vision.sim import render as S
from vision.sim.render import Look, Markings, Piece, Scene
from vision.sim.variations import camera_corners

PIECES = (
    Piece("white", 200.0, 300.0),
    Piece("white", 520.0, 420.0),
    Piece("black", 300.0, 500.0),
    Piece("black", 331.5, 500.0),  # two black men touching
    Piece("queen", 450.0, 250.0),
    Piece("striker", 370.0, 620.0, 60.0),  # a home set's large striker
)


def _photo(tmp_path: Path, scene: Scene, name: str = "board.png") -> tuple[Path, str]:
    path = tmp_path / name
    cv2.imwrite(str(path), S.render(scene))
    pts = S.pocket_centres_image(scene.look)
    return path, ",".join(f"{x:.1f},{y:.1f}" for x, y in pts)


def test_vision_detect_json_counts_with_pockets_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, pockets = _photo(tmp_path, Scene(PIECES, Look(seed=3)))
    assert main(["vision", "detect", str(path), "--pockets", pockets, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["white", "black", "queen", "striker", "calibration", "coins", "unsure"]
    assert (out["white"], out["black"], out["queen"], out["striker"]) == (2, 2, 1, 1)
    assert out["calibration"] == "pockets"
    assert {c["class"] for c in out["coins"]} == {"white", "black", "queen", "striker"}
    assert all(set(c) == {"class", "x_mm", "y_mm", "confidence"} for c in out["coins"])


def test_vision_detect_pockets_in_any_order_give_the_same_counts(tmp_path: Path) -> None:
    scene = Scene(PIECES, Look(seed=4))
    image = S.render(scene)
    pts = S.pocket_centres_image(scene.look)
    a = detect_photo(image, pts).counts()
    b = detect_photo(image, [pts[2], pts[0], pts[3], pts[1]]).counts()
    assert a == b == {"white": 2, "black": 2, "queen": 1, "striker": 1}


def test_vision_detect_auto_calibration_and_annotation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _photo(tmp_path, Scene(PIECES, Look(seed=5)))
    out_png = tmp_path / "ann.png"
    assert main(["vision", "detect", str(path), "--json", "--annotate", str(out_png)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["calibration"] == "auto"
    ann = cv2.imread(str(out_png))
    assert ann is not None and ann.shape == (480, 640, 3)
    assert np.count_nonzero(np.any(ann != S.render(Scene(PIECES, Look(seed=5))), axis=2)) > 500


def test_vision_detect_any_size_a_large_photo(tmp_path: Path) -> None:
    look = Look(
        width=1600,
        height=1200,
        corners=((300.0, 110.0), (1290.0, 120.0), (1300.0, 1100.0), (310.0, 1090.0)),
        seed=6,
    )
    scene = Scene(PIECES, look)
    counts = detect_photo(S.render(scene), S.pocket_centres_image(look)).counts()
    assert counts == {"white": 2, "black": 2, "queen": 1, "striker": 1}


def test_vision_detect_not_an_image_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "notes.png"
    bad.write_text("not a picture\n")
    assert main(["vision", "detect", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and "not an image" in err


def test_vision_detect_empty_file_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    assert main(["vision", "detect", str(empty)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(empty) in err and "empty" in err


def test_vision_detect_no_board_is_one_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grey = tmp_path / "wall.png"
    cv2.imwrite(str(grey), np.full((480, 640, 3), 90, np.uint8))
    assert main(["vision", "detect", str(grey)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(grey) in err and "no board found" in err


def test_vision_detect_bad_pockets_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _photo(tmp_path, Scene(PIECES, Look(seed=7)))
    assert main(["vision", "detect", str(path), "--pockets", "1,2,3"]) == 1
    assert "--pockets" in capsys.readouterr().err
    with pytest.raises(PhotoError):
        parse_pockets("a,b,c,d,e,f,g,h")


def test_calibration_a_pocket_143_mm_out_is_refused() -> None:
    scene = Scene((), Look(seed=8))
    pts = S.pocket_centres_image(scene.look)
    assert check_square(pts, (640, 480)).problem() is None
    h = S.homography_mm_to_image(scene.look)
    x, y = B.POCKETS_MM[2]
    moved = S.project(h, [(x - 143.0, y)])[0]
    bad = list(pts)
    bad[2] = (float(moved[0]), float(moved[1]))
    problem = check_square(bad, (640, 480)).problem()
    assert problem is not None and "square" in problem
    with pytest.raises(PhotoError, match="the pockets given"):
        detect_photo(S.render(scene), bad)


def test_calibration_square_check_passes_a_phone_tilted_10_degrees() -> None:
    rng = np.random.default_rng(11)
    for _ in range(20):
        corners = camera_corners(rng, 640, 480, 10.0)
        pts = S.pocket_centres_image(Look(corners=corners))
        check = check_square(pts, (640, 480))
        assert check.problem() is None, check


def test_calibration_order_pockets_any_order() -> None:
    pts = S.pocket_centres_image(Look(seed=9))
    for perm in ((0, 1, 2, 3), (3, 2, 1, 0), (2, 0, 3, 1), (1, 3, 0, 2)):
        assert order_pockets([pts[i] for i in perm]) == tuple(pts)
    Calibration(order_pockets([pts[2], pts[1], pts[0], pts[3]]))  # a valid calibration


def test_load_image_missing_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(PhotoError, match="no such file"):
        load_image(tmp_path / "nothing.jpg")


def _bomb(path: Path, side: int) -> None:
    """A whole PNG of side x side black pixels: a few megabytes that decode to gigabytes.
    Every byte of its image data is 0 (each row's filter byte and its pixels), so the
    stream is one block of rows deflated once (a full flush resets the compressor: the block
    deflates the same each time) and repeated, and its Adler-32 is known (A = 1, B = n):
    0.1 s, not the 16 s of deflating 3 GB."""
    row = 1 + 3 * side
    rows = 64
    pack = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = pack.compress(b"\x00" * (row * rows)) + pack.flush(zlib.Z_FULL_FLUSH)
    whole, rest = divmod(side, rows)
    tail = pack.compress(b"\x00" * (row * rest)) + pack.flush(zlib.Z_FINISH)
    size = row * side
    check = struct.pack(">I", ((size % 65521) << 16) | 1)
    data = b"\x78\xda" + block * whole + tail + check

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )


@pytest.mark.parametrize("side", [9000, 32000])
def test_vision_detect_refuses_a_decompression_bomb_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], side: int
) -> None:
    # 81 megapixels (over the 64 allowed, under Pillow's own guard) and 1,024 (Pillow's).
    bomb = tmp_path / "bomb.png"
    _bomb(bomb, side)
    started = time.perf_counter()
    assert main(["vision", "detect", str(bomb), "--pockets", "1,1,9,1,9,9,1,9"]) == 1
    assert time.perf_counter() - started < 5.0  # 28 s and 6 GB when it was decoded
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bomb) in err and "too large" in err


def test_vision_detect_refuses_a_truncated_photo_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "board.jpg"
    cv2.imwrite(str(path), S.render(Scene(PIECES, Look(seed=3))))
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    assert main(["vision", "detect", str(cut)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(cut) in err and "damaged" in err


def test_vision_detect_json_gives_each_piece_a_confidence_and_lists_doubt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A tournament print's centre circle is a queen-red disc of the queen's size: cold,
    # nothing tells it from a queen lying there (every symmetry of the board maps the
    # centre on itself), so it is never a sure queen: not counted, or counted in doubt.
    no_queen = tuple(p for p in PIECES if p.colour != "queen")
    path, pockets = _photo(tmp_path, Scene(no_queen, Look(seed=3)))
    assert main(["vision", "detect", str(path), "--pockets", pockets, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert all(0.0 < c["confidence"] <= 1.0 for c in out["coins"])
    for d in out["unsure"]:
        assert set(d) == {"class", "x_mm", "y_mm", "confidence", "counted", "or", "why"}
    doubted = {d["class"] for d in out["unsure"] if d["counted"]}
    assert out["queen"] == 0 or "queen" in doubted
    assert {c: out[c] for c in ("white", "black", "striker")} == {
        "white": 2,
        "black": 2,
        "striker": 1,
    }


def _running_off(look: Look) -> tuple[np.ndarray, list[tuple[float, float]]]:
    """A rendered board whose surface runs off the image's top (a robot rig's webcam, a
    phone held close): the two top pockets lie at or beyond the image's edge."""
    look = replace(look, corners=((125.0, -18.0), (515.0, -18.0), (515.0, 372.0), (125.0, 372.0)))
    scene = Scene(
        (Piece("white", 200.0, 300.0), Piece("black", 520.0, 420.0), Piece("queen", 300.0, 560.0)),
        look,
    )
    return S.render(scene), S.pocket_centres_image(look)


def test_auto_calibration_suggests_the_pockets_of_a_board_running_off_the_image() -> None:
    image, truth = _running_off(Look(seed=31))
    assert min(y for _, y in truth) < 3.0  # the top pockets are at the image's edge
    found = order_pockets(auto_pockets(image))
    px_per_mm = 390.0 / B.SURFACE_MM
    err = [math.dist(p, q) / px_per_mm for p, q in zip(found, order_pockets(truth), strict=True)]
    assert max(err) < 6.0, err
    result = detect_photo(image)  # the suggestion, checked, then counted
    assert result.calibration == "auto"
    assert result.counts() == {"white": 1, "black": 1, "queen": 1, "striker": 0}


def test_auto_calibration_of_a_board_running_off_without_print_to_confirm_it_is_refused() -> None:
    # A plain board (no lines, no circles): the sides seen say nothing of where the cut-off
    # one lies that the print could confirm; the umpire taps the pockets.
    wood = Look().wood
    plain = Markings(ink=wood, red=wood, filled=False, arrows=False)
    image, _ = _running_off(Look(seed=31, markings=plain))
    with pytest.raises(CalibrationError, match="tap the four pockets"):
        auto_pockets(image)
