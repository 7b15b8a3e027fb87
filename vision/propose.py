"""Stage one, propose, and each proposal judged: the learned stage (vision.coin_net)
proposes where pieces are and of which class; each proposal is then judged by the
change against the board under it (stage two, vision.empty) and by its shape (stage
three, vision.shape); the discs of change the network missed are pieces too
(`missed`). What comes out is a list of `Found`, which the doubt (vision.doubt) makes
into the view's counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision import board as B
from vision import coin_net
from vision.empty import EmptyBoard, symmetric_board
from vision.params import PARAMS, DetectorParams
from vision.shape import Blob, lone_disc, outline, refine, round_outline
from vision.symmetry import (
    MID_PX,
    centre_queen,
    colour_class,
    off_centre_white,
    printed_ink,
    printed_pattern,
    red_print,
    siblings,
)
from vision.view import R_COIN, R_STRIKER, Array, Coin, Found, disc_lab, disc_window, share


def ramp(x: float, lo: float, hi: float) -> float:
    """0 below lo, 1 above hi, linear between."""
    return min(1.0, max(0.0, (x - lo) / (hi - lo)))


def _at(mask: Array, u: float, v: float) -> bool:
    x, y = round(u), round(v)
    return 0 <= x < mask.shape[1] and 0 <= y < mask.shape[0] and bool(mask[y, x])


def _radius(colour: str) -> float:
    return R_STRIKER if colour == "striker" else R_COIN


def propose(top: Array, seen: Array, p: DetectorParams = PARAMS) -> list[Coin]:
    """The network's proposals from `propose` heat, where the view came from the image."""
    return [
        c
        for c in coin_net.detect_learned(top, p.propose)
        if _at(seen, *B.mm_to_top(c.x_mm, c.y_mm))
    ]


def cold_board(
    top_lab: Array, proposals: list[Coin], seen: Array, p: DetectorParams = PARAMS
) -> tuple[EmptyBoard, set[int]]:
    """Cold, the empty board learned from the view by the print's symmetry, and the
    proposals (their indices) repeated at their symmetric places: those are judged
    against the print there (not masked); every other proposal is masked out of the
    estimate."""
    printed: set[int] = set()
    mask: Array = (~seen).astype(np.uint8)
    for i, c in enumerate(proposals):
        if c.confidence < p.pattern and "pattern" not in p.off and printed_pattern(c, proposals, p):
            printed.add(i)
            continue
        u, v = B.mm_to_top(c.x_mm, c.y_mm)
        cv2.circle(mask, (round(u), round(v)), round(_radius(c.colour) + p.mask_pad_px), 1, -1)
    empty = symmetric_board(top_lab, mask, p)
    empty.known &= seen
    return empty, printed


def _strength(score: Array, u: float, v: float, r: float, p: DetectorParams) -> float:
    """How far a disc is from the board's look: the median change over most of it."""
    win, inside = disc_window(score.shape, u, v, p.judge_disc * r)
    return float(np.median(score[win][inside]))


@dataclass
class Evidence:
    """What the proposals are judged by: the view, the board, the change (`score`, the
    mask before the opening `raw` and after it `changed`), and what outlines fit."""

    top_lab: Array
    empty: EmptyBoard
    kept: bool
    score: Array
    raw: Array
    changed: Array
    fit: Array


def judge(
    proposals: list[Coin], printed: set[int], ev: Evidence, p: DetectorParams = PARAMS
) -> tuple[list[Found], Array]:
    """Each proposal judged by the change under it and its shape: the pieces found, and
    the mask of what they explain (each a little wider than the piece: its shadow)."""
    found: list[Found] = []
    explained: Array = np.zeros_like(ev.changed)
    known = ev.empty.known.astype(np.uint8)
    centre_white: list[tuple[float, float, bool] | None] = []
    for i, c in enumerate(proposals):
        f = _one(c, i in printed, known, ev, centre_white, p)
        if f is None:
            continue
        found.append(f)
        if f.conf >= p.doubt:
            # A little wider than the piece (its shadow), not so wide as to eat into a
            # man touching it.
            cv2.circle(explained, (round(f.u), round(f.v)), round(f.r + p.explain_pad_px), 1, -1)
    return found, explained


