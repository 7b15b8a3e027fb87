"""A carrom match: the state plus the stack of events that built it.

Like python-chess's board: `push(event)` applies an event, `pop()` undoes the
last one from a saved snapshot, `state` is a frozen `MatchState` for screens
and records, `outcome()` says what the last event ended. Which rules apply
(ICF laws or club rules) is a profile found by name (variants.py).

>>> from kiosk.rules.carrom.events import MatchStart, Stroke
>>> match = Match(MatchStart("icf", ("Asha", "Bina"), "Asha"))
>>> match.push(Stroke(pocketed=("white",)))
>>> match.state.now.turn, match.state.now.on_board["white"]
('Asha', 8)
>>> match.push(Stroke())
>>> match.state.now.turn
'Bina'
>>> match.pop()
Stroke(pocketed=(), striker=False, off_board=(), improper=False, touched=True, t=None)
>>> match.state.now.turn
'Asha'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from kiosk.rules.carrom.checks import check_stroke
from kiosk.rules.carrom.core import COLOUR_NAMES, NO_ONE, Core, Decided
from kiosk.rules.carrom.errors import N_, IllegalEvent, worded
from kiosk.rules.carrom.events import (
    Concede,
    Event,
    ForfeitBoard,
    Foul,
    MatchStart,
    Pass,
    Stroke,
    Toss,
    VoidBoard,
    Waive,
)
from kiosk.rules.carrom.state import Ending, GameResult, MatchState, Now, Outcome
from kiosk.rules.carrom.variants import rules_for

__all__ = ["IllegalEvent", "Match"]


class Match:
    """One carrom match from its first line (`MatchStart`) on.

    Raises IllegalEvent (a ValueError) for a start the laws cannot play: not 2
    or 4 players, a name twice, a first breaker who does not play, an unknown
    rule set, a board limit below 1.
    """

    def __init__(self, start: MatchStart) -> None:
        players = tuple(start.players)
        if len(players) not in (2, 4):
            raise IllegalEvent(f"a match has 2 or 4 players, not {len(players)}")
        if len(set(players)) != len(players):
            raise IllegalEvent(f"a player is named twice: {', '.join(players)}")
        if start.first_break not in players:
            raise IllegalEvent(
                f"the first breaker {start.first_break!r} is not a player ({', '.join(players)})"
            )
        self.rules = rules_for(start.rules)
        limit = start.board_limit if start.rules == "icf" else None
        if limit is not None and limit < 1:
            raise IllegalEvent(f"the board limit must be 1 or more, not {limit}")
        self.start = start
        self._limit = limit
        self._index = {name: i for i, name in enumerate(players)}
        self._first = self._index[start.first_break]
        at_once, turn_end_law = self.rules.owed_timing(len(players))
        self._core = Core(players, self._first, owed_at_once=at_once, turn_end_law=turn_end_law)
        self._events: list[Event] = []
        self._undo: list[tuple[object, ...]] = []
        self._state: MatchState | None = None
        self._games_key: tuple[object, ...] = ()
        self._games: tuple[GameResult, ...] = ()

    # -- the public face -----------------------------------------------------

    @property
    def events(self) -> tuple[Event, ...]:
        """The events pushed so far, oldest first (the `MatchStart` is `start`)."""
        return tuple(self._events)

    @property
    def state(self) -> MatchState:
        """The match now, as a frozen record (built once per change)."""
        if self._state is None:
            self._state = self._build()
        return self._state

    def push(self, event: Event) -> None:
        """Apply `event`; IllegalEvent says why it cannot be, and nothing changes."""
        core = self._core
        saved = core.snapshot()
        try:
            self._apply(event)
        except BaseException:
            core.restore(saved)
            raise
        self._undo.append(saved)
        self._events.append(event)
        self._state = None

    def push_all(self, events: Iterable[Event]) -> None:
        for event in events:
            self.push(event)

    def pop(self) -> Event:
        """Undo the last event and return it; the state is exactly what it was before it."""
        if not self._events:
            raise IndexError("no event to undo: the match has just started")
        self._core.restore(self._undo.pop())
        self._state = None
        return self._events.pop()

    def outcome(self) -> Outcome:
        """What the last event ended: a board, a game, the match.

        The checks run in this order, each only if the one before did not end
        the match: (1) the match conceded or lost for indiscipline (laws 139,
        143); (2) the board: forfeited (51, 91, 121, 126), void (137, 140, 142),
        a last-coin ending (102-112), a plain win (52 a; club V i); (3) the game
        the board belonged to: 25 points, else the side ahead after the board
        limit, a tie there waiting for a toss (56); club: 15 points, or ahead
        after three rounds (V ii); (4) the match: two games won (57), or the club
        game won. `match` stays set once the match is over.
        """
        return self._core.outcome

    def is_over(self) -> bool:
        return self._core.winner != NO_ONE

    # -- applying events -----------------------------------------------------

    def _player(self, name: str, role: str) -> int:
        index = self._index.get(name)
        if index is None:
            known = ", ".join(self.start.players)
            raise IllegalEvent.of(
                "not_a_player",
                N_("{role} {name!r} is not a player of this match ({known})"),
                role=worded(role),
                name=name,
                known=known,
            )
        return index

    def _apply(self, event: Event) -> None:
        c = self._core
        if c.winner != NO_ONE:
            raise IllegalEvent.of(
                "match_over",
                N_("the match is over ({winner} won): no event may follow"),
                winner=c.side_names[c.winner],
            )
        placed_before = c.placing
        c.calls = []
        c.outcome = Outcome()
        c.clear_placing()
        if isinstance(event, Concede):
            self._concede(self._player(event.by, N_("the conceding player")))
            return
        if isinstance(event, Toss):
            self._toss(self._player(event.winner, N_("the toss winner")))
            return
        if c.toss_due:
            raise IllegalEvent.of(
                "toss_due",
                N_("a toss is due first: the game is level at the board limit (law {law})"),
                law="56 b",
            )
        if isinstance(event, Stroke):
            check_stroke(self._core, event)
            self._begin()
            c.passes = 0
            decided = self.rules.stroke(c, event) if c.broken else self.rules.break_stroke(c, event)
            if decided is not None:
                self._finish(decided)
        elif isinstance(event, Foul):
            player = c.turn if event.by is None else self._player(event.by, N_("the foul's player"))
            self._begin()
            self.rules.foul(c, player)
        elif isinstance(event, Waive):
            self._waive(event, placed_before)
        elif isinstance(event, Pass):
            if not c.broken:
                raise IllegalEvent.of(
                    "break_not_passed",
                    N_("the break cannot be passed: the breaker must strike (law {law})"),
                    law="46",
                )
            self._begin()
            c.passes += 1
            c.call("passes", name=c.names[c.turn])
            c.pass_turn()
            if c.passes >= 3 * c.n:
                c.void_board("137", "every player passed three times in a row")
                c.call("passes_void", "137")
        elif isinstance(event, VoidBoard):
            if not c.began:
                raise IllegalEvent.of(
                    "nothing_to_void", N_("no board is in progress: there is nothing to void")
                )
            c.void_board("140", "voided by the umpire")
            c.call("board_voided", "137, 140, 142")
        elif isinstance(event, ForfeitBoard):
            loser = c.side(self._player(event.by, N_("the forfeiting player")))
            self._begin()
            self._finish(self.rules.forfeit(c, loser))
        else:  # pragma: no cover - the Event union is exhausted above
            raise IllegalEvent(f"unknown event {event!r}")

    def _begin(self) -> None:
        """The event belongs to the board in progress: any change of sides due before it
        is over (made, or missed: 60 c leaves that to the umpire at the board's end)."""
        c = self._core
        c.began = True
        c.change_sides = ""

    def _waive(self, event: Waive, placed_before: list[int]) -> None:
        """Law 87 a: the placing side gives up all the opponent's dues and penalties."""
        c = self._core
        if event.by is not None:
            debtors = [1 - c.side(self._player(event.by, N_("the waiving player")))]
        else:
            debtors = [s for s in (1 - c.side(c.turn), c.side(c.turn)) if c.owed[s]]
            debtors += [s for s in (0, 1) if placed_before[s] and s not in debtors]
        for debtor in debtors[:1]:
            waived = placed_before[debtor] + c.owed[debtor]
            if waived:
                c.on[c.colour(debtor)] -= placed_before[debtor]
                c.owed[debtor] = 0
                c.call("waived", "87 a", name=c.side_names[1 - debtor], n=waived)
                return
        if not debtors:
            raise IllegalEvent.of(
                "nothing_to_waive_at_all",
                N_("nothing to waive: no side owes nothing and has nothing to place"),
            )
        raise IllegalEvent.of(
            "nothing_to_waive",
            N_("nothing to waive: {side} owes nothing and has nothing to place"),
            side=c.side_names[debtors[0]],
        )

    def _toss(self, winner: int) -> None:
        c = self._core
        if not c.toss_due:
            raise IllegalEvent.of(
                "no_toss_due", N_("no toss is due: a toss only settles a tie at the board limit")
            )
        c.toss_due = False
        c.toss_breaker = winner
        c.new_board(winner)
        c.call("toss_won", "56 b", name=c.names[winner])

    def _concede(self, player: int) -> None:
        c = self._core
        loser = c.side(player)
        c.winner = 1 - loser
        ending = Ending(c.side_names[c.winner], c.games_won[c.winner], "139", "conceded")
        c.outcome = Outcome(match=ending)
        c.call("conceded", "139, 143", name=c.side_names[loser])

    def _finish(self, decided: Decided) -> None:
        """Close the board, then the game and the match if it ended them (laws 52-60)."""
        c = self._core
        rules = self.rules
        side = c.side_names[decided.winner]
        board = Ending(side, decided.points, decided.law, decided.reason)
        c.end_board(board, decided.winner, decided.points)
        c.call("board_won", decided.law, name=side, n=decided.points)
        c.toss_breaker = NO_ONE
        game = rules.game_over(c, self._limit)
        if game is None:
            if rules.sides_change_mid_game(c, self._limit):
                c.changed_mid_game = True
                self._change_sides("60 a" if self._limit is not None else "60 b")
                c.call("change_sides_now", c.change_sides)
            c.new_board(rules.next_breaker(c) if not c.toss_due else c.breaker)
            return
        winner = c.side_names.index(game.winner) if game.winner else NO_ONE
        c.games_won[winner] += 1
        matched = rules.match_over(c)
        if matched is None:
            self._change_sides("58" if c.n == 2 else "59")
        c.done_games = (*c.done_games, c.game_result(winner))
        c.outcome = Outcome(board=board, game=game, match=matched)
        if matched is not None:
            c.winner = winner
            c.boards = ()
            c.began = False
            c.call("match_won", matched.law, name=matched.winner)
            return
        c.game += 1
        c.game_first = rules.game_first_breaker(c, self._first)
        c.counted = 0
        c.points = [0, 0]
        c.boards = ()
        c.changed_mid_game = False
        code = "game_won" if c.n == 2 else "game_won_doubles"
        c.call(code, game.law, name=game.winner, n=c.game - 1)
        c.new_board(c.game_first)

    def _change_sides(self, law: str) -> None:
        """The players change sides before the next board (58 singles, 59 doubles, after
        a game; 60 a, 60 b in the third game), marked on the board that called for it."""
        c = self._core
        c.change_sides = law
        *before, last = c.boards
        c.boards = (*before, replace(last, change_sides=law))

    # -- the frozen state ------------------------------------------------------

    def _build(self) -> MatchState:
        c = self._core
        sides = c.side_names
        key = (c.done_games, c.boards, c.began, c.queen, c.queen_by, c.breaker, *c.points)
        if key != self._games_key:  # the games change only when a board does
            games = c.done_games
            if c.boards or c.began:
                boards = (*c.boards, c.board_result()) if c.began else c.boards
                points = {sides[0]: c.points[0], sides[1]: c.points[1]}
                games = (*games, GameResult(None, points, boards))
            self._games_key, self._games = key, games
        return MatchState(
            rules=self.rules.name,
            sides=sides,
            winner=None if c.winner == NO_ONE else sides[c.winner],
            games=self._games,
            now=None if c.winner != NO_ONE else self._now(),
            players=c.names,
            board_limit=self._limit,
            games_won={sides[0]: c.games_won[0], sides[1]: c.games_won[1]},
            toss_due=c.toss_due,
            change_sides=bool(c.change_sides) and c.winner == NO_ONE,
            calls=tuple(c.calls),
            score={sides[0]: c.points[0], sides[1]: c.points[1]},
            change_sides_law=c.change_sides or None if c.winner == NO_ONE else None,
        )

    def _now(self) -> Now:
        c = self._core
        sides = c.side_names
        a, b = sides
        white = c.white
        return Now(
            game=c.game,
            board=len(c.boards) + 1,
            breaker=c.names[c.breaker],
            turn=c.names[c.turn],
            white=sides[white],
            on_board={"white": c.on[0], "black": c.on[1], "queen": c.queen_on},
            queen=c.queen,
            queen_by=None if c.queen_by == NO_ONE else sides[c.queen_by],
            owed={a: c.owed[0], b: c.owed[1]},
            break_attempts=c.break_attempts,
            change_sides=bool(c.change_sides),
            turn_side=sides[c.side(c.turn)],
            black=sides[1 - white],
            colours={a: COLOUR_NAMES[c.colour(0)], b: COLOUR_NAMES[c.colour(1)]},
            pocketed={a: c.in_pockets(0), b: c.in_pockets(1)},
            placing={a: c.placing[0], b: c.placing[1]},
            placer=None if c.placer == NO_ONE else c.names[c.placer],
            is_break=not c.broken,
            break_attempts_in_turn=0 if c.broken else c.breaks_in_turn,
            strokes_in_turn=c.strokes_in_turn,
            passes=c.passes,
            opened={a: c.opened[0], b: c.opened[1]},
        )
