"""A top view against its own board (vision/cold.py, steps 1 and 2): the plywood's colour
and light at every pixel, and each pixel's change from it; where law I prints its lines,
circles and red dots. What the cold detector and the learning of a set judge a frame by."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B

Array = npt.NDArray[Any]

_SAMPLE = np.zeros((B.TOP_PX, B.TOP_PX), bool)
_SAMPLE[1::3, 1::3] = True
TILE = 10  # px of the top view (20 mm) per tile of the plywood's light


#: The black-hat (brightness levels) over which a thin dark line of the print shows.
LINE_HAT = 6.0


@functools.lru_cache(maxsize=1)
def geometry() -> tuple[Array, Array, Array]:
    """The surface (less its edge), the pockets, and the red print (dots at the
    base lines' ends, the centre circle) of the top view, from law I."""
    n = B.TOP_PX
    surface = np.zeros((n, n), np.uint8)
    m = round(B.MARGIN_MM * B.SCALE)
    surface[m + 1 : n - m - 1, m + 1 : n - m - 1] = 1
    pockets = np.zeros((n, n), np.uint8)
    for x, y in B.POCKETS_MM:
        u, v = B.mm_to_top(x, y)
        cv2.circle(pockets, (round(u), round(v)), round(B.POCKET_D_MM / 2 * B.SCALE + 3), 1, -1)
    red = np.zeros((n, n), np.uint8)
    s, half = B.SURFACE_MM, B.BASELINE_LEN_MM / 2
    d = B.BASELINE_IN_MM + B.BASELINE_GAP_MM / 2
    r_dot = B.BASE_RED_D_MM / 2 * B.SCALE + 1.5
    for e in (s / 2 - half, s / 2 + half):
        for x, y in ((e, d), (d, e), (e, s - d), (s - d, e)):
            u, v = B.mm_to_top(x, y)
            cv2.circle(red, (round(u), round(v)), round(r_dot), 1, -1)
    u, v = B.mm_to_top(s / 2, s / 2)
    cv2.circle(red, (round(u), round(v)), round(B.CENTRE_D_MM / 2 * B.SCALE + 1.5), 1, -1)
    return surface > 0, pockets > 0, red > 0


@functools.lru_cache(maxsize=1)
def print_zone() -> Array:
    """Where law I prints lines and circles (अ.4-अ.7), widened by 3 px (6 mm) for
    the calibration and the print's own width: the thin print is the board's."""
    n = B.TOP_PX
    zone = np.zeros((n, n), np.uint8)
    s, half = B.SURFACE_MM, B.BASELINE_LEN_MM / 2

    def pt(x: float, y: float) -> tuple[int, int]:
        u, v = B.mm_to_top(x, y)
        return round(u * 16), round(v * 16)

    w = 6
    for k in (0, 1):
        d = B.BASELINE_IN_MM + k * B.BASELINE_GAP_MM
        a, b = s / 2 - half, s / 2 + half
        for (x0, y0), (x1, y1) in (
            ((a, d), (b, d)),
            ((d, a), (d, b)),
            ((a, s - d), (b, s - d)),
            ((s - d, a), (s - d, b)),
        ):
            cv2.line(zone, pt(x0, y0), pt(x1, y1), 1, w, cv2.LINE_8, 4)
    d = B.BASELINE_IN_MM + B.BASELINE_GAP_MM / 2
    rb = round(B.BASE_CIRCLE_D_MM / 2 * B.SCALE * 16)
    for e in (s / 2 - half, s / 2 + half):
        for x, y in ((e, d), (d, e), (e, s - d), (s - d, e)):
            cv2.circle(zone, pt(x, y), rb, 1, w, cv2.LINE_8, 4)
    for dia in (B.OUTER_D_MM, B.CENTRE_D_MM):
        cv2.circle(zone, pt(s / 2, s / 2), round(dia / 2 * B.SCALE * 16), 1, w, cv2.LINE_8, 4)
    for ux, uy, x0, y0, x1, y1 in B.arrows_mm():
        cv2.line(zone, pt(x0 - ux * 8, y0 - uy * 8), pt(x1, y1), 1, w - 1, cv2.LINE_8, 4)
        r = B.ARROW_ARC_D_MM / 2
        rr = round(r * B.SCALE * 16)
        cv2.circle(zone, pt(x1 + ux * r, y1 + uy * r), rr, 1, w - 1, cv2.LINE_8, 4)
        for sx in (1, -1):
            tip = pt(x0 + 12 * (ux - sx * uy), y0 + 12 * (uy + sx * ux))
            cv2.line(zone, pt(x0, y0), tip, 1, w - 1, cv2.LINE_8, 4)
    return zone > 0


def _plywood_light(chan: Array, ply: Array) -> Array:
    """One channel of the plywood at every pixel, from the means of plywood pixels
    (`ply`) in tiles; tiles with few are filled from their neighbours. Glare and a
    lamp's fall-off are wider than a tile, a coin is narrower."""
    n = chan.shape[0]
    k = n // TILE
    w = ply.astype(np.float32)
    total = cv2.resize(chan * w, (k, k), interpolation=cv2.INTER_AREA)
    count = cv2.resize(w, (k, k), interpolation=cv2.INTER_AREA)
    grid = np.where(count >= 0.25, total / np.maximum(count, 1e-6), np.nan).astype(np.float32)
    known = ~np.isnan(grid)
    if not known.any():
        return np.full(chan.shape, float(np.median(chan)), np.float32)
    fill = float(np.nanmedian(grid))
    # Fill the unknown tiles from the known ones around them, widening as needed.
    for _ in range(k):
        if known.all():
            break
        g = np.where(known, grid, 0.0).astype(np.float32)
        w = known.astype(np.float32)
        s = cv2.blur(g, (3, 3), borderType=cv2.BORDER_REPLICATE)
        c = cv2.blur(w, (3, 3), borderType=cv2.BORDER_REPLICATE)
        grow = (~known) & (c > 0)
        grid[grow] = s[grow] / c[grow]
        known = known | grow
    grid[np.isnan(grid)] = fill
    grid = cv2.GaussianBlur(grid, (3, 3), 0).astype(np.float32)
    light: Array = cv2.resize(grid, (n, n), interpolation=cv2.INTER_CUBIC)
    return np.maximum(light, 1.0)


def mad(x: Array) -> float:
    """The spread of values (a robust standard deviation), from a sample of them."""
    x = x[:: max(1, x.size // 4000)]
    if x.size == 0:
        return 0.0
    return float(np.median(np.abs(x - np.median(x)))) * 1.4826


@dataclass(frozen=True, slots=True, eq=False)
class Planes:
    """A top view against its own plywood: brightness ratio `q`, chromaticity change
    `dc`, the pink planes (red over green, blue over green, less the plywood's),
    the black-hat of the brightness, the plywood pixels, the plywood's mean colour."""

    q: Array
    dc: Array
    pink_rg: Array
    pink_bg: Array
    hat: Array
    ply: Array
    board_c: Array


def planes(top: Array) -> Planes:
    """Every pixel of a top view against the plywood around it (see the module)."""
    surface, pockets, red_print = geometry()
    f = top.astype(np.float32)
    b, g, r = f[:, :, 0], f[:, :, 1], f[:, :, 2]
    inten = b + g + r + 3.0
    cb, cg, cr = b / inten, g / inten, r / inten
    on = surface & ~pockets
    # Thin dark print: the black-hat of the brightness with a kernel wider than a
    # line and narrower than a coin.
    grey = (inten / 3.0).astype(np.float32)
    hat = cv2.morphologyEx(grey, cv2.MORPH_BLACKHAT, np.ones((7, 7), np.uint8))
    sample = on & _SAMPLE
    board_c = np.array([np.median(c[sample]) for c in (cb, cg, cr)], np.float32)
    # The plywood's own colour and light at every pixel (glare, a lamp, a worn patch
    # included): from pixels loosely of its colour that are not print.
    dc0 = np.sqrt((cb - board_c[0]) ** 2 + (cg - board_c[1]) ** 2 + (cr - board_c[2]) ** 2)
    loose = on & ~red_print & (dc0 < max(0.04, 3 * mad(dc0[on]))) & (hat < LINE_HAT)
    fb = cv2.GaussianBlur(f, (0, 0), 0.7)
    bg = [_plywood_light(np.ascontiguousarray(fb[:, :, k]), loose) for k in range(3)]
    bg_i = bg[0] + bg[1] + bg[2] + 3.0
    # Again without what is far from that first plywood (the men's shadows, a dark
    # line's edge): a tile's mean is then the plywood's, as a median would be.
    fi0 = fb.sum(axis=2) + 3.0
    near = loose & (np.abs(fi0 / bg_i - 1.0) < 0.08)
    bg = [_plywood_light(np.ascontiguousarray(fb[:, :, k]), near) for k in range(3)]
    bg_i = bg[0] + bg[1] + bg[2] + 3.0
    pb, pg, pr = (bg[k] / bg_i for k in range(3))
    # Smoothed a little: a coin is 15 px across, the sensor's noise is per pixel.
    fi = fb.sum(axis=2) + 3.0
    sb, sg, sr = (fb[:, :, k] / fi for k in range(3))
    dc = np.sqrt((sb - pb) ** 2 + (sg - pg) ** 2 + (sr - pr) ** 2)
    # Pink (the queen) against red-brown (the plywood, brown men): red over green,
    # with blue not far under green.
    pink_rg = (sr - sg) - (pr - pg)
    pink_bg = (sb - sg) - (pb - pg)
    q = fi / bg_i
    ply = loose & (dc < max(0.012, 3 * mad(dc[loose])))
    return Planes(q, dc, pink_rg, pink_bg, hat, ply, board_c)
