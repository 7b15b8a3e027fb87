"""The carrom board's geometry, from the ICF laws of equipment (section I).

Sizes come from shared/seeds/000_182590910620177a.txt, section I:
अ.1 playing surface 73.5-74 cm square; अ.2 frame 6.35-7.60 cm wide; अ.3 pockets
4.45 ± 0.15 cm in diameter cut in the four corners; अ.4 base lines 10.15 cm in
from the frame, the second 3.18 cm further in, 47 cm long, ended by base
circles 3.18 cm across with a red centre 2.54 cm across; अ.5 arrows 26.7 cm long
starting 5.0 cm in from a pocket, ended by an arc 6.35 cm across; अ.6 centre
circle 3.18 cm; अ.7 outer circle 17 cm; आ coins 3.02-3.18 cm; इ striker 4.13 cm
at most.

Board coordinates are millimetres on the playing surface: origin at its
top-left corner, x to the right, y down, as seen in the camera's square top
view with the first breaker's base line at the bottom. Pockets are numbered
1 bottom-left, 2 top-left, 3 top-right, 4 bottom-right.

The top view the detector works on has a fixed scale of `SCALE` px per mm
(0.5: 2 mm a pixel) and shows the playing surface and `MARGIN_MM` of the frame
around it (400 x 400 px). At 640 x 480 the camera sees the board at
about 0.55 px/mm, so a finer top view would only interpolate; coin centres are
found to a fraction of a pixel from the whole coin's area.
"""

from __future__ import annotations

import math

SURFACE_MM = 740.0
FRAME_MM = 70.0
POCKET_D_MM = 44.5
COIN_D_MM = 31.0  # the middle of 30.2-31.8
STRIKER_D_MM = 41.3
BASELINE_IN_MM = 101.5
BASELINE_GAP_MM = 31.8
BASELINE_LEN_MM = 470.0
BASELINE_W_MM = 5.5
BASE_CIRCLE_D_MM = 31.8
BASE_RED_D_MM = 25.4
CENTRE_D_MM = 31.8
OUTER_D_MM = 170.0
ARROW_FROM_POCKET_MM = 50.0
ARROW_LEN_MM = 267.0
ARROW_ARC_D_MM = 63.5

SCALE = 0.5  # top-view px per mm
#: The top view reaches this far over the frame on every side: hands and sleeves
#: cross the frame to reach the board, and coins never lie on it.
MARGIN_MM = 30.0
TOP_PX = round((SURFACE_MM + 2 * MARGIN_MM) * SCALE)  # 400

COLOURS = ("white", "black", "queen", "striker")

_P = POCKET_D_MM / 2.0

#: Pocket centres in board millimetres, pocket n at index n - 1. The pocket
#: circle is cut inside the corner, touching both edges (law I अ.3).
POCKETS_MM: tuple[tuple[float, float], ...] = (
    (_P, SURFACE_MM - _P),
    (_P, _P),
    (SURFACE_MM - _P, _P),
    (SURFACE_MM - _P, SURFACE_MM - _P),
)


def mm_to_top(x_mm: float, y_mm: float) -> tuple[float, float]:
    """Board millimetres to top-view pixel coordinates (pixel centres on integers)."""
    return (x_mm + MARGIN_MM) * SCALE - 0.5, (y_mm + MARGIN_MM) * SCALE - 0.5


def top_to_mm(u: float, v: float) -> tuple[float, float]:
    """Top-view pixel coordinates to board millimetres."""
    return (u + 0.5) / SCALE - MARGIN_MM, (v + 0.5) / SCALE - MARGIN_MM


def on_surface(x_mm: float, y_mm: float) -> bool:
    return 0.0 <= x_mm <= SURFACE_MM and 0.0 <= y_mm <= SURFACE_MM


def surface_slice() -> slice:
    """The rows (and columns) of the top view that show the playing surface."""
    m = round(MARGIN_MM * SCALE)
    return slice(m, TOP_PX - m)


def nearest_pocket(x_mm: float, y_mm: float) -> tuple[int, float]:
    """The pocket (1-4) nearest a point, and the distance to its centre in mm."""
    best = min(
        range(4),
        key=lambda i: (POCKETS_MM[i][0] - x_mm) ** 2 + (POCKETS_MM[i][1] - y_mm) ** 2,
    )
    px, py = POCKETS_MM[best]
    return best + 1, float(((px - x_mm) ** 2 + (py - y_mm) ** 2) ** 0.5)


def arrows_mm() -> list[tuple[float, float, float, float, float, float]]:
    """Law I's four arrows, one from each pocket towards the centre: the unit direction
    (ux, uy), the start beyond the pocket (x0, y0) and the end (x1, y1), in mm."""
    s = SURFACE_MM
    found = []
    for px, py in POCKETS_MM:
        ux, uy = (s / 2 - px), (s / 2 - py)
        n = math.hypot(ux, uy)
        ux, uy = ux / n, uy / n
        start = POCKET_D_MM / 2.0 + ARROW_FROM_POCKET_MM
        x0, y0 = px + ux * start, py + uy * start
        found.append((ux, uy, x0, y0, x0 + ux * ARROW_LEN_MM, y0 + uy * ARROW_LEN_MM))
    return found
