"""The set in use learned from the opening arrangement (law 41): the queen at the centre,
the 18 men around her part by brightness into the nine white and the nine black.

Above both the detector (vision.pieces) and the set (vision.piece_set), which it joins:
the view of the opening is the detector's, the set learned is a `PieceSet`.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision import board as B
from vision.piece_set import LearnError, PieceSet
from vision.pieces import Detector
from vision.view import R_COIN, Array, BoardView, Coin, disc_lab, lab


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
