"""The set in use, learned from the table: the colour and size of each class as this
set's pieces look under this lamp, never fixed cut-offs.

It is learned from the opening arrangement (law 41: the queen at the centre, the 18
men around her; the lighter nine are the white men, the darker nine the black) and
from every stroke the umpire confirms (the confirmed view's classes are labels). The
detector (vision.pieces) then gives each piece the class the set says it looks like,
and doubts a piece between two classes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import board as B
from vision.pieces import R_COIN, BoardView, Coin, Detector, disc_lab

Array = npt.NDArray[Any]

#: The least spread of a class's colour (CIELAB units): a camera's noise and the
#: light across the board move a piece's median colour by about this much.
LEAST_SPREAD = 5.0
#: A class's look moves this far towards each confirmed piece.
RATE = 0.2


class LearnError(ValueError):
    """The view does not show the opening arrangement."""


@dataclass(frozen=True, slots=True)
class Look:
    """How one class looks: median CIELAB colour and its spread, and how many pieces
    it was learned from."""

    lab: tuple[float, float, float]
    spread: float
    n: int

    def distance(self, colour: Array) -> float:
        d = np.asarray(colour, np.float64) - np.asarray(self.lab)
        return float(math.sqrt(float(d @ d))) / self.spread


class PieceSet:
    """The classes' looks (see the module docstring)."""

    def __init__(self, looks: dict[str, Look] | None = None) -> None:
        self.looks: dict[str, Look] = dict(looks or {})

    def learn(self, top_lab: Array, view: BoardView) -> None:
        """Learn from a view whose classes are right (the opening, a confirmed stroke):
        each class's look moves towards its pieces there."""
        by: dict[str, list[Array]] = {}
        for c in view.coins:
            u, v = B.mm_to_top(c.x_mm, c.y_mm)
            by.setdefault(c.colour, []).append(disc_lab(top_lab, u, v, 0.6 * R_COIN))
        for colour, samples in by.items():
            arr = np.array(samples)
            mean = np.median(arr, axis=0)
            spread = max(LEAST_SPREAD, float(np.median(np.linalg.norm(arr - mean, axis=1))) * 1.5)
            old = self.looks.get(colour)
            if old is not None:
                mean = (1 - RATE) * np.asarray(old.lab) + RATE * mean
                spread = (1 - RATE) * old.spread + RATE * spread
            n = len(samples) + (old.n if old else 0)
            self.looks[colour] = Look((float(mean[0]), float(mean[1]), float(mean[2])), spread, n)

    def classify(
        self, top_lab: Array, u: float, v: float, colour: str, conf: float
    ) -> tuple[str, float]:
        """The class of a piece the detector found at (u, v) as `colour`: the nearest
        look of the set when it is clearly nearer; doubt (confidence below sure) when two
        looks are alike near."""
        from vision.pieces import SURE

        if colour not in self.looks or len(self.looks) < 2:
            return colour, conf
        here = disc_lab(top_lab, u, v, 0.6 * R_COIN)
        # The striker is told by its size, not its colour alone (it may be a man's).
        pool = {k: lk for k, lk in self.looks.items() if (k == "striker") == (colour == "striker")}
        if len(pool) < 2:
            return colour, conf
        ranked = sorted(pool, key=lambda k: pool[k].distance(here))
        best, second = ranked[0], ranked[1]
        d_best, d_second = pool[best].distance(here), pool[second].distance(here)
        if best != colour and d_best * 1.5 < pool[colour].distance(here):
            colour = best
        if d_best > 0.7 * d_second or d_best > 4.0:
            conf = min(conf, SURE - 0.01)
        return colour, conf


def looks_like_opening(view: BoardView) -> bool:
    """Whether a view may show the opening arrangement (law 41): a piece at the centre
    and 18 more around it."""
    centre = B.SURFACE_MM / 2
    near = [math.hypot(c.x_mm - centre, c.y_mm - centre) for c in view.coins]
    return any(d < 20.0 for d in near) and sum(1 for d in near if d < 110.0) >= 17


def learn_opening(
    top: Array, detector: Detector | None = None, view: BoardView | None = None
) -> PieceSet:
    """The set from a view of the opening arrangement (law 41): the piece nearest the
    centre is the queen, the 18 men around her part by brightness into the nine white
    and the nine black; a striker on a base line is the striker. `view`: the detector's
    view of `top` when already counted. Raises LearnError when the view does not show
    it."""
    from vision.pieces import lab

    if view is None:
        view = (detector or Detector()).find(top)
    centre = B.SURFACE_MM / 2
    doubted = (Coin(d.colour, d.x_mm, d.y_mm, d.confidence) for d in view.unsure if not d.counted)
    around = sorted(
        [*view.coins, *doubted], key=lambda c: math.hypot(c.x_mm - centre, c.y_mm - centre)
    )
    if not around or math.hypot(around[0].x_mm - centre, around[0].y_mm - centre) > 20.0:
        raise LearnError("the opening arrangement was not found: no piece at the centre")
    men = [c for c in around[1:] if math.hypot(c.x_mm - centre, c.y_mm - centre) < 110.0]
    if not 12 <= len(men) <= 18:
        raise LearnError(
            f"the opening arrangement was not found: {len(men)} men around the queen, not 18"
        )
    top_lab = lab(top)
    light = []
    for c in men:
        u, v = B.mm_to_top(c.x_mm, c.y_mm)
        light.append(float(disc_lab(top_lab, u, v, 0.6 * R_COIN)[0]))
    # The men part into the lighter set and the darker at the widest gap in brightness
    # (a few may be missed, packed as they are; each set has nine at most).
    order = [int(i) for i in np.argsort(light)]
    gaps = [light[order[k + 1]] - light[order[k]] for k in range(len(order) - 1)]
    cut = max(range(len(gaps)), key=lambda k: gaps[k]) + 1
    if gaps[cut - 1] < 4.0 or not (len(men) - 9 <= cut <= 9):
        raise LearnError("the opening arrangement was not found: the men do not part into two sets")
    coins = [replace(around[0], colour="queen")]
    coins += [replace(men[i], colour="black") for i in order[:cut]]
    coins += [replace(men[i], colour="white") for i in order[cut:]]
    coins += [c for c in view.coins if c.colour == "striker"]
    pieces = PieceSet()
    pieces.learn(top_lab, BoardView(tuple(coins), view.occlusion))
    return pieces
