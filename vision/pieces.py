"""The one detector: the pieces on the board's top view, each with a confidence, and
what it doubts.

The same detector counts a single photo (`tableside vision detect`, cold) and the
kiosk's board at rest (with the empty board kept at calibration and the set learned
from the opening). Three kinds of evidence meet:

1. **The learned stage** (vision.coin_net): a network's heat per class, voted over the
   eight orientations of the view. It proposes where pieces are and of which class.
2. **Change against the empty board**: a piece is what is not the board. In the kiosk
   the empty board is the view kept at calibration (`EmptyBoard`); cold, it is the
   board's own print learned from the photo itself: law I prints the board the same
   after a quarter turn or a mirror, so the median of the view's eight orientations,
   with the proposed pieces masked out, is the empty board wherever at least two
   orientations show it bare (`symmetric_board`). Whatever the empty board holds (red
   circles, a star, spots, lines, a maker's mark printed symmetrically) is never a
   piece; a proposal there with no change is dropped.
3. **Shape and size**: change that is a disc of a man's or a striker's size is a piece
   even where the network missed it (a set unlike its training); change that is large
   and not a disc (a hand, a machine's rails) hides what is under it.

A piece's confidence combines the network's heat and the share of its disc that
changed. Pieces from `SURE` are counted without doubt; from `COUNT` they are counted
but listed unsure; below that, down to `DOUBT`, they are not counted and listed
unsure. Where the change cannot be judged (cold, at the board's centre, which every
orientation shares, or where pieces lie at symmetric places) only the heat speaks,
and anything but a hot piece is unsure. With a learned set (vision.piece_set) the
class is the set's nearest, not the network's guess.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision import board as B
from vision.params import PARAMS
from vision.view import (
    A_COIN as A_COIN,
)
from vision.view import (
    R_COIN as R_COIN,
)
from vision.view import (
    R_STRIKER as R_STRIKER,
)
from vision.view import (
    Array,
    Found,
    disc_window,
)
from vision.view import (
    BoardView as BoardView,
)
from vision.view import (
    Coin as Coin,
)
from vision.view import (
    Doubt as Doubt,
)
from vision.view import (
    disc_lab as disc_lab,
)
from vision.view import (
    lab as lab,
)
from vision.view import (
    ring_share as ring_share,
)
from vision.view import (
    share as share,
)

if TYPE_CHECKING:
    from vision.piece_set import Look, PieceSet


SURE = PARAMS.sure
COUNT = PARAMS.count
DOUBT = PARAMS.doubt
#: The network's proposals are read from this heat.
PROPOSE = 0.12
#: Under this heat the network barely saw a proposal: a lone disc of change's size and
#: colour give its class; from it, the network's class stands (the other in doubt).
WEAK = 0.25
#: From this heat the network's proposal is a piece even where little changed.
HOT = 0.6
#: Below this heat a proposal repeated at its symmetric places is judged as print
#: against the print there (the opening's men lie at such places too, hotter).
PATTERN = 0.7
#: A proposal whose disc changed over less than this share, where change can be
#: judged, is the board's own print or bare board: never a piece.
PRINT = 0.2


# The playing surface in the top view, and its pockets.
_SURFACE = np.zeros((B.TOP_PX, B.TOP_PX), np.uint8)
_SURFACE[B.surface_slice(), B.surface_slice()] = 1
for _x, _y in B.POCKETS_MM:
    _u, _v = B.mm_to_top(_x, _y)
    cv2.circle(_SURFACE, (round(_u), round(_v)), round(B.POCKET_D_MM / 2 * B.SCALE + 3), 0, -1)


# Every fourth pixel of the surface: where the board's spread of change is measured.
_SPREAD_AT = np.zeros((B.TOP_PX, B.TOP_PX), bool)
_SPREAD_AT[::4, ::4] = True
_SPREAD_AT &= _SURFACE > 0


class EmptyBoard:
    """The empty board's top view in CIELAB: the view kept at calibration (several are
    median-combined), or the board's print learned from a view with pieces on it
    (`symmetric_board`); `known` marks where it is known."""

    def __init__(self, views: list[Array] | Array, known: Array | None = None) -> None:
        stack = [views] if isinstance(views, np.ndarray) else list(views)
        if not stack:
            raise ValueError("the empty board needs at least one view")
        for v in stack:
            if np.asarray(v).shape != (B.TOP_PX, B.TOP_PX, 3):
                raise ValueError(
                    f"a view of the empty board must be a {B.TOP_PX}x{B.TOP_PX} top view"
                )
        planes = np.stack([lab(v) if np.asarray(v).dtype == np.uint8 else v for v in stack])
        self.lab: Array = np.median(planes, axis=0) if len(stack) > 1 else planes[0]
        self.known: Array = (
            np.ones((B.TOP_PX, B.TOP_PX), bool) if known is None else np.asarray(known, bool)
        )

    def plywood_a(self) -> float:
        """The plywood's redness (CIELAB a*): the median over the known surface."""
        on = (_SURFACE > 0) & self.known
        return float(np.median(self.lab[:, :, 1][on])) if on.any() else 0.0

    def blend(self, top: Array, bare: Array, rate: float) -> None:
        """Move towards a top view where `bare` (pixels seen as bare board): powder and a
        drifting lamp become part of the board. Pixels not known before (under a piece
        when the board was learned from a view with pieces on it) are taken as seen."""
        mask = np.asarray(bare) > 0
        view = lab(top)
        new = mask & ~self.known  # first seen bare: taken as it is
        self.lab[new] = view[new]
        cv2.accumulateWeighted(view, self.lab, rate, (mask & self.known).astype(np.uint8))
        self.known |= mask


