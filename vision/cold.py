"""Detection with no view of the empty board ("cold"): one photo, one frame.

Everything is judged against this board's own colours in this frame, never fixed
colour cut-offs:

1. The plywood: its colour is the median chromaticity of the playing surface;
   its light at every point comes from the medians of plywood-coloured pixels in
   tiles (coins, hands and the print are other colours), smoothed, with the
   tiles that have too little plywood filled in from around them.
2. Change: per pixel, the brightness ratio to the plywood's light `q` and the
   change of chromaticity `dc`, each beyond a threshold set by their own spread
   over the plywood in this frame. The printed lines (thin and dark: a black-hat
   filter finds them) and the red dots and centre circle (law I अ.4, अ.6, red
   like each other) are the board's, except inside a changed patch.
3. Pixel classes: dark or light against a cut between the two (from the gap in
   the brightness of the patches seen, or the plywood's own light), red where
   redder than the plywood by more than half the way to the print's red.
4. Discs of the sizes the calibration sets (coins 30-32 mm, the striker
   38-75 mm, `Sizes`): each class's regions split at the deepest point of their
   distance transform, a disc at a time; touching coins of one colour are a
   chain of coin-deep peaks. A region deeper than a striker, or one no disc
   explains, or skin-coloured and larger than a coin, is a hand: not a coin.
5. A `Learned` set (from the opening arrangement, vision.learn) replaces the
   cut and the sizes by what was measured on this set.

Steps 1 and 2 are in vision/cold_planes.py, the discs' helpers in vision/cold_discs.py,
the hands (an arm reaching in over the frame) in vision/cold_hands.py, and the men too
faint for the change test (wood on plywood, found by the whole disc) in vision/cold_faint.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B
from vision.cold_discs import Sizes as Sizes
from vision.cold_discs import (
    disc_mask,
    disc_median,
    drop_unlike,
    men_touching,
    rings,
    rings_on_print,
    split_region,
    striker_among_men,
)
from vision.cold_faint import add_faint
from vision.cold_hands import arms, skin
from vision.cold_planes import LINE_HAT, Planes, geometry, mad, planes, print_zone
from vision.detect import Coin, Reference, detect

Array = npt.NDArray[Any]


@dataclass(frozen=True, slots=True)
class Learned:
    """What the opening arrangement taught about the set in use (vision.learn):
    the brightness ratio that parts black from white, the queen's redness, the
    coins' and the striker's radii (px)."""

    cut: float
    queen_red: float
    coin_r: float
    striker_r: float | None = None


def detect_cold(
    top: Array,
    reference: Reference | None = None,
    learned: Learned | None = None,
    sizes: Sizes | None = None,
) -> tuple[Coin, ...]:
    """The coins on a top view. With the empty board's `reference`, the tuned
    detector (vision.detect); without one, against this frame's own plywood."""
    if reference is not None:
        return detect(top, reference).coins
    return classify_discs(top, learned, sizes)[0]


