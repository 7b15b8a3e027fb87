"""A synthetic carrom board seen by the overhead camera, with its ground truth.

The renderer draws the board at 1 px/mm (plywood with grain, the markings of
law I अ.4-अ.7, pockets, a dark frame), powder, the coins' shadows, the coins
(bevelled rim, grooves, a gloss) and the striker, lights it (lamp fall-off, an
uneven gradient, glare), warps it into the camera image through a perspective
homography over a busy cloth, optionally puts a hand (and its shadow) over the
board, then blurs and adds sensor noise. Everything comes from a `Scene`, so a
test knows exactly where each coin is.

`SyntheticBoard` is a live board for `make run`: a frame source whose coins can
be pocketed by name, so the simulated kiosk sees them vanish.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B

Image = npt.NDArray[Any]
FloatImage = npt.NDArray[Any]

_TEX = round(B.SURFACE_MM + 2 * B.FRAME_MM)  # texture side, 1 px/mm, frame included
_OFF = B.FRAME_MM

#: Base colours (BGR) of the pieces: cream "white" men, black men, a deep red queen,
#: an ivory striker.
PIECE_BGR: dict[str, tuple[int, int, int]] = {
    "white": (208, 226, 236),
    "black": (38, 36, 40),
    "queen": (48, 36, 170),
    "striker": (232, 236, 238),
}


@dataclass(frozen=True, slots=True)
class Piece:
    """One coin or the striker on the board (board millimetres, see vision.board)."""

    colour: str
    x_mm: float
    y_mm: float
    d_mm: float = B.COIN_D_MM


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand reaching over the board: fingertips at (x_mm, y_mm), pointing `angle`
    radians (0 = towards +x), skin colour BGR."""

    x_mm: float
    y_mm: float
    angle: float
    skin: tuple[int, int, int] = (130, 160, 205)
    #: The shirt sleeve over the forearm (BGR), or None for a bare arm.
    sleeve: tuple[int, int, int] | None = (110, 70, 45)


@dataclass(frozen=True, slots=True)
class Markings:
    """How the board's lines and circles are printed. The laws of equipment (I अ.4-अ.7)
    say where they are, not how they look: the defaults are a tournament board's;
    home boards print them thinner, in other inks, the dots sometimes hollow, and some
    with a pattern inside the outer circle."""

    ink: tuple[int, int, int] = (30, 30, 34)
    red: tuple[int, int, int] = (40, 52, 205)
    line_mm: int = 2  # the circles and arrows
    base_line_mm: int = round(B.BASELINE_W_MM)
    filled: bool = True  # the red centres of the base circles and the centre circle
    arrows: bool = True
    #: A pattern inside the outer circle: "" none, "star", "rings" or "petals".
    centre: str = ""


@dataclass(frozen=True, slots=True)
class Look:
    """Camera, lighting and board appearance."""

    width: int = 640
    height: int = 480
    #: Image positions of the playing surface's corners: top-left, top-right,
    #: bottom-right, bottom-left (board orientation).
    corners: tuple[tuple[float, float], ...] = (
        (125.0, 45.0),
        (515.0, 45.0),
        (515.0, 435.0),
        (125.0, 435.0),
    )
    wood: tuple[int, int, int] = (140, 188, 220)
    frame: tuple[int, int, int] = (32, 48, 78)
    lamp_mm: tuple[float, float] = (370.0, 370.0)
    lamp_falloff: float = 0.0  # light lost at the far corner, 0-1
    gradient: float = 0.0  # extra linear fall-off across the board, 0-1
    gradient_angle: float = 0.0
    glare: float = 0.0  # additive highlight at its peak, grey levels
    glare_mm: tuple[float, float] = (370.0, 370.0)
    glare_sigma_mm: float = 60.0
    powder: float = 0.0  # opacity of the powder patches, 0-1
    shadow: float = 0.4  # darkness of the coins' shadows
    exposure: float = 1.0
    blur: float = 0.5  # optical blur sigma in image px
    noise: float = 2.0  # sensor noise sigma in grey levels
    cloth: int = 0  # 0 plain dark, else the seed of a busy cloth pattern
    seed: int = 0
    #: Home sets (vision.sim.variations): the pieces' colours (white, black, queen,
    #: striker; None: PIECE_BGR), net pockets, a worn surface (0-1), motion blur of a
    #: hand and of the whole camera (px), and a patterned red cloth.
    piece_bgr: tuple[tuple[int, int, int], ...] | None = None
    net_pockets: bool = False
    wear: float = 0.0
    hand_blur: float = 0.0
    shake: float = 0.0
    red_cloth: bool = False
    markings: Markings = Markings()


@dataclass(frozen=True, slots=True)
class Scene:
    pieces: tuple[Piece, ...] = ()
    look: Look = field(default_factory=Look)
    hand: Hand | None = None


