"""The club rules of shared/seeds/001_45192af66de370db.txt as a second profile of the core.

Sections cited as the seed numbers them: I (basic rules), III (covering the
queen), IV (fouls), V (scoring). What differs from the ICF laws:

- every foul is one penalty piece and ends the turn (IV i): the striker
  pocketed (IV ii a), a piece or the striker off the board (b), an opponent's
  piece pocketed (c), the opponent's final piece (d), the own final piece
  before the queen is covered (e), an improper stroke (f), touching a piece
  (g), three failed breaks (h);
- the queen is covered by an own piece later in the same turn, and only by a
  player who had pocketed an own piece before it (III i-iii); otherwise it goes
  back at the end of the turn (III ii);
- an owed penalty is returned at the end of the turn in which a piece became
  available (IV iii), not at once;
- the round winner scores 1 a piece left plus 5 for a queen it covered (V i);
  no 12-point cap, no 21-point rule;
- one game of rounds, first to 15 (V ii; RULES.md: a side with 15 at the end of
  a round wins; after three rounds the side ahead wins; while level, another
  round). Colours switch each round (I ix): the break alternates as in law 49.
"""

from __future__ import annotations

from typing import ClassVar

from kiosk.errors import N_, Reason
from kiosk.rules.carrom.calls import ruling
from kiosk.rules.carrom.core import COLOUR_NAMES, Core, Decided
from kiosk.rules.carrom.events import Stroke
from kiosk.rules.carrom.icf import IcfRules
from kiosk.rules.carrom.state import Ending


