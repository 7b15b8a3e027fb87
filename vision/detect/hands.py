"""Hands, arms and sleeves over the board: what is too thick to be coins hides
what is under it, and the coins beside a hand are kept.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision import board as B
from vision.detect.common import (
    _COLOURED,
    _DISC3,
    _DISC5,
    _INK,
    _SQUARE5,
    A_COIN,
    BLACK,
    BOARD,
    INK,
    OTHER,
    R_COIN,
    R_STRIKER,
    RED,
    RED_INK,
    WHITE,
    Array,
    Settings,
    Window,
    _disc,
    _dot_at,
    _grow,
    _label,
    _widened,
)


def _a_dot_covered(cls: Array, cx: float, cy: float) -> bool:
    """Whether a white disc is only a red dot covered by something pale (a hand's
    skin is near the plywood's colour, so only the dot shows the change): it sits
    on a dot and is white over little more than the dot's area (a white coin,
    wider than the dot, is white over a coin's area)."""
    dot = _dot_at(cx, cy)
    if dot is None:
        return False
    win, d2 = _disc(cls.shape, dot[0], dot[1], R_COIN + 2.0)
    return bool(np.count_nonzero((cls[win] == WHITE) & (d2 <= (R_COIN + 2.0) ** 2)) < 0.8 * A_COIN)


def _coins_beside(
    own: Array, fat: Array, lines: Array, bare: Array, striker: bool = False
) -> Array:
    """The pieces of `own` (pixels of a coin's colour) reaching into a hand's pixels
    `fat` that are one coin (or, if `striker`, the striker, law I इ) each: as deep as
    one, not deeper, and no bigger; and, of larger pieces (coins touching each other
    and the hand), the coins in them (see _coins_in). The printed `lines` count as
    neither hand nor board around a piece: they run under both."""
    # A line across a coin cuts its colour in two: the line's pixels between
    # pixels of the colour are the coin's.
    px = own.astype(np.uint8)
    px |= (cv2.morphologyEx(px, cv2.MORPH_CLOSE, _SQUARE5) > 0) & lines
    pieces = cv2.morphologyEx(px, cv2.MORPH_OPEN, _DISC5)
    keep: Array = np.zeros(own.shape, bool)
    n, labels, stats = _label(pieces)
    sizes = (R_COIN, R_STRIKER) if striker else (R_COIN,)
    hand = fat & ~own
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if area < 0.6 * A_COIN:
            continue
        piece = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
        if not fat[y : y + h, x : x + w][piece > 0].any():
            continue
        one = False
        for r in sizes:
            # From 0.6 of a coin and 0.65 of its depth: a line across a coin and its
            # side in the hand's shadow leave that little of its colour in one piece.
            a = math.pi * r * r
            if not 0.6 * a <= area <= 1.25 * a or max(w, h) > 2.4 * r:
                continue
            depth = float(cv2.distanceTransform(np.pad(piece, 1), cv2.DIST_L2, 5).max())
            if not 0.65 * r <= depth <= 1.2 * r:
                continue
            # Beside the hand, not in it: most of the ring around the piece is not hand
            # (a knuckle or a fingertip of the coin's colour is mostly ringed by the hand).
            one = True
            cx, cy = x + w / 2.0, y + h / 2.0
            win, d2 = _disc(fat.shape, cx, cy, r + 7.0)
            ring = (d2 <= (r + 7.0) ** 2) & (d2 > (r + 2.0) ** 2) & ~lines[win]
            if np.count_nonzero(fat[win] & ring) < 0.5 * np.count_nonzero(ring):
                keep[y : y + h, x : x + w] |= piece > 0
            break
        if not one and area <= 4.5 * A_COIN:
            pad = 9  # room for the ring around a disc
            y0, x0 = max(0, y - pad), max(0, x - pad)
            box = slice(y0, y + h + pad), slice(x0, x + w + pad)
            mask = np.zeros(keep[box].shape, np.uint8)
            mask[y - y0 : y - y0 + h, x - x0 : x - x0 + w] = piece
            keep[box] |= _coins_in(mask, hand[box], bare[box], striker)
    return keep


def _coins_in(mask: Array, hand: Array, bare: Array, striker: bool) -> Array:
    """The coins in a piece of a coin's colour (`mask`, in a window around it) a few
    coins big that touches a hand (coins touching each other in its shadow): discs
    taken at the deepest point in turn while it is as deep as a coin and no deeper
    than a piece can be, each kept if mostly of the colour, not mostly ringed by the
    `hand` and with some `bare` board around it (in a dark sleeve, patches of a
    coin's colour are ringed by the sleeve's other colours, not by the board)."""
    mask = mask.copy()
    keep = np.zeros(mask.shape, bool)
    deepest = 1.2 * (R_STRIKER if striker else R_COIN)
    for _ in range(6):
        dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
        peak = float(dist.max())
        if not 0.65 * R_COIN <= peak <= deepest:
            break
        py, px = np.unravel_index(int(np.argmax(dist)), dist.shape)
        r = R_STRIKER if striker and peak > (R_COIN + R_STRIKER) / 2 else R_COIN
        win, d2 = _disc(mask.shape, float(px), float(py), r + 7.0)
        disc = d2 <= (r + 1.0) ** 2
        ring = (d2 <= (r + 7.0) ** 2) & (d2 > (r + 2.0) ** 2)
        full = np.count_nonzero(mask[win] & (d2 <= r * r)) >= 0.6 * math.pi * r * r
        if full and hand[win][ring].mean() < 0.5 and bare[win][ring].mean() >= 0.2:
            keep[win] |= disc & (mask[win] > 0)
        mask[win][disc] = 0
    return keep


def _thick(pixels: Array, ink: Array) -> tuple[Array, Array]:
    """`pixels` opened (specks gone), and that closed over the lines (`ink`): thickness
    counts the printed lines too, or a line across a palm would cut it into thin pieces
    (lines alone are never thick)."""
    m = cv2.morphologyEx(pixels, cv2.MORPH_OPEN, _DISC3)
    return m, cv2.morphologyEx(m | ink, cv2.MORPH_CLOSE, _DISC5)


def _thick_at(
    pixels: Array, ink: Array, limit: float, within: Window | None = None
) -> Window | None:
    """The box (even bounds) around the points where `pixels`, as _thick makes them, may
    be thicker than `limit` px, or None: judged at half size (four times cheaper) in the
    box around the opened pixels widened by twice `limit` (beyond it there are only
    lines, and no point as thick as `limit` is that near its edge). With `within`, only
    the points in that box count."""
    m, thick = _thick(pixels, ink)
    x, y, w, h = cv2.boundingRect(m)
    if w == 0:
        return None
    # Even bounds: the halving then averages the same 2x2 blocks as on the whole view.
    ys, xs = _widened(x, y, w, h, math.ceil(2 * limit), m.shape, even=True)
    y0, x0 = ys.start, xs.start
    size = (xs.stop - x0) // 2, (ys.stop - y0) // 2
    half = cv2.resize(thick[ys, xs], size, interpolation=cv2.INTER_AREA)
    deep = cv2.distanceTransform(half, cv2.DIST_L2, 5) > limit / 2 - 1.0
    if within is not None:
        keep = np.zeros_like(deep)
        wy, wx = within
        top, left = max(0, wy.start - y0) // 2, max(0, wx.start - x0) // 2
        keep[top : max(0, wy.stop - y0) // 2, left : max(0, wx.stop - x0) // 2] = 1
        deep &= keep > 0
    bx, by, bw, bh = cv2.boundingRect(deep.astype(np.uint8))
    if bw == 0:
        return None
    return slice(y0 + 2 * by, y0 + 2 * (by + bh)), slice(x0 + 2 * bx, x0 + 2 * (bx + bw))


def mark_hands(cls: Array, occlusion: Array, settings: Settings) -> None:
    """Anything of a coin's colour, taken together with the unknown pixels next to
    it, that is thicker than any coin is part of a hand or an arm (a dark palm reads
    as black in places): it is set in `occlusion` and becomes OTHER in `cls`, in
    place; it hides what is under it and holds no coins."""
    ink = cv2.LUT(cls, _INK)
    # A palm or a wrist is 80-100 mm across; coins packed together, or a coin on the
    # lines, are never this thick.
    limit = settings.hand_mm / 2 * B.SCALE
    # Each colour's test is on part of what is of any colour but the board's, and every
    # step of it (opening, closing, halving, the distance) keeps a part within the whole:
    # a colour can be that thick only where the whole is (most frames: nowhere; with the
    # coins of the opening packed together, at their middle). So each colour is judged
    # in a window around those points, wide enough that its edge changes nothing there.
    coloured = cv2.LUT(cls, _COLOURED)
    where = _thick_at(coloured, ink, limit)
    if where is None:
        return
    wide = 2 * math.ceil(limit) + 8  # even: the window's halving keeps the view's blocks
    ys, xs = where
    window = _widened(xs.start, ys.start, xs.stop - xs.start, ys.stop - ys.start, wide, cls.shape)
    inner = (
        slice(ys.start - window[0].start, ys.stop - window[0].start),
        slice(xs.start - window[1].start, xs.stop - window[1].start),
    )
    around = cls[window]
    for klass in (BLACK, RED, WHITE):
        pixels = ((around == klass) | (around == OTHER)).astype(np.uint8)
        if _thick_at(pixels, ink[window], limit, inner) is None:
            continue
        m, thick = _thick(((cls == klass) | (cls == OTHER)).astype(np.uint8), ink)
        dt = cv2.distanceTransform(thick, cv2.DIST_L2, 5)
        core = ((dt > limit) & (m > 0)).astype(np.uint8)
        if not core.any():
            continue
        # The lines across a hand cut it into pieces (fingers from the palm): every
        # piece that comes near the thick core is part of it, and so are the lines there.
        near = _grow(core, limit + R_COIN)
        # Pieces of unknown colour (skin, sleeve) that reach the core are all hand;
        # of the coin's colour, only what is near the core (a coin beside the hand stays).
        other = (cls == OTHER).astype(np.uint8)
        n, labels = cv2.connectedComponents(other, connectivity=8, ltype=cv2.CV_16U)
        reached = np.zeros(n, bool)  # a table by label: several times faster than np.isin
        reached[labels[near]] = True
        reached[0] = False
        fat = reached[labels]
        fat |= near & ((m > 0) | (cls == INK))
        # A coin touching the hand: a piece of the coin's colour alone as deep as a
        # coin and no bigger is the coin, not the hand (a dark palm's black patches
        # are deeper or bigger).
        bare = (cls == BOARD) | (cls == INK) | (cls == RED_INK)
        fat &= ~_coins_beside(cls == klass, fat, cls == INK, bare, klass == WHITE)
        occlusion[fat] = 255
        cls[fat] = OTHER
