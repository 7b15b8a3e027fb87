"""The board before and after a stroke: which coins left it, and near which pocket.

The engine fuses this with the pocket beams into a proposed stroke (the
`stroke` event of shared/spec/match-record.md: `pocketed`, `striker`,
`off_board`). The camera alone cannot tell a coin that dropped into a pocket
from one that jumped off the board unseen; what it can say is where each
vanished coin was last seen during the stroke:

- last seen within `pocket_zone_mm` of a pocket: gone, near that pocket;
- last seen within `edge_zone_mm` of an edge and away from the pockets:
  off the board (law 65);
- otherwise: gone, pocket unknown (`pocket` None; the beams will tell).

Coins the before-view had where the after-view was hidden (a hand over the
board) are `unseen`, never gone. `striker_gone` says the striker is no longer
on the board; after law 123 the player lifts it at once, so only the beams
tell a pocketed striker from a lifted one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from vision import board as B
from vision.params import MOST
from vision.view import BoardView, Coin, Doubt


@dataclass(frozen=True, slots=True)
class GoneCoin:
    """A coin that left the board: where it was last seen (mm), the nearest pocket
    (1-4) if it was seen near one, and its distance from that pocket's centre."""

    colour: str
    x_mm: float
    y_mm: float
    pocket: int | None
    distance_mm: float


@dataclass(frozen=True, slots=True)
class StrokeDiff:
    gone: tuple[GoneCoin, ...]
    striker_gone: bool
    off_board: tuple[str, ...]
    #: Colours of coins that were hidden in the after-view and could not be checked.
    unseen: tuple[str, ...] = ()
    #: The classes whose count the camera doubts, before or after the stroke (a piece
    #: it is unsure of, vision.pieces.Doubt): "camera unsure"; the beams and the
    #: umpire's tap decide those.
    unsure: tuple[str, ...] = ()
    #: The protest stills of this stroke (file names in the stills folder, vision.stills):
    #: the board at rest before it and after it, those that were written.
    stills: tuple[str, ...] = ()

    def pocketed(self) -> tuple[str, ...]:
        """The colours gone, as the record's `pocketed` would list them."""
        return tuple(g.colour for g in self.gone)


@dataclass(frozen=True, slots=True)
class Sighting:
    """A coin seen during the stroke at time t."""

    t: float
    coin: Coin


@dataclass(frozen=True, slots=True)
class DiffSettings:
    match_mm: float = 25.0  # a coin that moved less than this is the same coin
    pocket_zone_mm: float = 75.0
    edge_zone_mm: float = 30.0
    #: A before-coin this near what the after-view could not see may be under the
    #: hand (the detector sees sleeves and shadows better than pale skin).
    hidden_margin_mm: float = 70.0


def _pairs(before: Sequence[Coin], after: Sequence[Coin]) -> list[tuple[int, int]]:
    """Greedy closest-first pairing of coins of the same colour."""
    cand = sorted(
        (math.hypot(b.x_mm - a.x_mm, b.y_mm - a.y_mm), i, j)
        for i, b in enumerate(before)
        for j, a in enumerate(after)
        if a.colour == b.colour
    )
    used_b: set[int] = set()
    used_a: set[int] = set()
    out = []
    for _, i, j in cand:
        if i in used_b or j in used_a:
            continue
        used_b.add(i)
        used_a.add(j)
        out.append((i, j))
    return out


def _near_edge(x: float, y: float, zone: float) -> bool:
    return min(x, y, B.SURFACE_MM - x, B.SURFACE_MM - y) < zone


def _place_gone(
    colour: str,
    missing: Sequence[Coin],
    after: Sequence[Coin],
    sightings: Sequence[Sighting],
    settings: DiffSettings,
) -> tuple[list[GoneCoin], list[str]]:
    """Where each vanished coin of a colour went, from the last places a coin of
    that colour was seen that no coin of the after-view explains."""
    track = [
        s
        for s in sightings
        if s.coin.colour == colour
        and not any(
            math.hypot(a.x_mm - s.coin.x_mm, a.y_mm - s.coin.y_mm) < settings.match_mm
            for a in after
        )
    ]
    gone: list[GoneCoin] = []
    off: list[str] = []
    claimed: list[tuple[float, float]] = []
    for coin in missing:
        free = [
            s
            for s in track
            if all(
                math.hypot(s.coin.x_mm - x, s.coin.y_mm - y) > 2 * B.COIN_D_MM for x, y in claimed
            )
        ]
        near = [
            s
            for s in free
            if B.nearest_pocket(s.coin.x_mm, s.coin.y_mm)[1] <= settings.pocket_zone_mm
        ]
        if near:
            last = near[-1].coin
            pocket, dist = B.nearest_pocket(last.x_mm, last.y_mm)
            claimed.append((last.x_mm, last.y_mm))
            gone.append(GoneCoin(colour, last.x_mm, last.y_mm, pocket, round(dist, 1)))
            continue
        if free and _near_edge(free[-1].coin.x_mm, free[-1].coin.y_mm, settings.edge_zone_mm):
            claimed.append((free[-1].coin.x_mm, free[-1].coin.y_mm))
            off.append(colour)
            continue
        _, dist = B.nearest_pocket(coin.x_mm, coin.y_mm)
        gone.append(GoneCoin(colour, coin.x_mm, coin.y_mm, None, round(dist, 1)))
    return gone, off


