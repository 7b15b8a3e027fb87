"""`tableside vision diff` (what left the board between two photos, the kiosk's path)
and the one-line refusals of `tableside vision detect` and `vision diff`."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from kiosk.cli import main
from vision.sim import render as S
from vision.sim.render import Look, Piece, Scene

MEN = (
    Piece("white", 200.0, 300.0),
    Piece("white", 520.0, 420.0),
    Piece("black", 300.0, 500.0),
    Piece("queen", 450.0, 250.0),
    Piece("striker", 370.0, 640.0),
)


def _photos(tmp_path: Path) -> tuple[Path, Path, Path, str]:
    """Before (every piece), after (a black man and the striker gone) and the empty
    board, under one camera; and its pockets."""
    look = Look(seed=7)
    names = ("before.png", "after.png", "empty.png")
    scenes = (MEN, tuple(p for p in MEN if p.colour not in ("black", "striker")), ())
    paths = []
    for name, pieces in zip(names, scenes, strict=True):
        path = tmp_path / name
        cv2.imwrite(str(path), S.render(Scene(pieces, look)))
        paths.append(path)
    pockets = ",".join(f"{x:.1f},{y:.1f}" for x, y in S.pocket_centres_image(look))
    return paths[0], paths[1], paths[2], pockets


def _one_line(err: str, *said: str) -> None:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert all(s in err for s in said), err


@pytest.mark.parametrize("kept", [True, False])
def test_vision_diff_says_what_left_the_board(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kept: bool
) -> None:
    before, after, empty, pockets = _photos(tmp_path)
    argv = ["vision", "diff", str(before), str(after), "--pockets", pockets, "--json"]
    assert main(argv + (["--empty", str(empty)] if kept else [])) == 0
    out = json.loads(capsys.readouterr().out)
    truth = {"white": 0, "black": 1, "queen": 0, "striker": 1}
    assert out["empty_kept"] is kept
    assert {"unsure", "unsure_classes", "gone", "unseen", "off_board"} <= set(out)
    if kept:
        assert out["left"] == truth, out
        assert out["before"] == {"white": 2, "black": 1, "queen": 1, "striker": 1}
    else:
        # Cold, the striker of a man's width may be a man: never a confident wrong count.
        wrong = {c for c in truth if out["left"][c] != truth[c]}
        assert out["left"]["black"] == 1 and wrong <= set(out["unsure_classes"]), out


def test_vision_diff_refuses_bad_input_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before, after, _empty, pockets = _photos(tmp_path)
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), np.full((240, 320, 3), 128, np.uint8))
    notes = tmp_path / "notes.png"
    notes.write_text("not a picture\n")
    cases = [
        ([str(tmp_path), str(after), "--pockets", pockets], (str(tmp_path), "folder")),
        ([str(before), str(notes), "--pockets", pockets], (str(notes), "not an image")),
        ([str(before), str(small), "--pockets", pockets], (str(small), "not the size")),
        ([str(before), str(after), "--pockets", pockets, "--empty", str(small)], (str(small),)),
        ([str(before), str(after), "--pockets", "1,2,3"], ("--pockets",)),
        ([str(before), str(after), "--pockets", "0,0,5,0,5,5,0,5"], (str(before), "pockets")),
    ]
    for argv, said in cases:
        assert main(["vision", "diff", *argv]) == 1, argv
        _one_line(capsys.readouterr().err, *said)


def test_vision_detect_a_20000x8_png_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    thin = tmp_path / "thin.png"
    cv2.imwrite(str(thin), np.full((8, 20000, 3), 128, np.uint8))
    assert main(["vision", "detect", str(thin)]) == 1
    _one_line(capsys.readouterr().err, str(thin), "20000x8")


def test_vision_detect_a_folder_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["vision", "detect", str(tmp_path)]) == 1
    _one_line(capsys.readouterr().err, str(tmp_path), "a folder")


@pytest.mark.parametrize("target", ["folder", "notes.txt", "missing/out.png"])
def test_vision_detect_annotate_to_what_is_no_image_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    before, _after, _empty, pockets = _photos(tmp_path)
    out = tmp_path / target
    if target == "folder":
        out.mkdir()
    argv = ["vision", "detect", str(before), "--pockets", pockets, "--annotate", str(out)]
    assert main(argv) == 1
    _one_line(capsys.readouterr().err, str(out))
