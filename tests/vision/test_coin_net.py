"""The learned stage (vision/coin_net.py): the model that ships, how its maps are read,
and how training/coin_net.py makes its targets. What it counts on home boards is in
tests/vision/test_learned.py."""

from __future__ import annotations

import importlib.util
from importlib import resources
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

from vision import board as B
from vision import coin_net as N
from vision import models
from vision.pieces import Coin

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def training() -> ModuleType:
    """training/coin_net.py, which is not part of the package (it is run from the checkout)."""
    spec = importlib.util.spec_from_file_location(
        "training_coin_net", ROOT / "training/coin_net.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_coin_net_model_ships_inside_the_package_under_5_mb() -> None:
    model = resources.files(models).joinpath(N.MODEL)
    size = len(model.read_bytes())
    assert 10_000 < size < 5_000_000


def _maps() -> np.ndarray:
    out = np.zeros((6, N.OUT_PX, N.OUT_PX), np.float32)
    out[:4] = -9.0  # heat near 0 everywhere
    return out


def _peak(out: np.ndarray, k: int, x_mm: float, y_mm: float, logit: float = 3.0) -> None:
    u, v = N.cell_of(x_mm, y_mm)
    iu, iv = round(u), round(v)
    out[k, iv, iu] = logit
    out[4, iv, iu], out[5, iv, iu] = u - iu, v - iv


def test_coin_net_decode_puts_a_peak_at_its_millimetres() -> None:
    out = _maps()
    _peak(out, 1, 300.0, 500.0)
    (coin,) = N.decode(out)
    assert coin.colour == "black"
    assert abs(coin.x_mm - 300.0) < 0.01 and abs(coin.y_mm - 500.0) < 0.01
    assert coin.confidence == pytest.approx(1 / (1 + np.exp(-3.0)), rel=1e-4)


def test_coin_net_decode_keeps_the_hotter_of_two_peaks_of_one_piece() -> None:
    out = _maps()
    u, v = (round(c) for c in N.cell_of(370.0, 370.0))
    out[0, v, u] = 1.0  # white, less sure
    out[3, v, u + 1] = 4.0  # the striker, 8 mm away: the same piece
    out[2, v + 5, u] = 2.0  # the queen, 40 mm away: another piece
    assert sorted(c.colour for c in N.decode(out)) == ["queen", "striker"]


def test_coin_net_decode_counts_no_piece_off_the_playing_surface() -> None:
    out = _maps()
    out[0, 1, 1] = 5.0  # over the frame
    assert N.decode(out) == ()


def test_coin_net_unturned_maps_put_a_turned_views_piece_back_where_it_lies(
    training: ModuleType,
) -> None:
    # A black man at (250, 600) mm: in view k the network sees him where training's
    # `orient` puts him, and the maps turned back must put him at (250, 600) again.
    rows = np.array([(1, 250.0, 600.0, 31.0, 1.0)], np.float32)
    for k in range(8):
        _, seen = training.orient(np.zeros((4, 4, 3), np.uint8), rows, k)
        out = _maps()
        _peak(out, 1, float(seen[0, 1]), float(seen[0, 2]))
        (coin,) = N.decode(N.unturned(out, k))
        assert coin.colour == "black", k
        assert (coin.x_mm, coin.y_mm) == pytest.approx((250.0, 600.0), abs=0.01), k


def test_coin_net_turned_is_the_view_training_turns(training: ModuleType) -> None:
    img = np.arange(5 * 5 * 3, dtype=np.uint8).reshape(5, 5, 3)
    rows = np.zeros((0, 5), np.float32)
    for k in range(8):
        assert np.array_equal(N.turned(img, k), training.orient(img, rows, k)[0])
    assert len({N.turned(img, k).tobytes() for k in range(8)}) == 8


def test_coin_net_vote_counts_what_most_views_see_in_the_colour_they_see_hottest() -> None:
    def coin(colour: str, x: float, heat: float) -> Coin:
        return Coin(colour, x, 300.0, heat)

    views: list[list[Coin]] = [[] for _ in range(8)]
    for k in range(5):  # a man five views see white and three see as the queen
        views[k].append(coin("white", 200.0 + k, 0.8))
    for k in range(5, 8):
        views[k].append(coin("queen", 201.0, 0.9))
    for k in range(2):  # glare two views take for a man: 2 x 0.9 / 8 is too little
        views[k].append(coin("white", 500.0, 0.9))
    (kept,) = N.vote(views)
    assert kept.colour == "white"
    assert kept.x_mm == pytest.approx(202.0)  # the white views' mean
    assert kept.confidence == pytest.approx(5 * 0.8 / 8)
    # Two men 31 mm apart, both seen in every view, stay two.
    views = [[coin("black", 300.0, 0.9), coin("black", 331.0, 0.8)] for _ in range(8)]
    assert [c.x_mm for c in N.vote(views)] == [300.0, 331.0]


def test_coin_net_training_turns_the_pieces_with_the_board(training: ModuleType) -> None:
    small, rows = training.render_one(10_000_000)
    assert small.shape == (N.IN_PX, N.IN_PX, 3) and len(rows) > 0

    def under_pieces(img: np.ndarray, rows: np.ndarray) -> list[list[int]]:
        f = N.IN_PX / B.TOP_PX  # the 200 px view's pixels per top-view pixel
        out = []
        for r in rows:
            u, v = B.mm_to_top(float(r[1]), float(r[2]))
            out.append(img[round((v + 0.5) * f - 0.5), round((u + 0.5) * f - 0.5)].tolist())
        return out

    seen = under_pieces(small, rows)
    for k in range(8):
        img, turned = training.orient(small, rows, k)
        assert under_pieces(img, turned) == seen, k


def test_coin_net_training_leaves_a_half_hidden_piece_untrained(training: ModuleType) -> None:
    rows = np.array(
        [
            (1, 200.0, 300.0, 31.0, 1.0),  # a black man in full view
            (0, 500.0, 300.0, 31.0, 0.5),  # a white man half under the hand
            (0, 400.0, 600.0, 31.0, 0.0),  # one wholly hidden: nothing to see
        ],
        np.float32,
    )
    heat, weight, offs, at = training.targets(rows)
    assert heat[1].max() == 1.0 and at.sum() == 1.0
    assert heat[0].max() == 0.0  # neither white man is a target
    u, v = (round(c) for c in N.cell_of(500.0, 300.0))
    assert weight[:, v, u].max() == 0.0  # the half-hidden one is not a negative either
    u, v = (round(c) for c in N.cell_of(400.0, 600.0))
    assert weight[:, v, u].min() == 1.0  # the hidden one's place is bare board
    u, v = N.cell_of(200.0, 300.0)
    iu, iv = round(u), round(v)
    assert offs[:, iv, iu] == pytest.approx([u - iu, v - iv])


def test_coin_net_training_varies_what_a_camera_varies_but_not_where_things_are(
    training: ModuleType,
) -> None:
    small, _ = training.render_one(10_000_001)
    rng = np.random.default_rng(5)
    seen = [training.camera(small, rng) for _ in range(40)]
    assert all(s.shape == small.shape and s.dtype == np.uint8 for s in seen)
    # Tone, colour, blur, noise and JPEG change the pixels...
    assert len({s.tobytes() for s in seen}) == 40
    # ...but not where the pieces are: the view is neither moved nor scaled (a shift of
    # even one pixel would move every target by 4 mm).
    for s in seen:
        shift, _ = _phase(small, s)
        assert abs(shift[0]) < 0.25 and abs(shift[1]) < 0.25


def _phase(a: np.ndarray, b: np.ndarray) -> tuple[tuple[float, float], float]:
    grey = [cv2.cvtColor(x, cv2.COLOR_BGR2GRAY).astype(np.float32) for x in (a, b)]
    return cv2.phaseCorrelate(grey[0], grey[1])
