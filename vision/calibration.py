"""Calibration: where the playing surface is in the camera image.

A calibration is the image positions of the four pocket centres, pockets 1-4
(vision.board): that is what the umpire taps on the manual screen, and it is
what the config keeps (`[camera] calibration = [[x, y], [x, y], [x, y], [x, y]]`).
From it comes the homography to the square top view at `board.SCALE` px/mm.

`auto_calibrate` finds the playing surface by itself in a view of the empty
board: the light plywood inside the darker frame (law I अ.1, अ.2). It fits a
straight line to the middle of each edge (the pockets cut the corners, law I
अ.3), intersects the lines for the corners, and places the pockets from the
board's geometry. It assumes the camera is mounted with the first breaker's
base line at the bottom of the image; `quarter_turns` turns the numbering when
it is not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from kiosk.errors import TablesideError
from vision import board as B

Matrix = npt.NDArray[Any]


class CalibrationError(TablesideError, ValueError):
    """The calibration is missing, malformed or does not describe a board."""


def _top_pockets() -> npt.NDArray[Any]:
    return np.array([B.mm_to_top(x, y) for x, y in B.POCKETS_MM], np.float32)


class TopWarp:
    """Frames to the top view through one homography, as `Calibration.warp` does, with
    the source point of each top-view pixel worked out once: cv2.remap with those
    points in fixed point takes 0.7 ms a 640x480 frame here, warpPerspective 1.2 ms
    (it works them out again on every frame). The two differ by rounding, at most 2
    levels of 255."""

    def __init__(self, matrix: Matrix) -> None:
        n = B.TOP_PX
        ys, xs = np.mgrid[0:n, 0:n].astype(np.float64)
        grid = np.stack([xs, ys], axis=-1).reshape(-1, 1, 2)
        source = cv2.perspectiveTransform(grid, np.linalg.inv(matrix)).reshape(n, n, 2)
        self._maps = cv2.convertMaps(
            source[..., 0].astype(np.float32), source[..., 1].astype(np.float32), cv2.CV_16SC2
        )

    def __call__(self, frame: npt.NDArray[Any]) -> npt.NDArray[Any]:
        out: npt.NDArray[Any] = cv2.remap(
            frame, *self._maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        return out


@dataclass(frozen=True, slots=True)
class Calibration:
    """The four pocket centres (1-4) in image pixels."""

    pockets: tuple[tuple[float, float], ...]

    def __post_init__(self) -> None:
        if len(self.pockets) != 4:
            raise CalibrationError(f"need 4 pocket centres, got {len(self.pockets)}")
        p = np.array(self.pockets, np.float64)
        if not np.all(np.isfinite(p)):
            raise CalibrationError("pocket centres must be finite numbers")
        # Pockets 1-4 go round the board clockwise as seen from above (image y down):
        # bottom-left, top-left, top-right, bottom-right. Each corner must turn the same
        # way, or the points are crossed, mirrored or collinear.
        turns = []
        for i in range(4):
            a, b, c = p[i], p[(i + 1) % 4], p[(i + 2) % 4]
            turns.append((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]))
        side = min(float(np.linalg.norm(p[i] - p[(i + 1) % 4])) for i in range(4))
        if side < 20:
            raise CalibrationError(f"pocket centres are too close together ({side:.0f} px)")
        if not all(t > 0 for t in turns):
            raise CalibrationError(
                "pocket centres are not in order 1 bottom-left, 2 top-left, 3 top-right, "
                "4 bottom-right round a convex board"
            )

    def homography(self) -> Matrix:
        """Image pixels to top-view pixels."""
        src = np.array(self.pockets, np.float32)
        h: Matrix = cv2.getPerspectiveTransform(src, _top_pockets()).astype(np.float64)
        return h

    def warp(self, frame: npt.NDArray[Any], matrix: Matrix | None = None) -> npt.NDArray[Any]:
        """The square top view of the playing surface and a margin of frame around
        it (TOP_PX x TOP_PX, BGR)."""
        h = self.homography() if matrix is None else matrix
        out: npt.NDArray[Any] = cv2.warpPerspective(
            frame, h, (B.TOP_PX, B.TOP_PX), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        return out

    def seen(self, size: tuple[int, int], matrix: Matrix | None = None) -> npt.NDArray[Any]:
        """The top-view pixels (bool) that lie inside an image of `size` (w, h): a
        board running off the image is not seen there, and nothing is judged there."""
        h = self.homography() if matrix is None else matrix
        ones = np.ones((size[1], size[0]), np.uint8)
        inside = cv2.warpPerspective(
            ones, h, (B.TOP_PX, B.TOP_PX), flags=cv2.INTER_NEAREST, borderValue=0
        )
        out: npt.NDArray[Any] = cv2.erode(inside, np.ones((5, 5), np.uint8)) > 0
        return out

    def top_warp(self) -> TopWarp:
        """The warp to the top view for many frames (the watcher's every frame)."""
        return TopWarp(self.homography())

    def image_point(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Where a board point (mm) is in the image."""
        inv = np.linalg.inv(self.homography())
        u, v = B.mm_to_top(x_mm, y_mm)
        p = cv2.perspectiveTransform(np.array([[[u, v]]], np.float64), inv)[0, 0]
        return float(p[0]), float(p[1])

    def to_config(self) -> list[list[float]]:
        """The value of `[camera] calibration`."""
        return [[round(x, 2), round(y, 2)] for x, y in self.pockets]

    @classmethod
    def from_config(cls, value: Any, key: str = "camera.calibration") -> Calibration:
        """Read `[camera] calibration`: a list of four [x, y] pocket centres (1-4)."""
        if not isinstance(value, list) or len(value) != 4:
            raise CalibrationError(f"{key}: expected a list of four [x, y] points, got {value!r}")
        pts: list[tuple[float, float]] = []
        for i, item in enumerate(value):
            if (
                not isinstance(item, list | tuple)
                or len(item) != 2
                or not all(isinstance(c, int | float) and not isinstance(c, bool) for c in item)
            ):
                raise CalibrationError(
                    f"{key}[{i}] (pocket {i + 1}): expected [x, y], got {item!r}"
                )
            pts.append((float(item[0]), float(item[1])))
        try:
            return cls(tuple(pts))
        except CalibrationError as exc:
            raise CalibrationError(f"{key}: {exc}") from None

    @classmethod
    def from_taps(cls, taps: Sequence[tuple[float, float]]) -> Calibration:
        """The manual fallback: the umpire taps the pocket centres in order 1-4."""
        return cls(tuple((float(x), float(y)) for x, y in taps))

    @classmethod
    def from_corners(cls, corners: Sequence[tuple[float, float]]) -> Calibration:
        """From the playing surface's corners: top-left, top-right, bottom-right, bottom-left."""
        src = np.array(
            [[0, 0], [B.SURFACE_MM, 0], [B.SURFACE_MM, B.SURFACE_MM], [0, B.SURFACE_MM]], np.float32
        )
        h = cv2.getPerspectiveTransform(src, np.array(corners, np.float32))
        pts = cv2.perspectiveTransform(np.array([B.POCKETS_MM], np.float64), h.astype(np.float64))[
            0
        ]
        return cls(tuple((float(x), float(y)) for x, y in pts))


def _intersect(l1: npt.NDArray[Any], l2: npt.NDArray[Any]) -> tuple[float, float]:
    (vx1, vy1, x1, y1), (vx2, vy2, x2, y2) = l1, l2
    det = vx1 * (-vy2) - vy1 * (-vx2)
    if abs(det) < 1e-9:
        raise CalibrationError("two edges of the board are parallel: not a board")
    t = ((x2 - x1) * (-vy2) - (y2 - y1) * (-vx2)) / det
    return float(x1 + t * vx1), float(y1 + t * vy1)


def _refine_edge(
    grey: npt.NDArray[Any],
    line: npt.NDArray[Any],
    normal: npt.NDArray[Any],
    contour: npt.NDArray[Any],
) -> npt.NDArray[Any]:
    """Move a fitted edge onto the steepest brightness step across it.

    The threshold mask's edge shifts with the light (a gradient, glare, powder on
    the frame); the steepest step does not. Profiles are sampled across the
    line along the middle of the edge, away from the pockets in the corners.
    """
    u, p0 = line[:2], line[2:]
    along = (contour - p0) @ u
    lo, hi = float(along.min()), float(along.max())
    span = hi - lo
    ts = np.linspace(lo + 0.2 * span, hi - 0.2 * span, 48)
    offs = np.arange(-8.0, 8.01, 0.5)
    xs = (p0[0] + ts[:, None] * u[0] + offs[None, :] * normal[0]).astype(np.float32)
    ys = (p0[1] + ts[:, None] * u[1] + offs[None, :] * normal[1]).astype(np.float32)
    prof = cv2.remap(grey, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    prof = cv2.GaussianBlur(prof, (0, 0), sigmaX=1.0, sigmaY=0.01)
    grad = -np.diff(prof, axis=1)  # light inside, dark outside: brightness falls outwards
    edge_pts = []
    for k in range(len(ts)):
        g = grad[k]
        j = int(np.argmax(g))
        if g[j] <= 2.0 or j == 0 or j == len(g) - 1:
            continue
        a, b, cc = float(g[j - 1]), float(g[j]), float(g[j + 1])
        den = a - 2 * b + cc
        frac = 0.5 * (a - cc) / den if den else 0.0
        off = (offs[j] + offs[j + 1]) / 2 + frac * 0.5
        edge_pts.append(p0 + ts[k] * u + off * normal)
    if len(edge_pts) < 12:
        return line
    e = np.array(edge_pts, np.float32)
    refined = cv2.fitLine(e, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel().astype(np.float64)
    return refined


def _tightened(
    pts: Matrix, line: Matrix, tolerances: Sequence[float], least: float
) -> tuple[Matrix, bool]:
    """`line` (cv2.fitLine's vx, vy, x0, y0) fitted again (Huber) to the points within each
    tolerance in turn; False, with the line so far, when fewer than `least` are that near."""
    for tol in tolerances:
        u, p0 = line[:2].astype(np.float64), line[2:].astype(np.float64)
        rel = pts - p0
        near = pts[np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0]) < tol]
        if len(near) < least:
            return line.astype(np.float64), False
        line = cv2.fitLine(near.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return line.astype(np.float64), True


def find_surface_corners(
    frame: npt.NDArray[Any],
    off_image: bool = False,
    judge: Callable[[list[tuple[float, float]]], float] | None = None,
) -> list[tuple[float, float]]:
    """The playing surface's corners in the image (top-left, top-right, bottom-right,
    bottom-left), from a view of the empty board. With `off_image` (a suggestion the
    umpire confirms, never the kiosk's own start), a surface running off the image is
    measured too (`_cut_surface_corners`; `judge` scores corners there, lower better)."""
    if frame.ndim != 3 or frame.shape[0] < 60 or frame.shape[1] < 60:
        raise CalibrationError(f"not a colour image: shape {frame.shape}")
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    grey = cv2.GaussianBlur(grey, (5, 5), 0)
    h, w = grey.shape
    # The surface's brightness: sample the middle of the image (the board is under the camera).
    mid = grey[h // 3 : 2 * h // 3, w // 3 : 2 * w // 3]
    light = float(np.percentile(mid, 60))
    thr, _ = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    thr = min(thr, light * 0.8)
    mask: npt.NDArray[Any] = (grey > thr).astype(np.uint8)
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, k)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, k)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if n < 2:
        raise CalibrationError("no playing surface found: the image has no light area")
    # The component most of the image's middle lies in (the board is under the
    # camera; its very centre may be the red centre circle, law I अ.6, darker than
    # the threshold), else the largest.
    middle = labels[h // 3 : 2 * h // 3, w // 3 : 2 * w // 3].ravel()
    counts = np.bincount(middle[middle > 0], minlength=n)
    label = (
        int(np.argmax(counts)) if counts.any() else 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    )
    area = int(stats[label, cv2.CC_STAT_AREA])
    if area < 0.1 * h * w:
        raise CalibrationError(f"no playing surface found: the largest light area is {area} px")
    x, y, bw, bh = (int(v) for v in stats[label, :4])
    if x <= 0 or y <= 0 or x + bw >= w or y + bh >= h:
        if off_image:
            return _cut_surface_corners(frame, (labels == label).astype(np.uint8), judge)
        raise CalibrationError(
            "no playing surface found: the light area runs off the image "
            "(the camera must see the whole board and its frame)"
        )
    comp = (labels == label).astype(np.uint8)
    contours, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    poly = cv2.approxPolyDP(hull, 0.005 * peri, True).reshape(-1, 2).astype(np.float64)
    if len(poly) < 4:
        raise CalibrationError("the light area is not a four-sided board")
    # The pockets cut the corners (law I अ.3): the sides are the four longest edges.
    edges = [(poly[i], poly[(i + 1) % len(poly)]) for i in range(len(poly))]
    edges.sort(key=lambda e: -float(np.linalg.norm(e[1] - e[0])))
    sides = edges[:4]
    shortest = float(np.linalg.norm(sides[3][1] - sides[3][0]))
    if shortest < 0.25 * peri / 4:
        raise CalibrationError("the light area is not a four-sided board")
    c = poly.mean(axis=0)
    # Order the sides top, right, bottom, left by the direction of their middles.
    mids = [(a + b) / 2 - c for a, b in sides]
    order = {"top": 0, "right": 1, "bottom": 2, "left": 3}
    named: dict[int, tuple[npt.NDArray[Any], npt.NDArray[Any]]] = {}
    for (a, b), m in zip(sides, mids, strict=True):
        if abs(m[0]) > abs(m[1]):
            key = order["right"] if m[0] > 0 else order["left"]
        else:
            key = order["bottom"] if m[1] > 0 else order["top"]
        named[key] = (a, b)
    if len(named) != 4:
        raise CalibrationError("the light area is not a four-sided board")
    pts = contour.reshape(-1, 2).astype(np.float64)
    grey_f = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = named[i]
        line = np.array([*((b - a) / np.linalg.norm(b - a)), *a])
        line, straight = _tightened(pts, line, (6.0, 2.0), 10)
        if not straight:
            raise CalibrationError(f"edge {i + 1} of the board is not straight enough to measure")
        normal = np.array([line[1], -line[0]])
        if normal @ (line[2:] - c) < 0:
            normal = -normal
        lines.append(_refine_edge(grey_f, line, normal, pts))
    corners = [_intersect(lines[(i + 3) % 4], lines[i]) for i in range(4)]
    quad_area = cv2.contourArea(np.array(corners, np.float32))
    # The light area must fill the quadrilateral (less the pocket cut-outs), or it
    # was not a board.
    if not 0.85 * quad_area <= area <= 1.05 * quad_area:
        raise CalibrationError("no playing surface found: the light area is not a four-sided board")
    return corners


#: Light this near the image's edge is where the image cuts the light area off, not
#: the surface's edge.
_CUT_PX = 3


def _cut_surface_corners(
    frame: npt.NDArray[Any],
    comp: npt.NDArray[Any],
    judge: Callable[[list[tuple[float, float]]], float] | None = None,
) -> list[tuple[float, float]]:
    """The surface's corners when its light area runs off the image (a board filling
    a phone's photo, a webcam whose top pockets are at the image's edge).

    Each side is measured where it is seen: along the middle of the light area (away
    from the pockets cut into its corners), the outermost light pixel of each row (the
    left and right sides) or column (the top and bottom), unless that lies on the
    image's edge (the image cuts the light area there, not the board). A straight line
    through them (light joined on beyond the side, a wall or a cloth, is left out as
    an outlier) is moved onto the steepest brightness step, as for a whole board. Four
    sides seen: their corners. Three: the fourth is where the board makes a square,
    taken parallel to the side opposite it (a camera above the board sees little
    convergence), at the distance `judge` likes best (else the square check). Fewer:
    refused."""
    h, w = comp.shape
    ys, xs = np.nonzero(comp)
    c = np.array([xs.mean(), ys.mean()])
    x0, x1 = float(np.percentile(xs, 2)), float(np.percentile(xs, 98))
    y0, y1 = float(np.percentile(ys, 2)), float(np.percentile(ys, 98))
    grey_f = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lines: dict[int, npt.NDArray[Any]] = {}
    for key in range(4):  # 0 top, 1 right, 2 bottom, 3 left
        rows = key in (1, 3)
        lo, hi = (y0, y1) if rows else (x0, x1)
        idx = np.arange(int(lo + 0.2 * (hi - lo)), int(hi - 0.2 * (hi - lo)) + 1)
        strips = comp[idx, :] if rows else comp[:, idx].T
        has = strips.any(axis=1)
        if key in (0, 3):  # the first light pixel
            at = np.argmax(strips, axis=1)
            limit = at >= _CUT_PX
        else:  # the last
            n = strips.shape[1]
            at = n - 1 - np.argmax(strips[:, ::-1], axis=1)
            limit = at < n - 1 - _CUT_PX
        keep = has & limit
        if keep.sum() < 0.3 * len(idx) or keep.sum() < 10:
            continue  # the image cuts this side off
        sel = (
            np.stack([at[keep], idx[keep]], axis=1)
            if rows
            else np.stack([idx[keep], at[keep]], axis=1)
        ).astype(np.float64)
        first = cv2.fitLine(sel.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        line, _ = _tightened(sel, first, (6.0, 2.5), max(10, 0.3 * len(sel)))
        normal = np.array([line[1], -line[0]])
        if normal @ (line[2:] - c) < 0:
            normal = -normal
        lines[key] = _refine_edge(grey_f, line, normal, sel)
    if len(lines) < 3:
        raise CalibrationError(
            "no playing surface found: the light area runs off the image on more than one "
            "side (tap the four pockets)"
        )
    if len(lines) == 4:
        corners = [_intersect(lines[(i + 3) % 4], lines[i]) for i in range(4)]
    else:
        corners = _fourth_side(lines, (w, h), c, judge)
    quad = np.zeros_like(comp)
    cv2.fillPoly(quad, [np.round(np.array(corners)).astype(np.int32)], 1)
    inside = int(np.count_nonzero(quad))
    if inside < 0.2 * h * w or np.count_nonzero(comp & quad) < 0.85 * inside:
        raise CalibrationError("no playing surface found: the light area is not a four-sided board")
    return corners


def _fourth_side(
    lines: dict[int, npt.NDArray[Any]],
    size: tuple[int, int],
    inside: npt.NDArray[Any],
    judge: Callable[[list[tuple[float, float]]], float] | None = None,
) -> list[tuple[float, float]]:
    """The corners (top-left, top-right, bottom-right, bottom-left) from three sides
    (0 top, 1 right, 2 bottom, 3 left): the missing side parallel to its opposite, at
    the distance `judge` scores lowest, else the one that makes the square the check
    (`check_square`) likes best; `inside` is a point on the board (the light area's
    centre)."""
    missing = next(k for k in range(4) if k not in lines)
    opposite = lines[(missing + 2) % 4]
    side_a, side_b = lines[(missing + 1) % 4], lines[(missing + 3) % 4]
    pa, pb = (
        np.array(_intersect(opposite, side_a)),
        np.array(_intersect(opposite, side_b)),
    )
    width = float(np.linalg.norm(pa - pb))
    # Towards the missing side along the sides: away from the opposite side's corners.
    mid = (pa + pb) / 2
    normal = np.array([opposite[1], -opposite[0]])
    centre_dir = normal if normal @ (inside - mid) > 0 else -normal

    def corners_at(dist: float) -> list[tuple[float, float]]:
        p0 = mid + dist * centre_dir
        got = dict(lines)
        got[missing] = np.array([opposite[0], opposite[1], p0[0], p0[1]])
        return [_intersect(got[(i + 3) % 4], got[i]) for i in range(4)]

    def cost(dist: float) -> float:
        corners = corners_at(dist)
        try:
            cal = Calibration.from_corners(corners)
        except CalibrationError:
            return np.inf
        if judge is not None:
            return judge(corners)
        return check_square(cal.pockets, size).score

    grid = np.linspace(0.75 * width, 1.3 * width, 23)
    costs = [cost(float(d)) for d in grid]
    k = int(np.argmin(costs))
    lo, hi = grid[max(0, k - 1)], grid[min(len(grid) - 1, k + 1)]
    fine = np.linspace(lo, hi, 11)
    best = float(fine[int(np.argmin([cost(float(d)) for d in fine]))])
    return corners_at(best)


def auto_calibrate(frame: npt.NDArray[Any], quarter_turns: int = 0) -> Calibration:
    """Calibrate from a view of the board (see the module docstring).
    `quarter_turns` k: the first breaker's base line is k quarter turns clockwise
    from the bottom of the image (1: on the left)."""
    corners = find_surface_corners(frame)
    k = quarter_turns % 4
    corners = corners[k:] + corners[:k]
    return Calibration.from_corners(corners)


def order_pockets(points: Sequence[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """Four pocket centres given in any order, as pockets 1-4: round the board
    clockwise as seen from above (image y down), from the one nearest the image's
    bottom-left corner. A photo may be turned any way: the pocket taken for 1 is
    then another, which moves the coins' millimetres but not their counts."""
    if len(points) != 4:
        raise CalibrationError(f"need 4 pocket centres, got {len(points)}")
    p = np.array(points, np.float64)
    c = p.mean(axis=0)
    # Increasing image angle from the centre is clockwise on the screen (y down).
    ring = sorted(range(4), key=lambda i: float(np.arctan2(p[i, 1] - c[1], p[i, 0] - c[0])))
    first = max(range(4), key=lambda k: float(p[ring[k], 1] - p[ring[k], 0]))
    ring = ring[first:] + ring[:first]
    return tuple((float(p[i, 0]), float(p[i, 1])) for i in ring)


#: The steepest a camera may look at the board (from straight down) for the check.
MAX_TILT_DEG = 15.0


@dataclass(frozen=True, slots=True)
class SquareCheck:
    """How well four pocket centres make the board's square seen by a camera:
    `angle_deg`, how far the board's corner is from a right angle, and `sides`,
    the relative difference of its two sides, both after the best perspective an
    upright pinhole camera could give; `tilt_deg`, that camera's tilt."""

    angle_deg: float
    sides: float
    tilt_deg: float

    @property
    def score(self) -> float:
        """One figure of how far from a board's square (lower better): 4° off a right
        angle, sides 5% apart and each degree of tilt past MAX_TILT_DEG weigh alike."""
        return self.angle_deg / 4.0 + self.sides / 0.05 + max(0.0, self.tilt_deg - MAX_TILT_DEG)

    def problem(self, max_angle_deg: float = 4.0, max_sides: float = 0.05) -> str | None:
        """Why these pockets are not a board (None if they are)."""
        if self.angle_deg > max_angle_deg:
            return (
                f"the pockets are not a square board: a corner is {self.angle_deg:.1f}° from "
                "a right angle after perspective"
            )
        if self.sides > max_sides:
            return (
                f"the pockets are not a square board: its sides differ by "
                f"{100 * self.sides:.0f}% after perspective"
            )
        if self.tilt_deg > MAX_TILT_DEG + 1.0:
            return f"the camera would be tilted {self.tilt_deg:.0f}°: hold it above the board"
        return None


def check_square(
    pockets: Sequence[tuple[float, float]], image_size: tuple[int, int]
) -> SquareCheck:
    """Whether four pocket centres (1-4, image px) can be the board's square.

    Any four points map onto a square by some homography, so the check asks more:
    that a camera with square pixels, its principal point at the image's centre
    and a plausible focal length (0.3-3 image diagonals) sees a square there. For
    such a camera the homography H = K [r1 r2 t] from the board's plane has
    r1 ⟂ r2 and |r1| = |r2|; with w = 1/f² these are h1ᵀ W h2 = 0 and
    h1ᵀ W h1 = h2ᵀ W h2 (W = diag(w, w, 1)). The best w leaves what no perspective
    explains: a pocket tapped or found in the wrong place."""
    w_img, h_img = image_size
    diag = float(np.hypot(w_img, h_img))
    s = B.SURFACE_MM
    src = np.array([B.POCKETS_MM[i] for i in range(4)], np.float64) / s - 0.5
    dst = (np.array(pockets, np.float64) - [w_img / 2.0, h_img / 2.0]) / diag
    h = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    h = h.astype(np.float64)
    a1, a2 = h[:2, 0], h[:2, 1]
    g1, g2 = h[2, 0], h[2, 1]
    best, best_score = SquareCheck(0.0, 0.0, 0.0), np.inf
    for f in np.geomspace(0.3, 3.0, 80):
        w = 1.0 / (f * f)
        n1 = w * float(a1 @ a1) + g1 * g1
        n2 = w * float(a2 @ a2) + g2 * g2
        cos = abs(w * float(a1 @ a2) + g1 * g2) / float(np.sqrt(n1 * n2))
        sides = abs(np.sqrt(n1) - np.sqrt(n2)) / max(np.sqrt(n1), np.sqrt(n2))
        angle = float(np.degrees(np.arcsin(min(1.0, cos))))
        # The tilt: the angle between the board's normal (r1 x r2) and the axis.
        r1 = np.array([a1[0] / f, a1[1] / f, g1]) / np.sqrt(n1)
        r2 = np.array([a2[0] / f, a2[1] / f, g2]) / np.sqrt(n2)
        normal = np.cross(r1, r2)
        tilt = float(
            np.degrees(np.arccos(min(1.0, abs(float(normal[2])) / float(np.linalg.norm(normal)))))
        )
        # A steeper camera could explain a pocket in the wrong place: the kiosk's and
        # a phone held above the board are within MAX_TILT_DEG of looking straight down.
        seen = SquareCheck(angle, float(sides), tilt)
        if seen.score < best_score:
            best, best_score = seen, seen.score
    return best
