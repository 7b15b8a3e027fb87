"""The discs of cold detection (vision.cold): each class's regions split into men and
the striker of the sizes the calibration sets, and the discs judged against each
other in the same frame (shadows, bare board ringed by men, a small striker among
men)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B

Array = npt.NDArray[Any]


@dataclass(frozen=True, slots=True)
class Sizes:
    """Radii in top-view px from the laws and home sets."""

    coin: float = B.COIN_D_MM / 2 * B.SCALE  # 30.2-31.8 mm
    striker_min: float = 38.0 / 2 * B.SCALE
    striker_max: float = 75.0 / 2 * B.SCALE


def disc_mask(shape: tuple[int, int], cx: float, cy: float, r: float) -> Array:
    m = np.zeros(shape, np.uint8)
    cv2.circle(m, (round(cx * 16), round(cy * 16)), round(r * 16), 1, -1, cv2.LINE_8, 4)
    return m > 0


def disc_median(
    plane: Array, cx: float, cy: float, r: float, default: float, within: Array | None = None
) -> float:
    """The median of a plane over a disc (in its window only), or over the part of it in
    the mask `within`."""
    x0, x1 = max(0, int(cx - r)), min(plane.shape[1], int(cx + r) + 2)
    y0, y1 = max(0, int(cy - r)), min(plane.shape[0], int(cy + r) + 2)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    inside = (xs - cx) ** 2 + (ys - cy) ** 2 <= r * r
    if within is not None:
        inside &= within[y0:y1, x0:x1]
    vals = plane[y0:y1, x0:x1][inside]
    return float(np.median(vals)) if vals.size else default


def _place(mask: Array, x: float, y: float, r: float) -> tuple[float, float, float, float]:
    """A disc of radius r moved to the centroid of the region's pixels under it:
    its centre, radius and the share of it the region fills."""
    cx, cy = x, y
    for _ in range(2):
        near = disc_mask(mask.shape, cx, cy, r + 1.0) & (mask > 0)
        ys, xs = np.nonzero(near)
        if len(xs) < 3:
            break
        cx, cy = float(xs.mean()), float(ys.mean())
    disc = disc_mask(mask.shape, cx, cy, r)
    share = float(np.count_nonzero(disc & (mask > 0))) / max(1, int(np.count_nonzero(disc)))
    return cx, cy, r, share


def _one_striker(
    striker: tuple[float, float, float],
    men: list[tuple[float, float, float]],
    area: float,
    rc: float,
    region: Array,
) -> bool:
    """Whether a striker found is one: two or three men touching (with their shadows) can
    fill a striker's disc, but then a man overlaps it, the region is far larger than
    the discs found in it, or it is long (two men side by side), not round."""
    sx, sy, r = striker
    if not men and _elongation(region) > 1.5:
        return False
    # Men touching round a gap their shadows fill (three in a triangle) hold a disc
    # wider than two can, up to about 1.5 men's radii (46 mm); their area shared out
    # between as many men covers it. A wider striker is never that.
    if r < 1.6 * rc and men_touching(region, rc):
        return False
    if r >= 1.42 * rc:
        return True  # wider than 44 mm: no two men touching fill that
    if any(math.hypot(x - sx, y - sy) < r + rc for x, y, _ in men):
        return False
    return area <= 1.3 * math.pi * (r * r + len(men) * rc * rc)


def _elongation(region: Array) -> float:
    """The ratio of a region's longest spread to its shortest (1 for a disc, about
    2.2 for two equal discs touching), from its second moments."""
    m = cv2.moments(region.astype(np.uint8), binaryImage=True)
    if m["m00"] <= 0:
        return 1.0
    a, b, c = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    root = math.sqrt(max(0.0, (a - b) ** 2 / 4 + c * c))
    lo = (a + b) / 2 - root
    return math.sqrt(((a + b) / 2 + root) / lo) if lo > 1e-9 else math.inf


def men_touching(region: Array, rc: float) -> list[tuple[float, float, float]]:
    """Two to four men touching, if that is what a region is: its area shared out
    between that many centres at least 1.75 radii apart (men do not overlap) whose
    discs cover nearly all of it. A hand's palm and fingers are not such discs."""
    area = float(np.count_nonzero(region))
    n = round(area / (1.3 * math.pi * rc * rc))
    if not 2 <= n <= 4:
        return []
    ys, xs = np.nonzero(region)
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.1)
    cv2.setRNGSeed(1)
    _, _, centres = cv2.kmeans(  # type: ignore[call-overload]
        pts, n, None, crit, 3, cv2.KMEANS_PP_CENTERS
    )
    if min(math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1 :]) < 1.75 * rc:
        return []
    near = np.zeros(len(xs), bool)
    for cx, cy in centres:
        near |= (xs - cx) ** 2 + (ys - cy) ** 2 <= (rc + 2.0) ** 2
    if near.mean() < 0.92:
        return []
    return [(float(cx), float(cy), rc) for cx, cy in centres]