def classify_discs(
    top: Array, learned: Learned | None = None, sizes: Sizes | None = None
) -> tuple[tuple[Coin, ...], list[tuple[float, float, float, float, float]]]:
    """The coins, and for each disc found (cx, cy, r, q, redness): what vision.learn
    measures on the opening arrangement."""
    sizes = sizes or (Sizes(coin=learned.coin_r) if learned else Sizes())
    surface, pockets, red_print = geometry()
    f = top.astype(np.float32)
    on = surface & ~pockets
    p = planes(top)
    q, dc, pink_rg, pink_bg, hat, ply = p.q, p.dc, p.pink_rg, p.pink_bg, p.hat, p.ply
    board_c = p.board_c
    dc_sd = mad(dc[ply])
    q_sd = mad(q[ply])
    # The red print's colour in this frame, from the dots (coins rarely cover them all).
    dots = red_print & on
    core = dots & (hat < LINE_HAT)
    print_rg = float(np.median(pink_rg[core])) if core.any() else 0.3
    print_q = float(np.median(q[core])) if core.any() else 0.55
    changed = on & ((dc > max(0.012, 4.0 * dc_sd)) | (np.abs(q - 1.0) > max(0.07, 4.0 * q_sd)))
    # The print is the board's, unless inside a changed patch (a coin on a line).
    # (Not every thin dark line: a coin's rim is one.)
    # The red print is what looks like the dots in this frame; a brown man or the
    # queen on a dot does not.
    like_dot = (np.abs(q - print_q) < 0.2) & (np.abs(pink_rg - print_rg) < 0.4 * abs(print_rg))
    # The print is dark: what is brighter than the plywood there is a man lying over it
    # (a light man on a line or circle would otherwise be cut in two and lost).
    lighter = q > 1.0 + max(0.07, 4.0 * q_sd)
    prt = (print_zone() & ~lighter) | (red_print & (like_dot | (hat > LINE_HAT)))
    # The print is thin: a man's disc wholly as dark as the lines' cores in this frame
    # is no print, though the print zone runs through it (a man where lines cross, on
    # an arrow's head). Not merely darker than the plywood: shadows beside men are too.
    # On the red dots and the centre circle, what is less than half as red as the dots
    # is no print either: a dark man hides their red.
    lines = print_zone() & on & (hat > LINE_HAT)
    line_q = float(np.median(q[lines])) if lines.any() else 0.6
    red_like = red_print & (pink_rg > 0.5 * print_rg)
    darker = on & (q < min(line_q, 1.0 - max(0.07, 4.0 * q_sd))) & ~red_like
    prt &= ~_dense(darker, 0.88 * sizes.coin)
    changed &= ~prt
    k9 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
    closed = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_CLOSE, k9) > 0
    fg0 = (changed | (prt & closed & ~red_print)).astype(np.uint8)
    fg = cv2.morphologyEx(fg0, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # Holes (a gloss spot, a coin of the plywood's own colour ringed by its rim; the
    # ring may have a gap a pixel or two wide).
    ringed = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(
        (1 - ringed).astype(np.uint8), connectivity=4
    )
    a_coin = math.pi * sizes.coin**2
    small = (stats[:, cv2.CC_STAT_AREA] < 1.3 * a_coin) & (stats[:, cv2.CC_STAT_AREA] >= 4)
    small[0] = False
    small[labels[0, 0]] = False
    # A man's inside is round and most of a man; the gap men touching enclose is
    # neither (a gloss spot is small but inside a man's colour anyway).
    for k in np.flatnonzero(small):
        x, y, w, h, area = stats[k]
        if area < 0.3 * a_coin:
            continue
        if area < 0.55 * w * h * math.pi / 4 or max(w, h) > 2.6 * sizes.coin:
            small[k] = False
    # Not a red dot ringed by coins touching it: the print seen between them.
    on_dot = np.bincount(labels[red_print].ravel(), minlength=len(small))
    small &= on_dot < 0.4 * stats[:, cv2.CC_STAT_AREA]
    fg = fg.astype(bool) | small[labels]
    fg |= rings(changed, sizes.coin) & ~red_print
    # A man of the plywood's colour on the print: his rim off it, the print hidden inside.
    fg |= rings_on_print(changed, print_zone() & on, lines, sizes.coin) & ~red_print
    fg |= _queen_on_centre(p, red_print, sizes)
    # Patches: what is the same colour and brightness as a coin of each class.
    cut = learned.cut if learned else _cut(q, fg, sizes)
    # The queen's pink against the plywood's own spread of it in this frame (kept
    # between 0.045, above a dark man's noise, and 0.06).
    queen_red = learned.queen_red if learned else min(0.06, max(0.045, 6.0 * mad(pink_rg[ply])))
    red_px = fg & (pink_rg > queen_red) & (pink_bg > 0.03) & (q > 0.3)
    dark = fg & ~red_px & (q < cut)
    lite = fg & ~red_px & (q >= cut)
    found: list[tuple[str, float, float, float]] = []
    discs: list[tuple[float, float, float, float, float]] = []
    hidden = np.zeros(fg.shape, bool)
    striker_done = False
    # The whole of every changed patch first: a patch deeper than a striker (or
    # not round where it is that deep) is a hand or an arm, whatever its colours.
    nall, lab_all, st_all, _ = cv2.connectedComponentsWithStats(fg.astype(np.uint8), connectivity=8)
    rc = sizes.coin
    # A hand reaches in from beyond the board: its arm crosses the surface's edge and
    # covers the frame there, which men against the cushion do not.
    hidden |= np.isin(lab_all, arms(top, lab_all, rc))
    for i in range(1, nall):
        x, y, w, h, area = st_all[i]
        if area < 3 * math.pi * rc * rc:
            continue
        reg = (lab_all[y : y + h, x : x + w] == i).astype(np.uint8)
        depth = float(cv2.distanceTransform(reg, cv2.DIST_L2, 5).max())
        sk = skin(f[y : y + h, x : x + w], board_c)[reg > 0].mean()
        # Skin's colour alone is not enough: brown men are skin-coloured too; a
        # hand is also thicker than men touching.
        if depth > 1.25 * sizes.striker_max or (
            sk > 0.5 and depth > 1.6 * rc and not men_touching(reg > 0, rc)
        ):
            hidden[y : y + h, x : x + w] |= reg > 0
    # The arm's hand beyond the print that cuts it (a blurred hand shows in pieces).
    near = cv2.dilate(hidden.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    hidden |= np.isin(lab_all, np.unique(lab_all[near & ~hidden & (lab_all > 0)]))
    for cls_mask, colour in ((lite, "white"), (dark, "black"), (red_px, "queen")):
        m = cv2.morphologyEx(cls_mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        m[hidden] = 0
        nl, lab, st, _ = cv2.connectedComponentsWithStats(m, connectivity=8)
        for i in range(1, nl):
            x, y, w, h, area = st[i]
            if area < 0.45 * math.pi * rc * rc:
                continue
            x0, y0 = max(0, x - 2), max(0, y - 2)
            x1, y1 = min(m.shape[1], x + w + 2), min(m.shape[0], y + h + 2)
            reg = lab[y0:y1, x0:x1] == i
            out, hand = split_region(reg, sizes, not striker_done)
            if hand:
                hidden[y0:y1, x0:x1] |= reg
                continue
            for cx, cy, rr in out:
                gx, gy = cx + x0, cy + y0
                mq = disc_median(q, gx, gy, 0.6 * rr, 1.0)
                mr = disc_median(pink_rg, gx, gy, 0.6 * rr, 0.0)
                name = colour
                if rr > 1.18 * rc:
                    if striker_done:
                        continue
                    name, striker_done = "striker", True
                discs.append((gx, gy, rr, mq, mr))
                found.append((name, gx, gy, rr))
    if not striker_done:
        found = striker_among_men(found, q, sizes)
    found, discs = add_faint(found, discs, p, hidden, cut, queen_red, sizes)
    found, discs = drop_unlike(found, discs)
    coins = []
    for name, cx, cy, _r in found:
        x_mm, y_mm = B.top_to_mm(cx, cy)
        if not B.on_surface(x_mm, y_mm):
            continue
        coins.append(Coin(name, float(x_mm), float(y_mm), 1.0))
    coins.sort(key=lambda c: (c.colour, c.y_mm, c.x_mm))
    return tuple(coins), discs


def _queen_on_centre(p: Planes, red_print: Array, sizes: Sizes) -> Array:
    """The queen on the centre circle (the opening, law I अ.6): the circle's colour
    against the base lines' red dots in this frame. Printed alike, they differ when the
    queen covers the circle: she is pink (blue not far under green) where the print's
    red has blue well under green, or, of the print's own red, far lighter or darker.
    Brightness alone is not enough: the small dots' blurred edges leave them lighter
    than the wide circle by as much as a queen of the print's red."""
    u, v = B.mm_to_top(B.SURFACE_MM / 2, B.SURFACE_MM / 2)
    centre = disc_mask(p.q.shape, u, v, 0.6 * sizes.coin)
    dots = red_print & ~disc_mask(p.q.shape, u, v, 2 * sizes.coin)
    out: Array = np.zeros(p.q.shape, bool)
    if not dots.any():
        return out
    dq = abs(float(np.median(p.q[centre])) - float(np.median(p.q[dots])))
    dbg = float(np.median(p.pink_bg[centre])) - float(np.median(p.pink_bg[dots]))
    if dbg > 0.03 or dq > 0.2:
        out = disc_mask(p.q.shape, u, v, sizes.coin - 0.5)
    return out


def _dense(mask: Array, r: float) -> Array:
    """The pixels of `mask` in discs of radius r that lie wholly in it (after a
    pixel's gaps are closed): the morphological opening."""
    k = math.ceil(r)
    yy, xx = np.mgrid[-k : k + 1, -k : k + 1]
    disc = (xx * xx + yy * yy <= r * r).astype(np.uint8)
    m = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    out: Array = (cv2.morphologyEx(m, cv2.MORPH_OPEN, disc) > 0) & mask
    return out


def _cut(q: Array, fg: Array, sizes: Sizes) -> float:
    """The brightness ratio between black and white men in this frame: the widest
    gap in the brightness of the coin-sized patches seen, if there is a clear one
    between 0.45 and 1.05 of the plywood's light; else 0.85 (white men are about
    as bright as the plywood or brighter, black men darker)."""
    vals = q[fg]
    if vals.size < 20:
        return 0.88
    hist, edges = np.histogram(np.clip(vals, 0.2, 1.6), bins=56, range=(0.2, 1.6))
    # Coin interiors dominate; an empty run of bins between two populated ones is the gap.
    need = max(3, int(0.01 * vals.size))
    full = hist >= need
    best, at = 0, 0.85
    lo, hi = int((0.45 - 0.2) / 0.025), int((0.95 - 0.2) / 0.025)
    run = 0
    for k in range(lo, hi):
        if not full[k] and full[:k].any() and full[k:].any():
            run += 1
            if run > best:
                best, at = run, float(edges[k + 1] - run * 0.0125)
        else:
            run = 0
    return at if best >= 3 else 0.88