def _one(
    c: Coin,
    printed: bool,
    known: Array,
    ev: Evidence,
    centre_white: list[tuple[float, float, bool] | None],
    p: DetectorParams,
) -> Found | None:
    """One proposal judged (see `judge`), or None when it is the board's own print."""
    top_lab, empty, cold = ev.top_lab, ev.empty, not ev.kept
    u, v = B.mm_to_top(c.x_mm, c.y_mm)
    r = _radius(c.colour)
    heat = c.confidence
    judged = share(known, u, v, p.judge_disc * r) > p.judged_share
    seen_here = share(ev.changed, u, v, p.judge_disc * r)
    if ev.kept and heat >= p.hot and seen_here < p.print_share:
        # A piece of the print's own colour over it (the queen on the centre spot)
        # changes the view only a little, in specks the opening wipes out: a hot
        # proposal is judged by the change before the opening.
        seen_here = max(seen_here, share(ev.raw, u, v, p.judge_disc * r))
    if printed:
        # Over a printed pattern, a piece changes more than the pattern's other places
        # do (the print there is never drawn quite alike).
        seen_here -= siblings(ev.changed, u, v, p.judge_disc * r)
    colour, why, other = c.colour, "", None
    if judged and seen_here < p.print_share:
        if (
            cold
            and p.count <= heat < p.hot
            and not printed
            and "plywood_man" not in p.off
            and c.colour in ("white", "black")
            and round_outline(top_lab, u, v, p=p) >= p.round
        ):
            # Cold, a man the network fairly saw where the board's look learned from the
            # view hardly changed: a man of the plywood's shade in a hand's shadow (the
            # slow fall-off taken out is the shadow's). Not print (not repeated at its
            # symmetric places), and his outline is a man's circle: counted, in doubt.
            conf = p.count + p.nudge
            why = "little change against the board, a man's round outline"
        elif heat < p.hot or ev.kept or "cold_hot" in p.off:
            return None  # the board's own print, or bare board
        else:
            # Cold, the network is sure and the change is not (a man of the plywood's
            # own wood, pieces packed where the view's symmetric places hold pieces too).
            conf = heat - p.cold_hot_less
            why = "little change against the board"
    elif judged:
        conf = p.heat_weight * heat + (1 - p.heat_weight) * min(1.0, seen_here / p.full_change)
        if heat < p.count:
            colour, other, conf, r, why = _weakly_seen(c, u, v, r, seen_here, ev, p)
    else:
        conf = heat
        why = "not judged against the board: the heat alone"
        centre = math.hypot(c.x_mm - B.SURFACE_MM / 2, c.y_mm - B.SURFACE_MM / 2)
        if (
            cold
            and centre < p.centre_blind_mm
            and c.colour == "queen"
            and heat < p.hot
            and printed_ink(empty, disc_lab(top_lab, u, v, p.face_disc * R_COIN), p)
        ):
            # A queen the network was not sure of, her face the print's own red: the
            # centre circle (law I अ.6), which a cold view cannot judge by change.
            return None
        if cold and centre < p.centre_blind_mm:
            # Never sure: a filled red centre circle seen a few mm off the view's centre
            # (taps or a suggestion a little off) is a hot queen.
            conf = min(conf - p.centre_less, p.sure - p.step)
            why = "at the centre, where a cold view cannot tell print from piece"
            if not centre_white:  # looked for once a view
                centre_white.append(off_centre_white(top_lab, empty, p))
            off = centre_white[0] if "centre_white" not in p.off else None
            if off is not None and math.hypot(off[0] - u, off[1] - v) < R_COIN:
                # A light man's round outline off the centre: not the print (centred,
                # and ink); counted, in doubt (his outline and his lightness alone say
                # so). When the outline at the centre is nearly as round (the print's
                # circle showing beside a man a few mm off it), listed unsure, not
                # counted. The network's striker stays the striker (a light disc off
                # the centre too, a little wider): a white man is what else it is.
                u, v, clear = off
                colour, other = ("striker", "white") if c.colour == "striker" else ("white", None)
                conf = max(conf, (p.count if clear else p.doubt) + p.nudge)
                why = "off the board's centre, round and lighter than the board"
    if printed and not why:
        why = "over a printed pattern"
        red = "red_pattern" not in p.off and red_print(empty, u, v, R_COIN, p)
        if colour == "queen" and heat < p.hot and red:
            # Cold, a queen the network was not sure of where the board's red print
            # repeats at the symmetric places (base circles' red centres on real photos,
            # heat 0.40-0.50): the print is far likelier.
            conf = min(conf, p.count - p.step)
            why = "red like the print at its symmetric places"
    # A white man the network was not sure of whose face is clearly redder than the
    # plywood may be a pink queen (tuning board 1308: on a pinkish plywood, heat 0.54 as
    # white); light men are paler than the plywood.
    if (
        colour == "white"
        and other is None
        and heat < p.hot
        and "redder" not in p.off
        and float(disc_lab(top_lab, u, v, p.face_disc * R_COIN)[1]) > empty.plywood_a() + p.redder
    ):
        other = "queen"
        why = why or "redder than the plywood: a white man or the queen"
    if colour != "striker" and ev.kept and "refine" not in p.off:
        # Against the kept empty board the watcher follows a piece from view to view: to
        # a fraction of a pixel by its outline. Cold, the network's own offsets are as
        # close (0.3-0.4 mm on the renderer's boards).
        u, v = refine(ev.fit, u, v, p)
    if colour == "striker":
        r = max(r, lone_disc(ev.changed, u, v, p))  # strikers come 38-75 mm across
    return Found(colour, u, v, conf, why, other, heat, r)


