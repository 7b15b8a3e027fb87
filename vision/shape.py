"""Stage three, shape: what a region of change is by its shape and size. A disc of a
man's to a large striker's size is a piece (`blobs`, `lone_disc`), a large region men
fill is men packed together, anything else large hides what is under it; change that
runs on over the frame is an arm (`reaching`, `crossing_edge`). A piece's rim is a
circle (`round_outline`); a man's centre is refined along it (`outlines`, `refine`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision import board as B
from vision.empty import BAND_OPEN, BLOB_OPEN, EDGE_STRIP, FRAME_BAND, EmptyBoard
from vision.params import PARAMS, DetectorParams
from vision.view import A_COIN, EPS, HIDDEN, R_COIN, R_STRIKER, Array, disc_window


@dataclass(frozen=True, slots=True)
class Blob:
    """A disc of change: centre and radius (top-view px) and how round it is."""

    u: float
    v: float
    r: float
    round: float


def gradients(plane: Array) -> tuple[Array, Array]:
    """The x and y Sobel gradients (3 px) of one plane."""
    gx = cv2.Sobel(plane, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(plane, cv2.CV_32F, 0, 1, ksize=3)
    return gx, gy


def edges(plane: Array) -> Array:
    """The colour edges' magnitude (L, a and b)."""
    out: Array = np.zeros(plane.shape[:2], np.float32)
    for k in range(plane.shape[2]):
        out += cv2.magnitude(*gradients(plane[:, :, k]))
    return out


def _largest_r(p: DetectorParams) -> float:
    """The largest disc of change a piece makes (px): the largest striker's, with slack."""
    return p.striker_most_mm / 2 * B.SCALE * p.size_slack


def blobs(
    changed: Array,
    explained: Array,
    packed: bool = False,
    reaching: Array | None = None,
    p: DetectorParams = PARAMS,
) -> tuple[list[Blob], Array]:
    """The discs of change no proposal explains (round, of a man's to a large striker's
    size), and the rest: change too large and not round, which hides what is under it.
    With `packed` (change against a kept empty board, which is sharp), a region that
    man-sized discs fill is men packed together, not something hiding the board, unless
    it touches `reaching` (change that runs on over the frame: an arm reaching in)."""
    rest = cv2.morphologyEx(changed & (1 - explained), cv2.MORPH_OPEN, BLOB_OPEN)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(rest)
    found: list[Blob] = []
    hidden: Array = np.zeros_like(rest)
    for i in range(1, n):
        x, y, w, h, area = (int(s) for s in stats[i])
        if area < p.blob_least_area * A_COIN:
            continue
        part = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
        depth = cv2.distanceTransform(np.pad(part, 1), cv2.DIST_L2, cv2.DIST_MASK_5)[1:-1, 1:-1]
        r = float(depth.max())
        fill = area / (math.pi * max(r, 1.0) * max(r, 1.0))
        # Wider than a common striker a disc must be round: a hand's palm with its
        # fingers is a striker's size but not a disc.
        wide = r >= p.wide_disc_mm / 2 * B.SCALE
        most_fill = p.wide_blob_fill if wide else p.blob_fill
        on_arm = 0 if reaching is None else np.count_nonzero(part & reaching[y : y + h, x : x + w])
        arm = on_arm > 0
        if p.blob_least_r * R_COIN <= r <= _largest_r(p) and fill <= most_fill:
            if on_arm > p.on_arm_share * area:
                # Mostly the change of an arm reaching in: a fingertip's disc of
                # change is no piece.
                hidden[y : y + h, x : x + w][part > 0] = HIDDEN
                continue
            vv, uu = np.nonzero(depth >= p.blob_centre_depth * r)
            u, v = float(uu.mean()) + x, float(vv.mean()) + y
            found.append(Blob(u, v, r + p.blob_r_pad, 1.0 / fill))
        elif area > p.hides_from_area * A_COIN:
            men = packed_men(part, p) if packed and not arm else []
            if men:
                found.extend(Blob(u + x, v + y, R_COIN, p.packed_round) for u, v in men)
            else:
                hidden[y : y + h, x : x + w][part > 0] = HIDDEN
    return found, hidden


def reaching(changed: Array) -> Array:
    """The change (bool) connected to change on the frame: an arm reaching in (pieces
    never lie on the frame)."""
    if not changed[FRAME_BAND].any():
        return np.zeros(changed.shape, bool)
    _, labels = cv2.connectedComponents(changed)
    ids = np.unique(labels[FRAME_BAND & (changed > 0)])
    out: Array = np.isin(labels, ids[ids > 0])
    return out