def stroke_diff(
    before: BoardView,
    after: BoardView,
    sightings: Sequence[Sighting] = (),
    settings: DiffSettings = DiffSettings(),
) -> StrokeDiff:
    """Compare the board at rest before a stroke with the board at rest after it.
    `sightings` are the coins detected in the frames in between, oldest first."""
    pieces_before = [c for c in before.coins if c.colour != "striker"]
    pieces_after = [c for c in after.coins if c.colour != "striker"]
    striker_before = any(c.colour == "striker" for c in before.coins) or any(
        s.coin.colour == "striker" for s in sightings
    )
    striker_gone = striker_before and not any(c.colour == "striker" for c in after.coins)
    gone: list[GoneCoin] = []
    off: list[str] = []
    unseen: list[str] = []
    # Pair by colour, closest first; unpaired before-coins are candidates for gone.
    # Coins may have moved anywhere, so counts decide how many of a colour left.
    for colour in ("white", "black", "queen"):
        b = [c for c in pieces_before if c.colour == colour]
        a = [c for c in pieces_after if c.colour == colour]
        paired = {i for i, _ in _pairs(b, a)}
        missing = [c for i, c in enumerate(b) if i not in paired]
        hidden = [c for c in missing if after.hidden(c.x_mm, c.y_mm, settings.hidden_margin_mm)]
        unseen.extend(c.colour for c in hidden)
        n_gone = len(missing) - len(hidden)
        if n_gone <= 0:
            continue
        gone_here, off_here = _place_gone(
            colour, [c for c in missing if c not in hidden], a, sightings, settings
        )
        gone.extend(gone_here)
        off.extend(off_here)
    unsure = doubt_of_the_diff(before, after, settings)
    return StrokeDiff(tuple(gone), striker_gone, tuple(off), tuple(unseen), unsure)


def _alike(a: Doubt, b: Doubt, settings: DiffSettings) -> bool:
    """Two doubts of one piece that did not move: the same place, class, other class,
    and counted or not alike in both views."""
    same = (a.colour, a.other, a.counted) == (b.colour, b.other, b.counted)
    return same and math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) < settings.match_mm


def doubt_of_the_diff(
    before: BoardView, after: BoardView, settings: DiffSettings = DiffSettings()
) -> tuple[str, ...]:
    """The classes whose count that left the board the camera doubts: of the doubt that
    could change a count in either view (`BoardView.doubts_that_matter`), that which is
    not the same in both (a piece in doubt that did not move counts alike before and
    after, so it cannot change what left), and then only where one piece's doubt, taken
    either way, changes what left by the counts: a queen in doubt after the stroke where
    none was before may be there, which leaves nothing gone either way."""
    was, now = list(before.doubts_that_matter()), list(after.doubts_that_matter())
    left_over: list[Doubt] = []
    for d in was:
        twin = next((e for e in now if _alike(d, e, settings)), None)
        if twin is None:
            left_over.append(d)
        else:
            now.remove(twin)
    nb, na = before.counts(), after.counts()
    base = _left(nb, na)
    doubted: set[str] = set()
    for doubts, counts, at in ((left_over, nb, "before"), (now, na, "after")):
        for d in doubts:
            for change in _could_be(d, counts):
                moved = {c: counts[c] + change.get(c, 0) for c in B.COLOURS}
                alt = _left(moved, na) if at == "before" else _left(nb, moved)
                doubted |= {c for c in B.COLOURS if alt[c] != base[c]}
    return tuple(c for c in B.COLOURS if c in doubted)


def _left(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """What left the board by the counts: per class, how many fewer after (the striker
    1 when it was there before and is not after)."""
    out = {c: max(0, before[c] - after[c]) for c in B.COLOURS}
    out["striker"] = int(before["striker"] > 0 and after["striker"] == 0)
    return out


def _could_be(d: Doubt, counts: dict[str, int]) -> list[dict[str, int]]:
    """How one piece in doubt could change its view's counts: counted, it may not be
    there (or be its `other` class); not counted, it may be there (or be its `other`),
    while the class holds fewer than a set has."""
    out: list[dict[str, int]] = []
    if d.counted:
        out.append({d.colour: -1})
        if d.other is not None and counts[d.other] < MOST[d.other]:
            out.append({d.colour: -1, d.other: 1})
    else:
        for c in (d.colour, d.other):
            if c is not None and counts[c] < MOST[c]:
                out.append({c: 1})
    return out
