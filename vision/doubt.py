"""Stage five, doubt: the pieces found (`Found`, by the stages before) made into the
view's counts and its doubt. One piece per place; the set learned at the table gives
the class (vision.piece_set); a piece beside what hides the board, or whose outline is
no circle, is never sure; a set holds one striker, one queen, nine men of a colour; a
piece's centre lies on the surface. Confidence from `sure`: counted, no doubt; from
`count`: counted and listed unsure; from `doubt`: not counted, listed unsure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from vision import board as B
from vision.empty import EmptyBoard
from vision.params import MOST, PARAMS, DetectorParams
from vision.set_in_use import as_the_men_look, larger_set, men_of_the_view, two_looks_as_one
from vision.shape import outline, round_outline
from vision.symmetry import red_print
from vision.view import R_COIN, R_STRIKER, Array, BoardView, Coin, Doubt, Found, ring_share

if TYPE_CHECKING:
    from vision.piece_set import PieceSet


def in_a_pocket(x_mm: float, y_mm: float) -> bool:
    """Whether a centre lies over a pocket's hole (law I अ.3): a piece there has fallen
    in; what is seen there is the net or the pocket's dark."""
    return B.nearest_pocket(x_mm, y_mm)[1] < B.POCKET_D_MM / 2


def cold_sure(
    f: Found, hidden: Array, top_lab: Array, learned: EmptyBoard | None, p: DetectorParams
) -> tuple[float, str]:
    """Cold, what keeps a piece the evidence calls sure from being so: (conf, why), the
    `learned` board being the one the view was judged against. Found on real photos taken
    otherwise (bench_vision_perturb.py): under sensor noise a machine's dark corner no
    longer joined what hides the board, and was a sure black man; out of focus, a red
    base-circle dot was a sure queen."""
    below = p.sure - p.step
    if f.colour != "striker" and round_outline(top_lab, f.u, f.v, hidden, p=p) < p.round:
        return below, f.why or "its outline is not a piece's circle"
    if f.colour == "queen" and learned is not None and red_print(learned, f.u, f.v, R_COIN, p):
        # The board learned from its symmetric places is red here: the print
        # repeated (a worn or hand-painted dot a little off its places) or the queen.
        return below, f.why or "red like the print at its symmetric places"
    return f.conf, f.why


def decide(
    found: list[Found],
    hidden: Array,
    top_lab: Array,
    board: EmptyBoard | None,
    cold: bool,
    pieces: PieceSet | None,
    p: DetectorParams = PARAMS,
) -> BoardView:
    """The view: the pieces counted and the doubt, from what the stages found; `cold`
    when no empty board was kept (the `board` is then the one learned from the view)."""
    coins: list[Coin] = []
    unsure: list[Doubt] = []
    found = sorted(found, key=lambda f: -f.conf)
    kept: list[tuple[float, float, float]] = []
    counted: dict[str, int] = {}
    if cold:
        found = two_looks_as_one(larger_set(found, top_lab, p), top_lab, p)
    men = men_of_the_view(found, top_lab, p) if cold and "men_of_view" not in p.off else None
    short, wide = p.ring_from_px, p.ring_to_px
    for f in found:
        if men is not None and f.colour in men and f.conf < p.sure:
            f = as_the_men_look(men, top_lab, f, p)
        colour, u, v, conf, why, other, heat, rad = f
        if other is not None:
            conf = min(conf, p.sure - p.step)
            why = why or f"{colour} or {other}: its size is between"
        # One piece per place: a less sure piece whose centre lies within a man's
        # reach of one kept, or inside a large striker's disc (a 68 mm striker's
        # face holds a disc of a man's size), is the same piece.
        reach = p.same_place_radii * R_COIN
        if any((u - a) ** 2 + (v - b) ** 2 < max(reach, rad, ra) ** 2 for a, b, ra in kept):
            continue
        kept.append((u, v, rad))
        if pieces is not None:
            colour, conf = pieces.classify(top_lab, u, v, colour, conf)
        r = R_STRIKER if colour == "striker" else R_COIN
        ringed = ring_share(hidden, u, v, r + short, r + wide) if hidden.any() else 0.0
        if "hidden_ring" in p.off:
            ringed = 0.0
        beside = ringed > p.hidden_ring
        if beside and colour != "striker" and outline(top_lab, board, u, v, hidden, p) < p.round:
            # Beside something large that is no piece, and its outline is no
            # circle: a part of the machine or the hand (a corner, a rail across).
            conf = min(conf, p.count - p.step)
            why = "beside something that hides the board, its outline not round"
        elif beside:
            # Beside something large that is no piece (a hand, a machine): a piece
            # touching it is seen, a dark part of it may look like one: in doubt;
            # and there the change is the hand's too, so what the network barely
            # saw is not counted.
            conf = min(conf, (p.sure if heat >= p.count else p.count) - p.step)
            why = why or "beside something that hides the board"
        elif ringed > p.touch_ring and heat < p.count:
            conf = min(conf, p.count - p.step)  # a fingertip's or a cuff's change is round too
        if cold and conf >= p.sure and "cold_sure" not in p.off:
            conf, why = cold_sure(
                Found(colour, u, v, conf, why, other, heat, rad), hidden, top_lab, board, p
            )
        x_mm, y_mm = B.top_to_mm(u, v)
        edge = min(x_mm, y_mm, B.SURFACE_MM - x_mm, B.SURFACE_MM - y_mm)
        if edge < p.edge_mm or in_a_pocket(x_mm, y_mm):
            continue  # a piece lies on the surface: its centre is a radius in
        full = counted.get(colour, 0) >= MOST[colour] and "set_size" not in p.off
        if conf >= p.count and full:
            # A set holds one striker, one queen, nine men of a colour (law I आ):
            # the less sure piece over that is in doubt.
            conf = min(conf, p.count - p.step)
            why = f"more {colour} than a set holds"
        if conf >= p.count:
            coins.append(Coin(colour, x_mm, y_mm, round(conf, 3)))
            counted[colour] = counted.get(colour, 0) + 1
        if p.doubt <= conf < p.sure:
            said = why or "low confidence"
            unsure.append(Doubt(colour, x_mm, y_mm, round(conf, 3), conf >= p.count, said, other))
    coins.sort(key=lambda c: (c.colour, c.y_mm, c.x_mm))
    return BoardView(tuple(coins), hidden, tuple(unsure))