class ClubRules(IcfRules):
    """The club profile: overrides the hooks of `IcfRules` that the club rules change."""

    name: ClassVar[str] = "club"
    board_cap: ClassVar[int | None] = None
    queen_value: ClassVar[int] = 5
    games_to_win: ClassVar[int] = 1
    game_points: ClassVar[int] = 15
    #: Rounds after which the side ahead wins (V ii).
    rounds: ClassVar[int] = 3

    def queen_points(self, score: int) -> int:
        """V i: a bonus 5 for the winner who covered the queen, whatever the score."""
        return self.queen_value

    def owed_timing(self, players: int) -> tuple[bool, str]:
        """IV iii: an owed penalty is returned at the end of the turn in which a piece
        became available, by the opponent."""
        return (False, "club IV iii")

    def break_failed(self, c: Core) -> None:
        """IV ii h: failing to break in three attempts is a foul: a penalty, the turn ends."""
        c.call("club_breaks_failed", "club IV ii h")
        c.broken = True
        c.give_back(c.side(c.turn), 1, c.right_of(c.turn))
        c.pass_turn()

    empty_break_call: ClassVar[tuple[str, str]] = ("club_empty_break", "club I ii")

    def is_empty_break(self, s: Stroke) -> bool:
        """I ii: the break touched nothing; a coin or the striker off the board is a foul."""
        return not s.touched and not (s.striker or s.improper or s.off_board)

    def break_stroke(self, c: Core, s: Stroke) -> Decided | None:
        """I ii: three attempts to break; a break that fouls is an ordinary foul (IV)."""
        if self.empty_break(c, s):
            return None
        c.broken = True
        return self.stroke(c, s)

    def _foul_stroke(self, c: Core, me: int, calls: list[Reason], extra: int) -> None:
        """IV i: one penalty piece (plus `extra` pieces to return), the turn ends."""
        p = c.turn
        c.calls.extend(calls)
        c.give_back(me, 1 + extra, c.right_of(p))
        c.settle_after_stroke(p)
        c.pass_turn()

    def stroke(self, c: Core, s: Stroke) -> Decided | None:
        """A club stroke: fouls first (IV ii), then the queen (III), then the round's end
        (V i: the own final piece with the queen covered), then the turn (I iv-v)."""
        p = c.turn
        me = c.side(p)
        own, opp = c.colour(me), 1 - c.colour(me)
        own_n = s.pocketed.count(COLOUR_NAMES[own])
        opp_n = s.pocketed.count(COLOUR_NAMES[opp])
        queen = "queen" in s.pocketed
        opened_before = c.opened[me]
        owed_before = (c.owed[0], c.owed[1])
        c.on[own] -= own_n
        c.on[opp] -= opp_n
        if queen:
            c.queen_on = False
        c.strokes_in_turn += 1
        if own_n:
            c.opened[me] = True  # IV ii c: own pieces pocketed in a foul stroke stay pocketed

        calls: list[Reason] = []
        if s.striker:
            calls.append(ruling("club_striker_foul", "club IV ii a"))
        if s.off_board:
            calls.append(ruling("club_off_board_foul", "club IV ii b"))
        if s.improper:
            calls.append(ruling("club_improper_foul", "club IV ii f"))
        if opp_n:
            calls.append(ruling("club_opponent_piece_foul", "club IV ii c"))
        extra = 0
        if opp_n and c.on[opp] == 0 and owed_before[1 - me] == 0:
            calls.append(ruling("club_final_piece_back", "club IV ii d"))
            c.give_back(1 - me, 1, p)
        if calls:
            if queen:
                c.return_queen()
            self._foul_stroke(c, me, calls, extra)
            return None

        if queen:
            if opened_before and own_n:
                c.call("club_queen_covered_in_turn", "club III iii")
                c.queen, c.queen_by = "covered", me
            else:
                c.queen, c.queen_by = "pending", me
                c.queen_coverable = opened_before
                if opened_before:
                    c.call("club_queen_to_cover", "club III")
                else:
                    c.call("club_queen_goes_back", "club III ii")
        elif c.queen == "pending" and c.queen_by == me and own_n and c.queen_coverable:
            c.call("club_cover_after_queen", "club III iii")
            c.queen = "covered"

        if own_n and c.on[own] == 0 and owed_before[me] == 0:
            if c.queen == "covered":
                covered_by_me = c.queen_by == me
                pts = c.on[opp] + (self.queen_value if covered_by_me else 0)
                return Decided(me, pts, "club V i", "all own pieces pocketed")
            self._foul_stroke(
                c,
                me,
                [ruling("club_final_piece_early", "club IV ii e")],
                1,
            )
            return None
        c.settle_after_stroke(p)
        if not (own_n or queen):
            c.pass_turn()
        return None

    def foul(self, c: Core, player: int) -> None:
        """IV i, IV ii g: a foul costs one piece; on the player at turn it ends the turn."""
        c.give_back(c.side(player), 1, c.right_of(player))
        c.call("club_foul", "club IV i", name=c.names[player])
        if player == c.turn:
            c.pass_turn()

    def forfeit(self, c: Core, loser: int) -> Decided:
        """No club rule: the opponents score the loser's pieces left, as in V i."""
        winner = 1 - loser
        queen = self.queen_value if c.queen == "covered" and c.queen_by == winner else 0
        return Decided(winner, c.on[c.colour(loser)] + queen, "club V i", "the round is forfeited")

    def game_over(self, c: Core, limit: int | None) -> Ending | None:
        """V ii as RULES.md rules it: 15 at the end of a round wins; after three rounds
        the side ahead wins; while level another round is played."""
        a, b = c.points
        best = 0 if a > b else 1
        if max(a, b) >= self.game_points and a != b:
            return Ending(c.side_names[best], c.points[best], "club V ii", N_("15 points"))
        if c.counted >= self.rounds and a != b:
            return Ending(
                c.side_names[best], c.points[best], "club V ii", N_("ahead after 3 rounds")
            )
        return None

    def match_over(self, c: Core) -> Ending | None:
        """V ii: the match is the one game of rounds."""
        for side in (0, 1):
            if c.games_won[side]:
                return Ending(c.side_names[side], c.points[side], "club V ii", N_("the rounds won"))
        return None

    def game_first_breaker(self, c: Core, first: int) -> int:
        return first

    def sides_change_mid_game(self, c: Core, limit: int | None) -> bool:
        return False
