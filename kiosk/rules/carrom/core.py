"""The mutable working state of a match and the board moves every rule set shares.

`Core` holds plain ints, bools and short lists indexed by side (0: the first
player's side, 1: the other). The `Match` copies it before each event
(`snapshot`) so that an illegal event or an undo restores it exactly; a copy is
a few dozen attribute loads, never a deep copy.

Seating (shared/spec/match-record.md): players are listed in seating order,
each one's right-hand neighbour is the next name. The turn and the break pass
to the right (laws 48, 49 b), so player `p` is followed by `(p + 1) % n`; in
doubles players 0 and 2 are partners against 1 and 3, so a player's side is
`p % 2` in singles and doubles alike.
"""

from __future__ import annotations

from operator import attrgetter
from typing import NamedTuple

from kiosk.errors import Reason
from kiosk.rules.carrom.calls import ruling
from kiosk.rules.carrom.state import (
    BoardResult,
    Ending,
    GameResult,
    Outcome,
    ProtestState,
    QueenState,
)

WHITE, BLACK = 0, 1
COLOUR_NAMES = ("white", "black")
COINS_PER_COLOUR = 9
NO_ONE = -1

_SLOTS = (
    # match
    "game",
    "game_first",
    "counted",
    "points",
    "games_won",
    "done_games",
    "boards",
    "toss_due",
    "toss_breaker",
    "winner",
    "changed_mid_game",
    "change_sides",
    "calls",
    "outcome",
    "protests",
    "ahead",
    "starts",
    "t",
    # board
    "breaker",
    "turn",
    "white",
    "on",
    "queen_on",
    "queen",
    "queen_by",
    "queen_coverable",
    "owed",
    "placing",
    "placer",
    "opened",
    "break_attempts",
    "breaks_in_turn",
    "broken",
    "strokes_in_turn",
    "passes",
    "began",
)
_LISTS = ("points", "games_won", "on", "owed", "placing", "opened")
_PLAIN = tuple(name for name in _SLOTS if name not in _LISTS)
# One C-level call reads every immutable field; the six short lists are sliced.
_GET_PLAIN = attrgetter(*_PLAIN)


class Decided(NamedTuple):
    """A board decided by an event: the winning side (0/1), its points, the law, the reason."""

    winner: int
    points: int
    law: str
    reason: str


def side_names(players: tuple[str, ...]) -> tuple[str, str]:
    """Each side's name: in doubles the two partners, who sit opposite (0 & 2 against 1 & 3)."""
    if len(players) == 4:
        return (f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}")
    return (players[0], players[1])