def split_region(
    region: Array, sizes: Sizes, striker_ok: bool
) -> tuple[list[tuple[float, float, float]], bool]:
    """Discs (cx, cy, r) in one region of one class, and whether the region is a
    hand (deeper than a striker, or mostly left over)."""
    rc = sizes.coin
    mask = region.astype(np.uint8)
    area = float(np.count_nonzero(mask))
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    peak = float(dist.max())
    if peak > 1.12 * sizes.striker_max:
        return [], True
    out: list[tuple[float, float, float]] = []
    explained = 0.0
    for _ in range(30):
        peak = float(dist.max())
        if peak < 0.55 * rc:
            break
        y, x = np.unravel_index(int(np.argmax(dist)), dist.shape)
        cx, cy, r, share = _place(mask, float(x), float(y), rc)
        if striker_ok and peak >= max(1.22 * rc, 0.92 * sizes.striker_min):
            # A disc as deep as this: the striker if the region is round there;
            # else men touching (with their shadows) or, if far deeper, a hand.
            big = _place(mask, float(x), float(y), min(peak + 0.7, sizes.striker_max))
            if big[3] >= 0.85:
                cx, cy, r, share = big
            elif peak > 1.6 * rc:
                men = men_touching(region, rc)
                return (men, False) if men else ([], True)
        if share >= 0.45:
            out.append((cx, cy, r))
            explained += math.pi * r * r * share
        mask[disc_mask(mask.shape, cx, cy, r + 1.0)] = 0
        dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    left = float(np.count_nonzero(mask))
    if left > 1.5 * math.pi * rc * rc and left > 0.35 * area:
        men = men_touching(region, rc)
        return (men, False) if men else (out, True)
    wide = [d for d in out if d[2] > rc]
    if wide and not _one_striker(wide[0], [d for d in out if d[2] == rc], area, rc, region):
        return split_region(region, sizes, False)
    # Men touching with their shadows fill the necks between them: one disc lands
    # between two. The region's area says how many it holds; share it out.
    n_area = round(area / (1.3 * math.pi * rc * rc))
    if all(r == rc for *_, r in out) and len(out) < n_area <= 8:
        ys, xs = np.nonzero(region)
        pts = np.stack([xs, ys], axis=1).astype(np.float32)
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.1)
        # Fewer when two centres land closer than men can lie (their shadows swell
        # the area): men do not overlap, so centres are 2 radii apart (1.75 allowed).
        for n in range(n_area, len(out), -1):
            cv2.setRNGSeed(1)
            _, _, centres = cv2.kmeans(  # type: ignore[call-overload]
                pts, n, None, crit, 3, cv2.KMEANS_PP_CENTERS
            )
            gaps = [math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1 :]]
            if min(gaps, default=math.inf) >= 1.75 * rc:
                out = [(float(cx), float(cy), rc) for cx, cy in centres]
                break
    # Men do not overlap: two men's discs closer than that means one landed in the gap
    # that men touching (their shadows filling it) enclose; share the region out.
    close = any(
        math.dist(a[:2], b[:2]) < 1.75 * rc for i, a in enumerate(out) for b in out[i + 1 :]
    )
    if close and all(r == rc for *_, r in out):
        men = men_touching(region, rc)
        if men and len(men) < len(out):
            out = men
    return out, False


def drop_unlike(
    found: list[tuple[str, float, float, float]],
    discs: list[tuple[float, float, float, float, float]],
) -> tuple[list[tuple[str, float, float, float]], list[tuple[float, float, float, float, float]]]:
    """Without the black discs nearer the plywood's light than the black men's: the
    shadows between men touching, dark enough for the cut but not a man. The men's
    own light in this frame is the median of the black discs (three or more). Alike,
    when the white men are clearly lighter than the plywood, without the white discs
    as light as the plywood: the bare board that men touching round it enclose, which
    the ring filter takes for a plywood-coloured man's rim."""
    qs = [d[3] for (name, *_), d in zip(found, discs, strict=True) if name == "black"]
    ws = [d[3] for (name, *_), d in zip(found, discs, strict=True) if name == "white"]
    men = float(np.median(qs)) if len(qs) >= 3 else 0.0
    whites = float(np.median(ws)) if len(ws) >= 3 else 1.0
    keep = [
        k
        for k, ((name, *_), d) in enumerate(zip(found, discs, strict=True))
        if not (name == "black" and len(qs) >= 3 and d[3] >= men + 0.6 * (1.0 - men))
        and not (name == "white" and whites > 1.1 and d[3] <= 1.0 + 0.4 * (whites - 1.0))
    ]
    return [found[k] for k in keep], [discs[k] for k in keep]


