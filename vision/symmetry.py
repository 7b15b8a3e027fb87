"""The board's print, as the detector reads it cold: law I prints the board the same
after a quarter turn or a mirror, so a proposal repeated at its symmetric places
(`orbit`, `printed_pattern`) is the print's candidate; the board's centre is its own
image under every symmetry (`centre_queen`, `off_centre_white`: what can still be told
there). Also the class of a disc of change by its colour and size against the board
(`colour_class`), when neither the network nor a learned set says.
"""

from __future__ import annotations

import math

import numpy as np

from vision import board as B
from vision.empty import SURFACE, EmptyBoard
from vision.params import PARAMS, DetectorParams
from vision.shape import across_share, gradients, radial_outline
from vision.view import EPS, R_COIN, Array, Coin, disc_lab, disc_window, share

#: The top view's centre (the board's), px.
MID_PX = (B.TOP_PX - 1) / 2


def colour_class(
    top_lab: Array,
    empty: EmptyBoard,
    u: float,
    v: float,
    r: float,
    kept: bool = False,
    p: DetectorParams = PARAMS,
) -> tuple[str, str | None]:
    """The class of a disc of change by its colour and size against the board around
    it, when no learned set says better: wider than a man is the striker; redder than
    the plywood the queen; darker black; else white. Cold (not `kept`), a photo's blur
    widens a man's change by a pixel or two: between a man's size and a striker's the
    other class is returned too (the piece is in doubt)."""
    if r > (p.striker_from if kept else p.striker_cold) * R_COIN:
        return "striker", None
    man = man_class(top_lab, empty, u, v, r, p)
    if not kept and r > p.man_cold * R_COIN:
        return man, "striker"
    return man, None


def man_class(
    top_lab: Array, empty: EmptyBoard, u: float, v: float, r: float, p: DetectorParams = PARAMS
) -> str:
    """A man's class by his face against the board under him: the queen when redder
    than the plywood, black when darker than the board, else white."""
    win, inside = disc_window(top_lab.shape, u, v, p.class_disc * r)
    here = top_lab[win][inside]
    board = empty.lab[win][inside]
    dl = float(np.median(here[:, 0]) - np.median(board[:, 0]))
    # Redness against the plywood (the board's median), not the print under the piece:
    # the queen on the red centre circle is no redder than the circle.
    if float(np.median(here[:, 1])) > empty.plywood_a() + p.queen_redder:
        return "queen"
    return "black" if dl < -p.black_darker else "white"


def red_print(empty: EmptyBoard, u: float, v: float, r: float, p: DetectorParams = PARAMS) -> bool:
    """Whether the board's print within a little more than a disc is as red as the
    queen (redder than the plywood as `man_class` reads her)."""
    win, inside = disc_window(empty.lab.shape, u, v, p.red_print_reach * r)
    a = empty.lab[win][inside][:, 1]
    red = empty.plywood_a() + p.queen_redder
    return bool(len(a)) and float(np.percentile(a, p.red_percentile)) > red


def orbit(u: float, v: float) -> list[tuple[float, float]]:
    """The places of a top-view point under the board's eight symmetries (law I prints
    the board the same after a quarter turn or a mirror), itself first."""
    c = MID_PX
    x, y = u - c, v - c
    pts = [(x, y), (y, x), (-x, y), (-y, x), (x, -y), (y, -x), (-x, -y), (-y, -x)]
    return [(c + a, c + b) for a, b in pts]


def printed_pattern(c: Coin, proposals: list[Coin], p: DetectorParams = PARAMS) -> bool:
    """Whether a proposal repeats at its symmetric places (most of the distinct ones hold
    a proposal): a printed pattern, or pieces over one, not a piece alone."""
    near = p.pattern_near_px
    u, v = B.mm_to_top(c.x_mm, c.y_mm)
    others: list[tuple[float, float]] = []
    for a, b in orbit(u, v)[1:]:
        if (a - u) ** 2 + (b - v) ** 2 > near**2 and all(
            (a - q) ** 2 + (b - w) ** 2 > near**2 for q, w in others
        ):
            others.append((a, b))
    if not others:
        return False
    same = [B.mm_to_top(o.x_mm, o.y_mm) for o in proposals if o is not c]
    hit = sum(1 for a, b in others if any((a - q) ** 2 + (b - w) ** 2 <= near**2 for q, w in same))
    return hit >= p.pattern_share * len(others)


def siblings(changed: Array, u: float, v: float, r: float) -> float:
    """The median share of change over a disc at a point's other symmetric places (those
    a disc's width or more away)."""
    shares = [
        share(changed, a, b, r)
        for a, b in orbit(u, v)[1:]
        if (a - u) ** 2 + (b - v) ** 2 > (2 * r) ** 2
    ]
    return float(np.median(shares)) if shares else 0.0