def _weakly_seen(
    c: Coin, u: float, v: float, r: float, seen_here: float, ev: Evidence, p: DetectorParams
) -> tuple[str, str | None, float, float, str]:
    """A proposal the network barely saw (under `count`): (colour, other, conf, radius,
    why). A disc of change of a piece's size standing alone is a piece; its size and
    colour against the board say which. Change of any other shape (wires, a rail) is no
    piece."""
    heat = c.confidence
    colour, other, why = c.colour, None, ""
    rad = lone_disc(ev.changed, u, v, p) if "lone_disc" not in p.off else 0.0
    if rad:
        # As a disc of change the network missed: by how far it is from the board's
        # look, the network's heat adding a little.
        strength = ramp(_strength(ev.score, u, v, rad, p), p.strength_lo, p.strength_hi)
        conf = p.lone_base + p.lone_strength * strength + p.lone_heat * heat
        colour, other = colour_class(ev.top_lab, ev.empty, u, v, rad, ev.kept, p)
        if heat >= p.weak and colour != c.colour:
            # Seen weakly, the network's class stands; the size and colour say what else
            # it may be.
            colour, other = c.colour, colour
        elif other is None and colour != c.colour:
            # Barely seen, the size and colour stand; the network's class is what else
            # it may be (a dark man over the frame's rim, his disc of change widened by
            # it, is a striker's size).
            other = c.colour
        r = _radius(colour)
        if (
            colour == c.colour
            and other is None
            and strength >= 1.0
            and seen_here >= p.through
            and "agreed_disc" not in p.off
        ):
            # Three looks agree: the network's class, the class by the disc's size and
            # colour, and a disc of change standing alone, changed through and far from
            # the board's look. The network's weak heat is then its own doubt on a set
            # unlike the renderer's (real strikers at heat 0.28), not the piece's.
            conf = max(conf, p.sure + p.step)
    elif heat >= p.weak and seen_here >= p.through:
        # Seen, its disc changed through, touching another piece (a queen of the
        # plywood's hue beside a man): counted, in doubt.
        conf = p.heat_weight * heat + p.touching_change * min(1.0, seen_here / p.full_change)
    else:
        conf = heat
    if (
        ev.kept
        and colour == "queen"
        and conf < p.count
        and share(ev.raw, u, v, p.judge_disc * r) >= p.red_through
        and red_print(ev.empty, u, v, R_COIN, p)
    ):
        # The queen over the print's red (a base circle's dot): she changes the view only
        # a little, in specks the opening thins out, and the network sees her there as
        # weakly as the print. Her disc changed through before the opening: counted, in
        # doubt.
        conf = p.count + p.nudge
        why = "the queen over red print: little change, weakly seen"
    return colour, other, conf, r, why