def _ring_q(q: Array, cx: float, cy: float, r: float) -> float:
    """The median brightness ratio on a circle of radius r around (cx, cy)."""
    a = np.linspace(0.0, 2.0 * math.pi, 48, endpoint=False)
    xs = (cx + r * np.cos(a)).astype(np.float32).reshape(1, -1)
    ys = (cy + r * np.sin(a)).astype(np.float32).reshape(1, -1)
    return float(np.median(cv2.remap(q, xs, ys, cv2.INTER_LINEAR)))


def striker_among_men(
    found: list[tuple[str, float, float, float]], q: Array, sizes: Sizes
) -> list[tuple[str, float, float, float]]:
    """With no striker found, a white "man" that is a small or plywood-coloured
    striker: its light region is no wider than a man's (its dark rim and the
    grooves cut it), but it stays as light as its middle out to a man's edge and
    its darkest ring (its rim) lies beyond 1.29 men's radii. A man's own rim and
    shadow darken it at a man's radius."""
    rc = sizes.coin
    qf = q.astype(np.float32)
    best: tuple[float, int] | None = None
    for k, (name, cx, cy, _r) in enumerate(found):
        if name != "white":
            continue
        radii = np.arange(0.65 * rc, min(2.6 * rc, sizes.striker_max + 1.0), 0.5)
        prof = [_ring_q(qf, cx, cy, float(r)) for r in radii]
        rim = float(radii[int(np.argmin(prof))])
        middle = min(prof[0], prof[1])
        edge = _ring_q(qf, cx, cy, rc)
        wide = rim >= 1.29 * rc and edge >= 0.97 and edge >= 0.97 * middle
        if wide and (best is None or rim > best[0]):
            best = (rim, k)
    if best is None:
        return found
    rim, k = best
    _, cx, cy, _r = found[k]
    return [*found[:k], ("striker", cx, cy, rim), *found[k + 1 :]]


def _rim_kernel(r: float) -> tuple[Array, Array]:
    """A kernel reaching 2 px past radius `r`: each cell's distance from its centre, and the
    rim of a disc of radius `r` (2 px wide) in it."""
    k = math.ceil(r) + 2
    yy, xx = np.mgrid[-k : k + 1, -k : k + 1]
    d = np.sqrt(xx * xx + yy * yy)
    return d, ((d >= r - 1.5) & (d <= r + 0.5)).astype(np.float32)


def rings(changed: Array, r: float) -> Array:
    """Coins seen only by their rim (a man of the plywood's own colour and light):
    discs whose rim is mostly changed, found by a ring-shaped filter; gaps in the
    ring (where the rim catches the light) do not matter."""
    d, ring = _rim_kernel(r)
    ring /= ring.sum()
    score = cv2.filter2D(changed.astype(np.float32), -1, ring, borderType=cv2.BORDER_CONSTANT)
    # Only where the inside is mostly unchanged: a coin seen whole needs no help.
    kd = (d <= r - 2.0).astype(np.float32)
    inside = cv2.filter2D(changed.astype(np.float32), -1, kd / kd.sum())
    peaks = (score >= 0.6) & (inside < 0.8)
    peaks &= score == cv2.dilate(score, np.ones((5, 5), np.uint8))
    return discs_at(peaks, r)


def rings_on_print(changed: Array, zone: Array, line: Array, r: float) -> Array:
    """Men of the plywood's own colour lying on the printed lines or circles: their rim
    is mostly changed where it is off the print, and inside the disc the print is
    hidden (the zone runs through it but no dark line shows). Lines alone leave their
    own edges changed, but the line itself then shows inside. Judged on the whole rim,
    the print cut out of it, such a man was lost."""
    d, ring = _rim_kernel(r)
    inner = (d <= r - 2.5).astype(np.float32)
    off = (~zone).astype(np.float32)

    def score(m: Array, kern: Array) -> Array:
        out: Array = cv2.filter2D(m.astype(np.float32), -1, kern, borderType=cv2.BORDER_CONSTANT)
        return out

    ring_off = score(off, ring)
    rim = score(changed & ~zone, ring) / np.maximum(ring_off, 1e-6)
    inside = score(changed, inner) / inner.sum()
    zone_in = score(zone, inner)
    line_in = score(line, inner)
    peaks = (
        (ring_off >= 0.4 * ring.sum())
        & (rim >= 0.7)
        & (inside < 0.8)
        & (zone_in >= 0.12 * inner.sum())
        & (line_in < 0.15 * zone_in)
    )
    peaks &= rim == cv2.dilate(rim, np.ones((5, 5), np.uint8))
    return discs_at(peaks, r)


def discs_at(peaks: Array, r: float) -> Array:
    """Filled discs of radius `r` (px) centred on the pixels of `peaks`."""
    out = np.zeros(peaks.shape, np.uint8)
    for y, x in zip(*np.nonzero(peaks), strict=True):
        cv2.circle(out, (int(x), int(y)), round(r - 0.5), 1, -1)
    filled: Array = out > 0
    return filled
