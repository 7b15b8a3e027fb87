"""A backgammon match: length, score, cube, Crawford, penalty points, breaks.

Pure state with explicit actions; every refused action raises `IllegalAction`
(a ValueError) and leaves the state unchanged. Sections cited are those of the
tournament rules in shared/seeds/003_d85405b1c0e4c56b.txt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from kiosk.errors import N_, Reason, Refused

Result: TypeAlias = Literal["single", "gammon", "backgammon"]
WonBy: TypeAlias = Literal["points", "penalty", "time", "overrule"]
#: How an absence was counted (2.2 (ii), (v)): one of the player's breaks, or an
#: emergency beyond them.
Absence: TypeAlias = Literal["break", "emergency"]

#: A game won as a single, gammon or backgammon scores the cube's value times 1, 2 or 3.
MULTIPLIER: dict[str, int] = {"single": 1, "gammon": 2, "backgammon": 3}
BREAK_MINUTES = 5  # 2.2 (ii)
LATE_MINUTES = 5  # 2.2 (iv): a penalty point for every five minutes late
CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)  # 4.4 (i): the cube shows 1 ("64") up to 64
#: The lengths the setup screen steps through today. The match itself takes any length of
#: 1 or more: 2.2 (ii) has matches "of 25 points and above".
MATCH_LENGTHS = tuple(range(1, 26))


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
        raise IllegalAction.of(
            "late_negative",
            N_("minutes late must not be negative, not {minutes}"),
            minutes=minutes_late,
        )
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

    For a match taken over in progress (a clock introduced mid-match, 2.3, 3.5 (vi)),
    `penalty` holds the penalty points already awarded (they are in `score` too, and
    count towards the "more than half" rule of 2.2 (iv)) and `breaks_taken` the breaks
    already taken (they count against the allowance of 2.2 (ii)).
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
            raise IllegalAction.of(
                "players_differ",
                N_("a match needs two different players, not {players}"),
                players=" / ".join(self.players),
            )
        if self.length < 1:
            raise IllegalAction.of(
                "length_below_one",
                N_("match length must be at least 1, not {length}"),
                length=self.length,
            )
        for table in (self.score, self.penalty, self.breaks_taken, self.emergencies):
            for p in table:
                self._known(p)
            for p in self.players:
                table.setdefault(p, 0)
        due = breaks_due(self.length, self.best_of_three)
        for p in self.players:
            s = self.score[p]
            if not 0 <= s < self.length:
                raise IllegalAction.of(
                    "score_range",
                    N_("score of {player} must be 0 to {most}, not {score}"),
                    player=p,
                    most=self.length - 1,
                    score=s,
                )
            if not 0 <= self.penalty[p] <= s:
                raise IllegalAction.of(
                    "penalty_in_score",
                    N_(
                        "{player}'s penalty points must be 0 to {score}, the score that "
                        "includes them, not {points} ({law})"
                    ),
                    law="2.2 (iv)",
                    player=p,
                    score=s,
                    points=self.penalty[p],
                )
            if self.penalty[p] * 2 > self.length:
                raise IllegalAction.of(
                    "penalty_already_won",
                    N_(
                        "{player}'s {points} penalty points are more than half of "
                        "{length}: the match is already won ({law})"
                    ),
                    law="2.2 (iv)",
                    player=p,
                    points=self.penalty[p],
                    length=self.length,
                )
            if not 0 <= self.breaks_taken[p] <= due:
                raise IllegalAction.of(
                    "breaks_taken_range",
                    N_(
                        "{player} may have taken 0 to {due} breaks in a {length}-point "
                        "match, not {taken} ({law})"
                    ),
                    law="2.2 (ii)",
                    player=p,
                    due=due,
                    length=self.length,
                    taken=self.breaks_taken[p],
                )
        if self.post_crawford and all(self.needs(p) > 1 for p in self.players):
            # A player one point away stays one away until the match ends.
            raise IllegalAction.of(
                "post_crawford_nobody_one_away",
                N_(
                    "post_crawford, but neither player is one point away: "
                    "the Crawford game cannot have been played ({law})"
                ),
                law="4.4 (iv)",
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

    @property
    def first_game_played(self) -> bool:
        """Whether a game of the match has been played or begun: in this record, or before
        it (a game scores at least a point, so a score beyond the penalty points shows one).
        Before the first game there are no breaks (2.2 (ii): only between games)."""
        if self.games or self.in_game:
            return True
        return any(self.score[p] > self.penalty[p] for p in self.players)

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

    def double_refusal(self, player: str) -> Reason | None:
        """Why `player` may not double now (4.4 (ii)-(vii)), as facts, or None if the double
        is allowed. One message per case names the player, so that each language can put
        the name where its grammar wants it."""
        self._known(player)
        if self.over:
            return Reason.of(
                "double_over", N_("{player} may not double: the match is over"), player=player
            )
        if not self.in_game:
            return Reason.of(
                "double_no_game",
                N_("{player} may not double: no game is being played"),
                player=player,
            )
        if self.game_is_crawford:
            return Reason.of(
                "double_crawford",
                N_("{player} may not double: no cube in the Crawford game ({law})"),
                law="4.4 (iv)",
                player=player,
            )
        if self.offered_by is not None:
            return Reason.of(
                "double_waits",
                N_("{player} may not double: a double by {doubler} waits for an answer"),
                player=player,
                doubler=self.offered_by,
            )
        if self.owner is not None and self.owner != player:
            return Reason.of(
                "double_not_owner",
                N_("{player} may not double: the cube belongs to {owner}"),
                player=player,
                owner=self.owner,
            )
        if self.owner == player and self.cube >= self.needs(player):
            # 4.4 (vii): a cube the player holds whose value already wins him the match is
            # dead. A centred cube is not: the text covers only a cube the player holds.
            return Reason.of(
                "dead_cube",
                N_(
                    "{player} may not double: dead cube: {cube} already wins {player} the "
                    "match ({law})"
                ),
                law="4.4 (vii)",
                player=player,
                cube=self.cube,
            )
        return None

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
        refusal = self.double_refusal(player)
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
            raise IllegalAction.of(
                "result_kind",
                N_("result must be single, gammon or backgammon, not {result}"),
                result=str(result),
            )
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
                raise IllegalAction.of(
                    "points_crawford",
                    N_(
                        "{points} points cannot be scored in the Crawford game: the cube is "
                        "void ({law}), so a game scores 1, 2 or 3"
                    ),
                    law="4.4 (iv)",
                    points=points,
                )
            raise IllegalAction.of(
                "points_impossible",
                N_(
                    "{points} points cannot be scored: a game scores the cube's value "
                    "(1, 2, 4 ... 64, {cube_law}) times 1, 2 or 3 ({law})"
                ),
                law="4.5",
                cube_law="4.4 (i)",
                points=points,
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

    def take_break(self, player: str, emergency: bool = False) -> Absence:
        """`player` leaves the table; returns how it was counted.

        Breaks are taken only between games (2.2 (ii)): none before the first game, none
        during one. Leaving the table is a break (2.2 (ii)), so an emergency absence
        (`emergency`, allowed "notwithstanding any provision to the contrary", during a
        game too) uses one of the player's breaks while one is left; only a player with
        no break left has an emergency break of its own (2.2 (v))."""
        self._known(player)
        if self.over:
            raise IllegalAction.of("match_over", N_("the match is over"))
        if not emergency:
            if self.in_game:
                raise IllegalAction.of(
                    "break_in_game",
                    N_("breaks are taken only between games ({law})"),
                    law="2.2 (ii)",
                )
            if not self.first_game_played:
                raise IllegalAction.of(
                    "break_before_first_game",
                    N_("breaks are taken only between games, not before the first ({law})"),
                    law="2.2 (ii)",
                )
        if self.breaks_left(player) > 0:
            self.breaks_taken[player] += 1
            return "break"
        if emergency:
            self.emergencies[player] += 1
            return "emergency"
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

    def correct_score(self, score: Mapping[str, int]) -> None:
        """The director corrects a scoring error as soon as it is found, even one both
        players agreed to (4.7): the score becomes `score` (both players named).

        The penalty points already awarded stay counted for 2.2 (iv), so neither score may
        fall below its player's penalty points. A game in progress goes on as it began (a
        Crawford game stays one); the Crawford game follows from the corrected score from
        the next game on (4.4 (iv)). A corrected score that reaches the length ends the
        match. The banks do not change (the director may set them)."""
        if self.over:
            raise IllegalAction.of("match_over", N_("the match is over"))
        for p in score:
            self._known(p)
        for p in self.players:
            if p not in score:
                raise IllegalAction.of(
                    "score_names_both",
                    N_("a corrected score names both players: {player} is missing"),
                    player=p,
                )
            if score[p] < self.penalty[p]:
                raise IllegalAction.of(
                    "score_below_penalty",
                    N_(
                        "{player}'s score cannot be {score}: it includes the {points} penalty "
                        "points already awarded ({law})"
                    ),
                    law="2.2 (iv)",
                    player=p,
                    score=score[p],
                    points=self.penalty[p],
                )
        if all(score[p] >= self.length for p in self.players):
            raise IllegalAction.of(
                "score_both_reach",
                N_("both scores cannot reach the match length of {length}"),
                length=self.length,
            )
        for p in self.players:
            self.score[p] = score[p]
        self._crawford_follows()
        for p in self.players:
            if self.score[p] >= self.length:
                self.winner, self.won_by = p, "points"
                self.in_game = False
                self.offered_by = None

    def correct_length(self, length: int) -> None:
        """The match length was entered wrongly: the director corrects it before the next
        game (4.8). Refused during a game (the current game is not affected), after the
        match is over (a match completed at a wrong length stands), and when the correction
        would end the match: a score already reaches the new length, or a player's penalty
        points are more than half of it (then the match goes on at the wrong length).
        The break allowance follows the new length; the banks do not change."""
        if self.over:
            raise IllegalAction.of("match_over", N_("the match is over"))
        if self.in_game:
            raise IllegalAction.of(
                "length_in_game",
                N_("the match length is corrected before the next game, not during one ({law})"),
                law="4.8",
            )
        if length < 1:
            raise IllegalAction.of(
                "length_below_one",
                N_("match length must be at least 1, not {length}"),
                length=length,
            )
        for p in self.players:
            if self.score[p] >= length or self.penalty[p] * 2 > length:
                raise IllegalAction.of(
                    "length_would_end",
                    N_(
                        "a {length}-point match would already be over at {score} for "
                        "{player}: the match goes on at {current} points ({law})"
                    ),
                    law="4.8",
                    length=length,
                    score=self.score[p],
                    player=p,
                    current=self.length,
                )
        self.length = length
        self._crawford_follows()

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

    def _crawford_follows(self) -> None:
        """After a score or length correction: with nobody one point away, no Crawford game
        has been played yet (4.4 (iv): it is the first game at one point away), so the next
        game at one point away is the Crawford game."""
        if self.post_crawford and all(self.needs(p) > 1 for p in self.players):
            self.post_crawford = False

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
        else:
            self._crawford_follows()  # a Crawford game begun before a score correction