def symmetric_board(top_lab: Array, pieces: Array) -> EmptyBoard:
    """The empty board from one view: per pixel the median over the eight orientations
    of the view (law I prints the board the same in each) of those where `pieces`
    (uint8 mask) does not cover it. Known where at least two orientations are bare."""
    from vision.coin_net import turned

    views = np.stack([turned(top_lab, k) for k in range(8)])
    covered = np.stack([turned(pieces, k) for k in range(8)]) > 0
    views[covered] = np.nan
    ordered = np.sort(views, axis=0)  # NaN last
    n = (~covered).sum(axis=0)
    mid = np.clip((n - 1) // 2, 0, 7)
    med = np.take_along_axis(ordered, mid[None, :, :, None].repeat(3, axis=3), axis=0)[0]
    known = n >= 2
    med[~known] = top_lab[~known]
    return EmptyBoard(np.nan_to_num(med).astype(np.float32), known)


def change(top_lab: Array, empty: EmptyBoard) -> Array:
    """How far each pixel is from the empty board, in units of the board's own spread:
    brightness with the light's slow fall-off across the board taken out (a lamp, a
    gradient), and colour."""
    d = top_lab - empty.lab
    dl = d[:, :, 0]
    # The slow fall-off, worked out at a quarter of the size (a median over 36 px, then
    # smoothed): pieces are narrower than that and do not move it.
    small = cv2.resize(dl, (B.TOP_PX // 4, B.TOP_PX // 4), interpolation=cv2.INTER_AREA)
    quiet = cv2.medianBlur(np.clip(small + 128, 0, 255).astype(np.uint8), 9)
    slow = cv2.GaussianBlur(quiet.astype(np.float32) - 128, (0, 0), 2)
    dl = dl - cv2.resize(slow, (B.TOP_PX, B.TOP_PX), interpolation=cv2.INTER_LINEAR)
    return _in_spreads(dl, d, empty)


def _in_spreads(dl: Array, d: Array, empty: EmptyBoard, smooth: int = 0) -> Array:
    """The distance from the empty board of brightness `dl` (a fall-off already taken
    out) and the colour of `d` (the view less the board), smoothed over `smooth` px when
    given, in units of three times the board's own spread (4 at the least)."""
    ab = cv2.magnitude(d[:, :, 1], d[:, :, 2])
    dist = cv2.magnitude(dl, ab * math.sqrt(1.5))
    if smooth:
        dist = cv2.blur(dist, (smooth, smooth))
    on = _SPREAD_AT & empty.known
    spread = float(np.median(dist[on])) if on.any() else 1.0
    out: Array = dist / max(spread * 3.0, 4.0)
    return out


# The strip of frame around the playing surface in the top view, less the 3 px next
# to the surface's edge (where the calibration and the blur leave a seam).
_SQUARE = np.zeros((B.TOP_PX, B.TOP_PX), np.uint8)
_SQUARE[B.surface_slice(), B.surface_slice()] = 1
_FRAME_BAND = cv2.dilate(_SQUARE, np.ones((7, 7), np.uint8)) == 0
_DISC5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_DISC7 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
_DISC11 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (11, 11))


@dataclass(frozen=True, slots=True)
class Blob:
    """A disc of change: centre and radius (top-view px) and how round it is."""

    u: float
    v: float
    r: float
    round: float


def blobs(
    changed: Array, explained: Array, packed: bool = False, reaching: Array | None = None
) -> tuple[list[Blob], Array]:
    """The discs of change no proposal explains (round, of a man's to a large striker's
    size), and the rest: change too large and not round, which hides what is under it.
    With `packed` (change against a kept empty board, which is sharp), a region that
    man-sized discs fill is men packed together, not something hiding the board, unless
    it touches `reaching` (change that runs on over the frame: an arm reaching in)."""
    rest = cv2.morphologyEx(changed & (1 - explained), cv2.MORPH_OPEN, _DISC7)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(rest, connectivity=8)
    found: list[Blob] = []
    hidden: Array = np.zeros_like(rest)
    for i in range(1, n):
        x, y, w, h, area = (int(s) for s in stats[i])
        if area < 0.45 * A_COIN:
            continue
        part = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
        depth = cv2.distanceTransform(np.pad(part, 1), cv2.DIST_L2, 5)[1:-1, 1:-1]
        r = float(depth.max())
        fill = area / (math.pi * max(r, 1.0) ** 2)
        # Wider than a common striker (60 mm) a disc must be round: a hand's palm with
        # its fingers is a striker's size but not a disc.
        most_fill = 1.45 if r < 30.0 * B.SCALE else 1.3
        on_arm = 0 if reaching is None else np.count_nonzero(part & reaching[y : y + h, x : x + w])
        arm = on_arm > 0
        if 0.8 * R_COIN <= r <= 38.0 * B.SCALE * 1.1 and fill <= most_fill:
            if on_arm > 0.5 * area:
                # Mostly the change of an arm reaching in: a fingertip's disc of
                # change is no piece.
                hidden[y : y + h, x : x + w][part > 0] = 255
                continue
            vv, uu = np.nonzero(depth >= 0.8 * r)
            found.append(Blob(float(uu.mean()) + x, float(vv.mean()) + y, r + 1.0, 1.0 / fill))
        elif area > 1.2 * A_COIN:
            men = _packed_men(part) if packed and not arm else []
            if men:
                found.extend(Blob(u + x, v + y, R_COIN, 0.8) for u, v in men)
            else:
                hidden[y : y + h, x : x + w][part > 0] = 255
    return found, hidden


def _reaching(changed: Array) -> Array:
    """The change (bool) connected to change on the frame: an arm reaching in (pieces
    never lie on the frame)."""
    if not changed[_FRAME_BAND].any():
        return np.zeros(changed.shape, bool)
    _, labels = cv2.connectedComponents(changed, connectivity=8)
    ids = np.unique(labels[_FRAME_BAND & (changed > 0)])
    out: Array = np.isin(labels, ids[ids > 0])
    return out


# The strip of surface along its edge, 3 px deep.
_EDGE_STRIP = (_SQUARE > 0) & (cv2.erode(_SQUARE, np.ones((7, 7), np.uint8)) == 0)


def _crossing_edge(changed: Array) -> Array:
    """The change (bool) that crosses the surface's edge over more than three men's radii
    (a man's disc meets it over a chord of two at most): an arm reaching in whose sleeve
    is the frame's colour, its change stopping at the edge."""
    out: Array = np.zeros(changed.shape, bool)
    strip = ((changed > 0) & _EDGE_STRIP).astype(np.uint8)
    n, runs, stats, _ = cv2.connectedComponentsWithStats(strip, connectivity=8)
    wide = [i for i in range(1, n) if max(stats[i, 2], stats[i, 3]) > 3 * R_COIN]
    if wide:
        _, labels = cv2.connectedComponents(changed.astype(np.uint8), connectivity=8)
        ids = np.unique(labels[np.isin(runs, wide)])
        out = np.isin(labels, ids[ids > 0])
    return out


def arm_change(top_lab: Array, empty: EmptyBoard) -> Array:
    """Change against the kept empty board (uint8 mask, 1 = changed) as an arm shows it:
    `change` takes a slow fall-off of brightness out, and a forearm as wide as that
    fall-off's window is taken for one (its face, a dark arm's most of all, comes out
    unchanged, its edges as fragments). Here only the whole view's shift of brightness
    (another exposure) is taken out, the change is smoothed over 3 px (a frame's noise
    is as strong as a dark arm's change over it), and gaps of a few px are closed: the
    seam where the frame meets the surface, and where a sleeve meets the skin, blend to
    the board's look under some arms."""
    d = top_lab - empty.lab
    on = (_SURFACE > 0) & empty.known
    shift = float(np.median(d[:, :, 0][on])) if on.any() else 0.0
    dl = (d[:, :, 0] - shift).astype(np.float32)
    mask: Array = ((_in_spreads(dl, d, empty, smooth=3) > 1.0) & empty.known).astype(np.uint8)
    out: Array = cv2.morphologyEx(
        cv2.morphologyEx(mask, cv2.MORPH_OPEN, _DISC5), cv2.MORPH_CLOSE, _DISC7
    )
    return out


def _packed_men(part: Array) -> list[tuple[float, float]]:
    """Men packed together (the opening, law 41) in one region of change: man-sized
    discs taken at the deepest point, one at a time, while they fit; [] when they do
    not explain the region (a hand, a sleeve, a machine: no piece)."""
    left = np.pad(part, 1).astype(np.uint8)
    centres: list[tuple[float, float]] = []
    while len(centres) < 20:
        depth = cv2.distanceTransform(left, cv2.DIST_L2, 5)
        _, top, _, (cx, cy) = cv2.minMaxLoc(depth)
        if top < 0.6 * R_COIN:
            break
        centres.append((cx - 1.0, cy - 1.0))
        cv2.circle(left, (cx, cy), round(R_COIN + 1), 0, -1)
    area = float(part.sum())
    if not centres or np.count_nonzero(left) > 0.3 * area:
        return []
    if area > 1.6 * len(centres) * A_COIN:
        return []
    return centres


def _colour_class(
    top_lab: Array, empty: EmptyBoard, u: float, v: float, r: float, kept: bool = False
) -> tuple[str, str | None]:
    """The class of a disc of change by its colour and size against the board around
    it, when no learned set says better: wider than a man is the striker; redder than
    the plywood the queen; darker black; else white. Cold (not `kept`), a photo's blur
    widens a man's change by a pixel or two: between a man's size and a striker's the
    other class is returned too (the piece is in doubt)."""
    if r > (STRIKER_FROM if kept else STRIKER_COLD) * R_COIN:
        return "striker", None
    man = _man_class(top_lab, empty, u, v, r)
    if not kept and r > MAN_COLD * R_COIN:
        return man, "striker"
    return man, None


def _man_class(top_lab: Array, empty: EmptyBoard, u: float, v: float, r: float) -> str:
    win, inside = disc_window(top_lab.shape, u, v, 0.7 * r)
    here = top_lab[win][inside]
    board = empty.lab[win][inside]
    dl = float(np.median(here[:, 0]) - np.median(board[:, 0]))
    # Redness against the plywood (the board's median), not the print under the piece:
    # the queen on the red centre circle is no redder than the circle.
    plywood = empty.plywood_a()
    if float(np.median(here[:, 1])) > plywood + 15.0:
        return "queen"
    return "black" if dl < -12.0 else "white"


def _red_print(empty: EmptyBoard, u: float, v: float, r: float) -> bool:
    """Whether the board's print within a little more than a disc is as red as the
    queen (redder than the plywood as `_man_class` reads her)."""
    win, inside = disc_window(empty.lab.shape, u, v, 1.3 * r)
    a = empty.lab[win][inside][:, 1]
    return bool(len(a)) and float(np.percentile(a, 90)) > empty.plywood_a() + 15.0


def orbit(u: float, v: float) -> list[tuple[float, float]]:
    """The places of a top-view point under the board's eight symmetries (law I prints
    the board the same after a quarter turn or a mirror), itself first."""
    c = (B.TOP_PX - 1) / 2
    x, y = u - c, v - c
    pts = [(x, y), (y, x), (-x, y), (-y, x), (x, -y), (y, -x), (-x, -y), (-y, -x)]
    return [(c + a, c + b) for a, b in pts]


def _printed_pattern(c: Coin, proposals: list[Coin], near_px: float = 10.0) -> bool:
    """Whether a proposal repeats at its symmetric places (most of the distinct ones hold
    a proposal): a printed pattern, or pieces over one, not a piece alone."""
    u, v = B.mm_to_top(c.x_mm, c.y_mm)
    others: list[tuple[float, float]] = []
    for a, b in orbit(u, v)[1:]:
        if (a - u) ** 2 + (b - v) ** 2 > near_px**2 and all(
            (a - p) ** 2 + (b - q) ** 2 > near_px**2 for p, q in others
        ):
            others.append((a, b))
    if not others:
        return False
    same = [B.mm_to_top(p.x_mm, p.y_mm) for p in proposals if p is not c]
    hit = sum(
        1 for a, b in others if any((a - p) ** 2 + (b - q) ** 2 <= near_px**2 for p, q in same)
    )
    return hit >= 0.6 * len(others)


def _siblings(changed: Array, u: float, v: float, r: float) -> float:
    """The median share of change over a disc at a point's other symmetric places."""
    shares = [
        share(changed, a, b, r)
        for a, b in orbit(u, v)[1:]
        if (a - u) ** 2 + (b - v) ** 2 > (2 * r) ** 2
    ]
    return float(np.median(shares)) if shares else 0.0


def lone_disc(changed: Array, u: float, v: float) -> float:
    """The radius (px) of the disc of change at a point when it stands alone (its
    connected change is one disc: a piece away from others), else 0. A thin band of
    change joining it (the frame's rim seen at a slant at the surface's edge, a line
    the print's symmetry did not learn) is not part of it: narrower than a man's
    disc, such a band goes in an opening with a disc of 0.65 of a man's radius."""
    win, inside = disc_window(changed.shape, u, v, 2.2 * R_STRIKER)
    part = np.where(inside, changed[win], 0).astype(np.uint8)
    # The window's own rim: change reaching it runs on beyond the window.
    rim = inside & ~cv2.erode(inside.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    at = (round(u) - win[1].start, round(v) - win[0].start)
    r = _lone(part, rim, *at)
    if r == 0.0:
        r = _lone(cv2.morphologyEx(part, cv2.MORPH_OPEN, _DISC11), rim, *at)
    return r


def _lone(part: Array, rim: Array, cx: int, cy: int) -> float:
    """`lone_disc` on a window of change around the point (cx, cy), `rim` the window's
    edge."""
    _n, labels = cv2.connectedComponents(part, connectivity=8)
    if not (0 <= cy < part.shape[0] and 0 <= cx < part.shape[1]) or labels[cy, cx] == 0:
        return 0.0
    one = (labels == labels[cy, cx]).astype(np.uint8)
    if one[rim].any():
        return 0.0  # runs out of the window: not a piece alone
    depth = cv2.distanceTransform(np.pad(one, 1), cv2.DIST_L2, 5)[1:-1, 1:-1]
    r = float(depth.max()) + 1.0
    fill = float(one.sum()) / (math.pi * r * r)
    if not 0.7 * R_COIN <= r <= 1.1 * 38.0 * B.SCALE or fill > 1.5:
        return 0.0
    return r


#: A disc of change this many men's radii across or more is the striker (the smallest
#: strikers are 38 mm across, men 30-32 mm; a disc of change is a pixel wider).
STRIKER_FROM = 1.18
#: Cold, a photo's blur widens a disc of change: a striker from this many men's radii,
#: a man up to MAN_COLD, in doubt between.
STRIKER_COLD = 1.35
MAN_COLD = 1.12

#: A man beside what hides the board whose outline is less round than this
#: (`round_outline`) is a part of what hides it, not counted (men on the real dev
#: photos 0.95-0.99, men touching a hand over a printed line on the renderer's boards
#: 0.9-0.93, the corner of a machine's carriage 0.8-0.84).
ROUND = 0.87

#: A white man whose face is redder (CIELAB a*) than the plywood by more than this may
#: be the queen. On the renderer's tuning boards 1-1000, 99% of white men lie under 8.8
#: over their plywood (cream and light wooden men are paler than it), 99% of queens
#: over 13 (tuning board 1308's pink queen on a pinkish plywood: 14).
REDDER = 10.5

#: The most pieces of each class a set holds (law I आ, इ).
MOST = {"white": 9, "black": 9, "queen": 1, "striker": 1}

#: A piece's centre lies at least this far in from the surface's edge (a man's radius
#: is 15.5 mm; a little less for the calibration's error).
EDGE_MM = 11.0

#: Cold, the board's centre is its own image under every symmetry: no change can be
#: judged there (the centre circle and a queen on it are alike), so the heat alone
#: speaks and a little less is trusted.
CENTRE_BLIND_MM = 30.0
#: The same in top-view pixels, and the top view's centre (the board's).
CENTRE_BLIND_PX = CENTRE_BLIND_MM * B.SCALE
MID_PX = (B.TOP_PX - 1) / 2


class Detector:
    """The pieces on a top view (see the module docstring): cold with no `empty` board,
    else against it; with a learned `pieces` set, classes by the set."""

    def __init__(self, empty: EmptyBoard | None = None, pieces: PieceSet | None = None) -> None:
        self.empty = empty
        self.pieces = pieces
        self.judged_against: EmptyBoard | None = None

    def find(self, top: Array, seen: Array | None = None) -> BoardView:
        """The pieces on a top view; `seen` (bool) marks the pixels that came from the
        image (a board running off the photo is not seen beyond it)."""
        from vision.coin_net import detect_learned

        seen_b: Array = (
            np.ones((B.TOP_PX, B.TOP_PX), bool) if seen is None else np.asarray(seen, bool)
        )
        proposals = [
            c for c in detect_learned(top, PROPOSE) if _at(seen_b, *B.mm_to_top(c.x_mm, c.y_mm))
        ]
        top_lab = lab(top)
        empty = self.empty
        printed: set[int] = set()
        if empty is None:
            # Proposals repeated at their symmetric places are judged against the print
            # there (not masked); every other proposal is masked out of the estimate.
            mask: Array = (~seen_b).astype(np.uint8)
            for i, c in enumerate(proposals):
                if c.confidence < PATTERN and _printed_pattern(c, proposals):
                    printed.add(i)
                    continue
                u, v = B.mm_to_top(c.x_mm, c.y_mm)
                r = (R_STRIKER if c.colour == "striker" else R_COIN) + 4.0
                cv2.circle(mask, (round(u), round(v)), round(r), 1, -1)
            empty = symmetric_board(top_lab, mask)
            empty.known &= seen_b
        score = change(top_lab, empty)
        raw: Array = ((score > 1.0) & (_SURFACE > 0) & empty.known).astype(np.uint8)
        changed: Array = cv2.morphologyEx(raw, cv2.MORPH_OPEN, _DISC5)
        found: list[Found] = []
        off_centre: list[tuple[float, float, bool] | None] | None = None
        plywood_a: float | None = None
        fit = outlines(top_lab) if self.empty is not None else top_lab[:, :, 0]
        explained: Array = np.zeros_like(changed)
        known = empty.known.astype(np.uint8)
        for i, c in enumerate(proposals):
            u, v = B.mm_to_top(c.x_mm, c.y_mm)
            r = R_STRIKER if c.colour == "striker" else R_COIN
            judged = share(known, u, v, 0.8 * r) > 0.8
            seen_here = share(changed, u, v, 0.8 * r)
            if self.empty is not None and c.confidence >= HOT and seen_here < PRINT:
                # A piece of the print's own colour over it (the queen on the centre
                # spot) changes the view only a little, in specks the opening wipes
                # out: a hot proposal is judged by the change before the opening.
                seen_here = max(seen_here, share(raw, u, v, 0.8 * r))
            if i in printed:
                # Over a printed pattern, a piece changes more than the pattern's other
                # places do (the print there is never drawn quite alike).
                seen_here -= _siblings(changed, u, v, 0.8 * r)
            colour, why, other = c.colour, "", None
            if judged and seen_here < PRINT:
                if (
                    self.empty is None
                    and COUNT <= c.confidence < HOT
                    and i not in printed
                    and c.colour in ("white", "black")
                    and round_outline(top_lab, u, v) >= ROUND
                ):
                    # Cold, a man the network fairly saw where the board's look learned
                    # from the view hardly changed: a man of the plywood's shade in a
                    # hand's shadow (the slow fall-off taken out is the shadow's). Not
                    # print (not repeated at its symmetric places), and his outline is
                    # a man's circle: counted, in doubt.
                    conf = COUNT + 0.05
                    why = "little change against the board, a man's round outline"
                elif c.confidence < HOT or self.empty is not None:
                    continue  # the board's own print, or bare board
                else:
                    # Cold, the network is sure and the change is not (a man of the
                    # plywood's own wood, pieces packed where the view's symmetric
                    # places hold pieces too).
                    conf = c.confidence - 0.2
                    why = "little change against the board"
            elif judged:
                conf = 0.5 * c.confidence + 0.5 * min(1.0, seen_here / 0.7)
                if c.confidence < COUNT:
                    # The network barely saw it. A disc of change of a piece's size
                    # standing alone is a piece; its size and colour against the board
                    # say which. Change of any other shape (wires, a rail) is no piece.
                    rad = lone_disc(changed, u, v)
                    if rad:
                        # As a disc of change the network missed: by how far it is
                        # from the board's look, the network's heat adding a little.
                        win, inside = disc_window(score.shape, u, v, 0.8 * rad)
                        strength = float(np.median(score[win][inside]))
                        conf = 0.27 + 0.25 * _ramp(strength, 1.5, 3.0) + 0.2 * c.confidence
                        kept = self.empty is not None
                        colour, other = _colour_class(top_lab, empty, u, v, rad, kept)
                        if c.confidence >= WEAK and colour != c.colour:
                            # Seen weakly, the network's class stands; the size and
                            # colour say what else it may be.
                            colour, other = c.colour, colour
                        elif other is None and colour != c.colour:
                            # Barely seen, the size and colour stand; the network's
                            # class is what else it may be (a dark man over the frame's
                            # rim, his disc of change widened by it, is a striker's size).
                            other = c.colour
                        r = R_STRIKER if colour == "striker" else R_COIN
                    elif c.confidence >= WEAK and seen_here >= 0.9:
                        # Seen, its disc changed through, touching another piece (a
                        # queen of the plywood's hue beside a man): counted, in doubt.
                        conf = 0.5 * c.confidence + 0.25 * min(1.0, seen_here / 0.7)
                    else:
                        conf = c.confidence
                    if (
                        self.empty is not None
                        and colour == "queen"
                        and conf < COUNT
                        and share(raw, u, v, 0.8 * r) >= 0.75
                        and _red_print(empty, u, v, R_COIN)
                    ):
                        # The queen over the print's red (a base circle's dot): she
                        # changes the view only a little, in specks the opening thins
                        # out, and the network sees her there as weakly as the print.
                        # Her disc changed through before the opening: counted, in doubt.
                        conf = COUNT + 0.05
                        why = "the queen over red print: little change, weakly seen"
            else:
                conf = c.confidence
                why = "not judged against the board: the heat alone"
                centre = math.hypot(c.x_mm - B.SURFACE_MM / 2, c.y_mm - B.SURFACE_MM / 2)
                if self.empty is None and centre < CENTRE_BLIND_MM:
                    # Never sure: a filled red centre circle seen a few mm off the
                    # view's centre (taps or a suggestion a little off) is a hot queen.
                    conf = min(conf - 0.1, SURE - 0.01)
                    why = "at the centre, where a cold view cannot tell print from piece"
                    if off_centre is None:  # looked for once a view
                        off_centre = [off_centre_white(top_lab, empty)]
                    off = off_centre[0]
                    if off is not None and math.hypot(off[0] - u, off[1] - v) < R_COIN:
                        # A light man's round outline off the centre: not the print
                        # (centred, and ink); counted, in doubt (his outline and his
                        # lightness alone say so). When the outline at the centre is
                        # nearly as round (the print's circle showing beside a man a
                        # few mm off it), listed unsure, not counted.
                        u, v, clear = off
                        # The network's striker stays the striker (a light disc off the
                        # centre too, a little wider): a white man is what else it is.
                        colour, other = (
                            ("striker", "white") if c.colour == "striker" else ("white", None)
                        )
                        conf = max(conf, COUNT + 0.05 if clear else DOUBT + 0.05)
                        why = "off the board's centre, round and lighter than the board"
            if i in printed and not why:
                why = "over a printed pattern"
                if colour == "queen" and c.confidence < HOT and _red_print(empty, u, v, R_COIN):
                    # Cold, a queen the network was not sure of where the board's red
                    # print repeats at the symmetric places (base circles' red centres on
                    # real photos, heat 0.40-0.50): the print is far likelier.
                    conf = min(conf, COUNT - 0.01)
                    why = "red like the print at its symmetric places"
            if colour == "white" and other is None and c.confidence < HOT:
                # A white man the network was not sure of whose face is clearly redder
                # than the plywood may be a pink queen (tuning board 1308: on a pinkish
                # plywood, heat 0.54 as white); light men are paler than the plywood.
                if plywood_a is None:
                    plywood_a = empty.plywood_a()
                if float(disc_lab(top_lab, u, v, 0.6 * R_COIN)[1]) > plywood_a + REDDER:
                    other = "queen"
                    why = why or "redder than the plywood: a white man or the queen"
            if colour != "striker" and self.empty is not None:
                # Against the kept empty board the watcher follows a piece from view to
                # view: to a fraction of a pixel by its outline. Cold, the network's own
                # offsets are as close (0.3-0.4 mm on the renderer's boards).
                u, v = refine(fit, u, v)
            if colour == "striker":
                r = max(r, lone_disc(changed, u, v))  # strikers come 38-75 mm across
            found.append((colour, u, v, conf, why, other, c.confidence, r))
            if conf >= DOUBT:
                # A little wider than the piece (its shadow), not so wide as to eat
                # into a man touching it.
                cv2.circle(explained, (round(u), round(v)), round(r + 1.5), 1, -1)
        reaching = None
        if self.empty is not None:
            # `changed` stops at the surface's edge; an arm's change runs on over the
            # frame, where pieces never lie, or (a sleeve of the frame's colour) crosses
            # the edge wider than any piece: what joins that is no pack of men, and a
            # disc of change mostly on it is no man.
            over: Array = cv2.morphologyEx(
                ((score > 1.0) & empty.known).astype(np.uint8), cv2.MORPH_OPEN, _DISC5
            )
            arm = arm_change(top_lab, empty)
            reaching = _reaching(over | arm) | _crossing_edge(arm)
        extra, hidden = blobs(changed, explained, self.empty is not None, reaching)
        for b in extra:
            # A place is taken by what is kept there (in doubt or counted); a proposal the
            # network barely made and nothing confirmed does not hide a disc of change
            # (a man touching another, seen at heat 0.18 on a real photo, was lost so).
            near = any(
                (b.u - f[1]) ** 2 + (b.v - f[2]) ** 2 < (R_COIN * 1.2) ** 2
                for f in found
                if f[3] >= DOUBT
            )
            if near:
                continue
            colour, other = _colour_class(top_lab, empty, b.u, b.v, b.r, self.empty is not None)
            win, inside = disc_window(score.shape, b.u, b.v, 0.8 * b.r)
            strength = float(np.median(score[win][inside]))
            # Cold, never sure (the network did not see it): counted when round and
            # far from the board's look (print a little off its symmetric place is not).
            conf = 0.22 + 0.1 * _ramp(b.round, 0.75, 0.9) + 0.25 * _ramp(strength, 1.5, 3.0)
            why = "a disc of change the network did not see"
            if self.empty is not None:
                conf += 0.2  # against the board's own view, a clear disc of change is sure
                if colour != "striker" and _outline(top_lab, empty, b.u, b.v, hidden) < ROUND:
                    # A man's rim is a circle; a disc of change cut from a sleeve's or
                    # a hand's edge (its face the board's look) has none: in doubt.
                    conf = min(conf, COUNT - 0.01)
                    why = "a disc of change the network did not see, its outline not round"
            elif colour == "queen" and _red_print(empty, b.u, b.v, b.r):
                # Cold, red print beside it: the print's edge a little off its
                # symmetric places (a worn or hand-painted board) looks the queen.
                conf = min(conf, COUNT - 0.01)
                why = "red like the print beside it"
            found.append(
                (
                    colour,
                    b.u,
                    b.v,
                    conf,
                    why,
                    other,
                    0.0,
                    max(b.r, R_STRIKER) if colour == "striker" else R_COIN,
                )
            )
        if self.empty is None and not any(
            f[3] >= DOUBT
            and (f[0] == "queen" or math.hypot(f[1] - MID_PX, f[2] - MID_PX) < CENTRE_BLIND_PX)
            for f in found
        ):
            queen = centre_queen(top_lab, empty)
            if queen is not None:
                why = "at the centre, red and round: the queen or the print"
                found.append(("queen", *queen, DOUBT + 0.05, why, None, 0.0, R_COIN))
        if hidden.any():
            hidden = cv2.dilate(hidden, _DISC7)
        #: The empty board this view was judged against (cold: learned from it).
        self.judged_against = empty
        return self._view(found, hidden, top_lab, empty)

    def glance(self, top: Array, pieces: tuple[Coin, ...] = ()) -> BoardView:
        """The per-frame look against the empty board (which it needs): what hides the
        board, and the discs of change (pieces as they move, by colour and size, none
        sure). Change that crosses the frame is an arm reaching in (pieces never lie on
        the frame), and so is change larger than a hand's worth of men that no piece
        at rest (`pieces`, the last view's) explains."""
        if self.empty is None:
            raise ValueError("glance needs the empty board")
        top_lab = lab(top)
        score = change(top_lab, self.empty)
        raw: Array = ((score > 1.0) & self.empty.known).astype(np.uint8)
        changed: Array = cv2.morphologyEx(raw, cv2.MORPH_OPEN, _DISC5)
        hidden: Array = np.zeros_like(changed)
        if changed[_FRAME_BAND].any():
            hidden[_reaching(changed)] = 255
        explained: Array = np.zeros_like(changed)
        for c in pieces:
            u, v = B.mm_to_top(c.x_mm, c.y_mm)
            r = R_STRIKER if c.colour == "striker" else R_COIN
            cv2.circle(explained, (round(u), round(v)), round(r + 3.0), 1, -1)
        on_board = cv2.morphologyEx(
            changed & _SURFACE & (hidden == 0) & (1 - explained), cv2.MORPH_OPEN, _DISC5
        )
        n, labels, stats, centres = cv2.connectedComponentsWithStats(on_board, connectivity=8)
        coins = []
        for i in range(1, n):
            area = int(stats[i, cv2.CC_STAT_AREA])
            if area > 6 * A_COIN:
                hidden[labels == i] = 255  # more than a hand's worth of men: a hand
            elif area >= 0.4 * A_COIN:
                # A piece, or a piece moving (blurred along its path): seen here.
                u, v = (float(x) for x in centres[i])
                r = math.sqrt(area / math.pi)
                # By colour alone: blurred along its path a man looks a striker's size
                # (the striker at rest is in the views at rest).
                colour = _man_class(top_lab, self.empty, u, v, min(r, R_COIN))
                x_mm, y_mm = B.top_to_mm(u, v)
                if B.on_surface(x_mm, y_mm):
                    coins.append(Coin(colour, x_mm, y_mm, 0.5))
        if hidden.any():
            hidden = cv2.dilate(hidden, _DISC7)
        return BoardView(tuple(coins), hidden)

    def _view(
        self,
        found: list[Found],
        hidden: Array,
        top_lab: Array,
        board: EmptyBoard | None = None,
    ) -> BoardView:
        coins: list[Coin] = []
        unsure: list[Doubt] = []
        found.sort(key=lambda f: -f[3])
        kept: list[tuple[float, float, float]] = []
        counted: dict[str, int] = {}
        if self.empty is None:
            found = _two_looks_as_one(_larger_set(found, top_lab), top_lab)
        men = _men_of_the_view(found, top_lab) if self.empty is None else None
        for colour, u, v, conf, why, other, heat, rad in found:
            if men is not None and colour in men and conf < SURE:
                colour, other, why = _as_the_men_look(men, top_lab, u, v, colour, other, why, heat)
            if other is not None:
                conf = min(conf, SURE - 0.01)
                why = why or f"{colour} or {other}: its size is between"
            # One piece per place: a less sure piece whose centre lies within a man's
            # reach of one kept, or inside a large striker's disc (a 68 mm striker's
            # face holds a disc of a man's size), is the same piece.
            if any(
                (u - a) ** 2 + (v - b) ** 2 < max(1.15 * R_COIN, rad, ra) ** 2 for a, b, ra in kept
            ):
                continue
            kept.append((u, v, rad))
            if self.pieces is not None:
                colour, conf = self.pieces.classify(top_lab, u, v, colour, conf)
            r = R_STRIKER if colour == "striker" else R_COIN
            ringed = ring_share(hidden, u, v, r + 3.0, r + 9.0) if hidden.any() else 0.0
            if (
                ringed > 0.2
                and colour != "striker"
                and _outline(top_lab, board, u, v, hidden) < ROUND
            ):
                # Beside something large that is no piece, and its outline is no
                # circle: a part of the machine or the hand (a corner, a rail across).
                conf = min(conf, COUNT - 0.01)
                why = "beside something that hides the board, its outline not round"
            elif ringed > 0.2:
                # Beside something large that is no piece (a hand, a machine): a piece
                # touching it is seen, a dark part of it may look like one: in doubt;
                # and there the change is the hand's too, so what the network barely
                # saw is not counted.
                conf = min(conf, SURE - 0.01 if heat >= COUNT else COUNT - 0.01)
                why = why or "beside something that hides the board"
            elif ringed > 0.05 and heat < COUNT:
                conf = min(conf, COUNT - 0.01)  # a fingertip's or a cuff's change is round too
            if self.empty is None and conf >= SURE:
                conf, why = _cold_sure(colour, u, v, conf, why, hidden, top_lab, board)
            x_mm, y_mm = B.top_to_mm(u, v)
            edge = min(x_mm, y_mm, B.SURFACE_MM - x_mm, B.SURFACE_MM - y_mm)
            if edge < EDGE_MM or _in_a_pocket(x_mm, y_mm):
                continue  # a piece lies on the surface: its centre is a radius in
            if conf >= COUNT and counted.get(colour, 0) >= MOST[colour]:
                # A set holds one striker, one queen, nine men of a colour (law I आ):
                # the less sure piece over that is in doubt.
                conf = min(conf, COUNT - 0.01)
                why = f"more {colour} than a set holds"
            if conf >= COUNT:
                coins.append(Coin(colour, x_mm, y_mm, round(conf, 3)))
                counted[colour] = counted.get(colour, 0) + 1
            if DOUBT <= conf < SURE:
                said = why or "low confidence"
                unsure.append(Doubt(colour, x_mm, y_mm, round(conf, 3), conf >= COUNT, said, other))
        coins.sort(key=lambda c: (c.colour, c.y_mm, c.x_mm))
        return BoardView(tuple(coins), hidden, tuple(unsure))


def _larger_set(found: list[Found], top_lab: Array) -> list[Found]:
    """Cold, a set whose men look a striker's size on this board (regulation men on a
    smaller board: a real 0.6 m board's men measure 40 mm against the law's 74 cm): when
    the view holds three strikers or more (a set has one), the size most of them share is
    its men's. The one clearly wider than that, or else of a colour unlike every other,
    is the striker; the others are men, white the lighter and black the darker by the
    view's own parting of their colours. Every one of them is in doubt (counted or not
    as before), the other colour being what else it may be."""
    wide = [f for f in found if f[0] == "striker" and f[3] >= DOUBT]
    if len(wide) < 3:
        return found
    colours = np.array([disc_lab(top_lab, f[1], f[2], 0.6 * R_COIN) for f in wide], np.float64)
    men_r = float(np.median([f[7] for f in wide]))
    apart = np.linalg.norm(colours[:, None] - colours[None], axis=2) + np.eye(len(wide)) * 1e9
    nearest = apart.min(axis=1)
    odd = int(np.argmax(nearest))
    widest = max(range(len(wide)), key=lambda i: wide[i][7])
    if wide[widest][7] >= 1.12 * men_r:
        striker: int | None = widest
    elif nearest[odd] > max(15.0, 2.0 * float(np.median(nearest))):
        striker = odd
    else:
        striker = None
    men = [i for i in range(len(wide)) if i != striker]
    low = _darker_look(colours[men])
    why = "a man of a set larger than the board's law: the size most pieces share"
    out = [f for f in found if f[0] != "striker" or f[3] < DOUBT]
    for k, i in enumerate(men):
        colour, other = ("black", "white") if k in low else ("white", "black")
        out.append((colour, wide[i][1], wide[i][2], wide[i][3], why, other, wide[i][6], R_COIN))
    if striker is not None:
        out.append((*wide[striker][:4], "unlike the set's men", "white", *wide[striker][6:]))
    out.sort(key=lambda f: -f[3])
    return out


#: Two looks of men are two sets when their colours lie this far apart (CIELAB), and
#: `LOOKS_APART` times farther than each look's own spread (black men under one lamp
#: spread 3-8; medium-brown wooden men lie 20 or more from dark ones), and their hues
#: (a*, b*) `LOOKS_HUE` apart: a shadow or a lamp's fall-off moves a man's lightness
#: only (tuning home board 208: two white men in shade 20 darker, their hue the same;
#: real brown wooden men 17 from the black men in hue, on the renderer 27).
LOOKS_FAR = 20.0
LOOKS_APART = 3.0
LOOKS_HUE = 12.0


def _two_looks_as_one(found: list[Found], top_lab: Array) -> list[Found]:
    """Cold, men the network gave one class though they part clearly into a darker and a
    lighter look (a set of medium-brown wooden "white" men: the network, which learned
    white men pale, reads them black): the lighter look is white and the darker black,
    each in doubt with the class the network gave. Only when every man was given the
    one class, or more of it than a set holds."""
    men = [i for i, f in enumerate(found) if f[0] in ("white", "black") and f[3] >= DOUBT]
    if len(men) < 3:
        return found
    given = {found[i][0] for i in men}
    one = next(iter(given)) if len(given) == 1 else None
    if one is None:
        over = [c for c in given if sum(1 for i in men if found[i][0] == c) > MOST[c]]
        if not over:
            return found
        one = over[0]
    colours = np.array([disc_lab(top_lab, found[i][1], found[i][2], 0.6 * R_COIN) for i in men])
    dark = _darker_look(colours)
    light = set(range(len(men))) - dark
    if not dark or not light:
        return found
    means = [colours[sorted(part)].mean(axis=0) for part in (dark, light)]
    spread = max(
        float(np.median(np.linalg.norm(colours[sorted(part)] - m, axis=1)))
        if len(part) > 1
        else 0.0
        for part, m in zip((dark, light), means, strict=True)
    )
    far = float(np.linalg.norm(means[0] - means[1]))
    hue = float(np.linalg.norm(means[0][1:] - means[1][1:]))
    if far < LOOKS_FAR or far < LOOKS_APART * max(spread, 3.0) or hue < LOOKS_HUE:
        return found
    out = list(found)
    why = f"parted from the view's other men by colour: two sets the network called {one}"
    for k, i in enumerate(men):
        colour = "black" if k in dark else "white"
        if found[i][0] != colour:
            f = found[i]
            out[i] = (colour, f[1], f[2], f[3], why, f[0], *f[6:])
    return out


def _darker_look(colours: Array) -> set[int]:
    """Of colours (CIELAB rows) of two sets, the rows of the darker set: parted along the
    colours' widest spread where the two sides are most apart for their size (Otsu's
    measure). One colour alone is of no darker set."""
    if len(colours) < 2:
        return set()
    centred = colours - colours.mean(axis=0)
    along = centred @ np.linalg.svd(centred, full_matrices=False)[2][0]
    order = np.argsort(along)
    ranked = along[order]
    n = len(ranked)
    cut = max(range(1, n), key=lambda k: k * (n - k) * (ranked[:k].mean() - ranked[k:].mean()) ** 2)
    low, high = order[:cut].tolist(), order[cut:].tolist()
    return set(low if colours[low, 0].mean() <= colours[high, 0].mean() else high)


def _men_of_the_view(found: list[Found], top_lab: Array) -> dict[str, Look] | None:
    """Cold, how this set's white and black men look, learned from the men the view is
    sure of (the network hot and the evidence sure): {colour: Look}, or None when there
    are not two of each. A man left in doubt is then judged by the set on the table, not
    by the board around him alone (a slate-grey man on the dark rim is no darker than
    the frame beside him, but far nearer this set's black men than its white)."""
    from vision.piece_set import PieceSet

    sure = [
        Coin(f[0], *B.top_to_mm(f[1], f[2]), f[3])
        for f in found
        if f[0] in ("white", "black") and f[3] >= SURE and f[6] >= HOT and f[5] is None
    ]
    if min(sum(1 for c in sure if c.colour == k) for k in ("white", "black")) < 2:
        return None
    pieces = PieceSet()
    pieces.learn(top_lab, BoardView(tuple(sure), np.zeros((1, 1), np.uint8)))
    return dict(pieces.looks)


def _as_the_men_look(
    men: dict[str, Look],
    top_lab: Array,
    u: float,
    v: float,
    colour: str,
    other: str | None,
    why: str,
    heat: float,
) -> tuple[str, str | None, str]:
    """(colour, other, why) of a man in doubt judged by the view's men (`men`): when he
    looks clearly like the other colour's men, that colour is what he may be instead
    (weakly seen, what he is)."""
    here = disc_lab(top_lab, u, v, 0.6 * R_COIN)
    opposite = "black" if colour == "white" else "white"
    d_own, d_opp = men[colour].distance(here), men[opposite].distance(here)
    if d_opp * 1.5 >= d_own:
        return colour, other, why
    said = why or f"looks like this set's {opposite} men"
    if heat < COUNT:
        return opposite, colour, said
    return colour, opposite, said


def _in_a_pocket(x_mm: float, y_mm: float) -> bool:
    """Whether a centre lies over a pocket's hole (law I अ.3): a piece there has fallen
    in; what is seen there is the net or the pocket's dark."""
    return B.nearest_pocket(x_mm, y_mm)[1] < B.POCKET_D_MM / 2


def _cold_sure(
    colour: str,
    u: float,
    v: float,
    conf: float,
    why: str,
    hidden: Array,
    top_lab: Array,
    learned: EmptyBoard | None,
) -> tuple[float, str]:
    """Cold, what keeps a piece the evidence calls sure from being so: (conf, why), the
    `learned` board being the one the view was judged against. Found on real photos taken
    otherwise (bench_vision_perturb.py): under sensor noise a machine's dark corner no
    longer joined what hides the board, and was a sure black man; out of focus, a red
    base-circle dot was a sure queen."""
    if colour != "striker" and round_outline(top_lab, u, v, hidden) < ROUND:
        return SURE - 0.01, why or "its outline is not a piece's circle"
    if colour == "queen" and learned is not None and _red_print(learned, u, v, R_COIN):
        # The board learned from its symmetric places is red here: the print
        # repeated (a worn or hand-painted dot a little off its places) or the queen.
        return SURE - 0.01, why or "red like the print at its symmetric places"
    return conf, why


def _ring(r: float) -> Array:
    """A thin ring of radius r (px), summing to 1: the outline of a disc."""
    n = math.ceil(r + 2)
    yy, xx = np.mgrid[-n : n + 1, -n : n + 1]
    d = np.sqrt(xx * xx + yy * yy)
    ring = np.clip(1.0 - np.abs(d - r) / 1.2, 0.0, None).astype(np.float32)
    out: Array = ring / ring.sum()
    return out


_MAN_RING = _ring(R_COIN)


def outlines(top_lab: Array) -> Array:
    """How well a man's outline fits around each pixel: the colour edges (gradient
    magnitude of L, a and b) averaged along a man-sized ring."""
    edge = np.zeros(top_lab.shape[:2], np.float32)
    for k in range(3):
        gx = cv2.Sobel(top_lab[:, :, k], cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(top_lab[:, :, k], cv2.CV_32F, 0, 1, ksize=3)
        edge += cv2.magnitude(gx, gy)
    out: Array = cv2.filter2D(edge, -1, _MAN_RING)
    return out


def refine(fit: Array, u: float, v: float, reach: float = 4.0) -> tuple[float, float]:
    """A man's centre to a fraction of a pixel: where his outline fits best (`fit`,
    from `outlines`) within `reach` px of where the network put him (its grid is 8 mm),
    with a parabola through the best pixel and its neighbours."""
    x0, y0 = max(1, round(u - reach)), max(1, round(v - reach))
    x1 = min(fit.shape[1] - 1, round(u + reach) + 1)
    y1 = min(fit.shape[0] - 1, round(v + reach) + 1)
    if x0 >= x1 or y0 >= y1:
        return u, v
    win = fit[y0:y1, x0:x1]
    j, i = np.unravel_index(int(np.argmax(win)), win.shape)
    x, y = x0 + int(i), y0 + int(j)
    if not (0 < x < fit.shape[1] - 1 and 0 < y < fit.shape[0] - 1):
        return float(x), float(y)

    def peak(a: float, b: float, c: float) -> float:
        d = a - 2 * b + c
        return 0.0 if d >= 0 else float(np.clip(0.5 * (a - c) / d, -0.5, 0.5))

    dx = peak(float(fit[y, x - 1]), float(fit[y, x]), float(fit[y, x + 1]))
    dy = peak(float(fit[y - 1, x]), float(fit[y, x]), float(fit[y + 1, x]))
    return x + dx, y + dy


def radial_outline(
    top_lab: Array, u: float, v: float, r: float, band: float = 2.0, hidden: Array | None = None
) -> float:
    """How round the outline at radius r about a point is: of the colour edges' energy
    within `band` px of that circle, the share across it (radial). A piece's rim is a
    circle: its edges run across every radius (0.95-0.99 on the real dev photos'
    men); a corner of a box, a rail or a cable crossing the circle are straight and
    run along it too (0.75-0.8). Where nothing changes (a black man against a dark
    sleeve) there is no edge, which counts for neither; nor does what `hidden` marks
    (the edge of a hand a man touches is the hand's, not his)."""
    h, w = top_lab.shape[:2]
    x0, y0 = max(0, int(u - r - band - 2)), max(0, int(v - r - band - 2))
    x1, y1 = min(w, int(u + r + band + 3)), min(h, int(v + r + band + 3))
    if x1 - x0 < 3 or y1 - y0 < 3:
        return 1.0
    yy, xx = np.mgrid[y0:y1, x0:x1]
    dx, dy = xx - u, yy - v
    d = np.sqrt(dx * dx + dy * dy) + 1e-6
    ring = np.abs(d - r) <= band
    if hidden is not None:
        ring &= hidden[y0:y1, x0:x1] == 0
    across = along = 0.0
    for k in range(3):
        plane = top_lab[y0:y1, x0:x1, k]
        gx = cv2.Sobel(plane, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(plane, cv2.CV_32F, 0, 1, ksize=3)
        rad = (gx * dx + gy * dy) / d
        across += float((rad[ring] ** 2).sum())
        along += float((gx[ring] ** 2 + gy[ring] ** 2).sum())
    return across / along if along > 1e-6 else 1.0


def round_outline(top_lab: Array, u: float, v: float, hidden: Array | None = None) -> float:
    """How round the best man-sized outline near a point is (`radial_outline`, best
    over centres within 2 px and radii of 6.5-8.75 px): the network's centre is on an
    8 mm grid, and a blurred man's rim is a little in or out."""
    return max(
        radial_outline(top_lab, u + du, v + dv, rr, hidden=hidden)
        for du in (-2, -1, 0, 1, 2)
        for dv in (-2, -1, 0, 1, 2)
        for rr in (6.5, 7.25, 8.0, 8.75)
    )


def _outline(top_lab: Array, board: EmptyBoard | None, u: float, v: float, hidden: Array) -> float:
    """How round a man's outline beside what hides the board is (`round_outline`), with
    the board's own print left out too when it is known (the `board`'s edges, where the
    view's edges are mostly the print's): the print crossing under a man (a base line)
    runs along his outline (tuning board 1387: 0.82 with the line, beside a hand)."""
    fit = round_outline(top_lab, u, v, hidden)
    if fit >= ROUND or board is None:
        return fit
    printed = (_edges(board.lab) > 0.5 * _edges(top_lab)) & board.known
    return max(fit, round_outline(top_lab, u, v, np.where(printed, 255, hidden)))


def _edges(plane: Array) -> Array:
    """The colour edges' magnitude (L, a and b)."""
    out: Array = np.zeros(plane.shape[:2], np.float32)
    for k in range(3):
        gx = cv2.Sobel(plane[:, :, k], cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(plane[:, :, k], cv2.CV_32F, 0, 1, ksize=3)
        out += cv2.magnitude(gx, gy)
    return out


_MAN_RADII = (6.5, 7.25, 8.0, 8.75)
#: The surface farther than 40 mm from the centre: where the print's red is read.
_AWAY = _SURFACE.copy()
cv2.circle(_AWAY, (round(MID_PX), round(MID_PX)), round(40 * B.SCALE), 0, -1)
_AWAY_FROM_CENTRE = _AWAY > 0
#: A red face at the centre this near (CIELAB) to the red printed elsewhere is that ink.
PRINT_INK = 12.0


def _roundest_at_centre(top_lab: Array) -> tuple[float, tuple[float, float]]:
    """The roundest man-sized outline within 14 mm of the board's centre: how round
    (`radial_outline`, band 2) and where. The colour edges are taken once for the whole
    search: each ring lies 3 px or more inside the window, where they are what
    `radial_outline` takes in its own."""
    c = MID_PX
    reach = 7 + max(_MAN_RADII) + 2 + 3
    lo, hi = int(c - reach), int(c + reach) + 1
    window = top_lab[lo:hi, lo:hi]
    grads = [
        (cv2.Sobel(window[:, :, k], cv2.CV_32F, 1, 0, ksize=3),
         cv2.Sobel(window[:, :, k], cv2.CV_32F, 0, 1, ksize=3))
        for k in range(3)
    ]  # fmt: skip
    energy: Array = np.sum([gx * gx + gy * gy for gx, gy in grads], axis=0)
    yy, xx = np.mgrid[lo:hi, lo:hi]
    best, at = 0.0, (c, c)
    for du in range(-7, 8):
        for dv in range(-7, 8):
            dx, dy = xx - (c + du), yy - (c + dv)
            d = np.sqrt(dx * dx + dy * dy) + 1e-6
            for r in _MAN_RADII:
                ring = np.abs(d - r) <= 2.0
                along = float(energy[ring].sum())
                if along <= 1e-6:
                    fit = 1.0
                else:
                    ex, ey, dr = dx[ring], dy[ring], d[ring]
                    across = sum(
                        float((((gx[ring] * ex + gy[ring] * ey) / dr) ** 2).sum())
                        for gx, gy in grads
                    )
                    fit = across / along
                if fit > best:
                    best, at = fit, (c + du, c + dv)
    return best, at


def centre_queen(top_lab: Array, empty: EmptyBoard) -> tuple[float, float] | None:
    """Cold, where the queen may lie at the board's centre though the network did not
    see her: a round man-sized outline there whose face is as red as the queen (redder
    than the plywood as `_man_class` reads her). A red centre circle printed a man's
    size looks the same, so it is only ever a doubt, not counted (a real magenta queen on
    a red and black star's centre, heat 0.07, was missed with no doubt at all)."""
    red = empty.plywood_a() + 15.0
    win, inside = disc_window(top_lab.shape, MID_PX, MID_PX, 7 + R_COIN)
    if float(np.percentile(top_lab[win][inside][:, 1], 90)) <= red:
        return None  # nothing as red as a queen near the centre
    best, at = _roundest_at_centre(top_lab)
    if best < ROUND:
        return None
    face = disc_lab(top_lab, at[0], at[1], 0.6 * R_COIN)
    if float(face[1]) <= red:
        return None
    # Of the red printed elsewhere (base circles, a star's points): the same ink at the
    # centre is the print's centre circle; a queen is seldom the print's very red.
    printed = _AWAY_FROM_CENTRE & empty.known & (empty.lab[:, :, 1] > red)
    if np.count_nonzero(printed) >= 30:
        ink = np.median(empty.lab[printed], axis=0)
        if float(np.linalg.norm(face - ink)) < PRINT_INK:
            return None
    return at


def off_centre_white(top_lab: Array, empty: EmptyBoard) -> tuple[float, float, bool] | None:
    """Cold, a light man lying off the board's centre: his centre and whether he is
    clearly so, or None. Every orientation of the view shares the centre, so no change
    can be judged there. But the print's centre circle (law I अ.6, a man's size) is
    centred on the board, and print is ink, never lighter than the plywood: the
    roundest man-sized outline within 14 mm of the centre is a white man when it lies 5
    mm or more off the centre, is round (`ROUND`) and its face is lighter than the
    lightest plywood (its 99th percentile); clearly one when it is also clearly rounder
    (by 0.1) than the outline at the centre. (Renderer: printed centres are roundest at
    the centre, 0.83-0.99; a cream man 6 mm off it 0.96 there, 0.79 at the centre; tuning
    board 2208's cream man 9 mm off a filled red centre circle whose edge shows beside
    him 0.955 there, 0.933 at the centre. Real photos: a calibration 4-7 mm off moves a
    red centre dot as far off, which is why the colour must say piece too.)"""
    c = MID_PX
    best, at = _roundest_at_centre(top_lab)
    if best < ROUND or math.hypot(at[0] - c, at[1] - c) < 2.5:
        return None
    clear = best >= max(radial_outline(top_lab, c, c, r) for r in _MAN_RADII) + 0.1
    on = (_SURFACE > 0) & empty.known
    if not on.any():
        return None
    face = disc_lab(top_lab, at[0], at[1], 0.6 * R_COIN)
    light = float(np.percentile(empty.lab[on][:, 0], 99))
    red = float(np.median(empty.lab[on][:, 1])) + 15.0
    if float(face[0]) > light and float(face[1]) < red:
        return at[0], at[1], clear
    return None


def _ramp(x: float, lo: float, hi: float) -> float:
    """0 below lo, 1 above hi, linear between."""
    return min(1.0, max(0.0, (x - lo) / (hi - lo)))


def _at(mask: Array, u: float, v: float) -> bool:
    x, y = round(u), round(v)
    return 0 <= x < mask.shape[1] and 0 <= y < mask.shape[0] and bool(mask[y, x])