def _roundest_at_centre(
    top_lab: Array, p: DetectorParams = PARAMS
) -> tuple[float, tuple[float, float]]:
    """The roundest man-sized outline near the board's centre (`centre_reach_px`): how
    round (`radial_outline`) and where. The colour edges are taken once for the whole
    search: each ring lies inside the window, where they are what `radial_outline`
    takes in its own."""
    c = MID_PX
    near = p.centre_reach_px
    reach = near + max(p.man_radii_px) + p.outline_band_px + 3
    lo, hi = int(c - reach), int(c + reach) + 1
    window = top_lab[lo:hi, lo:hi]
    grads = [gradients(window[:, :, k]) for k in range(window.shape[2])]
    yy, xx = np.mgrid[lo:hi, lo:hi]
    best, at = 0.0, (c, c)
    for du in range(-near, near + 1):
        for dv in range(-near, near + 1):
            dx, dy = xx - (c + du), yy - (c + dv)
            d = np.sqrt(dx * dx + dy * dy) + EPS
            for r in p.man_radii_px:
                fit = across_share(grads, dx, dy, np.abs(d - r) <= p.outline_band_px)
                if fit > best:
                    best, at = fit, (c + du, c + dv)
    return best, at


def centre_queen(
    top_lab: Array, empty: EmptyBoard, p: DetectorParams = PARAMS
) -> tuple[float, float] | None:
    """Cold, where the queen may lie at the board's centre though the network did not
    see her: a round man-sized outline there whose face is as red as the queen (redder
    than the plywood as `man_class` reads her). A red centre circle printed a man's
    size looks the same, so it is only ever a doubt, not counted (a real magenta queen on
    a red and black star's centre, heat 0.07, was missed with no doubt at all)."""
    red = empty.plywood_a() + p.queen_redder
    win, inside = disc_window(top_lab.shape, MID_PX, MID_PX, p.centre_reach_px + R_COIN)
    if float(np.percentile(top_lab[win][inside][:, 1], p.red_percentile)) <= red:
        return None  # nothing as red as a queen near the centre
    best, at = _roundest_at_centre(top_lab, p)
    if best < p.round:
        return None
    face = disc_lab(top_lab, at[0], at[1], p.face_disc * R_COIN)
    return None if float(face[1]) <= red or printed_ink(empty, face, p) else at


def printed_ink(empty: EmptyBoard, face: Array, p: DetectorParams = PARAMS) -> bool:
    """Cold, whether a red face at the board's centre is the print's own red ink, as
    printed elsewhere (base circles, a star's points): the same colour (`print_ink`), or
    the same hue (`print_hue`): a filled centre circle shows the ink deeper than the thin
    lines and dots elsewhere, which the plywood pales at their edges, but its hue stays.
    A queen is seldom the print's very red (the real dev photos: printed centre circles
    0.5-5.6 degrees from the print's hue, a magenta queen 18.5)."""
    red = empty.plywood_a() + p.queen_redder
    printed = _AWAY_FROM_CENTRE & empty.known & (empty.lab[:, :, 1] > red)
    if float(face[1]) <= red or np.count_nonzero(printed) < p.print_ink_least_px:
        return False
    ink = np.median(empty.lab[printed], axis=0)
    if float(np.linalg.norm(face - ink)) < p.print_ink:
        return True
    if "centre_ink" in p.off:
        return False
    # The angle between the two hues (a*, b*): no wrap-around to mind.
    fa, fb, ia, ib = (float(x) for x in (face[1], face[2], ink[1], ink[2]))
    hue = math.degrees(math.atan2(abs(fa * ib - fb * ia), fa * ia + fb * ib))
    return hue < p.print_hue


def off_centre_white(
    top_lab: Array, empty: EmptyBoard, p: DetectorParams = PARAMS
) -> tuple[float, float, bool] | None:
    """Cold, a light man lying off the board's centre: his centre and whether he is
    clearly so, or None. Every orientation of the view shares the centre, so no change
    can be judged there. But the print's centre circle (law I अ.6, a man's size) is
    centred on the board, and print is ink, never lighter than the plywood: the
    roundest man-sized outline near the centre is a white man when it lies off the
    centre (`off_centre_px`), is round (`round`) and its face is lighter than the
    lightest plywood (its `light_percentile`); clearly one when it is also clearly
    rounder (`clearly_rounder`) than the outline at the centre. (Renderer: printed
    centres are roundest at the centre, 0.83-0.99; a cream man 6 mm off it 0.96 there,
    0.79 at the centre; tuning board 2208's cream man 9 mm off a filled red centre circle
    whose edge shows beside him 0.955 there, 0.933 at the centre. Real photos: a
    calibration 4-7 mm off moves a red centre dot as far off, which is why the colour
    must say piece too.)"""
    c = MID_PX
    best, at = _roundest_at_centre(top_lab, p)
    if best < p.round or math.hypot(at[0] - c, at[1] - c) < p.off_centre_px:
        return None
    at_centre = max(radial_outline(top_lab, c, c, r, p=p) for r in p.man_radii_px)
    clear = best >= at_centre + p.clearly_rounder
    on = (SURFACE > 0) & empty.known
    if not on.any():
        return None
    face = disc_lab(top_lab, at[0], at[1], p.face_disc * R_COIN)
    light = float(np.percentile(empty.lab[on][:, 0], p.light_percentile))
    red = float(np.median(empty.lab[on][:, 1])) + p.queen_redder
    if float(face[0]) > light and float(face[1]) < red:
        return at[0], at[1], clear
    return None


def _away_from_centre() -> Array:
    """The surface farther than `print_ink_away_mm` from the centre: where the print's
    red is read."""
    import cv2

    away = SURFACE.copy()
    cv2.circle(
        away, (round(MID_PX), round(MID_PX)), round(PARAMS.print_ink_away_mm * B.SCALE), 0, -1
    )
    out: Array = away > 0
    return out


_AWAY_FROM_CENTRE = _away_from_centre()
