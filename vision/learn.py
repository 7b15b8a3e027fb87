"""Learning the set in use from the opening arrangement (law 41: the queen at the
centre, six men around her, twelve around them, packed touching; white and
black alternate as the laws place them).

The arrangement's places are known once the queen is at the centre: only its
turn is not. `learn_opening` tries the turns (the pattern repeats every 60°),
samples every place, and keeps the turn where the places are most unlike the
plywood. Then the 18 places sorted by brightness are nine black and nine white:
the cut between the two groups and the queen's pink against the men's give a
`Learned` for vision.cold; a striker already on a base line gives its size.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import board as B
from vision.cold import Learned, Sizes, classify_discs
from vision.cold_planes import planes

Array = npt.NDArray[Any]


class LearnError(ValueError):
    """The view does not show the opening arrangement."""


def _places(turn: float, d_px: float) -> list[tuple[float, float]]:
    """The 18 men's places around the centre (top-view px) for a turn (radians)."""
    cx, cy = B.mm_to_top(B.SURFACE_MM / 2, B.SURFACE_MM / 2)
    out = []
    for k in range(6):
        a = turn + k * math.pi / 3
        out.append((cx + d_px * math.cos(a), cy + d_px * math.sin(a)))
    for k in range(6):
        a = turn + k * math.pi / 3
        out.append((cx + 2 * d_px * math.cos(a), cy + 2 * d_px * math.sin(a)))
        a2 = a + math.pi / 6
        r2 = d_px * math.sqrt(3)
        out.append((cx + r2 * math.cos(a2), cy + r2 * math.sin(a2)))
    return out


def _sample(plane: Array, x: float, y: float, r: float) -> float:
    """The median of a plane over a small disc."""
    x0, x1 = int(x - r), int(x + r) + 1
    y0, y1 = int(y - r), int(y + r) + 1
    win = plane[max(0, y0) : y1, max(0, x0) : x1]
    return float(np.median(win)) if win.size else 0.0


def learn_opening(top: Array) -> Learned:
    """What the opening arrangement in a top view says about the set (see the
    module docstring). Raises LearnError when the places do not hold nine men of
    one brightness and nine of another with a queen in the middle."""
    p = planes(top)
    rc = Sizes().coin
    d_px = 2 * rc + 0.1 * B.SCALE
    diff = np.abs(p.q - 1.0) + 4.0 * p.dc
    best: tuple[float, float] = (-1.0, 0.0)
    for turn in np.linspace(0, math.pi / 3, 30, endpoint=False):
        score = sum(_sample(diff, x, y, 0.4 * rc) for x, y in _places(float(turn), d_px))
        if score > best[0]:
            best = (score, float(turn))
    places = _places(best[1], d_px)
    qs = np.array([_sample(p.q, x, y, 0.45 * rc) for x, y in places])
    pinks = np.array([_sample(p.pink_rg, x, y, 0.45 * rc) for x, y in places])
    order = np.sort(qs)
    dark, light = order[:9], order[9:]
    gap = float(light[0] - dark[-1])
    if gap < 0.05 or float(np.median(diff[p.ply])) * 3 > float(np.median(diff)) * 10:
        raise LearnError(
            "the opening arrangement was not found: the 18 places do not part into "
            "nine black and nine white men"
        )
    cx, cy = B.mm_to_top(B.SURFACE_MM / 2, B.SURFACE_MM / 2)
    queen = _sample(p.pink_rg, cx, cy, 0.45 * rc)
    if queen <= float(pinks.max()) + 0.02:
        raise LearnError("the opening arrangement was not found: no queen at the centre")
    cut = float((dark[-1] + light[0]) / 2)
    queen_red = float((queen + max(float(pinks.max()), 0.0)) / 2)
    coin_r = rc  # packed and in their shadows, the men's own edges do not show
    learned = Learned(cut=cut, queen_red=queen_red, coin_r=coin_r)
    # The striker, if it already stands on a base line: a disc wider than a man.
    _, discs = classify_discs(top, learned)
    strikers = [r for _, _, r, _, _ in discs if r > 1.18 * coin_r]
    if strikers:
        learned = Learned(cut, queen_red, coin_r, float(strikers[0]))
    return learned
