"""Hands in cold detection (vision.cold): what tells a hand from men without an empty
board. A hand is thicker than men and skin-coloured (`skin`); and it reaches in from
beyond the board, so its arm crosses the surface's edge and covers the frame there
(`arms`), which men lying against the cushion never do."""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B
from vision.cold_planes import mad

Array = npt.NDArray[Any]

#: How far (frame spreads over the three channels) the frame beyond a region must be
#: from the rest of that side's frame to be an arm: the bare frame beside men reached
#: 3.0 on the tuning boards, most arms 4 to 60.
ARM_Z = 3.5
#: How far inside the surface's edge (px) a region may begin and still reach it.
REACH = 6


def skin(px: Array, board_c: Array) -> Array:
    """Pixels of a skin's colour: reddish-brown and more saturated than the plywood's
    colour is orange (a hand on a wooden board differs most in its red share)."""
    inten = px.sum(axis=2) + 3.0
    cr, cb = px[:, :, 2] / inten, px[:, :, 0] / inten
    out: Array = (cr - cb > (board_c[2] - board_c[0]) + 0.04) & (cr > 0.4)
    return out


def arms(top: Array, labels: Array, rc: float) -> list[int]:
    """The labels of the regions that are an arm reaching in: within `REACH` px of the
    surface's edge along at least 1.5 men's radii of it, with the frame just beyond
    (2-8 px out) there unlike the rest of that side's frame (a sleeve or skin over it).
    A man against the cushion touches the edge at a point and leaves the frame bare.
    Near, not touching: a blurred, see-through arm changes the plywood by the edge too
    little for the change test."""
    f = cv2.GaussianBlur(top.astype(np.float32), (0, 0), 1.0)
    m, size = round(B.MARGIN_MM * B.SCALE), top.shape[0]
    lo, hi = m + 1, size - m - 1  # the surface's first and last rows (and columns)
    # Each side: the labels in its band inside the edge, and the frame strip beyond,
    # both as (depth, along).
    sides = [
        (labels[lo : lo + REACH, lo:hi], f[m - 8 : m - 2, lo:hi]),
        (labels[hi - REACH : hi, lo:hi], f[size - m + 2 : size - m + 8, lo:hi]),
        (labels[lo:hi, lo : lo + REACH].T, f[lo:hi, m - 8 : m - 2].transpose(1, 0, 2)),
        (
            labels[lo:hi, hi - REACH : hi].T,
            f[lo:hi, size - m + 2 : size - m + 8].transpose(1, 0, 2),
        ),
    ]
    out: set[int] = set()
    for band, strip in sides:
        spread = [max(mad(strip[:, :, k].ravel()), 2.0) for k in range(3)]
        for i in np.unique(band):
            if i == 0 or i in out:
                continue
            at = (band == i).any(axis=0)
            if at.sum() < 1.5 * rc or (~at).sum() < 20:
                continue
            z2 = 0.0
            for k in range(3):
                here, rest = strip[:, at, k], strip[:, ~at, k]
                # A floor of 2 levels: a frame of one flat colour has no spread at all.
                z2 += ((float(np.median(here)) - float(np.median(rest))) / spread[k]) ** 2
            if math.sqrt(z2) > ARM_Z:
                out.add(int(i))
    return sorted(out)