def homography_mm_to_image(look: Look) -> npt.NDArray[np.float64]:
    """The 3x3 homography from board millimetres to image pixels."""
    src = np.array(
        [[0, 0], [B.SURFACE_MM, 0], [B.SURFACE_MM, B.SURFACE_MM], [0, B.SURFACE_MM]],
        np.float64,
    )
    dst = np.array(look.corners, np.float64)
    h: npt.NDArray[np.float64] = cv2.getPerspectiveTransform(
        src.astype(np.float32), dst.astype(np.float32)
    ).astype(np.float64)
    return h


def project(h: npt.NDArray[np.float64], pts: Sequence[tuple[float, float]]) -> np.ndarray:
    """Apply a homography to points, returning an (n, 2) float64 array."""
    p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    out: np.ndarray = cv2.perspectiveTransform(p, h).reshape(-1, 2)
    return out


def pocket_centres_image(look: Look) -> list[tuple[float, float]]:
    """Where the four pocket centres (1-4) are in the image: the true calibration."""
    pts = project(homography_mm_to_image(look), B.POCKETS_MM)
    return [(float(x), float(y)) for x, y in pts]


# ----------------------------------------------------------------- the board


def _tex(x_mm: float) -> float:
    """Board mm to texture pixel coordinate."""
    return x_mm + _OFF - 0.5


def _pt(x_mm: float, y_mm: float, shift: int = 4) -> tuple[int, int]:
    f = 1 << shift
    return round(_tex(x_mm) * f), round(_tex(y_mm) * f)


def _circle(
    img: np.ndarray,
    x: float,
    y: float,
    r: float,
    colour: tuple[float, ...] | float,
    thickness: int = -1,
) -> None:
    f = 16
    cv2.circle(img, _pt(x, y), max(1, round(r * f)), colour, thickness, cv2.LINE_AA, 4)


