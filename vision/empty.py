"""Stage two, change against the kept board: the empty board (`EmptyBoard`, kept at
calibration, or `symmetric_board`, learned from a view by the print's symmetry) and how
far each pixel of a view is from it (`change`, `arm_change`), in units of the board's
own spread.

Also the top view's fixed masks every stage shares: the playing surface less its
pockets, the strip of frame around it, the strip along the surface's edge.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision import board as B
from vision.params import PARAMS, DetectorParams
from vision.view import Array, lab


def _disc_kernel(px: int) -> Array:
    out: Array = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (px, px))
    return out


# The playing surface in the top view, less its pockets.
SURFACE = np.zeros((B.TOP_PX, B.TOP_PX), np.uint8)
SURFACE[B.surface_slice(), B.surface_slice()] = 1
for _x, _y in B.POCKETS_MM:
    _u, _v = B.mm_to_top(_x, _y)
    _r = round(B.POCKET_D_MM / 2 * B.SCALE + PARAMS.pocket_clear_px)
    cv2.circle(SURFACE, (round(_u), round(_v)), _r, 0, -1)

# Where the board's spread of change is measured: every few pixels of the surface.
SPREAD_AT = np.zeros((B.TOP_PX, B.TOP_PX), bool)
SPREAD_AT[:: PARAMS.spread_step_px, :: PARAMS.spread_step_px] = True
SPREAD_AT &= SURFACE > 0

# The square of the surface; the strip of frame around it, less the seam next to the
# surface's edge (where the calibration and the blur leave one); the strip of surface
# along its edge.
SQUARE = np.zeros((B.TOP_PX, B.TOP_PX), np.uint8)
SQUARE[B.surface_slice(), B.surface_slice()] = 1
_SEAM = np.ones((PARAMS.seam_px, PARAMS.seam_px), np.uint8)
FRAME_BAND = cv2.dilate(SQUARE, _SEAM) == 0
EDGE_STRIP = (SQUARE > 0) & (cv2.erode(SQUARE, _SEAM) == 0)
OPEN = _disc_kernel(PARAMS.open_px)
BLOB_OPEN = _disc_kernel(PARAMS.blob_open_px)
BAND_OPEN = _disc_kernel(PARAMS.band_open_px)


class EmptyBoard:
    """The empty board's top view in CIELAB: the view kept at calibration (several are
    median-combined), or the board's print learned from a view with pieces on it
    (`symmetric_board`); `known` marks where it is known."""

    def __init__(self, views: list[Array] | Array, known: Array | None = None) -> None:
        stack = [views] if isinstance(views, np.ndarray) else list(views)
        if not stack:
            raise ValueError("the empty board needs at least one view")
        for v in stack:
            if np.asarray(v).shape != (B.TOP_PX, B.TOP_PX, 3):
                raise ValueError(
                    f"a view of the empty board must be a {B.TOP_PX}x{B.TOP_PX} top view"
                )
        planes = np.stack([lab(v) if np.asarray(v).dtype == np.uint8 else v for v in stack])
        self.lab: Array = np.median(planes, axis=0) if len(stack) > 1 else planes[0]
        self.known: Array = (
            np.ones((B.TOP_PX, B.TOP_PX), bool) if known is None else np.asarray(known, bool)
        )

    def plywood_a(self) -> float:
        """The plywood's redness (CIELAB a*): the median over the known surface."""
        on = (SURFACE > 0) & self.known
        return float(np.median(self.lab[:, :, 1][on])) if on.any() else 0.0

    def blend(self, top: Array, bare: Array, rate: float) -> None:
        """Move towards a top view where `bare` (pixels seen as bare board): powder and a
        drifting lamp become part of the board. Pixels not known before (under a piece
        when the board was learned from a view with pieces on it) are taken as seen."""
        mask = np.asarray(bare) > 0
        view = lab(top)
        new = mask & ~self.known  # first seen bare: taken as it is
        self.lab[new] = view[new]
        cv2.accumulateWeighted(view, self.lab, rate, (mask & self.known).astype(np.uint8))
        self.known |= mask


