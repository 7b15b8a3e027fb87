"""Coins and the striker on the top view: colour, position (mm) and confidence.

The detector compares the top view with a reference view of the empty board
taken under the same lamp (`Reference`, recorded at calibration). Against the
reference the board's own markings, its grain, the lamp's fall-off and a fixed
glare all cancel out, and the red centre circle (law I अ.6), the same size as
the queen, is never mistaken for her.

Steps, all on the `board.SCALE` top view:

1. Gain: the median brightness ratio to the reference (the camera's exposure
   drifts); then per pixel the brightness ratio `q` and the change of
   chromaticity `dc`.
2. Pixel classes: black (much darker than the board), red (red chromaticity),
   white (near-neutral and bright) and other (changed but none of those: a
   hand, a sleeve, a strong shadow). A coin whose inside looks like the board
   (under glare, a cream coin is nearly the board's colour) still shows its rim:
   small holes ringed by changed pixels are filled in as white.
3. Per class, connected regions are split into discs of the known sizes
   (coin 31 mm, striker 41.3 mm, law I आ, इ) by repeatedly taking the deepest
   point of the distance transform, refining its centre from the pixels
   around it, and removing the disc. A light disc wider than a coin is the
   striker (one at most).
4. Regions too thick to be coins (a palm, an arm) and large "other" regions
   are occluders: `BoardView.hidden` says which points could not be seen, so
   a coin under a hand is not reported gone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B

Array = npt.NDArray[Any]

# Pixel classes.
BOARD, WHITE, BLACK, RED, OTHER = 0, 1, 2, 3, 4
# Unchanged pixels of the board's black lines and red dots: a black coin on a
# line, or the queen on a red dot, looks like the board there, so these pixels
# may belong to a black coin or to the queen.
INK, RED_INK = 5, 6

R_COIN = B.COIN_D_MM / 2 * B.SCALE
R_STRIKER = B.STRIKER_D_MM / 2 * B.SCALE
A_COIN = math.pi * R_COIN**2
# The least light a region holds to be (or hold) the striker, 1.77 coins' area: lines
# cut it a little, and coins beside it cannot make up for it.
STRIKER_LEAST_LIGHT = 1.3 * A_COIN


@dataclass(frozen=True, slots=True)
class Settings:
    """Thresholds of the detector (see docs/vision.md)."""

    chroma: float = 0.045  # chromaticity change that marks a pixel as changed
    dark: float = 0.5  # brightness ratio below which a pixel is black
    grey: float = 0.72  # share of the plywood's light below which a neutral pixel is black
    shade: float = 0.78  # below this a pixel is changed: a shadow (of a hand) at least
    bright: float = 1.07  # brightness ratio above which a pixel is changed
    powder: float = 0.45  # share of the way to neutral white that powder goes at most
    powder_bright: float = 1.12  # and the most it brightens the board
    red: float = 0.17  # red chromaticity excess over green and blue for the queen
    neutral: float = 0.11  # largest chromaticity spread of a white coin
    white_min: float = 0.72  # brightness ratio a white coin's pixels reach at least
    min_peak: float = 0.62  # least depth of a coin, in coin radii
    min_confidence: float = 0.5  # least share of a disc of its colour (or its rim)
    # A red dot (law I अ.4 ख) in a hand's shadow can make a part-red disc on it; the
    # queen on a dot shows her red over more of hers.
    min_queen_on_dot: float = 0.7
    occluder_area: float = 2.5  # "other" regions larger than this many coins hide what is under
    hand_mm: float = 58.0  # anything this thick (of a coin's colour and unknown) is a hand


@dataclass(frozen=True, slots=True)
class Coin:
    """One detected piece: colour ("white", "black", "queen", "striker"), centre
    in board mm, confidence 0-1 (the share of its disc with its colour)."""

    colour: str
    x_mm: float
    y_mm: float
    confidence: float


@dataclass(frozen=True, slots=True, eq=False)
class BoardView:
    """What the camera saw on the board in one frame."""

    coins: tuple[Coin, ...]
    #: Top-view mask (uint8, 255 = hidden) of what could not be seen.
    occlusion: Array = field(repr=False)

    @property
    def occluded(self) -> float:
        """The share of the playing surface hidden."""
        return float(np.count_nonzero(self.occlusion)) / self.occlusion.size

    def count(self, colour: str) -> int:
        return sum(1 for c in self.coins if c.colour == colour)

    def counts(self) -> dict[str, int]:
        return {c: self.count(c) for c in B.COLOURS}

    def hidden(self, x_mm: float, y_mm: float, margin_mm: float = 16.0) -> bool:
        """Whether anything within `margin_mm` of a point was hidden."""
        u, v = B.mm_to_top(x_mm, y_mm)
        m = margin_mm * B.SCALE
        h, w = self.occlusion.shape
        x0, x1 = max(0, int(u - m)), min(w, int(u + m) + 1)
        y0, y1 = max(0, int(v - m)), min(h, int(v + m) + 1)
        if x0 >= x1 or y0 >= y1:
            return False
        return bool(self.occlusion[y0:y1, x0:x1].any())


class Reference:
    """The empty board's top view, against which frames are compared."""

    def __init__(self, views: Sequence[Array]) -> None:
        if not views:
            raise ValueError("a reference needs at least one view of the empty board")
        stack = np.stack([np.asarray(v, np.float32) for v in views])
        ref = np.median(stack, axis=0) if len(views) > 1 else stack[0]
        if ref.shape != (B.TOP_PX, B.TOP_PX, 3):
            raise ValueError(f"a reference view must be a {B.TOP_PX}x{B.TOP_PX} BGR top view")
        self.image: Array = cv2.GaussianBlur(ref, (3, 3), 0)
        self._derive()

    def blend(self, top: Array, mask: Array, rate: float) -> None:
        """Move the reference towards a top view where `mask` is set (pixels seen
        to be bare board): powder and a drifting lamp become part of the board."""
        view = cv2.GaussianBlur(top.astype(np.float32), (3, 3), 0)
        m = (mask > 0)[:, :, None]
        self.image = np.where(m, self.image + rate * (view - self.image), self.image).astype(
            np.float32
        )
        self._derive()

    def _derive(self) -> None:
        ref = self.image
        self.intensity: Array = ref.sum(axis=2) + 3.0
        self.chroma: Array = ref / self.intensity[:, :, None]
        self.median = float(np.median(self.intensity))
        inside = np.zeros(self.intensity.shape, bool)
        inside[B.surface_slice(), B.surface_slice()] = True
        self.frame: Array = ~inside
        dark = (self.intensity < 0.55 * self.median).astype(np.uint8)
        # Lines, not pockets: what a 7 px disc cannot fit into.
        wide = cv2.morphologyEx(
            dark, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
        )
        self.ink: Array = (dark > 0) & (wide == 0)
        # The pockets: very dark, where law I puts them (under lamp fall-off the print
        # where the lines meet is as dark, and a black coin there must still be seen).
        self.hole: Array = inside & (self.intensity < 0.35 * self.median) & _POCKET_AREA
        # The light falling on the board with the print closed over: how bright the
        # plywood would be at each pixel. The kernel is wider than the red dots and the
        # centre circle (law I अ.4, अ.6), so a black coin on them is judged against the
        # plywood too.
        self.light: Array = cv2.morphologyEx(
            self.intensity, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (25, 25))
        )
        self.printed: Array = self.intensity < 0.85 * self.light
        c = self.chroma
        self.cb, self.cg, self.cr = (np.ascontiguousarray(c[:, :, k]) for k in range(3))
        self.nb, self.ng, self.nr = (1.0 / 3.0 - p for p in (self.cb, self.cg, self.cr))
        span2 = self.nb**2 + self.ng**2 + self.nr**2
        self.inv_span2: Array = 1.0 / (span2 + 1e-4)
        self.wide_span: Array = span2 > 0.05**2
        excess = c[:, :, 2] - np.maximum(c[:, :, 0], c[:, :, 1])
        self.red_ink: Array = (excess > float(np.median(excess)) + 0.12) & inside
        # The black print (lines, arrows, where they meet), not the dots or pockets.
        self.black_print: Array = self.printed & ~self.red_ink & ~_POCKET_AREA
        self._sample = (slice(2, None, 4), slice(2, None, 4))


