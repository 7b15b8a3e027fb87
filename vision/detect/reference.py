"""The empty board's top view (`Reference`), against which frames are compared,
and `bootstrap_reference` when no view of the empty board was taken.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from vision import board as B
from vision.detect.common import _POCKET_AREA, Array

# The frame around the playing surface in the top view, its flat indices and the
# surface inside it: fixed by the view's geometry, the same for every reference.
_FRAME = np.ones((B.TOP_PX, B.TOP_PX), bool)
_FRAME[B.surface_slice(), B.surface_slice()] = False
_FRAME_AT = np.flatnonzero(_FRAME)
_INSIDE = ~_FRAME


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
        cv2.accumulateWeighted(view, self.image, rate, (mask > 0).astype(np.uint8))
        self._derive()

    def _derive(self) -> None:
        # On the colour planes: numpy sums across an (h, w, 3) array's last axis slowly.
        b, g, r = cv2.split(self.image)
        self.intensity: Array = b + g
        self.intensity += r
        self.intensity += 3.0
        self.cb, self.cg, self.cr = b / self.intensity, g / self.intensity, r / self.intensity
        self.median = float(np.median(self.intensity))
        dark = (self.intensity < 0.55 * self.median).astype(np.uint8)
        # Lines, not pockets: what a 7 px disc cannot fit into.
        wide = cv2.morphologyEx(
            dark, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
        )
        self.ink: Array = (dark > 0) & (wide == 0)
        # The pockets: very dark, where law I puts them (under lamp fall-off the print
        # where the lines meet is as dark, and a black coin there must still be seen).
        hole = _INSIDE & (self.intensity < 0.35 * self.median) & _POCKET_AREA
        # The light falling on the board with the print closed over: how bright the
        # plywood would be at each pixel. The kernel is wider than the red dots and the
        # centre circle (law I अ.4, अ.6), so a black coin on them is judged against the
        # plywood too.
        self.light: Array = cv2.morphologyEx(
            self.intensity, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (25, 25))
        )
        self.printed: Array = self.intensity < 0.85 * self.light
        self.nb, self.ng, self.nr = (1.0 / 3.0 - p for p in (self.cb, self.cg, self.cr))
        span2 = self.nb**2 + self.ng**2 + self.nr**2
        self.inv_span2: Array = 1.0 / (span2 + 1e-4)
        self.wide_span: Array = span2 > 0.05**2
        excess = self.cr - np.maximum(self.cb, self.cg)
        self.red_ink: Array = (excess > float(np.median(excess)) + 0.12) & _INSIDE
        # The black print (lines, arrows, where they meet), not the dots or pockets.
        black_print = self.printed & ~self.red_ink & ~_POCKET_AREA
        self._sample = (slice(2, None, 4), slice(2, None, 4))
        # The flat indices of the pockets, the frame and the print, and what is known of
        # each there: each frame's tests on them gather these few per cent of the view.
        self.hole_at: Array = np.flatnonzero(hole)
        self.hole_intensity: Array = self.intensity.ravel()[self.hole_at]
        self.frame_at: Array = _FRAME_AT
        self.print_at: Array = np.flatnonzero(self.ink | black_print | self.red_ink)
        at = self.print_at
        self.print_ink: Array = self.ink.ravel()[at]
        self.print_black: Array = black_print.ravel()[at]
        self.print_red: Array = self.red_ink.ravel()[at]
        self.print_light: Array = self.light.ravel()[at]


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