def crossing_edge(changed: Array, p: DetectorParams = PARAMS) -> Array:
    """The change (bool) that crosses the surface's edge wider than a man's chord can:
    an arm reaching in whose sleeve is the frame's colour, its change stopping at the
    edge."""
    out: Array = np.zeros(changed.shape, bool)
    strip = ((changed > 0) & EDGE_STRIP).astype(np.uint8)
    n, runs, stats, _ = cv2.connectedComponentsWithStats(strip)
    wide = [
        i
        for i in range(1, n)
        if max(stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT])
        > p.edge_run_radii * R_COIN
    ]
    if wide:
        _, labels = cv2.connectedComponents(changed.astype(np.uint8))
        ids = np.unique(labels[np.isin(runs, wide)])
        out = np.isin(labels, ids[ids > 0])
    return out


def packed_men(part: Array, p: DetectorParams = PARAMS) -> list[tuple[float, float]]:
    """Men packed together (the opening, law 41) in one region of change: man-sized
    discs taken at the deepest point, one at a time, while they fit; [] when they do
    not explain the region (a hand, a sleeve, a machine: no piece)."""
    left = np.pad(part, 1).astype(np.uint8)
    centres: list[tuple[float, float]] = []
    while len(centres) < p.packed_most:
        depth = cv2.distanceTransform(left, cv2.DIST_L2, cv2.DIST_MASK_5)
        _, top, _, (cx, cy) = cv2.minMaxLoc(depth)
        if top < p.packed_least_depth * R_COIN:
            break
        centres.append((cx - 1.0, cy - 1.0))
        cv2.circle(left, (cx, cy), round(R_COIN + p.blob_r_pad), 0, -1)
    area = float(part.sum())
    if not centres or np.count_nonzero(left) > p.packed_left * area:
        return []
    if area > p.packed_most_area * len(centres) * A_COIN:
        return []
    return centres