def bootstrap_reference(top: Array) -> Reference:
    """A reference from a top view with coins on it, when no view of the empty
    board was taken: the coins are painted over with the board around them, and
    the red centre circle (law I अ.6), which the queen covers at the start of a
    board, is painted back where the laws put it, in the red of the base circles
    (अ.4 ख) that are seen. A view of the empty board is better; this lets the
    kiosk start without one. (The markings under other coins are not restored:
    until the reference learns them, a line uncovered there reads as a change.)
    """
    img = np.asarray(top, np.uint8)
    if img.shape != (B.TOP_PX, B.TOP_PX, 3):
        raise ValueError(f"a reference view must be a {B.TOP_PX}x{B.TOP_PX} BGR top view")
    f = img.astype(np.float32)
    inten = f.sum(axis=2) + 3.0
    chroma = f / inten[:, :, None]
    sl = B.surface_slice()
    board_c = np.median(chroma[sl, sl].reshape(-1, 3), axis=0)
    dc = np.sqrt(((chroma - board_c) ** 2).sum(axis=2))
    # The light on the board: the brightness with lines closed over, smoothed widely
    # (the frame around it filled with the board's middle brightness first).
    k9 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
    closed = cv2.morphologyEx(inten, cv2.MORPH_CLOSE, k9)
    filled = np.full_like(closed, float(np.median(closed[sl, sl])))
    filled[sl, sl] = closed[sl, sl]
    light = cv2.GaussianBlur(filled, (0, 0), 25)
    q = inten / light
    coins = ((dc > 0.06) | (q < 0.6) | (q > 1.15)).astype(np.uint8)
    on_board = np.zeros_like(coins)
    on_board[sl, sl] = 1
    coins &= on_board
    # Lines are thinner than a coin: an opening with a 7 px disc keeps only coins.
    coins = cv2.morphologyEx(
        coins, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    )
    coins = cv2.dilate(coins, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    # Keep the pockets and the red base-circle dots as they are.
    red_dots = np.zeros_like(coins)
    s = B.SURFACE_MM
    half = B.BASELINE_LEN_MM / 2
    d = B.BASELINE_IN_MM + B.BASELINE_GAP_MM / 2
    dots = []
    for e in (s / 2 - half, s / 2 + half):
        dots += [(e, d), (d, e), (e, s - d), (s - d, e)]
    r_dot = B.BASE_RED_D_MM / 2 * B.SCALE
    for x, y in dots:
        u, v = B.mm_to_top(x, y)
        cv2.circle(red_dots, (round(u), round(v)), round(r_dot + 1), 1, -1)
    for x, y in B.POCKETS_MM:
        u, v = B.mm_to_top(x, y)
        cv2.circle(coins, (round(u), round(v)), round(B.POCKET_D_MM / 2 * B.SCALE + 2), 0, -1)
    seen_dots = red_dots > 0
    coins[seen_dots] = 0
    painted = cv2.inpaint(img, coins, 5, cv2.INPAINT_TELEA)
    c = chroma
    redness = c[:, :, 2] - np.maximum(c[:, :, 0], c[:, :, 1])
    red_px = seen_dots & (redness > float(np.median(redness)) + 0.15)
    if red_px.any():
        red = tuple(float(v) for v in np.median(f[red_px], axis=0))
        u, v = B.mm_to_top(s / 2, s / 2)
        r = B.CENTRE_D_MM / 2 * B.SCALE
        f16 = 16
        centre = (round(u * f16), round(v * f16))
        cv2.circle(painted, centre, round(r * f16), red, -1, cv2.LINE_AA, 4)
    return Reference([painted])


def classify(top: Array, ref: Reference, settings: Settings = Settings()) -> Array:
    """The class of every top-view pixel (BOARD, WHITE, BLACK, RED, OTHER)."""
    return classify_soft(top, ref, settings)[0]


def classify_soft(
    top: Array, ref: Reference, settings: Settings = Settings()
) -> tuple[Array, Array]:
    """The class of every pixel, and how strongly it differs from the board (0-1):
    the weight that places a coin's centre to a fraction of a pixel."""
    # Planes, not an (h, w, 3) array: numpy is several times faster on contiguous planes.
    b, g, r = (p.astype(np.float32) for p in cv2.split(top))
    inten = b + g + r + 3.0
    ratio = inten / ref.intensity
    gain = max(float(np.median(ratio[ref._sample])), 1e-3)
    q = ratio * (1.0 / gain)
    inv = 1.0 / inten
    cb, cg, cr = b * inv, g * inv, r * inv
    sb, sg, sr = cb - ref.cb, cg - ref.cg, cr - ref.cr
    dc = np.sqrt(sb * sb + sg * sg + sr * sr)
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
    hole = ref.hole
    changed[hole] = (inten - gain * ref.intensity)[hole] > 0.3 * ref.median
    # Over the (dark) frame: anything clearly lighter, darker or of another colour is
    # a hand or a sleeve reaching in; powder and glare rules do not apply there.
    frame = ref.frame
    changed[frame] = ((q > 1.35) | (q < 0.7) | ((dc > 0.06) & (inten > 60.0)))[frame]
    cls: Array = np.full(q.shape, BOARD, np.uint8)
    idx = np.flatnonzero(changed)
    flat = cls.ravel()
    flat[idx] = OTHER
    if idx.size:
        cbi, cgi, cri, qi = cb.ravel()[idx], cg.ravel()[idx], cr.ravel()[idx], q.ravel()[idx]
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
    strength = np.minimum(1.0, dc * (0.5 / settings.chroma) + np.abs(q - 1.0) * 2.0)
    # On a line, anything dark may be the line or a black coin; on a red dot,
    # anything red may be the dot or the queen.
    dark_here = inten < (settings.dark * gain) * ref.light
    cls[ref.ink & ((dark_here & (cls != RED)) | (cls == BOARD))] = INK
    # Where the print is too wide or too dark to be a line (where the base lines meet
    # a base circle, under lamp fall-off), a black coin may look unchanged too.
    cls[ref.black_print & dark_here & (cls == BOARD)] = INK
    cls[ref.red_ink & (cls == BOARD)] = RED_INK
    strength[(cls == INK) | (cls == RED_INK)] = 1.0
    return cls, strength


def _fill_rings(cls: Array, q: Array, dots: Array) -> None:
    """Coin-sized holes of board ringed by changed pixels, a little brighter than
    the board: a pale coin under glare. Not a printed red dot (`dots`), the size of
    a coin and ringed by ink, whose red may saturate the camera and seem brighter."""
    # Holes: board pixels the flood from the border does not reach.
    outside = np.pad((cls == BOARD).astype(np.uint8), 1, constant_values=1)
    cv2.floodFill(outside, None, (0, 0), 2)
    holes = (outside[1:-1, 1:-1] == 1).astype(np.uint8)
    n, labels, stats = _label(holes, connectivity=4)
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area > 1.3 * A_COIN or area < 0.15 * A_COIN:
            continue
        if max(bw, bh) > 2.4 * R_COIN or min(bw, bh) < 0.8 * R_COIN:
            continue
        box = slice(y, y + bh), slice(x, x + bw)
        inside = labels[box] == i
        if float(q[box][inside].mean()) > 1.03 and dots[box][inside].mean() < 0.5:
            cls[box][inside] = WHITE


_SQUARE3 = np.ones((3, 3), np.uint8)
_SQUARE5 = np.ones((5, 5), np.uint8)
_DISC5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_DISC7 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
_DISC9 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
_SQUARE15 = np.ones((15, 15), np.uint8)  # about a coin across (a square is much faster)


def _frame_band() -> Array:
    """The frame in the top view, less the 3 px next to the surface's edge (where the
    calibration and the blur leave a seam)."""
    band: Array = np.ones((B.TOP_PX, B.TOP_PX), np.uint8)
    m = round(B.MARGIN_MM * B.SCALE) - 3
    band[m : B.TOP_PX - m, m : B.TOP_PX - m] = 0
    return band


_FRAME_BAND = _frame_band()


def _pocket_area() -> Array:
    """The pockets (law I अ.3) in the top view, 3 px wider for the calibration."""
    area = np.zeros((B.TOP_PX, B.TOP_PX), np.uint8)
    r = B.POCKET_D_MM / 2 * B.SCALE + 3.0
    for x, y in B.POCKETS_MM:
        u, v = B.mm_to_top(x, y)
        cv2.circle(area, (round(u * 16), round(v * 16)), round(r * 16), 1, -1, cv2.LINE_8, 4)
    pockets: Array = area > 0
    return pockets


_POCKET_AREA = _pocket_area()


def _red_dots() -> list[tuple[float, float]]:
    """The red dots at the ends of the base lines (law I अ.4 ख), top-view px."""
    s, half = B.SURFACE_MM, B.BASELINE_LEN_MM / 2
    d = B.BASELINE_IN_MM + B.BASELINE_GAP_MM / 2
    dots: list[tuple[float, float]] = []
    for e in (s / 2 - half, s / 2 + half):
        dots += [B.mm_to_top(e, d), B.mm_to_top(d, e), B.mm_to_top(e, s - d), B.mm_to_top(s - d, e)]
    return dots


_RED_DOTS = _red_dots()
R_DOT = B.BASE_RED_D_MM / 2 * B.SCALE


def _dot_at(cx: float, cy: float) -> tuple[float, float] | None:
    """The red dot whose centre is within 4 px (8 mm) of a point, if one is."""
    return next(((u, v) for u, v in _RED_DOTS if (u - cx) ** 2 + (v - cy) ** 2 <= 4.0**2), None)


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


def _grow(mask: Array, r: float) -> Array:
    """The pixels within r of a set pixel (a round dilation; a distance transform is
    much faster than a large elliptic kernel)."""
    grown: Array = np.zeros(mask.shape, bool)
    x, y, w, h = cv2.boundingRect(mask.astype(np.uint8))
    if w == 0:
        return grown
    # Only the box around the set pixels, widened by r, can be reached.
    m = math.ceil(r) + 1
    box = slice(max(0, y - m), y + h + m), slice(max(0, x - m), x + w + m)
    dist = cv2.distanceTransform((mask[box] == 0).astype(np.uint8), cv2.DIST_L2, 3)
    grown[box] = dist <= r
    return grown


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


Window = tuple[slice, slice]


def _label(mask: Array, connectivity: int = 8) -> tuple[int, Array, Array]:
    """Connected regions of a mask: their number with the background,
    the labels and the stats, as cv2.connectedComponentsWithStats gives them; only
    the box around the set pixels is labelled, which is most of the cost."""
    x0, y0, w, h = cv2.boundingRect(mask)
    labels: Array = np.zeros(mask.shape, np.uint16)
    if w == 0:
        return 1, labels, np.zeros((1, 5), np.int32)
    n, labels[y0 : y0 + h, x0 : x0 + w], stats, _ = cv2.connectedComponentsWithStats(
        mask[y0 : y0 + h, x0 : x0 + w], connectivity=connectivity, ltype=cv2.CV_16U
    )
    stats[1:, 0] += x0
    stats[1:, 1] += y0
    return int(n), labels, stats


def _disc(shape: tuple[int, ...], cx: float, cy: float, r: float) -> tuple[Window, Array]:
    """The window of an image around a disc, and the squared distance from the
    disc's centre of each pixel in it (`d2 <= r * r` is the disc). Slicing a window
    is several times faster than gathering the disc's pixels by index."""
    h, w = shape[:2]
    x0, x1 = max(0, int(cx - r - 1)), min(w, int(cx + r + 2))
    y0, y1 = max(0, int(cy - r - 1)), min(h, int(cy + r + 2))
    dy = (np.arange(y0, y1, dtype=np.float32) - cy)[:, None]
    dx = (np.arange(x0, x1, dtype=np.float32) - cx)[None, :]
    return (slice(y0, y1), slice(x0, x1)), dx * dx + dy * dy


def _disc_share(mask: Array, cx: float, cy: float, r: float) -> float:
    """The share of a disc's pixels set in `mask` (0 if the disc is off the image)."""
    win, d2 = _disc(mask.shape, cx, cy, r)
    inside = d2 <= r * r
    n = int(np.count_nonzero(inside))
    return float(np.count_nonzero(mask[win] & inside)) / n if n else 0.0


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


def detect(top: Array, ref: Reference, settings: Settings = Settings()) -> BoardView:
    """Every coin and the striker on a top view (see the module docstring)."""
    cls, strength = classify_soft(top, ref, settings)
    return detect_classes(cls, strength, settings)


def detect_classes(cls: Array, strength: Array, settings: Settings = Settings()) -> BoardView:
    """Coins from an already classified top view."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    occlusion: Array = np.zeros(cls.shape, np.uint8)
    found: list[tuple[str, float, float, float]] = []
    striker_left = [True]
    cls = cls.copy()
    # Anything of a coin's colour, taken together with the unknown pixels next to it,
    # that is thicker than any coin is part of a hand or an arm (a dark palm reads as
    # black in places): it hides what is under it and holds no coins.
    for klass in (BLACK, RED, WHITE):
        m = cv2.morphologyEx(
            ((cls == klass) | (cls == OTHER)).astype(np.uint8), cv2.MORPH_OPEN, kernel
        )
        # Thickness counts the printed lines too, or a line across a palm would cut it
        # into thin pieces; lines alone are never thick.
        thick = cv2.morphologyEx(m | (cls == INK).astype(np.uint8), cv2.MORPH_CLOSE, _DISC5)
        # At half size first: four times cheaper, and most frames have no hand.
        half = cv2.resize(thick, (B.TOP_PX // 2, B.TOP_PX // 2), interpolation=cv2.INTER_AREA)
        # A palm or a wrist is 80-100 mm across; coins packed together, or a coin on
        # the lines, are never this thick.
        limit = settings.hand_mm / 2 * B.SCALE
        if float(cv2.distanceTransform(half, cv2.DIST_L2, 5).max()) <= limit / 2 - 1.0:
            continue
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
        fat_labels = np.unique(labels[near])
        fat = np.isin(labels, fat_labels[fat_labels > 0])
        fat |= near & ((m > 0) | (cls == INK))
        # A coin touching the hand: a piece of the coin's colour alone as deep as a
        # coin and no bigger is the coin, not the hand (a dark palm's black patches
        # are deeper or bigger).
        bare = (cls == BOARD) | (cls == INK) | (cls == RED_INK)
        fat &= ~_coins_beside(cls == klass, fat, cls == INK, bare, klass == WHITE)
        occlusion[fat] = 255
        cls[fat] = OTHER
    ink, red_ink = cls == INK, cls == RED_INK
    for klass, colour in ((WHITE, "white"), (BLACK, "black"), (RED, "queen")):
        own_px = (cls == klass).astype(np.uint8)
        if klass == RED:
            # The queen on a red dot (at the start, on the centre circle, law I अ.6) is
            # told from it only here and there: the dot's pixels among hers are hers.
            among = cv2.blur(own_px.astype(np.float32), (5, 5)) >= 0.3
            own_px = own_px | (red_ink & among).astype(np.uint8)
        real = cv2.morphologyEx(own_px, cv2.MORPH_OPEN, kernel)
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
        for i in range(1, n):
            x, y, w, h, area = stats[i]
            if area < 0.35 * A_COIN:
                continue
            if (
                np.count_nonzero(real[y : y + h, x : x + w][labels[y : y + h, x : x + w] == i])
                < 0.3 * A_COIN
            ):
                continue
            p = 3
            x0, y0 = max(0, x - p), max(0, y - p)
            x1, y1 = min(cls.shape[1], x + w + p), min(cls.shape[0], y + h + p)
            region = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
            sub = cls[y0:y1, x0:x1]
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
                strength[y0:y1, x0:x1],
                colour,
                settings,
                striker_left,
                forced is not None and k == forced,
            )
            if occluder:
                occlusion[y0:y1, x0:x1][region > 0] = 255
                continue
            found.extend((name, cx + x0, cy + y0, conf) for name, cx, cy, conf in discs)
    # What no disc explains is an occluder: a hand, an arm, a sleeve, its shadow.
    fg = ((cls == WHITE) | (cls == BLACK) | (cls == RED) | (cls == OTHER)).astype(np.uint8)
    explained: Array = np.zeros_like(fg)
    for name, cx, cy, _ in found:
        r = (R_STRIKER if name == "striker" else R_COIN) + 2.0
        cv2.circle(explained, (round(cx * 16), round(cy * 16)), round(r * 16), 1, -1, cv2.LINE_8, 4)
    rest = cv2.morphologyEx(fg & (1 - explained), cv2.MORPH_OPEN, kernel)
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
