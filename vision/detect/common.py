"""The detector's shared parts: pixel classes, sizes, settings, results, and
the windowed helpers every stage uses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B

Array = npt.NDArray[Any]

# Pixel classes.
BOARD, WHITE, BLACK, RED, OTHER = 0, 1, 2, 3, 4
# Unchanged pixels of the board's black lines and red dots: a black coin on a
# line, or the queen on a red dot, looks like the board there, so these pixels
# may belong to a black coin or to the queen.
INK, RED_INK = 5, 6

R_COIN = B.COIN_D_MM / 2 * B.SCALE
R_STRIKER = B.STRIKER_D_MM / 2 * B.SCALE
A_COIN = math.pi * R_COIN**2
# The least light a region holds to be (or hold) the striker, 1.77 coins' area: lines
# cut it a little, and coins beside it cannot make up for it.
STRIKER_LEAST_LIGHT = 1.3 * A_COIN


@dataclass(frozen=True, slots=True)
class Settings:
    """Thresholds of the detector (see docs/vision.md)."""

    chroma: float = 0.045  # chromaticity change that marks a pixel as changed
    dark: float = 0.5  # brightness ratio below which a pixel is black
    grey: float = 0.72  # share of the plywood's light below which a neutral pixel is black
    shade: float = 0.78  # below this a pixel is changed: a shadow (of a hand) at least
    bright: float = 1.07  # brightness ratio above which a pixel is changed
    powder: float = 0.45  # share of the way to neutral white that powder goes at most
    powder_bright: float = 1.12  # and the most it brightens the board
    red: float = 0.17  # red chromaticity excess over green and blue for the queen
    neutral: float = 0.11  # largest chromaticity spread of a white coin
    white_min: float = 0.72  # brightness ratio a white coin's pixels reach at least
    min_peak: float = 0.62  # least depth of a coin, in coin radii
    min_confidence: float = 0.5  # least share of a disc of its colour (or its rim)
    # A red dot (law I अ.4 ख) in a hand's shadow can make a part-red disc on it; the
    # queen on a dot shows her red over more of hers.
    min_queen_on_dot: float = 0.7
    occluder_area: float = 2.5  # "other" regions larger than this many coins hide what is under
    hand_mm: float = 58.0  # anything this thick (of a coin's colour and unknown) is a hand


DEFAULTS = Settings()


@dataclass(frozen=True, slots=True)
class Coin:
    """One detected piece: colour ("white", "black", "queen", "striker"), centre
    in board mm, confidence 0-1 (the share of its disc with its colour)."""

    colour: str
    x_mm: float
    y_mm: float
    confidence: float


@dataclass(frozen=True, slots=True, eq=False)
class BoardView:
    """What the camera saw on the board in one frame."""

    coins: tuple[Coin, ...]
    #: Top-view mask (uint8, 255 = hidden) of what could not be seen.
    occlusion: Array = field(repr=False)

    @property
    def occluded(self) -> float:
        """The share of the playing surface hidden."""
        return float(np.count_nonzero(self.occlusion)) / self.occlusion.size

    def count(self, colour: str) -> int:
        return sum(1 for c in self.coins if c.colour == colour)

    def counts(self) -> dict[str, int]:
        return {c: self.count(c) for c in B.COLOURS}

    def hidden(self, x_mm: float, y_mm: float, margin_mm: float = 16.0) -> bool:
        """Whether anything within `margin_mm` of a point was hidden."""
        u, v = B.mm_to_top(x_mm, y_mm)
        m = margin_mm * B.SCALE
        h, w = self.occlusion.shape
        x0, x1 = max(0, int(u - m)), min(w, int(u + m) + 1)
        y0, y1 = max(0, int(v - m)), min(h, int(v + m) + 1)
        if x0 >= x1 or y0 >= y1:
            return False
        return bool(self.occlusion[y0:y1, x0:x1].any())


# Tables by class for cv2.LUT, several times faster than comparing the classes one by
# one: 1 for the classes of a coin's colour and the unknown.
_COLOURED = np.zeros(256, np.uint8)
_COLOURED[[WHITE, BLACK, RED, OTHER]] = 1
_INK = np.zeros(256, np.uint8)  # 1 for the lines
_INK[INK] = 1

_SQUARE3 = np.ones((3, 3), np.uint8)
_SQUARE5 = np.ones((5, 5), np.uint8)
_DISC3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))  # a cross
_DISC5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_DISC7 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
_DISC9 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
_SQUARE15 = np.ones((15, 15), np.uint8)  # about a coin across (a square is much faster)


def _frame_band() -> Array:
    """The frame in the top view, less the 3 px next to the surface's edge (where the
    calibration and the blur leave a seam)."""
    band: Array = np.ones((B.TOP_PX, B.TOP_PX), np.uint8)
    m = round(B.MARGIN_MM * B.SCALE) - 3
    band[m : B.TOP_PX - m, m : B.TOP_PX - m] = 0
    return band


_FRAME_BAND = _frame_band()


def _pocket_area() -> Array:
    """The pockets (law I अ.3) in the top view, 3 px wider for the calibration."""
    area = np.zeros((B.TOP_PX, B.TOP_PX), np.uint8)
    r = B.POCKET_D_MM / 2 * B.SCALE + 3.0
    for x, y in B.POCKETS_MM:
        u, v = B.mm_to_top(x, y)
        cv2.circle(area, (round(u * 16), round(v * 16)), round(r * 16), 1, -1, cv2.LINE_8, 4)
    pockets: Array = area > 0
    return pockets


_POCKET_AREA = _pocket_area()


def _red_dots() -> list[tuple[float, float]]:
    """The red dots at the ends of the base lines (law I अ.4 ख), top-view px."""
    s, half = B.SURFACE_MM, B.BASELINE_LEN_MM / 2
    d = B.BASELINE_IN_MM + B.BASELINE_GAP_MM / 2
    dots: list[tuple[float, float]] = []
    for e in (s / 2 - half, s / 2 + half):
        dots += [B.mm_to_top(e, d), B.mm_to_top(d, e), B.mm_to_top(e, s - d), B.mm_to_top(s - d, e)]
    return dots


_RED_DOTS = _red_dots()
R_DOT = B.BASE_RED_D_MM / 2 * B.SCALE


def _dot_at(cx: float, cy: float) -> tuple[float, float] | None:
    """The red dot whose centre is within 4 px (8 mm) of a point, if one is."""
    return next(((u, v) for u, v in _RED_DOTS if (u - cx) ** 2 + (v - cy) ** 2 <= 4.0**2), None)


def _grow(mask: Array, r: float) -> Array:
    """The pixels within r of a set pixel (a round dilation; a distance transform is
    much faster than a large elliptic kernel)."""
    grown: Array = np.zeros(mask.shape, bool)
    x, y, w, h = cv2.boundingRect(mask.astype(np.uint8))
    if w == 0:
        return grown
    # Only the box around the set pixels, widened by r, can be reached.
    m = math.ceil(r) + 1
    box = slice(max(0, y - m), y + h + m), slice(max(0, x - m), x + w + m)
    dist = cv2.distanceTransform((mask[box] == 0).astype(np.uint8), cv2.DIST_L2, 3)
    grown[box] = dist <= r
    return grown


Window = tuple[slice, slice]


def _widened(
    x: int, y: int, w: int, h: int, margin: int, shape: tuple[int, ...], even: bool = False
) -> Window:
    """The box x, y, w, h widened by `margin` px on every side, within an image of
    `shape`; with `even`, its bounds rounded out to even numbers (halving the box then
    averages the view's own 2x2 blocks)."""
    x0, y0 = max(0, x - margin), max(0, y - margin)
    x1, y1 = min(shape[1], x + w + margin), min(shape[0], y + h + margin)
    if even:
        x0, y0 = x0 & ~1, y0 & ~1
        x1, y1 = min(shape[1], x1 + 1) & ~1, min(shape[0], y1 + 1) & ~1
    return slice(y0, y1), slice(x0, x1)


def _label(mask: Array, connectivity: int = 8) -> tuple[int, Array, Array]:
    """Connected regions of a mask: their number with the background,
    the labels and the stats, as cv2.connectedComponentsWithStats gives them; only
    the box around the set pixels is labelled, which is most of the cost."""
    x0, y0, w, h = cv2.boundingRect(mask)
    labels: Array = np.zeros(mask.shape, np.uint16)
    if w == 0:
        return 1, labels, np.zeros((1, 5), np.int32)
    n, labels[y0 : y0 + h, x0 : x0 + w], stats, _ = cv2.connectedComponentsWithStats(
        mask[y0 : y0 + h, x0 : x0 + w], connectivity=connectivity, ltype=cv2.CV_16U
    )
    stats[1:, 0] += x0
    stats[1:, 1] += y0
    return int(n), labels, stats


def _disc(shape: tuple[int, ...], cx: float, cy: float, r: float) -> tuple[Window, Array]:
    """The window of an image around a disc, and the squared distance from the
    disc's centre of each pixel in it (`d2 <= r * r` is the disc). Slicing a window
    is several times faster than gathering the disc's pixels by index."""
    h, w = shape[:2]
    x0, x1 = max(0, int(cx - r - 1)), min(w, int(cx + r + 2))
    y0, y1 = max(0, int(cy - r - 1)), min(h, int(cy + r + 2))
    dy = (np.arange(y0, y1, dtype=np.float32) - cy)[:, None]
    dx = (np.arange(x0, x1, dtype=np.float32) - cx)[None, :]
    return (slice(y0, y1), slice(x0, x1)), dx * dx + dy * dy


def _disc_share(mask: Array, cx: float, cy: float, r: float) -> float:
    """The share of a disc's pixels set in `mask` (0 if the disc is off the image)."""
    win, d2 = _disc(mask.shape, cx, cy, r)
    inside = d2 <= r * r
    n = int(np.count_nonzero(inside))
    return float(np.count_nonzero(mask[win] & inside)) / n if n else 0.0
