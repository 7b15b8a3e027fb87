"""What the camera saw, as every stage of the detector and the rest of vision/ share it:
a piece (`Coin`), a piece in doubt (`Doubt`), a view of the board (`BoardView`), the
pieces' radii in the top view, CIELAB, and the window of a disc.

Kept apart from the detector (vision.pieces) so that the learned stage
(vision.coin_net), the set in use (vision.piece_set) and the detector's stages import
these types without importing one another.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B
from vision.params import MOST

Array = npt.NDArray[Any]

#: A hidden pixel in a view's occlusion mask (uint8).
HIDDEN = 255
#: Against division by nothing.
EPS = 1e-6

R_COIN = B.COIN_D_MM / 2 * B.SCALE  # px in the top view
R_STRIKER = B.STRIKER_D_MM / 2 * B.SCALE
A_COIN = math.pi * R_COIN**2


@dataclass(frozen=True, slots=True)
class Coin:
    """One piece: class ("white", "black", "queen", "striker"), centre in board mm,
    confidence 0-1."""

    colour: str
    x_mm: float
    y_mm: float
    confidence: float


@dataclass(frozen=True, slots=True)
class Doubt:
    """A piece the detector is unsure of: `counted` ones are in the counts and may
    not be there (or be of the `other` class); the others are not counted and may be."""

    colour: str
    x_mm: float
    y_mm: float
    confidence: float
    counted: bool
    why: str
    #: The class it may be instead, when its class is in doubt (a man or the striker).
    other: str | None = None


@dataclass(frozen=True, slots=True, eq=False)
class BoardView:
    """What the camera saw on the board: the pieces counted, what it doubts, and the
    top-view mask (uint8, 255 = hidden) of what could not be seen."""

    coins: tuple[Coin, ...]
    occlusion: Array = field(repr=False)
    unsure: tuple[Doubt, ...] = ()

    @property
    def occluded(self) -> float:
        """The share of the view hidden."""
        return float(np.count_nonzero(self.occlusion)) / self.occlusion.size

    def count(self, colour: str) -> int:
        return sum(1 for c in self.coins if c.colour == colour)

    def counts(self) -> dict[str, int]:
        return {c: self.count(c) for c in B.COLOURS}

    def doubts_that_matter(self) -> tuple[Doubt, ...]:
        """The doubt that could change a count (`outcome_doubts`)."""
        return outcome_doubts(self.coins, self.unsure)

    def unsure_colours(self) -> tuple[str, ...]:
        """The classes whose count is in doubt, in board order."""
        return tuple(c for c in B.COLOURS if any(d.colour == c for d in self.unsure))

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


class Found(NamedTuple):
    """A piece found by the stages, before the doubt: its class, top-view centre (px),
    confidence, why in doubt, the class it may be instead, the network's heat for it (0
    for a disc of change it did not see), and its radius (px: a striker's as measured,
    38-75 mm across)."""

    colour: str
    u: float
    v: float
    conf: float
    why: str
    other: str | None
    heat: float
    r: float


def lab(top: Array) -> Array:
    """A BGR top view as float32 CIELAB (L 0-100)."""
    f = np.asarray(top, np.float32) * (1.0 / 255.0)
    out: Array = cv2.cvtColor(f, cv2.COLOR_BGR2Lab)
    return out


def disc_window(
    shape: tuple[int, ...], cx: float, cy: float, r: float
) -> tuple[tuple[slice, slice], Array]:
    """The window around a disc and the mask of the disc in it."""
    x0, x1 = max(0, int(cx - r)), min(shape[1], int(cx + r) + 2)
    y0, y1 = max(0, int(cy - r)), min(shape[0], int(cy + r) + 2)
    yy, xx = np.mgrid[y0:y1, x0:x1]
    inside = (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r
    return (slice(y0, y1), slice(x0, x1)), inside


def disc_lab(top_lab: Array, u: float, v: float, r: float) -> Array:
    """The median CIELAB colour over a disc."""
    win, inside = disc_window(top_lab.shape, u, v, r)
    px = top_lab[win][inside]
    out: Array = np.median(px, axis=0) if len(px) else np.zeros(3, np.float32)
    return out


def share(mask: Array, cx: float, cy: float, r: float) -> float:
    """The share of a disc where `mask` is set."""
    win, inside = disc_window(mask.shape, cx, cy, r)
    sub = mask[win][inside]
    return float(np.count_nonzero(sub)) / sub.size if sub.size else 0.0


def ring_share(mask: Array, u: float, v: float, r0: float, r1: float) -> float:
    """The share of the ring between radii r0 and r1 where `mask` is set."""
    win, outer = disc_window(mask.shape, u, v, r1)
    yy, xx = np.mgrid[win[0], win[1]]
    ring = outer & ((xx - u) ** 2 + (yy - v) ** 2 > r0 * r0)
    sub = mask[win][ring]
    return float(np.count_nonzero(sub)) / sub.size if sub.size else 0.0


def outcome_doubts(coins: Sequence[Coin], unsure: Sequence[Doubt]) -> tuple[Doubt, ...]:
    """Of a view's doubt, what could change a count: a piece counted in doubt (it may not
    be there, or be of its `other` class), and a piece not counted that may be there
    only while its class (or its `other`) holds fewer than a set has (law I आ, इ: one
    striker, one queen, nine men of a colour). A tenth white man in doubt beside nine
    counted could change nothing: he is no doubt of the count."""
    counts = {c: sum(1 for k in coins if k.colour == c) for c in B.COLOURS}

    def room(colour: str | None) -> bool:
        return colour is not None and counts.get(colour, 0) < MOST.get(colour, 0)

    return tuple(d for d in unsure if d.counted or room(d.colour) or room(d.other))
