"""The last-coin endings of the ICF laws (52 a, 102-112): a board decided by a stroke.

`IcfRules.stroke` calls `last_coin` when a stroke pockets a side's last coin
and that side owed nothing before the stroke (a side that owes pays first:
78 a, 83, RULES.md). Kept apart from icf.py so that each module stays small.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from kiosk.rules.carrom.core import COLOUR_NAMES, Core
from kiosk.rules.carrom.events import Stroke

if TYPE_CHECKING:
    from kiosk.rules.carrom.icf import IcfRules


class Decided(NamedTuple):
    """A board decided by an event: the winning side (0/1), its points, the law, the reason."""

    winner: int
    points: int
    law: str
    reason: str


def last_coin(
    rules: IcfRules,
    c: Core,
    s: Stroke,
    me: int,
    own_last: bool,
    opp_last: bool,
    queen_before: str,
    queen_by_before: int,
) -> Decided | None:
    """The endings when a stroke pockets a side's last coin (laws 52 a, 102-112).

    Checked in this order: both last coins (102, 104, 105, 109, 110, 112, or a
    plain win), the opponent's last coin (103, 106, 111), the own last coin with
    the queen on the board (107, 108), the own last coin with the queen covered
    (52 a). A stroke with the striker or a foul that pockets only the own last
    coin while the queen is pocketed returns coins instead (73, 98, 101, 64 b).
    The improper variants (b) and the striker (108-112) add one point each for
    the beneficiary: RULES.md rules that such points are always requested.
    `queen_points` applies the 21-point rule (54); at 22 or more the laws give
    1 point where they say "the queen's 3 points".
    """
    opp = 1 - me
    queen_now = "queen" in s.pocketed
    fair = not s.striker and not s.improper
    extra = int(s.striker) + int(s.improper)
    mine_before = queen_before == "covered" and queen_by_before == me
    theirs = queen_before == "covered" and queen_by_before == opp
    own_n = s.pocketed.count(COLOUR_NAMES[c.colour(me)])
    covers_now = fair and own_n > 0 and (queen_now or queen_before == "pending")
    if covers_now:  # laws 15, 97 a: the stroke covers the queen as it ends the board
        c.queen, c.queen_by, c.queen_on = "covered", me, False
    mine = mine_before or covers_now
    my_coins = c.on[c.colour(me)]
    their_coins = c.on[c.colour(opp)]
    me_score, opp_score = c.points[me], c.points[opp]
    variant = "a" if not s.improper else "b"

    def queen_or_one(score: int) -> int:
        return rules.queen_points(score) or 1

    if own_last and opp_last:
        if fair and (mine or theirs):
            law = "104 a" if queen_now else "102 a" if queen_before == "pending" else "52 a"
            pts = queen_or_one(me_score) if mine else 1
            return Decided(me, pts, law, "both last coins with the queen covered")
        if mine_before:
            return Decided(opp, 1 + extra, f"110 {variant}", "both last coins after covering")
        if theirs:
            law = "112"
        elif queen_now:
            law = "109" if s.striker else "104"
        elif queen_before == "pending":
            law = "109" if s.striker else "102"
        else:
            law = "109" if s.striker else "105"
        return Decided(opp, queen_or_one(opp_score) + extra, f"{law} {variant}", "both last coins")
    if opp_last:
        law = "103" if queen_before == "pending" else "111" if s.striker else "106"
        if queen_before == "covered":
            law = "111" if s.striker else "106"
        queen_pts = 0 if mine else rules.queen_points(opp_score)
        pts = my_coins + queen_pts + extra + c.owed[me]
        return Decided(opp, rules.capped(pts), f"{law} {variant}", "the opponent's last coin")
    if queen_before == "on_board" and not queen_now:
        law = "108" if s.striker else "107"
        return Decided(
            opp,
            queen_or_one(opp_score) + extra,
            f"{law} {variant}",
            "own last coin before the queen",
        )
    if fair and (mine or theirs):
        pts = their_coins + c.owed[opp] + (rules.queen_points(me_score) if mine else 0)
        return Decided(me, rules.capped(pts), "52 a", "all own coins pocketed")
    return None
