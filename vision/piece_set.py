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
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import board as B
from vision.params import PARAMS, DetectorParams
from vision.view import R_COIN, BoardView, disc_lab

Array = npt.NDArray[Any]


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

    def __init__(
        self, looks: dict[str, Look] | None = None, params: DetectorParams = PARAMS
    ) -> None:
        self.looks: dict[str, Look] = dict(looks or {})
        self.params = params

    def learn(self, top_lab: Array, view: BoardView) -> None:
        """Learn from a view whose classes are right (the opening, a confirmed stroke):
        each class's look moves towards its pieces there."""
        p = self.params
        by: dict[str, list[Array]] = {}
        for c in view.coins:
            u, v = B.mm_to_top(c.x_mm, c.y_mm)
            by.setdefault(c.colour, []).append(disc_lab(top_lab, u, v, p.face_disc * R_COIN))
        for colour, samples in by.items():
            arr = np.array(samples)
            mean = np.median(arr, axis=0)
            spread = float(np.median(np.linalg.norm(arr - mean, axis=1)))
            spread = max(p.set_least_spread, spread * p.set_spread_times)
            old = self.looks.get(colour)
            if old is not None:
                mean = (1 - p.set_rate) * np.asarray(old.lab) + p.set_rate * mean
                spread = (1 - p.set_rate) * old.spread + p.set_rate * spread
            n = len(samples) + (old.n if old else 0)
            self.looks[colour] = Look((float(mean[0]), float(mean[1]), float(mean[2])), spread, n)

    def classify(
        self, top_lab: Array, u: float, v: float, colour: str, conf: float
    ) -> tuple[str, float]:
        """The class of a piece the detector found at (u, v) as `colour`: the nearest
        look of the set when it is clearly nearer; doubt (confidence below sure) when two
        looks are alike near."""
        p = self.params
        if colour not in self.looks or len(self.looks) < 2:
            return colour, conf
        here = disc_lab(top_lab, u, v, p.face_disc * R_COIN)
        # The striker is told by its size, not its colour alone (it may be a man's).
        pool = {k: lk for k, lk in self.looks.items() if (k == "striker") == (colour == "striker")}
        if len(pool) < 2:
            return colour, conf
        ranked = sorted(pool, key=lambda k: pool[k].distance(here))
        best, second = ranked[0], ranked[1]
        d_best, d_second = pool[best].distance(here), pool[second].distance(here)
        if best != colour and d_best * p.nearer_times < pool[colour].distance(here):
            colour = best
        if d_best > p.set_alike * d_second or d_best > p.set_far:
            conf = min(conf, p.sure - p.step)
        return colour, conf
