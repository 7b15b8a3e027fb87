"""A backgammon match: length, score, cube, Crawford, penalty points, breaks.

Pure state with explicit actions; every refused action raises `IllegalAction`
(a ValueError) and leaves the state unchanged. Sections cited are those of the
tournament rules in shared/seeds/003_d85405b1c0e4c56b.txt.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from kiosk.errors import N_, Refused
from kiosk.rules.backgammon.doubling import double_refusal

Result: TypeAlias = Literal["single", "gammon", "backgammon"]
WonBy: TypeAlias = Literal["points", "penalty", "time", "overrule"]

#: A game won as a single, gammon or backgammon scores the cube's value times 1, 2 or 3.
MULTIPLIER: dict[str, int] = {"single": 1, "gammon": 2, "backgammon": 3}
BREAK_MINUTES = 5  # 2.2 (ii)
LATE_MINUTES = 5  # 2.2 (iv): a penalty point for every five minutes late
CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)  # 4.4 (i): the cube shows 1 ("64") up to 64
MATCH_LENGTHS = tuple(range(1, 26))  # 2.2 (ii) names lengths up to 25 points and more


class IllegalAction(Refused, ValueError):
    """An action the rules do not allow now; the message says why in English, `reason`
    (when the core gave one) as facts for the interface to word."""


def breaks_due(length: int, best_of_three: bool = False) -> int:
    """Five-minute breaks each player may take in a match of `length` points (2.2 (ii)):
    none up to 5 points, one to 11, two to 17, three to 23, four from 25; none inside
    a match of a best-of-three series, which takes its breaks between matches.

    The text lists odd lengths only; an even length counts with the odd lengths above
    it up to the next listed band (6 with 7-11, 12 with 13-17, ...)."""
    if length <= 5 or best_of_three:
        return 0
    if length <= 11:
        return 1
    if length <= 17:
        return 2
    if length <= 23:
        return 3
    return 4


def late_penalty_points(minutes_late: float) -> int:
    """Penalty points for the opponent of a player `minutes_late` after the starting time
    or an allowed break (2.2 (iv)): one at five minutes, one more each further five."""
    if minutes_late < 0:
        raise IllegalAction(f"minutes late must not be negative, not {minutes_late}")
    return int(minutes_late // LATE_MINUTES)


def possible_points(crawford: bool = False) -> tuple[int, ...]:
    """The points a game can score: the cube's value times 1, 2 or 3 (4.5); in the
    Crawford game the cube is void (4.4 (iv)), so 1, 2 or 3."""
    cubes = (1,) if crawford else CUBE_VALUES
    return tuple(sorted({c * m for c in cubes for m in MULTIPLIER.values()}))


def penalty_points_to_win(length: int) -> int:
    """Penalty points that win a match of `length` (2.2 (iv)): more than half of it."""
    return length // 2 + 1


@dataclass
class Match:
    """The score of a match to `length` points between two players.

    `post_crawford`: the Crawford game has already been played (for a match taken
    over in progress). The Crawford game is the first game in which a player is
    exactly one point from winning (4.4 (iv), as written: a 1-point match's only
    game, or a game at 6-6 of a 7-point match, is one too); the cube is out of
    play in it, and in use again after it. `best_of_three`: the match is one of a
    best-of-three series, so it has no breaks inside it (2.2 (ii)).
    """

    players: tuple[str, str]
    length: int
    score: dict[str, int] = field(default_factory=dict)
    post_crawford: bool = False
    cube: int = 1
    owner: str | None = None  # None: the cube is in the middle
    offered_by: str | None = None  # a double waiting for take or drop
    in_game: bool = False
    game_is_crawford: bool = False
    games: int = 0
    penalty: dict[str, int] = field(default_factory=dict)
    breaks_taken: dict[str, int] = field(default_factory=dict)
    emergencies: dict[str, int] = field(default_factory=dict)
    best_of_three: bool = False
    winner: str | None = None
    won_by: WonBy | None = None

    def __post_init__(self) -> None:
        if len(self.players) != 2 or self.players[0] == self.players[1]:
            raise IllegalAction(f"a match needs two different players, not {self.players!r}")
        if self.length < 1:
            raise IllegalAction(f"match length must be at least 1, not {self.length}")
        for p in self.players:
            self.score.setdefault(p, 0)
            self.penalty.setdefault(p, 0)
            self.breaks_taken.setdefault(p, 0)
            self.emergencies.setdefault(p, 0)
        for p, s in self.score.items():
            self._known(p)
            if not 0 <= s < self.length:
                raise IllegalAction(f"score of {p} must be 0 to {self.length - 1}, not {s}")
        if self.post_crawford and all(self.needs(p) > 1 for p in self.players):
            # A player one point away stays one away until the match ends.
            raise IllegalAction(
                "post_crawford, but neither player is one point away: "
                "the Crawford game cannot have been played (4.4 (iv))"
            )

    # -- reading it --------------------------------------------------------------

    def needs(self, player: str) -> int:
        """Points `player` still needs to win the match (at least 0)."""
        self._known(player)
        return max(0, self.length - self.score[player])

    def opponent(self, player: str) -> str:
        self._known(player)
        return self.players[1] if player == self.players[0] else self.players[0]

    @property
    def over(self) -> bool:
        return self.winner is not None

    def crawford_next(self) -> bool:
        """Whether the next game to start is the Crawford game (4.4 (iv))."""
        if self.over or self.post_crawford:
            return False
        return any(self.needs(p) == 1 for p in self.players)

    @property
    def crawford(self) -> bool:
        """The game being played is the Crawford game, or, between games, the next is."""
        if self.over:
            return False
        return self.game_is_crawford if self.in_game else self.crawford_next()

    def breaks_left(self, player: str) -> int:
        due = breaks_due(self.length, self.best_of_three)
        return max(0, due - self.breaks_taken[self._known(player)])

    def can_double(self, player: str) -> str | None:
        """Why `player` may not double now, or None if the double is allowed."""
        refusal = double_refusal(self, self._known(player))
        if refusal is None:
            return None
        return refusal.english().removeprefix(f"{player} may not double: ")

    # -- the actions -------------------------------------------------------------

    def start_game(self) -> None:
        """A game begins: the cube in the middle at 1; announce the Crawford game (4.7)."""
        if self.over:
            raise IllegalAction.of("match_over", N_("the match is over"))
        if self.in_game:
            raise IllegalAction.of("game_in_play", N_("a game is already being played"))
        self.game_is_crawford = self.crawford_next()
        self.in_game = True
        self.cube, self.owner, self.offered_by = 1, None, None

    def double(self, player: str) -> None:
        """`player` offers the cube at twice its value (4.4 (ii))."""
        refusal = double_refusal(self, self._known(player))
        if refusal is not None:
            raise IllegalAction(refusal)
        self.offered_by = player

    def take(self, player: str) -> None:
        """`player` accepts the double and owns the cube (4.4 (iii))."""
        self._answer(player)
        self.cube *= 2
        self.owner = player
        self.offered_by = None

    def drop(self, player: str) -> None:
        """`player` refuses the double: the doubler wins the cube's value before the double."""
        doubler = self._answer(player)
        self.offered_by = None
        self._score_game(doubler, self.cube)

    def end_game(self, winner: str, result: Result = "single") -> int:
        """`winner` won the game as a single, gammon or backgammon; returns the points."""
        self._known(winner)
        if result not in MULTIPLIER:
            raise IllegalAction(f"result must be single, gammon or backgammon, not {result!r}")
        if self.offered_by is not None:
            raise IllegalAction.of(
                "double_waits",
                N_("a double by {player} waits for an answer"),
                player=self.offered_by,
            )
        points = self.cube * MULTIPLIER[result]
        self._score_game(winner, points)
        return points

    def record_game(self, winner: str, points: int) -> None:
        """A game's result given as points (a clock record's `game_end`): the cube's value
        times 1, 2 or 3, and at most 3 in the Crawford game, where the cube is void."""
        self._known(winner)
        if self.in_game and points not in possible_points(self.game_is_crawford):
            if self.game_is_crawford:
                raise IllegalAction(
                    f"{points} points cannot be scored in the Crawford game: the cube is "
                    "void (4.4 (iv)), so a game scores 1, 2 or 3"
                )
            raise IllegalAction(
                f"{points} points cannot be scored: a game scores the cube's value "
                "(1, 2, 4 ... 64, 4.4 (i)) times 1, 2 or 3 (4.5)"
            )
        self.offered_by = None
        self._score_game(winner, points)

    def lose_on_time(self, player: str) -> None:
        """`player`'s time ran out: the opponent wins the match (4.3 (iii))."""
        if self.over:
            raise IllegalAction.of("match_over", N_("the match is over"))
        # The game in progress stays in progress: the director may overrule.
        self.winner = self.opponent(player)
        self.won_by = "time"

    def undo_time_loss(self) -> None:
        """The director gave back time lost on a clock set wrongly (4.3 (iv), (vi)):
        the match goes on."""
        if self.won_by != "time":
            raise IllegalAction.of("not_lost_on_time", N_("the match was not lost on time"))
        self.winner = None
        self.won_by = None

    def overrule(self, flagged: str) -> None:
        """The director rules that `flagged`, whose time ran out, had certainly
        (mathematically) won the match: `flagged` is declared its winner (4.3 (iii))."""
        self._known(flagged)
        if self.won_by != "time" or self.winner != self.opponent(flagged):
            raise IllegalAction.of(
                "overrule_not_flagged",
                N_("overrule for {player}, who did not lose on time"),
                player=flagged,
            )
        self.winner, self.won_by = flagged, "overrule"
        self.in_game = False
        self.offered_by = None

    def award_penalty(self, player: str, points: int) -> None:
        """Penalty points for `player` (2.2 (iv), 2.3): they count in the score; more
        penalty points than half the match length win the match."""
        self._known(player)
        if self.over:
            raise IllegalAction.of("match_over", N_("the match is over"))
        if points < 1:
            raise IllegalAction.of(
                "penalty_points",
                N_("penalty points must be at least {least}, not {points}"),
                least=1,
                points=points,
            )
        self.penalty[player] += points
        self.score[player] += points
        if self.penalty[player] * 2 > self.length:
            self.winner, self.won_by = player, "penalty"
            self.in_game = False
        elif self.score[player] >= self.length:
            self.winner, self.won_by = player, "points"
            self.in_game = False

    def late_start(self, absent: str, minutes_late: float) -> int:
        """`absent` arrived `minutes_late` after the starting time or a break: the opponent
        gets a penalty point for each full five minutes (2.2 (iv)). Returns the points.
        (The text's alternative, the director starting the late player's clock, is a
        clock start, not a call here.)"""
        self._known(absent)
        if self.over:
            raise IllegalAction.of("match_over", N_("the match is over"))
        if self.in_game:
            raise IllegalAction.of(
                "late_in_game",
                N_(
                    "late arrival is counted from the starting time or a break, "
                    "before a game ({law})"
                ),
                law="2.2 (iv)",
            )
        points = late_penalty_points(minutes_late)
        if points:
            self.award_penalty(self.opponent(absent), points)
        return points

    def take_break(self, player: str, emergency: bool = False) -> None:
        """`player` takes a five-minute break, only between games (2.2 (ii)). An
        emergency break (2.2 (v)) is allowed to a player with no break left, and,
        "notwithstanding any provision to the contrary", during a game too; between
        games a player who still has a break left uses it."""
        self._known(player)
        if self.over:
            raise IllegalAction.of("match_over", N_("the match is over"))
        if self.in_game:
            if emergency:
                self.emergencies[player] += 1
                return
            raise IllegalAction.of(
                "break_in_game",
                N_("breaks are taken only between games ({law})"),
                law="2.2 (ii)",
            )
        if self.breaks_left(player) > 0:
            self.breaks_taken[player] += 1
            return
        if emergency:
            self.emergencies[player] += 1
            return
        due = breaks_due(self.length, self.best_of_three)
        if self.best_of_three:
            raise IllegalAction.of(
                "no_break_left_series",
                N_(
                    "{player} has no break left: {due} in a match of a best-of-three series "
                    "({law}); only an emergency break ({emergency})"
                ),
                law="2.2 (ii)",
                player=player,
                due=due,
                emergency="2.2 (v)",
            )
        raise IllegalAction.of(
            "no_break_left",
            N_(
                "{player} has no break left: {due} in a {length}-point match ({law}); "
                "only an emergency break ({emergency})"
            ),
            law="2.2 (ii)",
            player=player,
            due=due,
            length=self.length,
            emergency="2.2 (v)",
        )

    # -- inside ------------------------------------------------------------------

    def _known(self, player: str) -> str:
        if player not in self.players:
            raise IllegalAction.of(
                "unknown_player",
                N_("unknown player {player!r} (players: {players})"),
                player=player,
                players=", ".join(self.players),
            )
        return player

    def _answer(self, player: str) -> str:
        self._known(player)
        doubler = self.offered_by
        if doubler is None:
            raise IllegalAction.of("no_double", N_("no double to answer"))
        if doubler == player:
            raise IllegalAction.of(
                "own_double", N_("{player} cannot answer their own double"), player=player
            )
        return doubler

    def _score_game(self, winner: str, points: int) -> None:
        if self.over:
            raise IllegalAction.of("match_over", N_("the match is over"))
        if not self.in_game:
            raise IllegalAction.of("no_game", N_("no game is being played"))
        self.score[winner] += points
        self.games += 1
        if self.game_is_crawford:
            self.post_crawford = True
        self.in_game = False
        self.game_is_crawford = False
        if self.score[winner] >= self.length:
            self.winner, self.won_by = winner, "points"
