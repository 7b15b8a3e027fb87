"""Hands in cold detection (vision.cold): what tells a hand from men without an empty
board. A hand is thicker than men and skin-coloured (`skin`); and it reaches in from
beyond the board, so its arm crosses the surface's edge and covers the frame there
(`arms`), which men lying against the cushion never do."""

from __future__ import annotations

import functools
import math
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B
from vision.cold_planes import geometry, mad

Array = npt.NDArray[Any]

#: How far (frame spreads over the three channels) the frame beyond a region must be
#: from the rest of that side's frame to be an arm: bare frame by men stays under 1.5.
ARM_Z = 3.0


def skin(px: Array, board_c: Array) -> Array:
    """Pixels of a skin's colour: reddish-brown and more saturated than the plywood's
    colour is orange (a hand on a wooden board differs most in its red share)."""
    inten = px.sum(axis=2) + 3.0
    cr, cb = px[:, :, 2] / inten, px[:, :, 0] / inten
    out: Array = (cr - cb > (board_c[2] - board_c[0]) + 0.04) & (cr > 0.4)
    return out


@functools.lru_cache(maxsize=1)
def _edges() -> tuple[Array, Array]:
    """The outermost pixels of the surface (pockets left out), and the frame's strip
    2-8 px beyond the surface."""
    surface, pockets, _ = geometry()
    on = (surface & ~pockets).astype(np.uint8)
    edge = (on > 0) & ~(cv2.erode(on, np.ones((3, 3), np.uint8)) > 0)
    s = surface.astype(np.uint8)
    near = cv2.dilate(s, np.ones((17, 17), np.uint8)) > 0
    strip = near & ~(cv2.dilate(s, np.ones((5, 5), np.uint8)) > 0)
    return edge, strip


def arms(top: Array, labels: Array, n: int, rc: float) -> list[int]:
    """The labels of the regions that are an arm reaching in: touching the surface's edge
    along at least 1.5 men's radii, with the frame just beyond unlike the rest of that
    side's frame (a sleeve or skin over it). A man against the cushion touches the edge
    at a point and leaves the frame bare."""
    edge, strip = _edges()
    across = np.bincount(labels[edge], minlength=n)
    f = cv2.GaussianBlur(top.astype(np.float32), (0, 0), 1.0)
    m, size = round(B.MARGIN_MM * B.SCALE), top.shape[0]
    out = []
    for i in np.flatnonzero(across >= 1.5 * rc):
        if i == 0:
            continue
        at = ((labels == i) & edge).astype(np.uint8)
        beyond = (cv2.dilate(at, np.ones((15, 15), np.uint8)) > 0) & strip
        if beyond.sum() < 5:
            continue
        ys, xs = np.nonzero(beyond)
        side = np.zeros(strip.shape, bool)
        x, y = float(np.median(xs)), float(np.median(ys))
        if x < m:
            side[:, :m] = True
        elif x >= size - m:
            side[:, size - m :] = True
        elif y < m:
            side[:m, :] = True
        else:
            side[size - m :, :] = True
        ref = strip & side & ~beyond
        if ref.sum() < 20:
            continue
        z2 = 0.0
        for k in range(3):
            vals = f[:, :, k][ref]
            # A floor of 2 levels: a frame of one flat colour has no spread at all.
            z2 += (
                (float(np.median(f[:, :, k][beyond])) - float(np.median(vals)))
                / max(mad(vals), 2.0)
            ) ** 2
        if math.sqrt(z2) > ARM_Z:
            out.append(int(i))
    return out
