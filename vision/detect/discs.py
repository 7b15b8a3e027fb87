"""Discs: each connected region of one class split into coins and the striker."""

from __future__ import annotations

import cv2
import numpy as np

from vision import board as B
from vision.detect.common import (
    A_COIN,
    R_COIN,
    R_STRIKER,
    STRIKER_LEAST_LIGHT,
    Array,
    Settings,
    _disc,
    _disc_share,
)


def _refine(
    mask: Array, weight: Array, cx: float, cy: float, r: float, wild: Array | None = None
) -> tuple[float, float]:
    """A sub-pixel centre: the centroid, weighted by the difference from the board,
    of the pixels within a disc a pixel wider than the piece that are of its class
    or of the board (the soft edge), repeated as the disc moves. Line and dot pixels
    (`wild`) count only inside the piece's own edge: beyond it they are the print."""
    for _ in range(3):
        win, d2 = _disc(mask.shape, cx, cy, r + 1.0)
        use = mask[win] & (d2 <= (r + 1.0) ** 2)
        if wild is not None:
            use &= ~(wild[win] & (d2 > r * r))
        m = cv2.moments(weight[win] * use)
        if m["m00"] < 3:
            break
        ys, xs = win
        cx, cy = xs.start + m["m10"] / m["m00"], ys.start + m["m01"] / m["m00"]
    return cx, cy


def _fill_holes(region: Array) -> Array:
    """A region with its enclosed holes filled (a printed striker, a gloss spot)."""
    h, w = region.shape
    flood = np.zeros((h + 2, w + 2), np.uint8)
    outside = region.copy()
    cv2.floodFill(outside, flood, (0, 0), 1)
    holes = (1 - outside).astype(np.uint8)
    if not holes.any():
        return region
    # Only holes smaller than half a coin: two coins on the two base lines (law I
    # अ.4) enclose a patch of bare board between them, which is not a coin.
    _, labels, stats, _ = cv2.connectedComponentsWithStats(holes, connectivity=4)
    small = stats[:, cv2.CC_STAT_AREA] < 0.5 * A_COIN
    small[0] = False
    filled: Array = region | small[labels].astype(np.uint8)
    return filled


def _fit_discs(
    region: Array,
    real: Array,
    soft: Array,
    seen: Array,
    wild: Array,
    weight: Array,
    colour: str,
    settings: Settings,
    striker_left: list[bool],
    is_striker: bool = False,
) -> tuple[list[tuple[str, float, float, float]], bool]:
    """Split one connected region of one class into discs. Returns the discs
    (colour, x, y, confidence in top-view px) and whether the region is an occluder.
    `soft` marks the region's pixels and the board pixels around it, `weight` their
    difference from the board; `seen` marks changed pixels of no coin colour (a
    coin's darker rim), which count towards a disc's confidence."""
    region = _fill_holes(region)
    mask = region.copy()
    full = region.copy()
    # What counts towards a disc's confidence: its colour and its rim, and for a
    # black coin the print it may lie on. A white coin or the queen hides the print,
    # so a printed circle beside one (law I अ.6) is not more of it.
    explained = ((full > 0) if colour == "black" else (real > 0)) | seen
    out: list[tuple[str, float, float, float]] = []
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    peak = float(dist.max())
    # Thicker than a palm's half-width: not coins (packed coins with their shadows
    # and the print between them can be deeper than one coin).
    if peak > settings.hand_mm / 2 * B.SCALE:
        return [], True
    if is_striker:
        # The striker alone (see _striker_part): its outline is the striker's circle
        # even where the printed lines it lies on cut it.
        (ex, ey), _ = cv2.minEnclosingCircle(cv2.findNonZero(real))
        cx, cy = _refine(soft, weight, float(ex), float(ey), R_STRIKER, wild)
        conf = _disc_share((full > 0) | seen, cx, cy, R_STRIKER)
        return [("striker", cx, cy, conf)], False
    own_area = float(np.count_nonzero(real))
    for _ in range(40):
        if peak < settings.min_peak * R_COIN:
            break
        iy, ix = np.unravel_index(int(np.argmax(dist)), dist.shape)
        px, py = int(ix), int(iy)
        name, r = colour, R_COIN
        if colour == "white" and striker_left[0]:
            # Judged on the light pixels alone: the base lines beside coins (wild
            # pixels of the region) would make them look as deep as the striker.
            light = ((mask > 0) & (real > 0)).astype(np.uint8)
            ldist = cv2.distanceTransform(light, cv2.DIST_L2, 5)
            ly, lx = np.unravel_index(int(np.argmax(ldist)), ldist.shape)
            if _striker_here(light, float(ldist[ly, lx]), int(lx), int(ly), own_area):
                # The deepest point may be the gap of the striker and coins touching
                # in a triangle: the striker is where its disc fits with the least
                # around it.
                at = _striker_centre(light, ldist)
                if at is not None:
                    name, r = "striker", R_STRIKER
                    striker_left[0] = False
                    px, py = at
        cx, cy = _refine(soft, weight, float(px), float(py), r, wild)
        conf = _disc_share(explained, cx, cy, r)
        if conf >= settings.min_confidence:
            out.append((name, cx, cy, conf))
        win, d2 = _disc(mask.shape, cx, cy, r + 1.0)
        mask[win][d2 <= (r + 1.0) ** 2] = 0
        dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
        peak = float(dist.max())
    # Coins touching in a triangle fill the gap between them: the deepest point is
    # then between the coins and the greedy split finds too few. The region's own
    # area says how many coins it holds; when that is more, share the region out
    # between that many centres (Lloyd's iterations from the greedy ones).
    coins = [d for d in out if d[0] != "striker"]
    n_area = round(float(np.count_nonzero(real)) / (1.04 * A_COIN))
    if len(coins) == len(out) and n_area > len(out) and n_area <= 12:
        centres = _share(full, [(d[1], d[2]) for d in out], n_area)
        out = []
        for cx, cy in centres:
            cx, cy = _refine(soft, weight, cx, cy, R_COIN, wild)
            conf = _disc_share(explained, cx, cy, R_COIN)
            if conf >= settings.min_confidence:
                out.append((colour, cx, cy, conf))
    return out, False