def symmetric_board(top_lab: Array, pieces: Array, p: DetectorParams = PARAMS) -> EmptyBoard:
    """The empty board from one view: per pixel the median over the eight orientations
    of the view (law I prints the board the same in each) of those where `pieces`
    (uint8 mask) does not cover it. Known where enough orientations are bare."""
    from vision.coin_net import ORIENTATIONS, turned

    views = np.stack([turned(top_lab, k) for k in range(ORIENTATIONS)])
    covered = np.stack([turned(pieces, k) for k in range(ORIENTATIONS)]) > 0
    views[covered] = np.nan
    ordered = np.sort(views, axis=0)  # NaN last
    n = (~covered).sum(axis=0)
    mid = np.clip((n - 1) // 2, 0, ORIENTATIONS - 1)
    med = np.take_along_axis(ordered, mid[None, :, :, None].repeat(3, axis=3), axis=0)[0]
    known = n >= p.known_from_views
    med[~known] = top_lab[~known]
    return EmptyBoard(np.nan_to_num(med).astype(np.float32), known)


def change(top_lab: Array, empty: EmptyBoard, p: DetectorParams = PARAMS) -> Array:
    """How far each pixel is from the empty board, in units of the board's own spread:
    brightness with the light's slow fall-off across the board taken out (a lamp, a
    gradient), and colour."""
    d = top_lab - empty.lab
    dl = d[:, :, 0]
    # The slow fall-off, worked out on a shrunk view (a median, then smoothed): pieces
    # are narrower than that and do not move it. L differences are offset into uint8.
    side = B.TOP_PX // p.fall_off_shrink
    small = cv2.resize(dl, (side, side), interpolation=cv2.INTER_AREA)
    mid = p.fall_off_offset
    quiet = cv2.medianBlur(np.clip(small + mid, 0, 2 * mid - 1).astype(np.uint8), p.fall_off_px)
    slow = cv2.GaussianBlur(quiet.astype(np.float32) - mid, (0, 0), p.fall_off_sigma)
    dl = dl - cv2.resize(slow, (B.TOP_PX, B.TOP_PX), interpolation=cv2.INTER_LINEAR)
    return in_spreads(dl, d, empty, p=p)


def in_spreads(
    dl: Array, d: Array, empty: EmptyBoard, smooth: int = 0, p: DetectorParams = PARAMS
) -> Array:
    """The distance from the empty board of brightness `dl` (a fall-off already taken
    out) and the colour of `d` (the view less the board), smoothed over `smooth` px when
    given, in units of `spread_units` times the board's own spread (`least_unit` at
    the least)."""
    ab = cv2.magnitude(d[:, :, 1], d[:, :, 2])
    dist = cv2.magnitude(dl, ab * math.sqrt(p.colour_weight))
    if smooth:
        dist = cv2.blur(dist, (smooth, smooth))
    on = SPREAD_AT & empty.known
    spread = float(np.median(dist[on])) if on.any() else 1.0
    out: Array = dist / max(spread * p.spread_units, p.least_unit)
    return out


def changed_mask(score: Array, empty: EmptyBoard, p: DetectorParams = PARAMS) -> Array:
    """Where the view changed on the known surface (uint8 0/1), before the opening."""
    out: Array = ((score > p.changed_from) & (SURFACE > 0) & empty.known).astype(np.uint8)
    return out


def arm_change(top_lab: Array, empty: EmptyBoard, p: DetectorParams = PARAMS) -> Array:
    """Change against the kept empty board (uint8 mask, 1 = changed) as an arm shows it:
    `change` takes a slow fall-off of brightness out, and a forearm as wide as that
    fall-off's window is taken for one (its face, a dark arm's most of all, comes out
    unchanged, its edges as fragments). Here only the whole view's shift of brightness
    (another exposure) is taken out, the change is smoothed over a few px (a frame's
    noise is as strong as a dark arm's change over it), and gaps of a few px are closed:
    the seam where the frame meets the surface, and where a sleeve meets the skin, blend
    to the board's look under some arms."""
    d = top_lab - empty.lab
    on = (SURFACE > 0) & empty.known
    shift = float(np.median(d[:, :, 0][on])) if on.any() else 0.0
    dl = (d[:, :, 0] - shift).astype(np.float32)
    dist = in_spreads(dl, d, empty, smooth=p.arm_smooth_px, p=p)
    mask: Array = ((dist > p.changed_from) & empty.known).astype(np.uint8)
    out: Array = cv2.morphologyEx(
        cv2.morphologyEx(mask, cv2.MORPH_OPEN, OPEN), cv2.MORPH_CLOSE, BLOB_OPEN
    )
    return out
