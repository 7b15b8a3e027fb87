"""The ICF laws of carrom (2004), shared/seeds/000_182590910620177a.txt: the default rule set.

`IcfRules` decides what a stroke and a foul mean on the board (laws 44-48,
62-64, 72-114), how a board's points count (52-55, 87 b), when a game and the
match end (56, 57) and who breaks next (49). `ClubRules` (club.py) overrides
small hooks of it. Gaps in the laws are settled as shared/RULES.md rules them;
docs/carrom-rules.md lists every law with its test.
"""

from __future__ import annotations

from typing import ClassVar

from kiosk.errors import N_
from kiosk.rules.carrom.core import COLOUR_NAMES, NO_ONE, Core, Decided
from kiosk.rules.carrom.events import Stroke
from kiosk.rules.carrom.state import Ending

__all__ = ["IcfRules"]


class IcfRules:
    """The ICF laws as hooks the match calls; subclasses override what differs."""

    name: ClassVar[str] = "icf"
    #: Points of a board at most (law 55); None for no cap.
    board_cap: ClassVar[int | None] = 12
    #: The queen's points to the board winner who covered it (law 52 a).
    queen_value: ClassVar[int] = 3
    #: Games a side must win to win the match (law 57: best of three).
    games_to_win: ClassVar[int] = 2
    #: Points that win a game (law 56 a).
    game_points: ClassVar[int] = 25
    #: Breaks that touch no coin before the turn passes (law 45 a-b).
    break_attempts: ClassVar[int] = 3

    # -- points -----------------------------------------------------------

    def queen_points(self, score: int) -> int:
        """The queen's 3 points, only while the board winner's game score is 21 or less.

        Laws 52 a, 54; RULES.md: the score before the board counts.
        """
        return self.queen_value if score <= 21 else 0

    def capped(self, points: int) -> int:
        """Law 55: a board scores at most 12; dues and fouls above that are forgiven."""
        cap = self.board_cap
        return points if cap is None else min(points, cap)

    # -- the break ----------------------------------------------------------

    # -- owed dues ------------------------------------------------------------

    def owed_timing(self, players: int) -> tuple[bool, str]:
        """When the striker's side returns an owed coin that its stroke made available.

        Singles: right after the stroke, even if the turn goes on (78 a). Doubles:
        at the start of the right-hand opponent's turn, who places it (78 b i); until
        then it is still owed, so 95 b applies to a queen pocketed in that turn
        (RULES.md). A coin of the debtor pocketed by an opponent is placed at once by
        that opponent in both (78 b ii).
        """
        return (True, "78 a") if players == 2 else (False, "78 b i")

    # -- the break ----------------------------------------------------------

    def break_failed(self, c: Core) -> None:
        """Law 45 b: after three breaks that touch nothing the turn passes, the arrangement
        and the colours stay; the next player's first stroke is the break (definition 6,
        45 a: three attempts, 44, 45 c, 95 d and 97 b apply). The breaker of the board
        (law 49) and white stay with the player entitled to break (43)."""
        c.call("breaks_failed", "45 b", name=c.names[c.right_of(c.turn)])
        c.pass_turn()

    #: The call for a break that touched no coin, and its law.
    empty_break_call: ClassVar[tuple[str, str]] = ("empty_break", "45 a")

    def is_empty_break(self, s: Stroke) -> bool:
        """Law 45 a: the break touched no coin (a break that fouled is judged as a foul)."""
        return not s.touched and not (s.striker or s.improper)

    def empty_break(self, c: Core, s: Stroke) -> bool:
        """Count a break that touched no coin as one of the attempts (45 a; after the last,
        `break_failed`); False for any other break."""
        if not self.is_empty_break(s):
            return False
        c.strokes_in_turn += 1
        c.break_attempts += 1
        c.breaks_in_turn += 1
        c.call(*self.empty_break_call, n=c.breaks_in_turn)
        if c.breaks_in_turn == self.break_attempts:
            self.break_failed(c)
        return True

    def break_stroke(self, c: Core, s: Stroke) -> Decided | None:
        """The break (laws 44-45, 95 d); once broken, an ordinary stroke.

        A break that touches no coin uses one of three attempts (45 a); the third
        passes the turn (45 b). An improper break, or the striker pocketed on the
        break, ends the turn without a due (45 c): coins pocketed stay pocketed and
        the queen goes back, except that the queen pocketed with the striker while
        all nine own coins are on the board costs a due (95 d).
        """
        p = c.turn
        if self.empty_break(c, s):
            return None
        c.broken = True
        if not (s.striker or s.improper):
            return self.stroke(c, s)
        me = c.side(p)
        own, opp = c.colour(me), 1 - c.colour(me)
        own_n = s.pocketed.count(COLOUR_NAMES[own])
        c.on[own] -= own_n
        c.on[opp] -= s.pocketed.count(COLOUR_NAMES[opp])
        c.strokes_in_turn += 1
        if own_n:
            c.opened[me] = True
        c.call("improper_break", "45 c")
        if "queen" in s.pocketed:
            c.return_queen()
            if s.striker and own_n == 0:
                c.call("queen_striker_on_break", "95 d")
                c.give_back(me, 1, c.right_of(p))
        c.settle_after_stroke(p)
        c.pass_turn()
        return None

    # -- strokes ------------------------------------------------------------

    def stroke(self, c: Core, s: Stroke) -> Decided | None:
        """Apply a stroke by the player at turn after the break phase; the board's result
        if it ended the board (laws 102-112, 52 a), else None.

        Order: the coins leave the board; the last-coin endings are checked on what
        the stroke pocketed, except that a side owing a due or penalty before the
        stroke has not pocketed its last coin: its coins pay the debt first (78 a,
        83, RULES.md); then the queen (92-101), dues and penalties (64 b, 72-77,
        98-101), owed dues returned once coins are available (78 a; 78 b i in
        doubles: at the end of the turn), and whether the turn goes on (48, 64 a,
        72-75, 95).
        """
        p = c.turn
        me = c.side(p)
        own, opp = c.colour(me), 1 - c.colour(me)
        own_n = s.pocketed.count(COLOUR_NAMES[own])
        opp_n = s.pocketed.count(COLOUR_NAMES[opp])
        queen = "queen" in s.pocketed
        owed_before = (c.owed[0], c.owed[1])
        opened_before = c.opened[me]
        queen_before, queen_by_before = c.queen, c.queen_by

        c.on[own] -= own_n
        c.on[opp] -= opp_n
        if queen:
            c.queen_on = False
        c.strokes_in_turn += 1

        own_last = own_n > 0 and c.on[own] == 0 and owed_before[me] == 0
        opp_last = opp_n > 0 and c.on[opp] == 0 and owed_before[1 - me] == 0
        if own_last or opp_last:
            decided = self.last_coin(c, s, me, own_last, opp_last, queen_before, queen_by_before)
            if decided is not None:
                return decided

        if s.improper:
            turn_goes_on = False
            c.call("foul_stroke", "64")
            if opp_n:
                c.call("opponent_coin_counts", "76")
            if s.striker:
                c.call("striker_too", "77")
            if queen or queen_before == "pending":
                c.return_queen()
        elif queen:
            turn_goes_on = self._queen_pocketed(c, s, me, own_n, owed_before[me], opened_before)
        else:
            if queen_before == "pending":
                self._covering(c, s, me, own_n)
            turn_goes_on = own_n > 0
            if s.striker and own_n:
                c.call("own_coin_with_striker", "73")
                if opp_n:
                    c.call("opponent_coin_stays", "75")
            elif s.striker:
                c.call("striker_pocketed", "72 a")
                if opp_n:
                    c.call("opponent_coin_counts", "74")

        back = (own_n if (s.striker or s.improper) else 0) + int(s.striker) + int(s.improper)
        if own_n and not s.improper:
            c.opened[me] = True
        c.give_back(me, back, c.right_of(p))
        c.settle_after_stroke(p)
        if not turn_goes_on:
            c.pass_turn()
        return None

    def _queen_pocketed(
        self, c: Core, s: Stroke, me: int, own_n: int, owed: int, opened: bool
    ) -> bool:
        """The queen went in on this stroke (laws 92, 95, 97-99); True if the turn goes on.

        "Before an own coin" (95 a) means the side has pocketed none of its coins
        on this board yet (`opened`, which stays true after a due returns one,
        95 c); "all nine on the board" (95 d, 97 b) is the count before the stroke.
        """
        nine = c.on[c.colour(me)] + own_n == 9
        if owed:
            c.call("queen_while_owing", "95 b")
            c.return_queen()
            return False
        if s.striker and own_n == 0 and (nine or not opened):
            c.call("queen_striker_all_on_board", "95 d")
            c.return_queen()
            return False
        if not opened and own_n == 0:
            c.call("queen_before_own_coin", "95 a")
            c.return_queen()
            return False
        if s.striker:
            c.return_queen()
            if own_n:
                c.call("queen_own_coin_striker", "98 a")
            else:
                c.call("queen_striker", "99 a")
            return True
        if own_n >= 2 or (own_n == 1 and not nine):
            c.call("queen_covered_same_stroke", "97 a")
            c.queen, c.queen_by = "covered", me
        else:
            if own_n == 1:
                c.call("cover_after_nine", "97 b")
            else:
                c.call("queen_pocketed", "92")
            c.queen, c.queen_by = "pending", me
        return True

    def _covering(self, c: Core, s: Stroke, me: int, own_n: int) -> None:
        """The stroke after the queen went in (laws 15, 96, 100, 101)."""
        if s.improper:
            return  # the caller returns the queen (100 b, 101 b)
        if s.striker:
            if own_n:
                c.call("cover_with_striker", "101 a")
            else:
                c.call("striker_while_covering", "100 a")
                c.return_queen()
            return
        if own_n:
            c.call("queen_covered", "15")
            c.queen, c.queen_by = "covered", me
        else:
            c.call("queen_not_covered", "96")
            c.return_queen()

    def last_coin(
        self,
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
            return self.queen_points(score) or 1

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
            return Decided(
                opp, queen_or_one(opp_score) + extra, f"{law} {variant}", "both last coins"
            )
        if opp_last:
            law = "103" if queen_before == "pending" else "111" if s.striker else "106"
            if queen_before == "covered":
                law = "111" if s.striker else "106"
            if queen_before == "pending" and covers_now:
                # 103 a (RULES.md 2026-11-27): the stroke that covers the queen and pockets
                # the opponent's last coin gives him the queen too; it is not the striker's.
                c.queen = "pending"
                mine = False
            queen_pts = 0 if mine else self.queen_points(opp_score)
            pts = my_coins + queen_pts + extra + c.owed[me]
            return Decided(opp, self.capped(pts), f"{law} {variant}", "the opponent's last coin")
        if queen_before == "on_board" and not queen_now:
            law = "108" if s.striker else "107"
            return Decided(
                opp,
                queen_or_one(opp_score) + extra,
                f"{law} {variant}",
                "own last coin before the queen",
            )
        if fair and (mine or theirs):
            pts = their_coins + c.owed[opp] + (self.queen_points(me_score) if mine else 0)
            return Decided(me, self.capped(pts), "52 a", "all own coins pocketed")
        return None

    # -- fouls outside a stroke ----------------------------------------------

    def foul(self, c: Core, player: int) -> None:
        """A foul called outside a stroke (laws 62-64): one coin returned as a penalty.

        On the player at turn before his first stroke, or on a player not at turn,
        it is a technical foul and the turn goes on (63 a, 63 b); on the player at
        turn after his first stroke, it ends the turn (64 a). A penalty that cannot
        be returned yet is owed (RULES.md).
        """
        side = c.side(player)
        c.give_back(side, 1, c.right_of(player))
        if player == c.turn and c.strokes_in_turn > 0:
            c.call("foul_ends_turn", "64 a", name=c.names[player])
            c.pass_turn()
        elif player == c.turn:
            c.call("technical_foul", "63 a", name=c.names[player])
        else:
            c.call("technical_foul_out_of_turn", "63 b", name=c.names[player])

    # -- board, game and match ------------------------------------------------

    def forfeit(self, c: Core, loser: int) -> Decided:
        """Laws 51, 91, 121, 126: the loser's coins on the board, plus the queen's 3 unless
        his side covered it, subject to laws 54 and 55."""
        winner = 1 - loser
        covered_by_loser = c.queen == "covered" and c.queen_by == loser
        queen = 0 if covered_by_loser else self.queen_points(c.points[winner])
        pts = self.capped(c.on[c.colour(loser)] + queen)
        return Decided(winner, pts, "51", "the board is forfeited")

    def game_over(self, c: Core, limit: int | None) -> Ending | None:
        """After a board: 25 points win the game, else after the board limit the side
        ahead wins; a tie at the limit waits for a toss (laws 56 a, 56 b)."""
        for side in (0, 1):
            if c.points[side] >= self.game_points:
                return Ending(c.side_names[side], c.points[side], "56 a", N_("25 points"))
        if limit is not None and c.counted >= limit:
            if c.points[0] != c.points[1]:
                side = 0 if c.points[0] > c.points[1] else 1
                return Ending(
                    c.side_names[side], c.points[side], "56 a", N_("ahead after the limit")
                )
            c.toss_due = True
            c.call("toss_needed", "56 b")
        return None

    def match_over(self, c: Core) -> Ending | None:
        """Law 57: best of three games."""
        for side in (0, 1):
            if c.games_won[side] >= self.games_to_win:
                return Ending(c.side_names[side], c.games_won[side], "57", N_("two games won"))
        return None

    def game_first_breaker(self, c: Core, first: int) -> int:
        """Law 49: the second game is broken first by the other player (in doubles the one
        to the right of the first game's first breaker), the third by the first one."""
        return c.right_of(first) if c.game % 2 == 0 else first

    def next_breaker(self, c: Core) -> int:
        """Law 49: the break alternates in singles and passes to the right in doubles;
        void boards do not count (RULES.md); a toss winner breaks the extra board (56 b)."""
        if c.toss_breaker != NO_ONE:
            return c.toss_breaker
        return (c.game_first + c.counted) % c.n

    def sides_change_mid_game(self, c: Core, limit: int | None) -> bool:
        """Law 60: in the third game, at 4 boards or 13 points (before the quarter-final,
        with a board limit), else at 13 points only."""
        if c.game != 3 or c.changed_mid_game:
            return False
        return max(c.points) >= 13 or (limit is not None and c.counted >= 4)
