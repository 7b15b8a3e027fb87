"""Faint men (vision.cold): a man barely unlike the plywood, found by his disc as a whole.

A man of natural wood on a plywood board differs from it per pixel by less than the
plywood's own grain and noise, so few of his pixels pass the per-pixel change test and
what does is a broken patch no disc fits. Averaged over his disc, though, his colour
stands out from the ring of plywood around him by many times the spread of such means
on bare plywood: a matched filter (the disc's mean against its ring's, per channel, in
units of the plywood's per-pixel spread in this frame). The print and the discs
already found are left out of both means, so a line or a neighbour is no contrast.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.cold_discs import Sizes, disc_median
from vision.cold_planes import LINE_HAT, Planes, geometry, mad, print_zone

Array = npt.NDArray[Any]

#: The contrast (plywood spreads) a disc must have against its ring to be a man: bare
#: plywood, its grain, wear and lamp's fall-off included, stays under about 4.
FAINT_Z = 6.0
#: The least share of that contrast each quarter of the ring must show (`all_round`).
ROUND = 0.5


def _annulus(r0: float, r1: float) -> Array:
    k = math.ceil(r1) + 1
    yy, xx = np.mgrid[-k : k + 1, -k : k + 1]
    d = np.sqrt(xx * xx + yy * yy)
    out: Array = ((d >= r0) & (d <= r1)).astype(np.float32)
    return out


def contrast(
    chans: list[Array],
    spreads: list[float],
    inside: Array,
    ring: Array,
    rc: float,
    plywood: list[float] | None = None,
) -> Array:
    """At every pixel, how far the mean of a man's disc there (less its rim) lies from the
    mean of the plywood ring just outside it, in plywood spreads over all channels; 0
    where too little of either is valid (off the surface, the print, a disc found).
    With `plywood` (each channel's value on bare plywood in this frame), a disc whose
    ring is mostly covered is measured against that instead."""
    kin, kout = _annulus(0.0, rc - 2.0), _annulus(rc + 1.5, rc + 4.5)
    v, vr = inside.astype(np.float32), ring.astype(np.float32)

    def mean(x: Array, k: Array) -> Array:
        out: Array = cv2.filter2D(x, -1, k, borderType=cv2.BORDER_CONSTANT)
        return out

    nin, nout = mean(v, kin), mean(vr, kout)
    z2 = np.zeros(v.shape, np.float32)
    zp2 = np.zeros(v.shape, np.float32)
    for k, (c, sd) in enumerate(zip(chans, spreads, strict=True)):
        mi = mean((c * v).astype(np.float32), kin) / np.maximum(nin, 1.0)
        d = mi - mean((c * vr).astype(np.float32), kout) / np.maximum(nout, 1.0)
        z2 += (d / max(sd, 1e-4)) ** 2
        if plywood is not None:
            zp2 += ((mi - plywood[k]) / max(sd, 1e-4)) ** 2
    inner_ok = nin >= 0.4 * kin.sum()
    ok = inner_ok & (nout >= 0.4 * kout.sum())
    out: Array = np.where(ok, np.sqrt(z2), 0.0).astype(np.float32)
    if plywood is not None:
        # A man packed among others (the opening's ring, men touching) has little
        # plywood round him: his disc against the plywood's own colour then.
        out = np.where(inner_ok & ~ok, np.sqrt(zp2), out).astype(np.float32)
    return out


def all_round(
    chans: list[Array],
    spreads: list[float],
    valid: tuple[Array, Array],
    x: int,
    y: int,
    rc: float,
) -> float:
    """How evenly a disc at (x, y) is unlike the ring around it: the least, over the
    ring's four quarters, of its contrast with that quarter along the whole ring's
    contrast, as a share of the whole. A man stands out on every side; the halo of a
    man beside him, an edge or a shadow lies on one side only."""
    k = math.ceil(rc + 4.5) + 1
    h, w = valid[0].shape
    if not (k <= x < w - k and k <= y < h - k):
        return 0.0
    yy, xx = np.mgrid[-k : k + 1, -k : k + 1]
    d = np.sqrt(xx * xx + yy * yy)
    v, vr = (m[y - k : y + k + 1, x - k : x + k + 1] for m in valid)
    inner = v & (d <= rc - 2.0)
    ring = vr & (d >= rc + 1.5) & (d <= rc + 4.5)
    quarter = ((np.arctan2(yy, xx) + math.pi) / (math.pi / 2)).astype(int) % 4
    win = [
        c[y - k : y + k + 1, x - k : x + k + 1] / max(sd, 1e-4)
        for c, sd in zip(chans, spreads, strict=True)
    ]
    if inner.sum() < 5:
        return 0.0
    mid = np.array([float(c[inner].mean()) for c in win])
    whole = mid - np.array([float(c[ring].mean()) for c in win])
    norm = float(np.linalg.norm(whole))
    if norm <= 0:
        return 0.0
    least = math.inf
    for qk in range(4):
        part = ring & (quarter == qk)
        if part.sum() < 3:
            continue
        diff = mid - np.array([float(c[part].mean()) for c in win])
        least = min(least, float(diff @ whole) / (norm * norm))
    return least if least < math.inf else 0.0


def faint_men(
    z: Array,
    found: list[tuple[float, float, float]],
    allowed: Array,
    rc: float,
    judge: Callable[[int, int], bool],
) -> list[tuple[int, int]]:
    """The centres of the strongest contrasts (over FAINT_Z, in `allowed`) that `judge`
    takes for men, each at least a man's diameter from every disc found (x, y, r) and
    from each other. A contrast judged no man does not keep a man beside it out."""
    peaks = (z >= FAINT_Z) & allowed & (z == cv2.dilate(z, np.ones((5, 5), np.uint8)))
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-z[ys, xs])
    taken = list(found)
    out: list[tuple[int, int]] = []
    for k in order:
        x, y = int(xs[k]), int(ys[k])
        if any(math.hypot(x - fx, y - fy) < fr + 0.75 * rc for fx, fy, fr in taken):
            continue
        if judge(x, y):
            taken.append((x, y, rc))
            out.append((x, y))
    return out


def add_faint(
    found: list[tuple[str, float, float, float]],
    discs: list[tuple[float, float, float, float, float]],
    p: Planes,
    hidden: Array,
    cut: float,
    queen_red: float,
    sizes: Sizes,
) -> tuple[list[tuple[str, float, float, float]], list[tuple[float, float, float, float, float]]]:
    """With the men too faint for the change test: natural wood on plywood, found by
    their discs as a whole. The discs found are left out of the plywood's ring (2 px
    wider: a dark man's blur and shadow), and so are the print and the hands."""
    surface, pockets, red_print = geometry()
    on = surface & ~pockets
    taken = np.zeros(hidden.shape, np.uint8)
    for _name, x, y, r in found:
        cv2.circle(taken, (round(x), round(y)), round(r + 2.0), 1, -1)
    # The red print's blurred edge is print too: its pink would be a contrast.
    red_print = cv2.dilate(red_print.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    valid = on & ~print_zone() & ~red_print & ~hidden & (taken == 0)
    chans = [p.pink_rg, p.pink_bg, p.q]
    spreads = [mad(c[p.ply]) for c in chans]
    rc = sizes.coin
    plywood = [float(np.median(c[p.ply])) for c in chans]
    z = contrast(chans, spreads, valid, valid, rc, plywood)
    # A man on a line or circle hides the print inside him: where the print zone runs
    # through a disc but no dark line shows there, the print inside is the man's.
    with_print = on & ~red_print & ~hidden & (taken == 0)
    kin = _annulus(0.0, rc - 2.0)
    lines = print_zone() & on & (p.hat > LINE_HAT)
    zone_in = cv2.filter2D((print_zone() & on).astype(np.float32), -1, kin)
    line_in = cv2.filter2D(lines.astype(np.float32), -1, kin)
    hides = (zone_in >= 0.12 * kin.sum()) & (line_in < 0.15 * zone_in)
    z = np.where(hides, np.maximum(z, contrast(chans, spreads, with_print, valid, rc)), z)
    line_q = float(np.median(p.q[lines])) if lines.any() else 0.6
    kout = _annulus(rc + 1.5, rc + 4.5)
    ring_share = cv2.filter2D(valid.astype(np.float32), -1, kout / kout.sum())

    def judge(x: int, y: int) -> bool:
        inside = with_print if hides[y, x] else valid
        # Packed among others, too little ring is left to be round against: his disc
        # was measured against the plywood's colour, the same on every side.
        if ring_share[y, x] >= 0.4 and all_round(chans, spreads, (inside, valid), x, y, rc) < ROUND:
            return False
        # A faint disc darker than the cut between black and white would have passed
        # the change test: it is a shadow or the print, not a man.
        if disc_median(p.q, x, y, 0.6 * rc, 1.0) < cut:
            return False
        # On the print, the print inside must be hidden: nearer the plywood's light
        # than the lines' in this frame.
        if not hides[y, x]:
            return True
        return disc_median(p.q, x, y, rc - 2.0, 1.0, within=print_zone()) >= (1.0 + line_q) / 2

    found, discs = list(found), list(discs)
    for x, y in faint_men(z, [(x, y, r) for _n, x, y, r in found], on & ~hidden, rc, judge):
        mq = disc_median(p.q, x, y, 0.6 * rc, 1.0)
        mr = disc_median(p.pink_rg, x, y, 0.6 * rc, 0.0)
        mb = disc_median(p.pink_bg, x, y, 0.6 * rc, 0.0)
        name = "queen" if mr > queen_red and mb > 0.03 else "white"
        found.append((name, float(x), float(y), rc))
        discs.append((float(x), float(y), rc, mq, mr))
    return found, discs