def missed(
    found: list[Found],
    blob_list: list[Blob],
    hidden: Array,
    ev: Evidence,
    p: DetectorParams = PARAMS,
) -> list[Found]:
    """The discs of change (`blobs`) the network did not see, as pieces found. A place
    is taken by what is kept there (in doubt or counted); a proposal the network barely
    made and nothing confirmed does not hide a disc of change (a man touching another,
    seen at heat 0.18 on a real photo, was lost so)."""
    out: list[Found] = []
    if "missed_discs" in p.off:
        return out
    taken = (R_COIN * p.taken_radii) ** 2
    for b in blob_list:
        kept = (f for f in (*found, *out) if f.conf >= p.doubt)
        if any((b.u - f.u) ** 2 + (b.v - f.v) ** 2 < taken for f in kept):
            continue
        colour, other = colour_class(ev.top_lab, ev.empty, b.u, b.v, b.r, ev.kept, p)
        strength = ramp(_strength(ev.score, b.u, b.v, b.r, p), p.strength_lo, p.strength_hi)
        # Cold, never sure (the network did not see it): counted when round and far
        # from the board's look (print a little off its symmetric place is not).
        roundness = ramp(b.round, p.round_lo, p.round_hi)
        conf = p.blob_base + p.blob_round * roundness + p.blob_strength * strength
        why = "a disc of change the network did not see"
        if ev.kept:
            conf += p.kept_more  # against the board's own view, a clear disc of change is sure
            if colour != "striker" and outline(ev.top_lab, ev.empty, b.u, b.v, hidden, p) < p.round:
                # A man's rim is a circle; a disc of change cut from a sleeve's or a
                # hand's edge (its face the board's look) has none: in doubt.
                conf = min(conf, p.count - p.step)
                why = "a disc of change the network did not see, its outline not round"
        elif colour == "queen" and red_print(ev.empty, b.u, b.v, b.r, p):
            # Cold, red print beside it: the print's edge a little off its symmetric
            # places (a worn or hand-painted board) looks the queen.
            conf = min(conf, p.count - p.step)
            why = "red like the print beside it"
        r = max(b.r, R_STRIKER) if colour == "striker" else R_COIN
        out.append(Found(colour, b.u, b.v, conf, why, other, 0.0, r))
    return out


def at_the_centre(found: list[Found], ev: Evidence, p: DetectorParams = PARAMS) -> Found | None:
    """Cold, the queen in doubt at the centre (`centre_queen`) when nothing kept is a
    queen or lies at the centre."""
    if "centre_queen" in p.off:
        return None
    blind = p.centre_blind_mm * B.SCALE
    if any(
        f.conf >= p.doubt
        and (f.colour == "queen" or math.hypot(f.u - MID_PX, f.v - MID_PX) < blind)
        for f in found
    ):
        return None
    queen = centre_queen(ev.top_lab, ev.empty, p)
    if queen is None:
        return None
    why = "at the centre, red and round: the queen or the print"
    return Found("queen", *queen, p.doubt + p.nudge, why, None, 0.0, R_COIN)