def _wood(rng: np.random.Generator, base: tuple[int, int, int], n: int) -> FloatImage:
    grain: FloatImage = rng.normal(0, 1, n + 64).astype(np.float32)
    grain = cv2.GaussianBlur(grain.reshape(-1, 1), (1, 0), 3).ravel()
    bend = np.cumsum(rng.normal(0, 0.05, n)).astype(np.float32)
    rows = np.clip(
        (np.arange(n)[:, None] + 8 * np.sin(np.arange(n)[None, :] / 97.0 + bend)), 0, n - 1
    )
    g = grain[rows.astype(np.int32)]
    fine: FloatImage = rng.normal(0, 1, (n // 4, n // 4)).astype(np.float32)
    fine = cv2.resize(fine, (n, n), interpolation=cv2.INTER_LINEAR)
    shade = 1.0 + 0.035 * g + 0.015 * fine
    out: FloatImage = np.empty((n, n, 3), np.float32)
    for c in range(3):
        out[:, :, c] = base[c] * shade
    return out


def _markings(tex: FloatImage, m: Markings, seed: int) -> None:
    ink = tuple(float(c) for c in m.ink)
    red = tuple(float(c) for c in m.red)
    w = m.line_mm
    s = B.SURFACE_MM
    half = B.BASELINE_LEN_MM / 2.0
    r_base = B.BASE_CIRCLE_D_MM / 2.0
    for side in range(4):
        for k in (0, 1):
            d = B.BASELINE_IN_MM + k * B.BASELINE_GAP_MM
            a, b = s / 2 - half, s / 2 + half
            ends = [
                ((a, d), (b, d)),
                ((d, a), (d, b)),
                ((a, s - d), (b, s - d)),
                ((s - d, a), (s - d, b)),
            ]
            (x0, y0), (x1, y1) = ends[side]
            cv2.line(tex, _pt(x0, y0), _pt(x1, y1), ink, m.base_line_mm, cv2.LINE_AA, 4)
        d = B.BASELINE_IN_MM + B.BASELINE_GAP_MM / 2.0
        for e in (s / 2 - half, s / 2 + half):
            cx, cy = [(e, d), (d, e), (e, s - d), (s - d, e)][side]
            _circle(tex, cx, cy, r_base, (150.0, 190.0, 220.0))
            _circle(tex, cx, cy, r_base, ink, w)
            _circle(tex, cx, cy, B.BASE_RED_D_MM / 2.0, red, -1 if m.filled else w)
    _circle(tex, s / 2, s / 2, B.OUTER_D_MM / 2.0, ink, w)
    if m.centre:
        _pattern(tex, m, np.random.default_rng(seed + 31))
    _circle(tex, s / 2, s / 2, B.CENTRE_D_MM / 2.0, red, -1 if m.filled else w)
    _circle(tex, s / 2, s / 2, B.CENTRE_D_MM / 2.0, ink, w)
    for ux, uy, x0, y0, x1, y1 in B.arrows_mm() if m.arrows else ():
        cv2.line(tex, _pt(x0, y0), _pt(x1, y1), ink, w, cv2.LINE_AA, 4)
        cv2.line(
            tex, _pt(x0, y0), _pt(x0 + 12 * (ux - uy), y0 + 12 * (uy + ux)), ink, w, cv2.LINE_AA, 4
        )
        cv2.line(
            tex, _pt(x0, y0), _pt(x0 + 12 * (ux + uy), y0 + 12 * (uy - ux)), ink, w, cv2.LINE_AA, 4
        )
        r = B.ARROW_ARC_D_MM / 2.0
        cx, cy = x1 + ux * r, y1 + uy * r
        ang = math.degrees(math.atan2(uy, ux))
        f = 16
        cv2.ellipse(
            tex,
            _pt(cx, cy),
            (round(r * f), round(r * f)),
            ang + 180,
            -140,
            140,
            ink,
            w,
            cv2.LINE_AA,
            4,
        )


def _pattern(tex: FloatImage, m: Markings, rng: np.random.Generator) -> None:
    """A home board's pattern inside the outer circle, in its ink or its red: a star,
    rings (some a coin's size), or petals (red ones a little like a faded queen)."""
    c = B.SURFACE_MM / 2
    colour = tuple(float(v) for v in (m.red if rng.random() < 0.5 else m.ink))
    turn = rng.uniform(0, math.pi)
    if m.centre == "star":
        n, r_out, r_in = int(rng.choice([6, 8, 12])), rng.uniform(50, 80), rng.uniform(22, 35)
        points = []
        for k in range(2 * n):  # the tips and the notches between them in turn
            r, a = (r_in if k % 2 else r_out), turn + k * math.pi / n
            points.append(_pt(c + r * math.cos(a), c + r * math.sin(a)))
        poly = np.array(points, np.int32)
        cv2.polylines(tex, [poly], True, colour, m.line_mm, cv2.LINE_AA, 4)
    elif m.centre == "rings":
        for r in sorted(rng.uniform(20, 80, int(rng.integers(2, 4)))):
            _circle(tex, c, c, float(r), colour, m.line_mm)
    else:  # petals
        n, at = int(rng.choice([6, 8])), rng.uniform(35, 55)
        axes = (rng.uniform(12, 20), rng.uniform(5, 9))
        fill = -1 if rng.random() < 0.5 else m.line_mm
        for k in range(n):
            a = turn + 2 * math.pi * k / n
            cv2.ellipse(
                tex,
                _pt(c + at * math.cos(a), c + at * math.sin(a)),
                (round(axes[0] * 16), round(axes[1] * 16)),
                math.degrees(a),
                0,
                360,
                colour,
                fill,
                cv2.LINE_AA,
                4,
            )


def _board_texture(look: Look) -> FloatImage:
    rng = np.random.default_rng(look.seed)
    tex = _wood(rng, look.wood, _TEX)
    frame = _wood(rng, look.frame, _TEX)
    inner = np.zeros((_TEX, _TEX), np.uint8)
    o = round(_OFF)
    inner[o : o + round(B.SURFACE_MM), o : o + round(B.SURFACE_MM)] = 1
    tex = np.where(inner[:, :, None] > 0, tex, frame)
    _markings(tex, look.markings, look.seed)
    if look.wear:
        _wear(tex, look)
    for px, py in B.POCKETS_MM:
        if look.net_pockets:
            _net_pocket(tex, px, py, rng)
        else:
            _circle(tex, px, py, B.POCKET_D_MM / 2.0, (14.0, 14.0, 16.0))
    return tex


def _wear(tex: FloatImage, look: Look) -> None:
    """A worn surface: scratches, lighter rubbed patches and dulled print."""
    rng = np.random.default_rng(look.seed + 23)
    n = tex.shape[0]
    small = rng.random((n // 60, n // 60)).astype(np.float32)
    rub = cv2.resize(small, (n, n), interpolation=cv2.INTER_CUBIC)
    rub = np.clip(rub, 0, 1) * look.wear
    pale = np.array([175.0, 205.0, 225.0], np.float32)
    tex += (pale - tex) * (0.35 * rub)[:, :, None]
    for _ in range(int(60 * look.wear)):
        x0, y0 = rng.uniform(_OFF, n - _OFF, 2)
        a, ln = rng.uniform(0, math.pi), rng.uniform(20, 160)
        x1, y1 = x0 + ln * math.cos(a), y0 + ln * math.sin(a)
        shade = float(rng.uniform(0.75, 1.15))
        colour = tuple(float(c) for c in np.array(look.wood, np.float32) * shade)
        cv2.line(
            tex,
            (int(x0 * 16), int(y0 * 16)),
            (int(x1 * 16), int(y1 * 16)),
            colour,
            1,
            cv2.LINE_AA,
            4,
        )


def _net_pocket(tex: FloatImage, px: float, py: float, rng: np.random.Generator) -> None:
    """A pocket with a net under it: a dark hole showing a light mesh, so it is a
    quarter circle of net against the frame's corner, not a black disc."""
    r = B.POCKET_D_MM / 2.0
    hole = np.zeros(tex.shape[:2], np.float32)
    _circle(hole, px, py, r, 1.0)
    cx, cy = _tex(px), _tex(py)
    x0, x1 = int(cx - r - 2), int(cx + r + 3)
    y0, y1 = int(cy - r - 2), int(cy + r + 3)
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    a, pitch = rng.uniform(0, math.pi / 2), rng.uniform(5, 9)
    u = xs * math.cos(a) + ys * math.sin(a)
    v = -xs * math.sin(a) + ys * math.cos(a)
    mesh = np.maximum(np.cos(u * 2 * math.pi / pitch), np.cos(v * 2 * math.pi / pitch)) > 0.6
    net = np.where(mesh[:, :, None], np.array([150.0, 160.0, 165.0]), np.array([25.0, 25.0, 28.0]))
    m = hole[y0:y1, x0:x1, None]
    tex[y0:y1, x0:x1] = tex[y0:y1, x0:x1] * (1 - m) + net.astype(np.float32) * m


def _powder(tex: FloatImage, look: Look) -> None:
    if look.powder <= 0:
        return
    rng = np.random.default_rng(look.seed + 7)
    small = rng.random((_TEX // 40, _TEX // 40)).astype(np.float32)
    blotch = cv2.resize(small, (_TEX, _TEX), interpolation=cv2.INTER_CUBIC)
    blotch = np.clip((blotch - 0.45) * 2.5, 0, 1)
    speck: FloatImage = (rng.random((_TEX, _TEX)) < 0.35).astype(np.float32)
    speck = cv2.GaussianBlur(speck, (0, 0), 0.8)
    # Powder is spread thin and even (law I ऊ): patches of at most look.powder * 1.4 white.
    alpha = look.powder * blotch * (0.6 + 0.8 * speck)
    # On the playing surface, where the players spread it; the frame is wiped.
    o, n = round(_OFF), round(B.SURFACE_MM)
    on_surface = np.zeros_like(alpha)
    on_surface[o : o + n, o : o + n] = 1.0
    alpha *= on_surface
    white = np.array([238.0, 240.0, 240.0], np.float32)
    tex += (white - tex) * np.clip(alpha, 0, 1)[:, :, None]


def _pieces(tex: FloatImage, look: Look, pieces: Sequence[Piece]) -> None:
    if not pieces:
        return
    lx, ly = look.lamp_mm
    shadow: FloatImage = np.zeros(tex.shape[:2], np.float32)
    for p in pieces:
        dx, dy = p.x_mm - lx, p.y_mm - ly
        n = max(math.hypot(dx, dy), 1.0)
        off = 1.5 + 3.0 * n / 500.0  # the further from the lamp, the longer the shadow
        _circle(shadow, p.x_mm + dx / n * off, p.y_mm + dy / n * off, p.d_mm / 2.0 + 0.5, 1.0)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 2.0)
    tex *= (1.0 - look.shadow * shadow)[:, :, None]
    colours = PIECE_BGR
    if look.piece_bgr is not None:
        colours = dict(zip(B.COLOURS, look.piece_bgr, strict=True))
    for p in pieces:
        base = np.array(colours[p.colour], np.float32)
        r = p.d_mm / 2.0
        rim = tuple(float(c) for c in base * 0.62)
        _circle(tex, p.x_mm, p.y_mm, r, rim)
        _circle(tex, p.x_mm, p.y_mm, r - 1.6, tuple(float(c) for c in base))
        groove = tuple(float(c) for c in base * 0.85)
        for k in (0.72, 0.45):
            _circle(tex, p.x_mm, p.y_mm, r * k, groove, 1)
        if p.colour == "striker":
            _circle(tex, p.x_mm, p.y_mm, r * 0.3, (200.0, 150.0, 120.0), 2)
        gloss = tuple(float(min(255.0, c * 1.08 + 12)) for c in base)
        _circle(tex, p.x_mm - r * 0.3, p.y_mm - r * 0.3, r * 0.25, gloss)


@functools.lru_cache(maxsize=4)
def _static(look: Look) -> tuple[FloatImage, FloatImage, FloatImage]:
    """The board with its powder, the light falling on it, and the glare: what
    does not change while the pieces move (kept for a few looks)."""
    tex = _board_texture(look)
    _powder(tex, look)
    illum, glare = _light_fields(look)
    return tex, illum, glare


def _light_fields(look: Look) -> tuple[FloatImage, FloatImage]:
    n = _TEX
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float32)
    xs -= _OFF
    ys -= _OFF
    lx, ly = look.lamp_mm
    d2 = ((xs - lx) ** 2 + (ys - ly) ** 2) / (B.SURFACE_MM**2)
    illum = 1.0 - look.lamp_falloff * np.clip(d2, 0, 1.0)
    if look.gradient:
        ca, sa = math.cos(look.gradient_angle), math.sin(look.gradient_angle)
        t = ((xs - B.SURFACE_MM / 2) * ca + (ys - B.SURFACE_MM / 2) * sa) / B.SURFACE_MM + 0.5
        illum *= 1.0 - look.gradient * np.clip(t, 0, 1)
    illum = (illum * look.exposure).astype(np.float32)
    glare: FloatImage = np.zeros((n, n), np.float32)
    if look.glare:
        gx, gy = look.glare_mm
        g = np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * look.glare_sigma_mm**2))
        glare = (look.glare * g).astype(np.float32)
    return illum, glare


def _cloth(look: Look) -> FloatImage:
    h, w = look.height, look.width
    out: FloatImage = np.full((h, w, 3), 45.0, np.float32)
    if look.red_cloth:
        return _red_cloth(look)
    if not look.cloth:
        return out
    rng = np.random.default_rng(look.cloth)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    for _ in range(3):
        colour = rng.uniform(30, 230, 3).astype(np.float32)
        period = rng.uniform(9, 40)
        ang = rng.uniform(0, math.pi)
        band = 0.5 + 0.5 * np.sin((xs * math.cos(ang) + ys * math.sin(ang)) * 2 * math.pi / period)
        out = out * (1 - 0.5 * band[:, :, None]) + colour * 0.5 * band[:, :, None]
    return out


def _red_cloth(look: Look) -> FloatImage:
    """A patterned red cloth: a red ground with light and dark motifs, some of them
    round and coin-sized."""
    rng = np.random.default_rng(look.cloth + 5)
    h, w = look.height, look.width
    ground = np.array([40.0, 40.0, 150.0 + rng.uniform(-30, 40)], np.float32)
    out: FloatImage = np.empty((h, w, 3), np.float32)
    out[:] = ground
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(14, 30)
    check = (np.sin(xs * 2 * math.pi / period) * np.sin(ys * 2 * math.pi / period)) > 0.3
    out[check] = ground * 0.6
    for _ in range(int(h * w / 900)):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(3, 12)
        c = rng.choice([0, 1, 2])
        colour = [(200.0, 215.0, 230.0), (30.0, 30.0, 60.0), (60.0, 160.0, 220.0)][int(c)]
        cv2.circle(out, (int(x * 16), int(y * 16)), int(r * 16), colour, -1, cv2.LINE_AA, 4)
    return out


def hand_polygons_mm(hand: Hand) -> list[np.ndarray]:
    """The hand as polygons in board mm: forearm, palm and four fingers."""
    ca, sa = math.cos(hand.angle), math.sin(hand.angle)

    def at(along: float, across: float) -> tuple[float, float]:
        return hand.x_mm + along * ca - across * sa, hand.y_mm + along * sa + across * ca

    polys: list[np.ndarray] = []
    # The forearm first: hand_polygons_mm(...)[0] is what a sleeve covers.
    polys.append(np.array([at(-140, -40), at(-540, -48), at(-540, 48), at(-140, 40)]))
    palm = [at(-95 + 55 * math.cos(t), 48 * math.sin(t)) for t in np.linspace(0, 2 * math.pi, 24)]
    polys.append(np.array(palm))
    polys.append(np.array([at(-150, -38), at(-60, -45), at(-60, 45), at(-150, 38)]))
    for k, (across, length) in enumerate(((-30, 62), (-10, 75), (10, 72), (30, 58))):
        tip = -(75 - length) - (5 if k in (0, 3) else 0)
        pts = [
            at(tip - 4 * (1 - math.cos(t)), across + 8 * math.sin(t))
            for t in np.linspace(-1.5, 1.5, 7)
        ]
        pts += [at(-100, across + 8), at(-100, across - 8)]
        polys.append(np.array(pts))
    return polys


def _hand(
    shape: tuple[int, ...], look: Look, hand: Hand, h: npt.NDArray[np.float64]
) -> tuple[FloatImage, FloatImage, FloatImage]:
    """The hand as a layer over the board at one instant: its colour (skin, sleeve)
    already weighted by its cover, its cover (0-1) and its shadow on the board (0-1)."""
    lx, ly = look.lamp_mm
    mask = np.zeros(shape[:2], np.float32)
    smask: FloatImage = np.zeros(shape[:2], np.float32)
    dx, dy = hand.x_mm - lx, hand.y_mm - ly
    n = max(math.hypot(dx, dy), 1.0)
    for poly in hand_polygons_mm(hand):
        pts = project(h, [tuple(p) for p in poly])
        cv2.fillPoly(mask, [np.round(pts * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        sh = project(h, [(p[0] + dx / n * 25, p[1] + dy / n * 25) for p in poly])
        cv2.fillPoly(smask, [np.round(sh * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    smask = cv2.GaussianBlur(smask, (0, 0), 6.0)
    rng = np.random.default_rng(look.seed + 11)
    shade = cv2.GaussianBlur(rng.normal(0, 1, shape[:2]).astype(np.float32), (0, 0), 5) * 3
    skin = np.array(hand.skin, np.float32)
    colour = skin[None, None, :] * (1.0 + 0.1 * shade[:, :, None]) * mask[:, :, None]
    cover = mask
    if hand.sleeve is not None:
        arm = np.zeros(shape[:2], np.float32)
        pts = project(h, [tuple(p) for p in hand_polygons_mm(hand)[0]])
        cv2.fillPoly(arm, [np.round(pts * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
        cloth = np.array(hand.sleeve, np.float32)[None, None, :] * (1.0 + 0.15 * shade[:, :, None])
        # The sleeve over the skin: "over" compositing of premultiplied colour.
        colour = cloth * arm[:, :, None] + colour * (1.0 - arm)[:, :, None]
        cover = arm + (1.0 - arm) * mask
    return colour, cover, smask


def _hand_over(img: FloatImage, look: Look, hand: Hand, h: npt.NDArray[np.float64]) -> FloatImage:
    """The board with the hand over it. A hand that moved while the shutter was open is a
    moving occluder over a still board: each place shows the hand for the share of the
    exposure the hand covered it, and the board (in the hand's shadow or not) for the
    rest, so a piece under the hand is hidden for as long as the hand is over it."""
    colour, cover, shadow = _hand(img.shape, look, hand, h)
    board = (1.0 - cover) * (1.0 - 0.45 * shadow)
    if look.hand_blur > 0:
        colour = _smear(colour, look.hand_blur, hand.angle)
        board = _smear(board, look.hand_blur, hand.angle)
    out: FloatImage = colour + img * board[:, :, None]
    return out


def _hand_cover(look: Look, hand: Hand) -> FloatImage:
    """The share of the exposure the hand covers each image pixel (0-1)."""
    h = homography_mm_to_image(look)
    cover = _hand((look.height, look.width), look, hand, h)[1]
    if look.hand_blur > 0:
        cover = _smear(cover, look.hand_blur, hand.angle)
    return cover


def hand_mask_image(scene: Scene) -> Image:
    """Where the hand covers the image, for ground truth about occlusion: 255 where it
    covers the place for the whole exposure, 0 where never; a hand blurred by motion
    covers the places along its edges for a share of the exposure (values between)."""
    look = scene.look
    mask: Image = np.zeros((look.height, look.width), np.uint8)
    if scene.hand is None:
        return mask
    if look.hand_blur > 0:
        out: Image = np.round(255 * np.clip(_hand_cover(look, scene.hand), 0, 1)).astype(np.uint8)
        return out
    h = homography_mm_to_image(look)
    for poly in hand_polygons_mm(scene.hand):
        pts = project(h, [tuple(p) for p in poly])
        cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 255)
    return mask


def visible_fraction(scene: Scene, piece: Piece, mask: Image | None = None) -> float:
    """How much of a piece the hand leaves visible (1.0 without a hand), over the
    exposure: each of 33 points of its face counts for the share of the exposure the
    hand leaves it uncovered. `mask` is hand_mask_image(scene) when the caller already
    has it."""
    if scene.hand is None:
        return 1.0
    if mask is None:
        mask = hand_mask_image(scene)
    h = homography_mm_to_image(scene.look)
    ang = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    pts = [(piece.x_mm, piece.y_mm)]
    for rr in (0.5, 0.95):
        r = piece.d_mm / 2.0 * rr
        pts += [(piece.x_mm + r * math.cos(a), piece.y_mm + r * math.sin(a)) for a in ang]
    img_pts = np.round(project(h, pts)).astype(np.int32)
    seen = 0.0
    for x, y in img_pts:
        if 0 <= x < mask.shape[1] and 0 <= y < mask.shape[0]:
            seen += 1.0 - int(mask[y, x]) / 255.0
    return seen / len(img_pts)


def count_off(found: int, visible: Sequence[float]) -> int:
    """How far a class's count is off, given how much of each of its pieces is visible:
    a piece in full view must be counted, one the hand partly hides may be counted or
    not, one it wholly hides is not seen. 0 when the count is right, else the shortfall
    (negative) or the excess."""
    must = sum(1 for f in visible if f >= 0.999)
    maybe = sum(1 for f in visible if 0.0 < f < 0.999)
    return min(0, found - must) + max(0, found - must - maybe)


def render(scene: Scene) -> Image:
    """Render the camera image of a scene (BGR, uint8)."""
    look = scene.look
    board, illum, glare = _static(look)
    tex = board.copy()
    _pieces(tex, look, scene.pieces)
    tex *= illum[:, :, None]
    if look.glare:
        tex += glare[:, :, None]
    tex = cv2.GaussianBlur(tex, (0, 0), 0.7)
    h = homography_mm_to_image(look)
    tex_to_mm = np.array([[1, 0, 0.5 - _OFF], [0, 1, 0.5 - _OFF], [0, 0, 1]], np.float64)
    img = _cloth(look)
    cv2.warpPerspective(
        tex,
        h @ tex_to_mm,
        (look.width, look.height),
        dst=img,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_TRANSPARENT,
    )
    if scene.hand is not None:
        img = _hand_over(img, look, scene.hand, h)
    if look.shake > 0:
        img = _smear(img, look.shake, look.seed * 0.37)
    if look.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), look.blur)
    if look.noise > 0:
        rng = np.random.default_rng(look.seed * 7919 + len(scene.pieces) + 1)
        img += rng.normal(0, look.noise, img.shape).astype(np.float32)
    out: Image = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    return out


def _smear(img: FloatImage, length: float, angle: float) -> FloatImage:
    """Motion blur: a line kernel `length` px long at `angle`."""
    k = max(3, math.ceil(length) | 1)
    kernel = np.zeros((k, k), np.float32)
    c = k // 2
    dx, dy = math.cos(angle) * length / 2, math.sin(angle) * length / 2
    cv2.line(
        kernel,
        (int((c - dx) * 16), int((c - dy) * 16)),
        (int((c + dx) * 16), int((c + dy) * 16)),
        1.0,
        1,
        cv2.LINE_AA,
        4,
    )
    kernel /= max(float(kernel.sum()), 1e-6)
    out: FloatImage = cv2.filter2D(img, -1, kernel, borderType=cv2.BORDER_REFLECT)
    return out


# ----------------------------------------------------------- random scenes


def start_arrangement(x0: float = B.SURFACE_MM / 2, y0: float = B.SURFACE_MM / 2) -> list[Piece]:
    """The coins arranged for the break (law 41): the queen in the centre, six
    around her, twelve around them, packed touching."""
    d = B.COIN_D_MM + 0.2
    pieces = [Piece("queen", x0, y0)]
    inner = ["white", "black"] * 3
    for k in range(6):
        a = k * math.pi / 3
        pieces.append(Piece(inner[k], x0 + d * math.cos(a), y0 + d * math.sin(a)))
    for k in range(6):
        a = k * math.pi / 3
        pieces.append(
            Piece("white" if k % 2 else "black", x0 + 2 * d * math.cos(a), y0 + 2 * d * math.sin(a))
        )
        a2 = a + math.pi / 6
        r2 = d * math.sqrt(3)
        pieces.append(
            Piece("black" if k % 2 else "white", x0 + r2 * math.cos(a2), y0 + r2 * math.sin(a2))
        )
    return pieces


def _free(p: Piece, placed: Sequence[Piece], gap: float) -> bool:
    for q in placed:
        if math.hypot(p.x_mm - q.x_mm, p.y_mm - q.y_mm) < (p.d_mm + q.d_mm) / 2 + gap:
            return False
    m = p.d_mm / 2 + 1
    if not (m <= p.x_mm <= B.SURFACE_MM - m and m <= p.y_mm <= B.SURFACE_MM - m):
        return False
    return all(
        math.hypot(p.x_mm - px, p.y_mm - py) > B.POCKET_D_MM / 2 + p.d_mm / 2 + 2
        for px, py in B.POCKETS_MM
    )


def random_pieces(
    rng: np.random.Generator, *, touching: float = 0.0, striker: bool | None = None
) -> list[Piece]:
    """A plausible mid-board position: some of each colour, the queen perhaps, the
    striker perhaps; `touching` is the chance that a coin is put against another."""
    colours = ["white"] * int(rng.integers(0, 10)) + ["black"] * int(rng.integers(0, 10))
    if rng.random() < 0.6:
        colours.append("queen")
    rng.shuffle(colours)
    if striker if striker is not None else rng.random() < 0.6:
        colours.insert(0, "striker")
    placed: list[Piece] = []
    for colour in colours:
        d = (
            (B.STRIKER_D_MM - rng.uniform(0, 1.0))
            if colour == "striker"
            else rng.uniform(30.2, 31.8)
        )
        for _ in range(200):
            if placed and rng.random() < touching:
                q = placed[int(rng.integers(len(placed)))]
                a = rng.uniform(0, 2 * math.pi)
                dist = (d + q.d_mm) / 2 + rng.uniform(0.05, 0.6)
                p = Piece(colour, q.x_mm + dist * math.cos(a), q.y_mm + dist * math.sin(a), d)
            else:
                m = 30.0
                p = Piece(
                    colour, rng.uniform(m, B.SURFACE_MM - m), rng.uniform(m, B.SURFACE_MM - m), d
                )
            if _free(p, placed, 0.05):
                placed.append(p)
                break
    return placed


def random_look(rng: np.random.Generator, difficulty: int, seed: int) -> Look:
    """Camera and light for a difficulty: 0 plain and square, 1 an angle, lamp
    fall-off and noise, 2 and 3 glare, uneven light, powder, busy cloth and more
    perspective."""
    side = rng.uniform(360, 420)
    cx, cy = 320 + rng.uniform(-20, 20), 240 + rng.uniform(-8, 8)
    rot = rng.uniform(-0.05, 0.05) if difficulty else 0.0
    tilt = (0.0, 0.04, 0.09, 0.09)[min(difficulty, 3)]
    corners = []
    for ux, uy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        x, y = ux * side / 2, uy * side / 2
        k = 1.0 + tilt * rng.uniform(-1, 1) * uy + tilt * 0.5 * rng.uniform(-1, 1) * ux
        x *= k
        x, y = x * math.cos(rot) - y * math.sin(rot), x * math.sin(rot) + y * math.cos(rot)
        corners.append((cx + x, cy + y))
    wood = tuple(int(c + rng.uniform(-15, 15)) for c in (140, 188, 220))
    hard = difficulty >= 2
    return Look(
        corners=tuple(corners),
        wood=(wood[0], wood[1], wood[2]),
        lamp_mm=(370 + rng.uniform(-80, 80), 370 + rng.uniform(-80, 80)),
        lamp_falloff=rng.uniform(0.1, 0.35) if difficulty else 0.0,
        gradient=rng.uniform(0.1, 0.35) if hard else 0.0,
        gradient_angle=rng.uniform(0, 2 * math.pi),
        glare=rng.uniform(25, 60) if hard else 0.0,
        glare_mm=(rng.uniform(150, 590), rng.uniform(150, 590)),
        glare_sigma_mm=rng.uniform(40, 90),
        powder=rng.uniform(0.05, 0.2) if hard else 0.0,
        exposure=rng.uniform(0.9, 1.08) if difficulty else 1.0,
        blur=(0.3, 0.6, 0.8, 0.8)[min(difficulty, 3)] + rng.uniform(0, 0.3),
        noise=(1.0, 2.5, 4.0, 4.0)[min(difficulty, 3)],
        cloth=int(rng.integers(1, 1 << 30)) if hard else 0,
        seed=seed,
    )


def random_hand(rng: np.random.Generator) -> Hand:
    """A hand reaching in from one of the four sides."""
    side = int(rng.integers(4))
    along = rng.uniform(120, 620)
    reach = rng.uniform(60, 300)
    x, y, ang = [
        (along, B.SURFACE_MM - reach, -math.pi / 2),
        (reach, along, 0.0),
        (along, reach, math.pi / 2),
        (B.SURFACE_MM - reach, along, math.pi),
    ][side]
    skin = tuple(int(c) for c in np.array([120, 150, 195]) * rng.uniform(0.45, 1.1))
    sleeve = None
    if rng.random() < 0.8:
        c = rng.integers(20, 230, 3)
        sleeve = (int(c[0]), int(c[1]), int(c[2]))
    return Hand(x, y, ang + rng.uniform(-0.4, 0.4), (skin[0], skin[1], skin[2]), sleeve)


def random_scene(seed: int, difficulty: int) -> Scene:
    """A reproducible scene of a difficulty 0-3 (3 adds a hand over the board)."""
    rng = np.random.default_rng(seed)
    look = random_look(rng, difficulty, seed)
    if difficulty >= 2 and rng.random() < 0.25:
        pieces = start_arrangement()
        if rng.random() < 0.5:
            pieces.append(
                Piece("striker", rng.uniform(200, 540), B.SURFACE_MM - B.BASELINE_IN_MM - 16, 41.0)
            )
    else:
        pieces = random_pieces(rng, touching=(0.0, 0.3, 0.5, 0.5)[min(difficulty, 3)])
    hand = random_hand(rng) if difficulty >= 3 else None
    return Scene(tuple(pieces), look, hand)


def empty(scene: Scene) -> Scene:
    """The same board and camera with nothing on it (the calibration view)."""
    return replace(scene, pieces=(), hand=None)
