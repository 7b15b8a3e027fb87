"""Home boards as a phone sees them: the variations real photos showed that the
tournament renderer (`render.random_scene`) does not.

- The pieces: a striker of 38-75 mm (home sets), black men in slate grey, brown
  or dark wood, white men cream or natural wood, a faded pink queen.
- The board: net pockets, a worn and scratched surface with one brighter side,
  a patterned red cloth around it, the frame running off the image's edge; the
  print thinner, in other inks, the dots hollow, a pattern at the centre
  (`home_markings`).
- The camera: a phone held above, a pinhole camera tilted up to 10° (a physical
  perspective, so the calibration's square check applies), the board off
  centre, a hand blurred by motion, a little shake.

`random_home_scene(seed)` makes one reproducible board; `home_pieces` the men
(mid-game or the opening arrangement) with the striker's size.
"""

from __future__ import annotations

import math

import numpy as np

from vision import board as B
from vision.sim.render import (
    Look,
    Markings,
    Piece,
    Scene,
    random_hand,
    random_pieces,
    start_arrangement,
)

#: Colours (BGR) of home sets' men.
BLACKS = ((92, 92, 96), (78, 84, 92), (40, 62, 98), (30, 45, 70), (60, 58, 60))
WHITES = ((208, 226, 236), (150, 196, 226), (170, 205, 230), (225, 232, 236))
QUEENS = ((150, 135, 215), (120, 105, 200), (48, 36, 170), (110, 90, 190))
STRIKERS = ((232, 236, 238), (200, 215, 225), (150, 200, 235), (60, 60, 60))
#: Two whole sets, as Look.piece_bgr takes them (white, black, queen, striker): slate
#: grey and cream men with a white striker, and men and striker of the plywood's own wood.
SLATE_SET = (WHITES[0], BLACKS[0], QUEENS[0], STRIKERS[0])
WOOD_SET = (WHITES[1], BLACKS[2], QUEENS[3], STRIKERS[2])


#: Inks (BGR) of home boards' lines: near black, brown, maroon, green; and their reds.
INKS = ((30, 30, 34), (25, 45, 75), (35, 30, 110), (40, 70, 30))
REDS = ((40, 52, 205), (50, 40, 150), (90, 80, 210))


def home_markings(seed: int) -> Markings:
    """A home board's print: a tournament board's on 2 boards in 5; otherwise thinner
    lines in one of INKS, its red one of REDS, the dots sometimes hollow,
    sometimes no arrows, and a pattern at the centre on most. Drawn from its own
    generator, so a seed's other variations stay as they were before the print varied."""
    rng = np.random.default_rng(seed + 5_000_011)
    if rng.random() < 0.4:
        return Markings()
    return Markings(
        ink=INKS[int(rng.integers(len(INKS)))],
        red=REDS[int(rng.integers(len(REDS)))],
        line_mm=1 if rng.random() < 0.6 else 2,
        base_line_mm=int(rng.integers(1, 4)),
        filled=rng.random() < 0.6,
        arrows=rng.random() < 0.8,
        centre=str(rng.choice(["", "star", "rings", "petals"], p=[0.25, 0.25, 0.25, 0.25])),
    )


def camera_corners(
    rng: np.random.Generator, width: int, height: int, max_tilt_deg: float
) -> tuple[tuple[float, float], ...]:
    """The playing surface's corners (top-left, top-right, bottom-right,
    bottom-left) seen by a pinhole camera with square pixels and its principal
    point at the image's centre, tilted up to `max_tilt_deg`, the board off centre
    and its frame sometimes running off the image."""
    diag = math.hypot(width, height)
    f = rng.uniform(0.55, 1.1) * diag
    tilt = math.radians(rng.uniform(0, max_tilt_deg))
    axis = rng.uniform(0, 2 * math.pi)
    yaw = rng.uniform(-0.08, 0.08) + (math.pi / 2 if rng.random() < 0.15 else 0.0)
    # Rotation: yaw about the camera axis, then a tilt about an axis in the board.
    ax = np.array([math.cos(axis), math.sin(axis), 0.0])
    k = np.array([[0, -ax[2], ax[1]], [ax[2], 0, -ax[0]], [-ax[1], ax[0], 0]])
    r_tilt = np.eye(3) + math.sin(tilt) * k + (1 - math.cos(tilt)) * (k @ k)
    cy, sy = math.cos(yaw), math.sin(yaw)
    r_yaw = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    rot = r_tilt @ r_yaw
    # Distance: the surface fills 72-92% of the image's height.
    fill = rng.uniform(0.72, 0.92)
    dist = f * B.SURFACE_MM / (fill * height)
    s = B.SURFACE_MM / 2
    pts = np.array([[-s, -s, 0], [s, -s, 0], [s, s, 0], [-s, s, 0]], np.float64)
    cam = (rot @ pts.T).T + np.array([0.0, 0.0, dist])
    img = np.stack([f * cam[:, 0] / cam[:, 2], f * cam[:, 1] / cam[:, 2]], axis=1)
    # Off centre, up to where the frame runs off the image (the surface stays in).
    lo, hi = img.min(axis=0), img.max(axis=0)
    room_x = max(0.0, width / 2 - 6 - max(-lo[0], hi[0]))
    room_y = max(0.0, height / 2 - 6 - max(-lo[1], hi[1]))
    shift = np.array([rng.uniform(-room_x, room_x), rng.uniform(-room_y, room_y)])
    img = img + shift + [width / 2, height / 2]
    return tuple((float(x), float(y)) for x, y in img)


