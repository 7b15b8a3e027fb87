"""Pixel classes: every top-view pixel as board, white, black, red (the queen),
other (a hand, a sleeve, a shadow), or print a coin may lie on.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect.common import (
    _DISC9,
    A_COIN,
    BLACK,
    BOARD,
    DEFAULTS,
    INK,
    OTHER,
    R_COIN,
    RED,
    RED_INK,
    WHITE,
    Array,
    Settings,
    _label,
)
from vision.detect.reference import Reference


def classify(top: Array, ref: Reference, settings: Settings = DEFAULTS) -> Array:
    """The class of every top-view pixel (BOARD, WHITE, BLACK, RED, OTHER)."""
    return classify_soft(top, ref, settings)[0]


def classify_soft(top: Array, ref: Reference, settings: Settings = DEFAULTS) -> tuple[Array, Array]:
    """The class of every pixel, and how strongly it differs from the board (0-1):
    the weight that places a coin's centre to a fraction of a pixel."""
    # Planes, not an (h, w, 3) array: numpy is several times faster on contiguous planes.
    # In place where it can be: each full-view temporary costs as much as the sum itself.
    b, g, r = (channel.astype(np.float32) for channel in cv2.split(top))
    inten = b + g
    inten += r
    inten += 3.0
    q = inten / ref.intensity
    gain = max(float(np.median(q[ref._sample])), 1e-3)
    q *= 1.0 / gain
    inv = 1.0 / inten
    sb, sg, sr = b * inv, g * inv, r * inv  # the chromaticity, then its change
    sb -= ref.cb
    sg -= ref.cg
    sr -= ref.cr
    dc = sb * sb
    square = sg * sg
    dc += square
    np.multiply(sr, sr, out=square)
    dc += square
    np.sqrt(dc, out=dc)
    changed = (dc > settings.chroma) | (q < settings.shade) | (q > settings.bright)
    # The finer tests run on the changed pixels only (a few per cent of the board).
    idx = np.flatnonzero(changed)
    if idx.size:
        sbi, sgi, sri, qi = sb.ravel()[idx], sg.ravel()[idx], sr.ravel()[idx], q.ravel()[idx]
        nb, ng, nr = ref.nb.ravel()[idx], ref.ng.ravel()[idx], ref.nr.ravel()[idx]
        # Powder (law 119) is white dust: it moves a pixel's colour part of the way
        # from the board's towards neutral white and brightens it a little. `toward`
        # is how far along that way a pixel went (a cream coin goes most of the way),
        # `aside` how far it strayed from it.
        toward = (sbi * nb + sgi * ng + sri * nr) * ref.inv_span2.ravel()[idx]
        ab, ag, ar = sbi - toward * nb, sgi - toward * ng, sri - toward * nr
        aside = np.sqrt(ab * ab + ag * ag + ar * ar)
        pale = (toward > -0.1) & (aside < settings.chroma)
        powder = ref.wide_span.ravel()[idx] & pale & (toward < settings.powder)
        powder &= (qi > 0.93) & (qi < settings.powder_bright)
        # A red dot under powder grows paler and brighter; the queen on it does not.
        powder |= ref.red_ink.ravel()[idx] & (qi > 0.97) & (qi < 1.6)
        # A shadow (of a hand) on a red dot darkens it without changing its colour.
        powder |= ref.red_ink.ravel()[idx] & (dc.ravel()[idx] < 0.035) & (qi > 0.45)
        # A black line under powder turns grey, but stays darker than the plywood;
        # a white coin on it is far brighter.
        greyed = inten.ravel()[idx] < 0.85 * gain * ref.light.ravel()[idx]
        powder |= ref.ink.ravel()[idx] & (qi > 1.0) & (qi < 4.5) & greyed
        changed.ravel()[idx[powder]] = False
    # Over the pockets the reference is nearly black and its colour is noise: only
    # something clearly brighter (a coin hanging over the edge, law 71) counts there.
    at = ref.hole_at
    lift = inten.ravel()[at] - gain * ref.hole_intensity
    changed.ravel()[at] = lift > 0.3 * ref.median
    # Over the (dark) frame: anything clearly lighter, darker or of another colour is
    # a hand or a sleeve reaching in; powder and glare rules do not apply there.
    at = ref.frame_at
    qf, dcf = q.ravel()[at], dc.ravel()[at]
    changed.ravel()[at] = (qf > 1.35) | (qf < 0.7) | ((dcf > 0.06) & (inten.ravel()[at] > 60.0))
    cls: Array = np.full(q.shape, BOARD, np.uint8)
    idx = np.flatnonzero(changed)
    flat = cls.ravel()
    flat[idx] = OTHER
    if idx.size:
        invi, qi = inv.ravel()[idx], q.ravel()[idx]
        cbi, cgi, cri = b.ravel()[idx] * invi, g.ravel()[idx] * invi, r.ravel()[idx] * invi
        spread = np.maximum(np.maximum(cbi, cgi), cri) - np.minimum(np.minimum(cbi, cgi), cri)
        white = (spread < settings.neutral) & (qi >= settings.white_min)
        red = (cri - np.maximum(cgi, cbi) > settings.red) & (qi >= settings.dark * 0.5)
        # Over the print (lines, arrows, red dots), darkness is judged against the
        # plywood's light, not the darker print: a black coin on an arrow is only a
        # little darker than the arrow.
        lit = ref.light.ravel()[idx] * gain
        absolute = inten.ravel()[idx] < settings.dark * lit
        # On a red dot, a reddish pixel far darker than the queen ever is (she is
        # at least 0.4 of the plywood's light) is a black coin's edge over the dot,
        # or its shadow there.
        red &= ~(ref.red_ink.ravel()[idx] & (inten.ravel()[idx] < 0.3 * lit))
        black = ((qi < settings.dark) | (ref.printed.ravel()[idx] & absolute)) & ~red
        flat[idx[white]] = WHITE
        flat[idx[black]] = BLACK
        flat[idx[red]] = RED
        # Under glare a black coin turns grey, but stays well below the plywood's
        # light (a white coin is at least as bright as the plywood). Coins' rims and
        # the shadows between packed coins are grey too, but thin: only grey that
        # holds a disc most of a coin's radius across is a black coin.
        grey = (spread < settings.neutral) & (inten.ravel()[idx] < settings.grey * lit)
        grey &= ~black & ~red
        if np.count_nonzero(grey) >= 0.5 * A_COIN:
            sel = idx[grey]
            mask = np.zeros(q.shape, np.uint8)
            mask.ravel()[sel] = 1
            # Only around the grey pixels: the opening of the whole view costs more.
            rows, cols = sel // q.shape[1], sel % q.shape[1]
            y0, y1 = max(0, int(rows.min()) - 5), int(rows.max()) + 6
            x0, x1 = max(0, int(cols.min()) - 5), int(cols.max()) + 6
            core = np.zeros_like(mask)
            core[y0:y1, x0:x1] = cv2.morphologyEx(mask[y0:y1, x0:x1], cv2.MORPH_OPEN, _DISC9)
            flat[sel[core.ravel()[sel] > 0]] = BLACK
    _fill_rings(cls, q, ref.red_ink)
    # min(1, dc * k + |q - 1| * 2), in place (dc is not needed after this)
    strength = q - 1.0
    np.abs(strength, out=strength)
    strength *= 2.0
    dc *= 0.5 / settings.chroma
    strength += dc
    np.minimum(strength, 1.0, out=strength)
    # On a line, anything dark may be the line or a black coin; on a red dot,
    # anything red may be the dot or the queen. (On the print's pixels only.)
    at = ref.print_at
    here = flat[at]
    dark_here = inten.ravel()[at] < (settings.dark * gain) * ref.print_light
    here[ref.print_ink & ((dark_here & (here != RED)) | (here == BOARD))] = INK
    # Where the print is too wide or too dark to be a line (where the base lines meet
    # a base circle, under lamp fall-off), a black coin may look unchanged too.
    here[ref.print_black & dark_here & (here == BOARD)] = INK
    here[ref.print_red & (here == BOARD)] = RED_INK
    flat[at] = here
    strength.ravel()[at[(here == INK) | (here == RED_INK)]] = 1.0
    return cls, strength