def lone_disc(changed: Array, u: float, v: float, p: DetectorParams = PARAMS) -> float:
    """The radius (px) of the disc of change at a point when it stands alone (its
    connected change is one disc: a piece away from others), else 0. A thin band of
    change joining it (the frame's rim seen at a slant at the surface's edge, a line
    the print's symmetry did not learn) is not part of it: narrower than a man's
    disc, such a band goes in an opening (`band_open_px`)."""
    win, inside = disc_window(changed.shape, u, v, p.lone_window * R_STRIKER)
    part = np.where(inside, changed[win], 0).astype(np.uint8)
    # The window's own rim: change reaching it runs on beyond the window.
    rim = inside & ~cv2.erode(inside.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    at = (round(u) - win[1].start, round(v) - win[0].start)
    r = _lone(part, rim, *at, p=p)
    if r == 0.0:
        r = _lone(cv2.morphologyEx(part, cv2.MORPH_OPEN, BAND_OPEN), rim, *at, p=p)
    return r


def _lone(part: Array, rim: Array, cx: int, cy: int, p: DetectorParams) -> float:
    """`lone_disc` on a window of change around the point (cx, cy), `rim` the window's
    edge."""
    _n, labels = cv2.connectedComponents(part)
    if not (0 <= cy < part.shape[0] and 0 <= cx < part.shape[1]) or labels[cy, cx] == 0:
        return 0.0
    one = (labels == labels[cy, cx]).astype(np.uint8)
    if one[rim].any():
        return 0.0  # runs out of the window: not a piece alone
    depth = cv2.distanceTransform(np.pad(one, 1), cv2.DIST_L2, cv2.DIST_MASK_5)[1:-1, 1:-1]
    r = float(depth.max()) + p.blob_r_pad
    fill = float(one.sum()) / (math.pi * r * r)
    if not p.lone_least_r * R_COIN <= r <= _largest_r(p) or fill > p.lone_fill:
        return 0.0
    return r


def _ring(r: float, width: float) -> Array:
    """A thin ring of radius r (px), summing to 1: the outline of a disc."""
    n = math.ceil(r + 2)
    yy, xx = np.mgrid[-n : n + 1, -n : n + 1]
    d = np.sqrt(xx * xx + yy * yy)
    ring = np.clip(1.0 - np.abs(d - r) / width, 0.0, None).astype(np.float32)
    out: Array = ring / ring.sum()
    return out


_MAN_RING = _ring(R_COIN, PARAMS.ring_width_px)


def outlines(top_lab: Array) -> Array:
    """How well a man's outline fits around each pixel: the colour edges (gradient
    magnitude of L, a and b) averaged along a man-sized ring."""
    out: Array = cv2.filter2D(edges(top_lab), -1, _MAN_RING)
    return out


def refine(fit: Array, u: float, v: float, p: DetectorParams = PARAMS) -> tuple[float, float]:
    """A man's centre to a fraction of a pixel: where his outline fits best (`fit`,
    from `outlines`) within `refine_px` of where the network put him (its grid is 8 mm),
    with a parabola through the best pixel and its neighbours."""
    reach = p.refine_px
    x0, y0 = max(1, round(u - reach)), max(1, round(v - reach))
    x1 = min(fit.shape[1] - 1, round(u + reach) + 1)
    y1 = min(fit.shape[0] - 1, round(v + reach) + 1)
    if x0 >= x1 or y0 >= y1:
        return u, v
    win = fit[y0:y1, x0:x1]
    j, i = np.unravel_index(int(np.argmax(win)), win.shape)
    x, y = x0 + int(i), y0 + int(j)
    if not (0 < x < fit.shape[1] - 1 and 0 < y < fit.shape[0] - 1):
        return float(x), float(y)

    def peak(a: float, b: float, c: float) -> float:
        d = a - 2 * b + c
        return 0.0 if d >= 0 else float(np.clip((a - c) / d / 2, -1 / 2, 1 / 2))

    dx = peak(float(fit[y, x - 1]), float(fit[y, x]), float(fit[y, x + 1]))
    dy = peak(float(fit[y - 1, x]), float(fit[y, x]), float(fit[y + 1, x]))
    return x + dx, y + dy


def across_share(gxy: list[tuple[Array, Array]], dx: Array, dy: Array, ring: Array) -> float:
    """Of the gradients' energy on `ring`, the share across it (along the radius from
    the centre at offsets dx, dy); 1 where there is no edge."""
    d = np.sqrt(dx * dx + dy * dy) + EPS
    across = along = 0.0
    for gx, gy in gxy:
        rad = (gx[ring] * dx[ring] + gy[ring] * dy[ring]) / d[ring]
        across += float(np.square(rad).sum())
        along += float((np.square(gx[ring]) + np.square(gy[ring])).sum())
    return across / along if along > EPS else 1.0


def radial_outline(
    top_lab: Array,
    u: float,
    v: float,
    r: float,
    hidden: Array | None = None,
    p: DetectorParams = PARAMS,
) -> float:
    """How round the outline at radius r about a point is: of the colour edges' energy
    within `outline_band_px` of that circle, the share across it (radial). A piece's rim
    is a circle: its edges run across every radius (0.95-0.99 on the real dev photos'
    men); a corner of a box, a rail or a cable crossing the circle are straight and
    run along it too (0.75-0.8). Where nothing changes (a black man against a dark
    sleeve) there is no edge, which counts for neither; nor does what `hidden` marks
    (the edge of a hand a man touches is the hand's, not his)."""
    band = p.outline_band_px
    h, w = top_lab.shape[:2]
    reach = r + band + 2
    x0, y0 = max(0, int(u - reach)), max(0, int(v - reach))
    x1, y1 = min(w, int(u + reach) + 1), min(h, int(v + reach) + 1)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return 1.0
    yy, xx = np.mgrid[y0:y1, x0:x1]
    dx, dy = xx - u, yy - v
    ring = np.abs(np.sqrt(dx * dx + dy * dy) + EPS - r) <= band
    if hidden is not None:
        ring &= hidden[y0:y1, x0:x1] == 0
    window = top_lab[y0:y1, x0:x1]
    gxy = [gradients(window[:, :, k]) for k in range(window.shape[2])]
    return across_share(gxy, dx, dy, ring)


def round_outline(
    top_lab: Array, u: float, v: float, hidden: Array | None = None, p: DetectorParams = PARAMS
) -> float:
    """How round the best man-sized outline near a point is (`radial_outline`, best
    over centres within `outline_reach_px` and radii `man_radii_px`): the network's
    centre is on an 8 mm grid, and a blurred man's rim is a little in or out."""
    near = range(-p.outline_reach_px, p.outline_reach_px + 1)
    return max(
        radial_outline(top_lab, u + du, v + dv, rr, hidden=hidden, p=p)
        for du in near
        for dv in near
        for rr in p.man_radii_px
    )


def outline(
    top_lab: Array,
    board: EmptyBoard | None,
    u: float,
    v: float,
    hidden: Array,
    p: DetectorParams = PARAMS,
) -> float:
    """How round a man's outline beside what hides the board is (`round_outline`), with
    the board's own print left out too when it is known (the `board`'s edges, where the
    view's edges are mostly the print's): the print crossing under a man (a base line)
    runs along his outline (tuning board 1387: 0.82 with the line, beside a hand)."""
    fit = round_outline(top_lab, u, v, hidden, p=p)
    if fit >= p.round or board is None:
        return fit
    printed = (edges(board.lab) > p.print_edge_share * edges(top_lab)) & board.known
    return max(fit, round_outline(top_lab, u, v, np.where(printed, HIDDEN, hidden), p=p))
