"""The learned stage: a small convolutional network that finds the coins on the
board's top view, run by OpenCV's own `cv2.dnn` (no new dependency).

It looks at the top view shrunk to 200 x 200 px (4 mm a pixel) and gives, on a
100 x 100 grid (8 mm a cell), one heat map per class (white, black, queen,
striker) whose peaks are the pieces' centres, and two maps of where in its cell
each centre lies. It was trained by `training/coin_net.py` on the home-board
renderer's output (vision.sim.variations, seeds that neither the tuning nor the
held-out boards use); the model ships inside the package (`vision/models/coin_net.onnx`).

The brightness of each colour plane is divided by its median over the view, so
an exposure or a lamp changes the input little: like the cold detector, the
network sees the pieces against this board's own plywood.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B
from vision import models
from vision.view import Coin

Array = npt.NDArray[Any]

MODEL = "coin_net.onnx"  # in vision/models
#: The network's input is the top view shrunk to IN_PX square; its output grid is OUT_PX.
IN_PX = 200
OUT_PX = 100
#: The board's eight symmetries (law I prints it the same turned a quarter or mirrored).
ORIENTATIONS = 8
MM_PER_CELL = (B.SURFACE_MM + 2 * B.MARGIN_MM) / OUT_PX  # 8.0
#: A peak is a piece when its heat is over this (chosen on the tuning boards only).
THRESHOLD = 0.45
#: Two peaks closer than this are one piece (men's centres lie 31 mm apart or more).
SAME_MM = 18.0
#: Each view's peaks from this heat count towards the vote of the eight views.
VOTE_FROM = 0.15


def shrink(top: Array) -> Array:
    """The top view (400 x 400 BGR uint8) shrunk by area to the network's IN_PX square
    (training/coin_net.py keeps its boards this way, so both see the same pixels)."""
    small: Array = cv2.resize(top, (IN_PX, IN_PX), interpolation=cv2.INTER_AREA)
    return small


def prepare(small: Array) -> Array:
    """A shrunk top view (as `shrink` makes it and training keeps it) as the network's
    input: its eight orientations (`turned`, in order) as one blob (8, 3, IN_PX, IN_PX),
    each plane divided by its median, less one, kept within [-1, 3]."""
    return normalise(np.stack([turned(small, k) for k in range(ORIENTATIONS)]))


def normalise(batch: Array) -> Array:
    """Uint8 images (N, H, W, 3) as float32 (N, 3, H, W), each plane over its median."""
    f = batch.astype(np.float32)
    med = np.median(f.reshape(len(f), -1, 3), axis=1)
    x = f / np.maximum(med, 10.0)[:, None, None, :] - 1.0
    out: Array = np.ascontiguousarray(np.clip(x, -1.0, 3.0).transpose(0, 3, 1, 2))
    return out


def cell_of(x_mm: float, y_mm: float) -> tuple[float, float]:
    """Board millimetres to output-grid coordinates (cell centres on integers)."""
    return (x_mm + B.MARGIN_MM) / MM_PER_CELL - 0.5, (y_mm + B.MARGIN_MM) / MM_PER_CELL - 0.5


def decode(out: Array, threshold: float = THRESHOLD) -> tuple[Coin, ...]:
    """The pieces from the network's output (6, G, G): a heat logit map per class, then
    the x and y offsets of a centre within its cell. One piece per local peak of a class's
    heat over `threshold`; of two peaks nearer than SAME_MM (of any classes) the hotter."""
    heat = 1.0 / (1.0 + np.exp(-out[:4].astype(np.float32)))
    peaks: list[tuple[float, int, float, float]] = []
    kernel = np.ones((3, 3), np.uint8)
    for k in range(4):
        h = heat[k]
        top = (h >= cv2.dilate(h, kernel)) & (h > threshold)
        for v, u in zip(*np.nonzero(top), strict=True):
            x_mm = (int(u) + 0.5 + float(out[4, v, u])) * MM_PER_CELL - B.MARGIN_MM
            y_mm = (int(v) + 0.5 + float(out[5, v, u])) * MM_PER_CELL - B.MARGIN_MM
            peaks.append((float(h[v, u]), k, x_mm, y_mm))
    peaks.sort(reverse=True)
    kept: list[tuple[float, int, float, float]] = []
    for p in peaks:
        if not B.on_surface(p[2], p[3]):
            continue
        if all((p[2] - q[2]) ** 2 + (p[3] - q[3]) ** 2 >= SAME_MM**2 for q in kept):
            kept.append(p)
    return tuple(Coin(B.COLOURS[k], x, y, s) for s, k, x, y in kept)


@lru_cache(maxsize=1)
def _net() -> Any:
    # The package module itself, not its name: under pytest the name "vision" is tests/vision.
    data = resources.files(models).joinpath(MODEL).read_bytes()
    return cv2.dnn.readNetFromONNX(np.frombuffer(data, np.uint8))


def turned(image: Array, k: int) -> Array:
    """An (H, W, ...) image in orientation `k` of the eight (0-7): bit 1 transposes it,
    then bit 2 mirrors it left to right and bit 4 top to bottom."""
    if k & 1:
        image = image.swapaxes(0, 1)
    if k & 2:
        image = image[:, ::-1]
    if k & 4:
        image = image[::-1]
    return np.ascontiguousarray(image)


def unturned(maps: Array, k: int) -> Array:
    """The network's maps (6, G, G) of a view in orientation `k`, back in the board's
    own: the grid turned back, and the centres' offsets within their cells with it."""
    maps = maps.copy()
    if k & 4:
        maps = maps[:, ::-1]
        maps[5] *= -1
    if k & 2:
        maps = maps[:, :, ::-1]
        maps[4] *= -1
    if k & 1:
        maps = maps.swapaxes(1, 2)[[0, 1, 2, 3, 5, 4]]
    return np.ascontiguousarray(maps)