def _fill_rings(cls: Array, q: Array, dots: Array) -> None:
    """Coin-sized holes of board ringed by changed pixels, a little brighter than
    the board: a pale coin under glare. Not a printed red dot (`dots`), the size of
    a coin and ringed by ink, whose red may saturate the camera and seem brighter."""
    # Holes: board pixels the flood from the border does not reach. All lie inside the
    # box around what is not board, and the board around that box is all outside.
    x, y, w, h = cv2.boundingRect((cls != BOARD).astype(np.uint8))
    if w == 0:
        return
    outside = np.ones((h + 2, w + 2), np.uint8)
    outside[1:-1, 1:-1] = cls[y : y + h, x : x + w] == BOARD
    cv2.floodFill(outside, None, (0, 0), 2)
    holes = np.zeros(cls.shape, np.uint8)
    holes[y : y + h, x : x + w] = outside[1:-1, 1:-1] == 1
    _, labels, stats = _label(holes, connectivity=4)
    bw, bh, area = stats[:, 2], stats[:, 3], stats[:, 4]
    fits = (area <= 1.3 * A_COIN) & (area >= 0.15 * A_COIN)
    fits &= (np.maximum(bw, bh) <= 2.4 * R_COIN) & (np.minimum(bw, bh) >= 0.8 * R_COIN)
    fits[0] = False
    for i in np.flatnonzero(fits).tolist():
        x, y, bw, bh, _ = stats[i]
        box = slice(y, y + bh), slice(x, x + bw)
        inside = labels[box] == i
        if float(q[box][inside].mean()) > 1.03 and dots[box][inside].mean() < 0.5:
            cls[box][inside] = WHITE