def _striker_here(mask: Array, peak: float, px: int, py: int, area: float) -> bool:
    """Whether the deepest point of a light region is the striker's centre: deeper
    than a coin can be, or, in a region no bigger than the striker and a coin, a
    striker-sized disc there is nearly all light (lines cutting the striker make it
    shallow). Either way the ring just outside a striker there must be mostly
    clear: around the middle of three coins touching in a triangle (as deep as a
    striker once the gap between them fills) it runs through the coins. And the
    region must hold more light than a coin (`area`, its own colour's pixels): the
    base lines either side of a coin between them make it look as deep as more."""
    if area < STRIKER_LEAST_LIGHT:
        return False
    win, d2 = _disc(mask.shape, float(px), float(py), R_STRIKER + 3.0)
    if peak >= 0.96 * R_STRIKER:  # no coin, nor the gap of three, is this deep
        return True
    ring = (d2 <= (R_STRIKER + 3.0) ** 2) & (d2 > (R_STRIKER + 1.0) ** 2)
    crowded = float(np.count_nonzero((mask[win] > 0) & ring)) / max(1, int(np.count_nonzero(ring)))
    if crowded > 0.6 or (crowded > 0.45 and peak < 0.9 * R_STRIKER):
        return False
    if peak > (R_COIN + R_STRIKER) / 2:
        return True
    if peak < 0.8 * R_COIN or area > 2.95 * A_COIN:
        return False
    return _disc_share(mask > 0, float(px), float(py), R_STRIKER) >= 0.88


_STRIKER_DISC = cv2.getStructuringElement(
    cv2.MORPH_ELLIPSE, (2 * round(R_STRIKER) + 1, 2 * round(R_STRIKER) + 1)
).astype(np.float32)
_STRIKER_RING = cv2.getStructuringElement(
    cv2.MORPH_ELLIPSE, (2 * round(R_STRIKER) + 9,) * 2
).astype(np.float32) - np.pad(
    cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(R_STRIKER) + 3,) * 2), 3
).astype(np.float32)


def _striker_centre(mask: Array, dist: Array) -> tuple[int, int] | None:
    """Where in a light region the striker lies: of the points as deep as most of
    it, where a striker's disc is nearly all light and the ring just around it
    (1.5-4 px out) is the least crowded; None if every such ring is mostly light
    (the middle of coins packed together, not the striker beside them)."""
    m = (mask > 0).astype(np.float32)
    fit = cv2.filter2D(m, -1, _STRIKER_DISC / _STRIKER_DISC.sum(), borderType=cv2.BORDER_CONSTANT)
    crowd = cv2.filter2D(m, -1, _STRIKER_RING / _STRIKER_RING.sum(), borderType=cv2.BORDER_CONSTANT)
    ok = (dist >= 0.8 * R_STRIKER) & (fit >= 0.9)
    if not ok.any():
        return None
    score = np.where(ok, crowd, np.inf)
    y, x = np.unravel_index(int(np.argmin(score)), score.shape)
    if float(score[y, x]) > 0.6:
        return None
    return int(x), int(y)


def _striker_part(parts: list[tuple[int, int, int, int, Array, Array, Array]]) -> int | None:
    """Which light region is the striker on its own, if one is: its outline is the
    striker's circle (law I इ: 41.3 mm at most), it is full, and it holds more than
    a coin's area. The largest such wins; a striker touching coins is left to the
    depth test in _fit_discs."""
    best: tuple[float, int] | None = None
    for k, (_, _, _, _, region, _, own) in enumerate(parts):
        area = float(np.count_nonzero(own))
        if area < STRIKER_LEAST_LIGHT:
            continue
        (ex, ey), er = cv2.minEnclosingCircle(cv2.findNonZero(own))
        if not 0.9 * R_STRIKER <= er <= 1.12 * R_STRIKER:
            continue
        if _disc_share(region > 0, ex, ey, er) < 0.78:
            continue
        if best is None or area > best[0]:
            best = (area, k)
    return None if best is None else best[1]


def _share(region: Array, start: list[tuple[float, float]], k: int) -> list[tuple[float, float]]:
    """k centres that share out a region's pixels evenly (Lloyd's iterations)."""
    ys, xs = np.nonzero(region)
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    centres = [np.array(c, np.float32) for c in start]
    while len(centres) < k:  # farthest point from the centres so far
        if centres:
            d = np.min([((pts - c) ** 2).sum(axis=1) for c in centres], axis=0)
            centres.append(pts[int(np.argmax(d))].copy())
        else:
            centres.append(pts.mean(axis=0))
    c = np.array(centres)
    for _ in range(10):
        d = ((pts[:, None, :] - c[None, :, :]) ** 2).sum(axis=2)
        owner = np.argmin(d, axis=1)
        for j in range(k):
            mine = pts[owner == j]
            if len(mine):
                c[j] = mine.mean(axis=0)
    return [(float(x), float(y)) for x, y in c]
