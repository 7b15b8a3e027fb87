"""`detect`: the stages in order (classes, hands, discs, what is left hidden)."""

from __future__ import annotations

import cv2
import numpy as np

from vision import board as B
from vision.detect.classes import classify_soft
from vision.detect.common import (
    _COLOURED,
    _DISC3,
    _DISC5,
    _DISC7,
    _DISC9,
    _FRAME_BAND,
    _SQUARE3,
    _SQUARE15,
    A_COIN,
    BLACK,
    BOARD,
    DEFAULTS,
    INK,
    OTHER,
    R_COIN,
    R_STRIKER,
    RED,
    RED_INK,
    WHITE,
    Array,
    BoardView,
    Coin,
    Settings,
    _disc,
    _disc_share,
    _dot_at,
    _label,
    _widened,
)
from vision.detect.discs import _fill_holes, _fit_discs, _striker_part
from vision.detect.hands import _a_dot_covered, mark_hands
from vision.detect.reference import Reference


def detect(top: Array, ref: Reference, settings: Settings = DEFAULTS) -> BoardView:
    """Every coin and the striker on a top view (see the module docstring)."""
    cls, strength = classify_soft(top, ref, settings)
    return detect_classes(cls, strength, settings)


def detect_classes(cls: Array, strength: Array, settings: Settings = DEFAULTS) -> BoardView:
    """Coins from an already classified top view."""
    occlusion: Array = np.zeros(cls.shape, np.uint8)
    found: list[tuple[str, float, float, float]] = []
    striker_left = [True]
    cls = cls.copy()
    mark_hands(cls, occlusion, settings)
    for klass, colour in ((WHITE, "white"), (BLACK, "black"), (RED, "queen")):
        # Every step below reaches at most 10 px beyond the colour's own pixels (the
        # widest, the dilation by _SQUARE15, 7 px): it runs in the box around them.
        bx, by, bw, bh = cv2.boundingRect((cls == klass).astype(np.uint8))
        if bw == 0:  # none of this colour (often no queen): nothing to split
            continue
        win = _widened(bx, by, bw, bh, 12, cls.shape)
        wy, wx = win[0].start, win[1].start
        c, own_px = cls[win], (cls[win] == klass).astype(np.uint8)
        ink, red_ink = c == INK, c == RED_INK
        if klass == RED:
            # The queen on a red dot (at the start, on the centre circle, law I अ.6) is
            # told from it only here and there: the dot's pixels among hers are hers.
            among = cv2.blur(own_px.astype(np.float32), (5, 5)) >= 0.3
            own_px = own_px | (red_ink & among).astype(np.uint8)
        real = cv2.morphologyEx(own_px, cv2.MORPH_OPEN, _DISC3)
        # A thin printed line under a coin (an arrow, law I अ.5) can cut it in two.
        real = cv2.morphologyEx(real, cv2.MORPH_CLOSE, _SQUARE3)
        # Line or dot pixels next to a coin of the colour may be under it.
        # Lines are thin and may cross a whole coin; red dots are coin-sized blobs, so
        # only their pixels right next to the queen count.
        if not real.any():
            continue
        wild_px = ink & (cv2.dilate(real, _SQUARE15) > 0)
        if klass == RED:
            wild_px |= red_ink & (cv2.dilate(real, _DISC7) > 0)
        n, labels, stats = _label((real | wild_px).astype(np.uint8))
        parts = []
        big = stats[:, cv2.CC_STAT_AREA] >= 0.35 * A_COIN
        big[0] = False
        for i in np.flatnonzero(big).tolist():
            x, y, w, h, _ = stats[i]
            if (
                np.count_nonzero(real[y : y + h, x : x + w][labels[y : y + h, x : x + w] == i])
                < 0.3 * A_COIN
            ):
                continue
            p = 3
            x0, y0 = max(0, x - p), max(0, y - p)
            x1, y1 = min(c.shape[1], x + w + p), min(c.shape[0], y + h + p)
            region = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
            sub = c[y0:y1, x0:x1]
            own = _fill_holes(region & own_px[y0:y1, x0:x1])
            parts.append((x0, y0, x1, y1, region, sub, own))
        forced = _striker_part(parts) if klass == WHITE else None
        if forced is not None:
            striker_left[0] = False
        for k, (x0, y0, x1, y1, region, sub, own) in enumerate(parts):
            soft = (region > 0) | (sub == BOARD)
            discs, occluder = _fit_discs(
                region,
                own,
                soft,
                sub == OTHER,
                (sub == INK) | (sub == RED_INK),
                strength[win][y0:y1, x0:x1],
                colour,
                settings,
                striker_left,
                forced is not None and k == forced,
            )
            if occluder:
                occlusion[win][y0:y1, x0:x1][region > 0] = 255
                continue
            found.extend((name, cx + x0 + wx, cy + y0 + wy, conf) for name, cx, cy, conf in discs)
    # What no disc explains is an occluder: a hand, an arm, a sleeve, its shadow.
    fg = cv2.LUT(cls, _COLOURED)
    explained: Array = np.zeros_like(fg)
    for name, cx, cy, _ in found:
        r = (R_STRIKER if name == "striker" else R_COIN) + 2.0
        cv2.circle(explained, (round(cx * 16), round(cy * 16)), round(r * 16), 1, -1, cv2.LINE_8, 4)
    rest = cv2.morphologyEx(fg & (1 - explained), cv2.MORPH_OPEN, _DISC3)
    # Whatever crosses the frame is a hand, an arm or a sleeve reaching in (coins never
    # lie on the frame), however small its part on the board. Lines across an arm would
    # cut it: the line pixels right beside it join it.
    seeds = rest & _FRAME_BAND
    if np.count_nonzero(seeds) >= 15:
        rest = rest | ((cls == INK) & (cv2.dilate(rest, _DISC5) > 0)).astype(np.uint8)
    n, labels, stats = _label(rest)
    reaching = (
        set(np.unique(labels[seeds > 0]).tolist()) if np.count_nonzero(seeds) >= 15 else set()
    )
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if area > settings.occluder_area * A_COIN or i in reaching:
            occlusion[y : y + h, x : x + w][labels[y : y + h, x : x + w] == i] = 255
    seen_occluded = occlusion.copy()
    if occlusion.any():
        occlusion = cv2.dilate(occlusion, _DISC9)
    occluded = occlusion > 0
    coins = []
    for name, cx, cy, conf in found:
        # A disc inside an occluder, or ringed by one, is a piece of hand, not a coin.
        r = R_STRIKER if name == "striker" else R_COIN
        if _disc_share(occluded, cx, cy, r + 4.0) > 0.45:
            # Unless the occluder only touches it: a coin's own shadow can join a
            # hand's, and widened that covers the coin. Before widening, a full coin
            # beside a hand is clear inside and mostly clear around.
            win, d2 = _disc(seen_occluded.shape, cx, cy, r + 8.0)
            hit = seen_occluded[win] > 0
            inner = d2 <= (r + 2.0) ** 2
            outer = ~inner & (d2 <= (r + 8.0) ** 2)
            # A white or black coin half in the hand's shadow is less clear (a hand's
            # reddish skin can make a queen-coloured patch, so she gets no such slack).
            slack = 0.0 if name == "queen" else 0.1
            if (
                conf < 0.9 - slack
                or float(hit[inner].mean()) > 0.25 + slack
                or float(hit[outer].mean()) > 0.4 + slack / 2
            ):
                continue
        if name == "white" and _a_dot_covered(cls, cx, cy):
            continue
        if name == "queen" and conf < settings.min_queen_on_dot and _dot_at(cx, cy):
            continue
        x_mm, y_mm = B.top_to_mm(cx, cy)
        if not B.on_surface(x_mm, y_mm):
            continue
        coins.append(Coin(name, float(x_mm), float(y_mm), round(conf, 3)))
    coins.sort(key=lambda c: (c.colour, c.y_mm, c.x_mm))
    return BoardView(tuple(coins), occlusion)