def vote(found: Sequence[Sequence[Coin]], threshold: float = THRESHOLD) -> tuple[Coin, ...]:
    """The pieces the views agree on. `found` holds each view's peaks (their heat as the
    confidence, decoded at VOTE_FROM); the hottest peak not yet taken gathers the hottest
    peak of each other view within SAME_MM of it. Their heat, summed by class and
    divided by the number of views, is the piece's: kept when it is over `threshold`,
    at the mean centre of that class's peaks."""
    pool = sorted(
        ((c, view) for view, cs in enumerate(found) for c in cs), key=lambda cv: -cv[0].confidence
    )
    taken = [False] * len(pool)
    kept: list[Coin] = []
    for i, (seed, _) in enumerate(pool):
        if taken[i]:
            continue
        members: dict[int, Coin] = {}
        for j, (c, view) in enumerate(pool):
            near = (c.x_mm - seed.x_mm) ** 2 + (c.y_mm - seed.y_mm) ** 2 < SAME_MM**2
            if not taken[j] and view not in members and near:
                members[view] = c
                taken[j] = True
        heat: dict[str, float] = {}
        for c in members.values():
            heat[c.colour] = heat.get(c.colour, 0.0) + c.confidence
        colour = max(heat, key=lambda k: heat[k])
        score = heat[colour] / len(found)
        if score > threshold:
            same = [c for c in members.values() if c.colour == colour]
            x = sum(c.x_mm for c in same) / len(same)
            y = sum(c.y_mm for c in same) / len(same)
            kept.append(Coin(colour, x, y, score))
    return tuple(kept)


def read(maps: Array, threshold: float = THRESHOLD) -> tuple[Coin, ...]:
    """The pieces from the network's maps of the eight views (8, 6, G, G), in the order
    `prepare` gives them: each view's maps turned back and decoded, then the vote."""
    return vote([decode(unturned(m, k), VOTE_FROM) for k, m in enumerate(maps)], threshold)


def detect_learned(top: Array, threshold: float = THRESHOLD) -> tuple[Coin, ...]:
    """The pieces on a top view (vision.board's 400 x 400 px), by the network, which sees
    the view in all eight orientations at once (the board's print is the same after a
    quarter turn or a mirror, law I अ.4-अ.7) and counts what they agree on (`vote`)."""
    net = _net()
    net.setInput(prepare(shrink(top)))
    return read(np.asarray(net.forward()), threshold)
