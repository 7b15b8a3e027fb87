"""The one detector: the pieces on the board's top view, each with a confidence, and
what it doubts.

The same detector counts a single photo (`tableside vision detect`, cold) and the
kiosk's board at rest (with the empty board kept at calibration and the set learned
from the opening). Its stages, each in a module of its own, every number in one
`DetectorParams` (vision.params):

1. **propose** (vision.propose, vision.coin_net): the network's heat per class, voted
   over the eight orientations of the view: where pieces are and of which class.
2. **change against the kept board** (vision.empty): a piece is what is not the board.
   In the kiosk the empty board is the view kept at calibration (`EmptyBoard`); cold,
   it is the board's own print learned from the photo itself by law I's symmetry
   (`symmetric_board`, vision.symmetry). A proposal with no change under it is print.
3. **shape** (vision.shape): change that is a disc of a man's or a striker's size is a
   piece even where the network missed it; change that is large and not a disc (a hand,
   a machine's rails) hides what is under it; a piece's rim is a circle.
4. **the set in use** (vision.piece_set, learned at the table; cold, vision.set_in_use,
   read from the view): the class is the set's nearest look, not the network's guess.
5. **doubt** (vision.doubt): one piece per place, a set's size, what hides the board;
   from `sure` counted without doubt, from `count` counted and listed unsure, from
   `doubt` listed unsure and not counted.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision import board as B
from vision.doubt import decide
from vision.empty import (
    BLOB_OPEN,
    FRAME_BAND,
    OPEN,
    SURFACE,
    EmptyBoard,
    arm_change,
    change,
    changed_mask,
    symmetric_board,
)
from vision.params import PARAMS, DetectorParams
from vision.propose import Evidence, at_the_centre, cold_board, judge, missed, propose
from vision.shape import (
    blobs,
    crossing_edge,
    lone_disc,
    outlines,
    reaching,
    refine,
    round_outline,
)
from vision.symmetry import man_class, off_centre_white, orbit
from vision.view import (
    A_COIN,
    R_COIN,
    R_STRIKER,
    Array,
    BoardView,
    Coin,
    Doubt,
    disc_lab,
    lab,
    ring_share,
    share,
)

if TYPE_CHECKING:
    from vision.piece_set import PieceSet

__all__ = [
    "A_COIN",
    "COUNT",
    "DOUBT",
    "ROUND",
    "R_COIN",
    "R_STRIKER",
    "SURE",
    "BoardView",
    "Coin",
    "Detector",
    "Doubt",
    "EmptyBoard",
    "change",
    "disc_lab",
    "lab",
    "lone_disc",
    "off_centre_white",
    "orbit",
    "refine",
    "ring_share",
    "round_outline",
    "share",
    "symmetric_board",
]

#: The confidence bands and the roundness of a man's outline (vision.params), for the
#: tests and benches that name them.
SURE, COUNT, DOUBT, ROUND = PARAMS.sure, PARAMS.count, PARAMS.doubt, PARAMS.round


class Detector:
    """The pieces on a top view (see the module docstring): cold with no `empty` board,
    else against it; with a learned `pieces` set, classes by the set; its numbers from
    `params`."""

    def __init__(
        self,
        empty: EmptyBoard | None = None,
        pieces: PieceSet | None = None,
        params: DetectorParams = PARAMS,
    ) -> None:
        self.empty = empty
        self.pieces = pieces
        self.params = params
        #: The empty board the last view was judged against (cold: learned from it).
        self.judged_against: EmptyBoard | None = None

    def find(self, top: Array, seen: Array | None = None) -> BoardView:
        """The pieces on a top view; `seen` (bool) marks the pixels that came from the
        image (a board running off the photo is not seen beyond it)."""
        p = self.params
        seen_b: Array = (
            np.ones((B.TOP_PX, B.TOP_PX), bool) if seen is None else np.asarray(seen, bool)
        )
        # 1. propose
        proposals = propose(top, seen_b, p)
        top_lab = lab(top)
        # 2. change against the kept board (cold: the board learned from the view)
        kept = self.empty is not None
        printed: set[int] = set()
        if self.empty is None:
            empty, printed = cold_board(top_lab, proposals, seen_b, p)
        else:
            empty = self.empty
        score = change(top_lab, empty, p)
        raw = changed_mask(score, empty, p)
        changed: Array = cv2.morphologyEx(raw, cv2.MORPH_OPEN, OPEN)
        fit = outlines(top_lab) if kept else top_lab[:, :, 0]
        ev = Evidence(top_lab, empty, kept, score, raw, changed, fit)
        # 3. shape: each proposal judged by its change and outline, then the discs of
        # change the network missed, and what hides the board.
        found, explained = judge(proposals, printed, ev, p)
        arm = None
        if kept:
            # `changed` stops at the surface's edge; an arm's change runs on over the
            # frame, where pieces never lie, or (a sleeve of the frame's colour) crosses
            # the edge wider than any piece: what joins that is no pack of men, and a
            # disc of change mostly on it is no man.
            over: Array = ((score > p.changed_from) & empty.known).astype(np.uint8)
            over = cv2.morphologyEx(over, cv2.MORPH_OPEN, OPEN)
            arms = arm_change(top_lab, empty, p)
            arm = reaching(over | arms) | crossing_edge(arms, p)
        extra, hidden = blobs(changed, explained, kept, arm, p)
        found += missed(found, extra, hidden, ev, p)
        if not kept:
            queen = at_the_centre(found, ev, p)
            if queen is not None:
                found.append(queen)
        if hidden.any():
            hidden = cv2.dilate(hidden, BLOB_OPEN)
        self.judged_against = empty
        # 4. the set in use and 5. doubt
        return decide(found, hidden, top_lab, empty, not kept, self.pieces, p)

    def glance(self, top: Array, pieces: tuple[Coin, ...] = ()) -> BoardView:
        """The per-frame look against the empty board (which it needs): what hides the
        board, and the discs of change (pieces as they move, by colour and size, none
        sure). Change that crosses the frame is an arm reaching in (pieces never lie on
        the frame), and so is change larger than a hand's worth of men that no piece
        at rest (`pieces`, the last view's) explains."""
        if self.empty is None:
            raise ValueError("glance needs the empty board")
        p = self.params
        top_lab = lab(top)
        score = change(top_lab, self.empty, p)
        raw: Array = ((score > p.changed_from) & self.empty.known).astype(np.uint8)
        changed: Array = cv2.morphologyEx(raw, cv2.MORPH_OPEN, OPEN)
        hidden: Array = np.zeros_like(changed)
        if changed[FRAME_BAND].any():
            hidden[reaching(changed)] = 255
        explained: Array = np.zeros_like(changed)
        for c in pieces:
            u, v = B.mm_to_top(c.x_mm, c.y_mm)
            r = R_STRIKER if c.colour == "striker" else R_COIN
            cv2.circle(explained, (round(u), round(v)), round(r + p.glance_pad_px), 1, -1)
        on_board = cv2.morphologyEx(
            changed & SURFACE & (hidden == 0) & (1 - explained), cv2.MORPH_OPEN, OPEN
        )
        n, labels, stats, centres = cv2.connectedComponentsWithStats(on_board, connectivity=8)
        coins = []
        for i in range(1, n):
            area = int(stats[i, cv2.CC_STAT_AREA])
            if area > p.hand_men * A_COIN:
                hidden[labels == i] = 255  # more than a hand's worth of men: a hand
            elif area >= p.glance_least_area * A_COIN:
                # A piece, or a piece moving (blurred along its path): seen here.
                u, v = (float(x) for x in centres[i])
                r = math.sqrt(area / math.pi)
                # By colour alone: blurred along its path a man looks a striker's size
                # (the striker at rest is in the views at rest).
                colour = man_class(top_lab, self.empty, u, v, min(r, R_COIN), p)
                x_mm, y_mm = B.top_to_mm(u, v)
                if B.on_surface(x_mm, y_mm):
                    coins.append(Coin(colour, x_mm, y_mm, p.glance_conf))
        if hidden.any():
            hidden = cv2.dilate(hidden, BLOB_OPEN)
        return BoardView(tuple(coins), hidden)