def home_pieces(rng: np.random.Generator, striker_d: float) -> list[Piece]:
    """Mid-game men (touching often), or the opening arrangement; the striker
    (of `striker_d` mm) on the first base line or anywhere, or not on the board."""
    if rng.random() < 0.2:
        pieces = start_arrangement()
        if rng.random() < 0.7:
            y = B.SURFACE_MM - B.BASELINE_IN_MM - B.BASELINE_GAP_MM / 2
            pieces.append(Piece("striker", rng.uniform(260, 480), y, striker_d))
        return pieces
    pieces = random_pieces(rng, touching=0.5, striker=rng.random() < 0.7)
    return [
        Piece(p.colour, p.x_mm, p.y_mm, striker_d) if p.colour == "striker" else p
        for p in pieces
        if p.colour != "striker" or _room(p, pieces, striker_d)
    ]


def _room(striker: Piece, pieces: list[Piece], d: float) -> bool:
    """Whether a striker of diameter d fits where the smaller one was."""
    m = d / 2 + 1
    if not (m <= striker.x_mm <= B.SURFACE_MM - m and m <= striker.y_mm <= B.SURFACE_MM - m):
        return False
    for px, py in B.POCKETS_MM:
        if math.hypot(striker.x_mm - px, striker.y_mm - py) < B.POCKET_D_MM / 2 + d / 2 + 2:
            return False
    return all(
        math.hypot(p.x_mm - striker.x_mm, p.y_mm - striker.y_mm) >= (p.d_mm + d) / 2 + 0.05
        for p in pieces
        if p is not striker
    )


def random_home_scene(seed: int) -> Scene:
    """A reproducible home board with every variation drawn at random."""
    rng = np.random.default_rng(seed)
    width, height = 640, 480
    wood = tuple(int(c + rng.uniform(-20, 15)) for c in (140, 188, 220))
    colours = tuple(c[int(rng.integers(len(c)))] for c in (WHITES, BLACKS, QUEENS, STRIKERS))
    look = Look(
        width=width,
        height=height,
        corners=camera_corners(rng, width, height, 10.0),
        wood=(wood[0], wood[1], wood[2]),
        lamp_mm=(370 + rng.uniform(-250, 250), 370 + rng.uniform(-250, 250)),
        lamp_falloff=rng.uniform(0.1, 0.4),
        gradient=rng.uniform(0.1, 0.4),
        gradient_angle=rng.uniform(0, 2 * math.pi),
        glare=rng.uniform(0, 40),
        glare_mm=(rng.uniform(150, 590), rng.uniform(150, 590)),
        glare_sigma_mm=rng.uniform(40, 90),
        powder=rng.uniform(0.0, 0.15),
        exposure=rng.uniform(0.85, 1.1),
        blur=rng.uniform(0.5, 1.1),
        noise=rng.uniform(2.0, 5.0),
        cloth=int(rng.integers(1, 1 << 30)),
        seed=seed,
        piece_bgr=colours,
        net_pockets=rng.random() < 0.7,
        wear=rng.uniform(0.2, 1.0),
        hand_blur=rng.uniform(6, 20),
        shake=rng.uniform(0, 1.5),
        red_cloth=rng.random() < 0.6,
        markings=home_markings(seed),
    )
    pieces = home_pieces(rng, float(rng.uniform(38, 75)))
    hand = random_hand(rng) if rng.random() < 0.3 else None
    return Scene(tuple(pieces), look, hand)