class Core:
    """Everything the rules need to take the next event; see the module docstring."""

    __slots__ = (*_SLOTS, "n", "names", "side_names", "owed_at_once", "turn_end_law")

    game: int
    game_first: int
    counted: int
    points: list[int]
    games_won: list[int]
    done_games: tuple[GameResult, ...]
    boards: tuple[BoardResult, ...]
    toss_due: bool
    toss_breaker: int
    winner: int
    changed_mid_game: bool
    #: The law calling for a change of sides before the next board ("" when none is due).
    change_sides: str
    #: What the rules called on the last event, law by law, as data (calls.py).
    calls: list[Reason]
    outcome: Outcome
    #: Every protest lodged, oldest first (laws 144-151).
    protests: tuple[ProtestState, ...]
    #: The boards of games after the one in play that an upheld protest set aside (151 a),
    #: one tuple a game: they stay first in their game's boards when it is played again.
    ahead: tuple[tuple[BoardResult, ...], ...]
    #: (game, board, index of its first event) for every board begun: an upheld protest
    #: goes back to the state before that event (151 a).
    starts: tuple[tuple[int, int, int], ...]
    #: The `t` of the event being applied (None when the record does not time it).
    t: float | None
    breaker: int
    turn: int
    white: int
    on: list[int]
    queen_on: bool
    queen: QueenState
    queen_by: int
    queen_coverable: bool
    owed: list[int]
    placing: list[int]
    placer: int
    opened: list[bool]
    break_attempts: int
    #: Breaks that touched no coin in this turn: each player who breaks has three of his
    #: own (45 a; RULES.md 2026-11-27: the count does not carry over a foul that ends a turn).
    breaks_in_turn: int
    broken: bool
    strokes_in_turn: int
    passes: int
    began: bool
    n: int
    names: tuple[str, ...]
    side_names: tuple[str, str]
    #: The striker's own side returns an owed coin right after the stroke that makes one
    #: available (78 a); otherwise at the end of the turn (78 b i in doubles, club IV iii).
    owed_at_once: bool
    #: The law cited when owed coins are placed at the end of a turn.
    turn_end_law: str

    def __init__(
        self,
        players: tuple[str, ...],
        first_break: int,
        *,
        owed_at_once: bool = True,
        turn_end_law: str = "78 a",
    ) -> None:
        self.n = len(players)
        self.owed_at_once = owed_at_once
        self.turn_end_law = turn_end_law
        self.names = players
        self.side_names = side_names(players)
        self.game = 1
        self.game_first = first_break
        self.counted = 0
        self.points = [0, 0]
        self.games_won = [0, 0]
        self.done_games = ()
        self.boards = ()
        self.toss_due = False
        self.toss_breaker = NO_ONE
        self.winner = NO_ONE
        self.changed_mid_game = False
        self.change_sides = ""
        self.calls = []
        self.outcome = Outcome()
        self.protests = ()
        self.ahead = ()
        self.starts = ()
        self.t = None
        self.new_board(first_break)

    # -- copies -----------------------------------------------------------

    def snapshot(self) -> tuple[object, ...]:
        """The values of every field, lists copied: enough to restore exactly."""
        return (
            _GET_PLAIN(self),
            self.points[:],
            self.games_won[:],
            self.on[:],
            self.owed[:],
            self.placing[:],
            self.opened[:],
        )

    def restore(self, values: tuple[object, ...]) -> None:
        plain, *lists = values
        for name, value in zip(_PLAIN, plain, strict=True):  # type: ignore[call-overload]
            setattr(self, name, value)
        for name, value in zip(_LISTS, lists, strict=True):
            setattr(self, name, list(value))  # type: ignore[call-overload]

    # -- seating and colours ----------------------------------------------

    @staticmethod
    def side(player: int) -> int:
        return player % 2

    def right_of(self, player: int) -> int:
        """The player seated to `player`'s right: next to strike and to break (laws 48, 49)."""
        return (player + 1) % self.n

    def colour(self, side: int) -> int:
        """WHITE for the breaker's side, BLACK for the other (law 43)."""
        return WHITE if side == self.white else BLACK

    def in_pockets(self, side: int) -> int:
        """A side's own coins off the board: what it can return as dues (law 78 a)."""
        return COINS_PER_COLOUR - self.on[self.colour(side)]

    def call(self, code: str, law: str = "", /, **facts: object) -> None:
        """Record the ruling `code` (calls.py) under `law`, with its facts."""
        self.calls.append(ruling(code, law, **facts))

    # -- boards -----------------------------------------------------------

    def new_board(self, breaker: int) -> None:
        """Arrange the coins for a board broken by `breaker`, whose side plays white (41, 43)."""
        self.breaker = breaker
        self.turn = breaker
        self.white = self.side(breaker)
        self.on = [COINS_PER_COLOUR, COINS_PER_COLOUR]
        self.queen_on = True
        self.queen = "on_board"
        self.queen_by = NO_ONE
        self.queen_coverable = True
        self.owed = [0, 0]
        self.placing = [0, 0]
        self.placer = NO_ONE
        self.opened = [False, False]
        self.break_attempts = 0
        self.breaks_in_turn = 0
        self.broken = False
        self.strokes_in_turn = 0
        self.passes = 0
        self.began = False

    def board_result(self) -> BoardResult:
        """The board in progress as the spec lists it (no winner yet)."""
        queen = self.side_names[self.queen_by] if self.queen == "covered" else None
        return BoardResult(breaker=self.names[self.breaker], queen=queen)

    # -- dues, penalties, the queen ---------------------------------------

    def give_back(self, side: int, count: int, placer: int) -> None:
        """`side` returns `count` of its pocketed coins; what it cannot is owed (78, 83).

        `placer` is the player who places them (law 78).
        """
        if count <= 0:
            return
        back = min(count, self.in_pockets(side))
        if back:
            self.on[self.colour(side)] += back
            self.placing[side] += back
            self.placer = placer
        self.owed[side] += count - back

    def settle_owed(self, striker: int, *, own: bool = True, law: str = "78 a") -> None:
        """Return owed coins once the side has pocketed ones (RULES.md, laws 78 a, 81, 83).

        After a stroke by `striker`: his own side's coins are placed by the
        opponent to his right; the other side's coins, pocketed by him, he
        places himself (law 78 b ii). `own=False` leaves his own side's debt
        owed until the end of the turn (78 b i in doubles, club IV iii).
        """
        mine = self.side(striker)
        for side in (mine, 1 - mine) if own else (1 - mine,):
            owed = self.owed[side]
            if owed and self.in_pockets(side):
                self.owed[side] = 0
                placer = self.right_of(striker) if side == mine else striker
                self.give_back(side, owed, placer)
                name = self.side_names[side]
                if law.startswith("club"):
                    self.call("owed_returned_end_of_turn", law, name=name)
                elif law == "78 a":
                    self.call("owed_returned", law, name=name)
                else:
                    self.call("owed_placed_by", law, name=name, who=self.names[placer])

    def settle_after_stroke(self, striker: int) -> None:
        """Owed coins right after a stroke: at once (78 a, 78 b ii), or the striker's own
        side's at the end of the turn when the rules say so (78 b i, club IV iii)."""
        self.settle_owed(striker, own=self.owed_at_once)

    def return_queen(self) -> None:
        """The queen goes back to the centre circle (laws 93, 95, 96)."""
        self.queen_on = True
        self.queen = "on_board"
        self.queen_by = NO_ONE
        self.queen_coverable = True

    def pass_turn(self) -> None:
        """The turn passes to the right; an uncovered queen goes back (laws 48, 96).

        Owed coins that became available in the turn are placed now, at the start
        of the right-hand opponent's turn (78 b i) or at the end of the offender's
        turn (club IV iii); under 78 a they were placed already.
        """
        if self.owed[0] or self.owed[1]:
            self.settle_owed(self.turn, law=self.turn_end_law)
        if self.queen == "pending":
            self.return_queen()
            self.call("queen_not_covered", "96")
        self.turn = self.right_of(self.turn)
        self.strokes_in_turn = 0
        self.breaks_in_turn = 0

    def clear_placing(self) -> None:
        self.placing = [0, 0]
        self.placer = NO_ONE

    # -- results ------------------------------------------------------------

    def end_board(self, ending: Ending, winner: int, points: int) -> None:
        """Record the finished board and add its points to the game (laws 52-55)."""
        queen = self.side_names[self.queen_by] if self.queen == "covered" else None
        result = BoardResult(
            breaker=self.names[self.breaker],
            winner=self.side_names[winner],
            points=points,
            queen=queen,
            void=False,
            law=ending.law,
            ended=self.t,
        )
        self.boards = (*self.boards, result)
        self.points[winner] += points
        self.counted += 1
        self.outcome = Outcome(board=ending)

    def void_board(self, law: str, reason: str) -> None:
        """The board is void and replayed by the same breaker (laws 137, 140, 142)."""
        result = BoardResult(breaker=self.names[self.breaker], void=True, law=law, ended=self.t)
        self.boards = (*self.boards, result)
        self.outcome = Outcome(board=Ending(None, 0, law, reason))
        self.new_board(self.breaker)

    def game_result(self, winner: int) -> GameResult:
        return GameResult(
            winner=None if winner == NO_ONE else self.side_names[winner],
            points={self.side_names[0]: self.points[0], self.side_names[1]: self.points[1]},
            boards=self.boards,
        )
