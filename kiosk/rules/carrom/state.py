"""The state of a carrom match as screens and records see it: small frozen records.

Field names follow shared/spec/match-record.md (`tableside replay --json`):
`MatchState.rules/sides/winner/games/now`, `GameResult.winner/points/boards`,
`BoardResult.breaker/winner/points/queen/void` and the `Now` keys. The other
fields are for screens (whose turn, colours, dues to place now, ...).

Sides are named as in the spec: a player's name in singles, the two partners'
names joined by " & " in doubles. `turn`, `breaker` and `placer` are players.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from kiosk.errors import Reason

QueenState: TypeAlias = Literal["on_board", "pending", "covered"]
#: A protest's decision (151): None while it waits.
Decision: TypeAlias = Literal["upheld", "rejected"] | None
#: A board's protest as the spec's `boards[].protest` names it.
BoardProtest: TypeAlias = Literal["pending", "upheld", "rejected"] | None


@dataclass(frozen=True, slots=True)
class BoardResult:
    """One board begun in a game (void ones included).

    `winner` is a side, None while the board is in progress or void; `points`
    what the winner scored on it (laws 52-55); `queen` the side that covered the
    queen, or None; `law` the law that decided the board ("52 a", "107 a",
    "137", ...), None while in progress.
    """

    breaker: str
    winner: str | None = None
    points: int = 0
    queen: str | None = None
    void: bool = False
    law: str | None = None
    #: The law by which the players change sides after this board ("58", "59": the game
    #: it ended; "60 a", "60 b": the third game's change), None if they stay.
    change_sides: str | None = None
    #: The protest against this board: "pending", "upheld", "rejected"; "upheld" too when
    #: an upheld protest against an earlier board set this one aside (151 a); else None.
    protest: BoardProtest = None
    #: The `t` of the event that ended the board (None: in progress, or not timed): a
    #: protest comes within 15 minutes of it (146).
    ended: float | None = None


@dataclass(frozen=True, slots=True)
class ProtestState:
    """A protest lodged (laws 144-151): the protesting side, the board (game, board) counted
    from 1 as in `games[]`, the decision (None while undecided) and `t`, when it was lodged
    (the officials answer within the hour, 151 c)."""

    by: str
    board: tuple[int, int]
    decision: Decision = None
    t: float | None = None


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game begun: its winner (None while in progress), each side's score, its boards.

    Under club rules the match is one game and its boards are the rounds.
    """

    winner: str | None
    points: dict[str, int]
    boards: tuple[BoardResult, ...]


@dataclass(frozen=True, slots=True)
class Now:
    """The board in progress, or the next one to be played once a board has ended.

    The first eleven fields are the spec's `now` keys. `on_board` counts the coins
    on the playing surface ("white", "black": ints; "queen": bool), returned
    dues and penalties included.
    """

    game: int
    board: int
    breaker: str
    turn: str
    white: str
    on_board: dict[str, int | bool]
    queen: QueenState
    queen_by: str | None
    owed: dict[str, int]
    break_attempts: int
    #: The players change sides before this board is played (laws 58-60): from the event
    #: that called for it until the board's first event.
    change_sides: bool
    #: The side of the player at turn.
    turn_side: str
    #: The side playing black (law 43).
    black: str
    #: Each side's colour, "white" or "black".
    colours: dict[str, str]
    #: Each side's own coins in the pockets (pocketed by anyone, not yet returned).
    pocketed: dict[str, int]
    #: Each side's coins returned by the last event: its opponents place them now (law 78).
    placing: dict[str, int]
    #: The player who places the coins in `placing` (law 78), or None when nothing is to place.
    placer: str | None
    #: The next stroke is the break (laws 44-45; after three failed breaks, the next
    #: player's first stroke: definition 6, 45 a-b).
    is_break: bool
    #: Breaks that touched no coin in this turn: the player at turn has three (45 a).
    break_attempts_in_turn: int
    #: Strokes played by the player at turn in this turn (0: a foul now is technical, law 63).
    strokes_in_turn: int
    #: Passes in a row on this board (law 137: void once every player passed three times).
    passes: int
    #: Per side: it has pocketed one of its own coins on this board (laws 92, 95 c).
    opened: dict[str, bool]

    @property
    def turn_colour(self) -> str:
        """The colour of the side at turn (law 43): the one place it is worked out."""
        return self.colours[self.turn_side]


@dataclass(frozen=True, slots=True)
class MatchState:
    """The whole match: the spec's keys first, then what screens need.

    `now` is None once the match is over. `change_sides` is true while the
    players must change seats before the next board is played (laws 58-60):
    after a game, or in the third game after the board that reaches 4 boards
    or 13 points, until that next board's first event; `change_sides_law` says
    which law calls for it ("58", "59", "60 a", "60 b"), else None.
    `toss_due` is true when a tie at the board limit waits for a toss (law 56 b).
    `winner` is None while a protest is undecided (law 150), even when play is over (then
    `now` is None too and `provisional_winner` names the side that won on the board).
    `calls` says law by law what the rules called on the last event, as data (a `Reason`
    each, kiosk/rules/carrom/calls.py): the umpire's screen words them in its language.
    """

    rules: str
    sides: tuple[str, str]
    winner: str | None
    games: tuple[GameResult, ...]
    now: Now | None
    players: tuple[str, ...]
    board_limit: int | None
    games_won: dict[str, int]
    toss_due: bool
    change_sides: bool
    calls: tuple[Reason, ...]
    #: Each side's points in the game being played (zeros before its first board).
    score: dict[str, int]
    change_sides_law: str | None = None
    #: Every protest lodged, oldest first (laws 144-151).
    protests: tuple[ProtestState, ...] = ()
    #: The side that won the match on the board, whether or not it is declared: `winner`
    #: stays None while a protest is undecided (law 150), this says who would have won.
    provisional_winner: str | None = None

    @property
    def protest_pending(self) -> bool:
        """A protest waits for its decision: no result is declared (law 150)."""
        return any(p.decision is None for p in self.protests)


@dataclass(frozen=True, slots=True)
class Ending:
    """How a board, a game or the match ended: the winning side, points, law, reason.

    A game's or the match's `reason` is a catalogue message ("25 points", "two games won",
    "conceded"; marked `N_` where it is made): a screen words it with its `_`, the record
    keeps it in English (`ending.reason` in `--json`)."""

    winner: str | None
    points: int
    law: str
    reason: str


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the last event ended: a board, a game, the match (None for what goes on).

    `match` stays set once the match is over, since nothing may follow.
    """

    board: Ending | None = None
    game: Ending | None = None
    match: Ending | None = None
