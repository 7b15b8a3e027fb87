"""Stage four, the set in use, cold: with no set learned at the table (vision.piece_set
learns one from the opening and from confirmed strokes), the set is read from the view
itself. Men the network gave one class that part clearly into two looks are two sets
(`two_looks_as_one`); a view of three strikers or more is a set larger than the board's
law (`larger_set`); a man in doubt is judged by the men the view is sure of
(`men_of_the_view`, `as_the_men_look`).
"""

from __future__ import annotations

import numpy as np

from vision import board as B
from vision.params import MOST, PARAMS, DetectorParams
from vision.piece_set import Look, PieceSet
from vision.view import R_COIN, Array, BoardView, Coin, Found, disc_lab


def _face(top_lab: Array, f: Found, p: DetectorParams) -> Array:
    return disc_lab(top_lab, f.u, f.v, p.face_disc * R_COIN)


def larger_set(found: list[Found], top_lab: Array, p: DetectorParams = PARAMS) -> list[Found]:
    """Cold, a set whose men look a striker's size on this board (regulation men on a
    smaller board: a real 0.6 m board's men measure 40 mm against the law's 74 cm): when
    the view holds `set_least` strikers or more (a set has one), the size most of them
    share is its men's. The one clearly wider than that, or else of a colour unlike every
    other, is the striker; the others are men, white the lighter and black the darker by
    the view's own parting of their colours. Every one of them is in doubt (counted or
    not as before), the other colour being what else it may be."""
    wide = [f for f in found if f.colour == "striker" and f.conf >= p.doubt]
    if len(wide) < p.set_least or "larger_set" in p.off:
        return found
    colours = np.array([_face(top_lab, f, p) for f in wide], np.float64)
    men_r = float(np.median([f.r for f in wide]))
    apart = np.linalg.norm(colours[:, None] - colours[None], axis=2)
    apart[np.eye(len(wide), dtype=bool)] = np.inf
    nearest = apart.min(axis=1)
    odd = int(np.argmax(nearest))
    widest = max(range(len(wide)), key=lambda i: wide[i].r)
    striker: int | None = None
    if wide[widest].r >= p.set_striker_wider * men_r:
        striker = widest
    elif nearest[odd] > max(
        p.set_striker_apart, p.set_striker_apart_times * float(np.median(nearest))
    ):
        striker = odd
    men = [i for i in range(len(wide)) if i != striker]
    low = darker_look(colours[men])
    why = "a man of a set larger than the board's law: the size most pieces share"
    out = [f for f in found if f.colour != "striker" or f.conf < p.doubt]
    for k, i in enumerate(men):
        colour, other = ("black", "white") if k in low else ("white", "black")
        out.append(wide[i]._replace(colour=colour, why=why, other=other, r=R_COIN))
    if striker is not None:
        out.append(wide[striker]._replace(why="unlike the set's men", other="white"))
    out.sort(key=lambda f: -f.conf)
    return out


def two_looks_as_one(found: list[Found], top_lab: Array, p: DetectorParams = PARAMS) -> list[Found]:
    """Cold, men the network gave one class though they part clearly into a darker and a
    lighter look (a set of medium-brown wooden "white" men: the network, which learned
    white men pale, reads them black): the lighter look is white and the darker black,
    each in doubt with the class the network gave. Only when every man was given the
    one class, or more of it than a set holds."""
    men = [i for i, f in enumerate(found) if f.colour in ("white", "black") and f.conf >= p.doubt]
    if len(men) < p.set_least or "two_looks" in p.off:
        return found
    given = {found[i].colour for i in men}
    one = next(iter(given)) if len(given) == 1 else None
    if one is None:
        over = [c for c in given if sum(1 for i in men if found[i].colour == c) > MOST[c]]
        if not over:
            return found
        one = over[0]
    colours = np.array([_face(top_lab, found[i], p) for i in men])
    dark = darker_look(colours)
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
    if (
        far < p.looks_far
        or far < p.looks_apart * max(spread, p.looks_least_spread)
        or hue < p.looks_hue
    ):
        return found
    out = list(found)
    why = f"parted from the view's other men by colour: two sets the network called {one}"
    for k, i in enumerate(men):
        colour = "black" if k in dark else "white"
        if found[i].colour != colour:
            out[i] = found[i]._replace(colour=colour, why=why, other=found[i].colour)
    return out


def darker_look(colours: Array) -> set[int]:
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


def men_of_the_view(
    found: list[Found], top_lab: Array, p: DetectorParams = PARAMS
) -> dict[str, Look] | None:
    """Cold, how this set's white and black men look, learned from the men the view is
    sure of (the network hot and the evidence sure): {colour: Look}, or None when there
    are not `men_least` of each. A man left in doubt is then judged by the set on the
    table, not by the board around him alone (a slate-grey man on the dark rim is no
    darker than the frame beside him, but far nearer this set's black men than its
    white)."""
    sure = [
        Coin(f.colour, *B.top_to_mm(f.u, f.v), f.conf)
        for f in found
        if f.colour in ("white", "black")
        and f.conf >= p.sure
        and f.heat >= p.hot
        and f.other is None
    ]
    if min(sum(1 for c in sure if c.colour == k) for k in ("white", "black")) < p.men_least:
        return None
    pieces = PieceSet()
    pieces.learn(top_lab, BoardView(tuple(sure), np.zeros((1, 1), np.uint8)))
    return dict(pieces.looks)


def as_the_men_look(
    men: dict[str, Look], top_lab: Array, f: Found, p: DetectorParams = PARAMS
) -> Found:
    """A man in doubt judged by the view's men (`men`): when he looks clearly like the
    other colour's men, that colour is what he may be instead (weakly seen, what he
    is)."""
    here = _face(top_lab, f, p)
    opposite = "black" if f.colour == "white" else "white"
    d_own, d_opp = men[f.colour].distance(here), men[opposite].distance(here)
    if d_opp * p.nearer_times >= d_own:
        return f
    said = f.why or f"looks like this set's {opposite} men"
    if f.heat < p.count:
        return f._replace(colour=opposite, other=f.colour, why=said)
    return f._replace(other=opposite, why=said)
