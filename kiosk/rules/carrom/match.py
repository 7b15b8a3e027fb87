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

import math
from collections.abc import Iterable, Sequence
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
    Protest,
    ProtestDecided,
    Stroke,
    Toss,
    VoidBoard,
    Waive,
)
from kiosk.rules.carrom.state import (
    BoardResult,
    Ending,
    GameResult,
    MatchState,
    Now,
    Outcome,
    ProtestState,
)
from kiosk.rules.carrom.variants import rules_for

__all__ = ["PROTEST_WITHIN_S", "IllegalEvent", "Match"]

#: A protest comes within 15 minutes of its board's end (law 146).
PROTEST_WITHIN_S = 900.0


class Match:
    """One carrom match from its first line (`MatchStart`) on.

    Raises IllegalEvent (a ValueError) for a start the laws cannot play: not 2
    or 4 players, a name twice, a first breaker who does not play, an unknown
    rule set, a board limit below 1.
    """

    def __init__(self, start: MatchStart) -> None:
        players = tuple(start.players)
        if len(players) not in (2, 4):
            raise IllegalEvent.of(
                "player_count", N_("a match has 2 or 4 players, not {n}"), n=len(players)
            )
        if len(set(players)) != len(players):
            raise IllegalEvent.of(
                "player_twice", N_("a player is named twice: {names}"), names=", ".join(players)
            )
        if start.first_break not in players:
            raise IllegalEvent.of(
                "breaker_not_playing",
                N_("the first breaker {name!r} is not a player ({known})"),
                name=start.first_break,
                known=", ".join(players),
            )
        self.rules = rules_for(start.rules)
        limit = start.board_limit if start.rules == "icf" else None
        if limit is not None and limit < 1:
            raise IllegalEvent.of(
                "bad_board_limit", N_("the board limit must be 1 or more, not {n}"), n=limit
            )
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
        """Play is over: the match was won on the board (its result may still wait for a
        protest's decision, law 150: `state.winner` says when it is declared)."""
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
        c.t = event.t
        if isinstance(event, Protest | ProtestDecided):
            # Protests come at any time, after play is over too (146, 150, 151).
            c.calls = []
            c.outcome = Outcome(match=c.outcome.match if c.winner != NO_ONE else None)
            if isinstance(event, Protest):
                self._protest(event)
            else:
                self._decide(event)
            return
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
        is over (made, or missed: 60 c leaves that to the umpire at the board's end). The
        board's first event is remembered: an upheld protest goes back to it (151 a)."""
        c = self._core
        if not c.began:
            c.starts = (*c.starts, (c.game, len(c.boards) + 1, len(self._events)))
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
        ending = Ending(c.side_names[c.winner], c.games_won[c.winner], "139", N_("conceded"))
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
        # A game that an upheld protest set aside keeps its boards first (151 a).
        c.boards, c.ahead = (c.ahead[0], c.ahead[1:]) if c.ahead else ((), ())
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

    # -- protests (laws 144-151) -----------------------------------------------

    def _boards_by_game(self) -> list[tuple[BoardResult, ...]]:
        """Every board begun, a tuple a game (index 0: game 1), the board in progress and
        the games an upheld protest set aside included: what `[game, board]` counts."""
        c = self._core
        games = [game.boards for game in c.done_games]
        if c.boards or c.began:  # the game in play (after a concession too: 139, 143)
            games.append((*c.boards, c.board_result()) if c.began else c.boards)
        games.extend(c.ahead)
        return games

    def protestable(self, t: float | None = None) -> tuple[tuple[int, int], ...]:
        """The boards a protest lodged at `t` may name now, as `(game, board)`, oldest first:
        begun, not set aside, without a protest, within 15 minutes of their end (144-149)."""
        return tuple(
            (g, b)
            for g, boards in enumerate(self._boards_by_game(), start=1)
            for b in range(1, len(boards) + 1)
            if self.protest_refusal((g, b), t) is None
        )

    def protest_refusal(
        self, board: tuple[int, int], t: float | None = None
    ) -> IllegalEvent | None:
        """Why a protest lodged at `t` against `board` = (game, board) would be refused (laws
        144, 146, 149, 151 a), or None; its `reason` holds the code, the law and the facts."""
        game, number = board
        games = self._boards_by_game()
        if not (1 <= game <= len(games) and 1 <= number <= len(games[game - 1])):
            return IllegalEvent.of(
                "protest_no_board",
                N_("board {board} of game {game} has not begun: there is nothing to protest"),
                law="144",
                game=game,
                board=number,
            )
        found = games[game - 1][number - 1]
        if any(p.board == board for p in self._core.protests):
            return IllegalEvent.of(
                "protest_twice",
                N_(
                    "board {board} of game {game} already has a protest: a protest is not "
                    "lodged twice or withdrawn (law {law})"
                ),
                law="149",
                game=game,
                board=number,
            )
        if found.protest == "upheld":
            return IllegalEvent.of(
                "protest_set_aside",
                N_(
                    "board {board} of game {game} was set aside by an upheld protest: "
                    "it is played again (law {law})"
                ),
                law="151 a",
                game=game,
                board=number,
            )
        if t is not None and found.ended is not None and t - found.ended > PROTEST_WITHIN_S:
            return IllegalEvent.of(
                "protest_too_late",
                N_(
                    "board {board} of game {game} ended {minutes} minutes ago: a protest is "
                    "lodged within 15 minutes (law {law})"
                ),
                law="146",
                game=game,
                board=number,
                minutes=math.ceil((t - found.ended) / 60),
            )
        return None

    def _protest(self, event: Protest) -> None:
        """Laws 144-149: a protest against a board begun, once (149), within 15 minutes of
        the board's end when both are timed (146). Play goes on; no result is declared
        while it waits (150)."""
        c = self._core
        side = c.side(self._player(event.by, N_("the protesting player")))
        refused = self.protest_refusal(event.board, event.t)
        if refused is not None:
            raise refused
        game, number = event.board
        name = c.side_names[side]
        c.protests = (*c.protests, ProtestState(name, event.board, None, event.t))
        c.call("protest_lodged", "150", name=name, game=game, board=number)

    def _decide(self, event: ProtestDecided) -> None:
        """Law 151: rejected, the result stands and is declared once no protest waits (b);
        upheld, play goes back to the start of the protested board (a)."""
        c = self._core
        game, number = event.board
        waiting = [i for i, p in enumerate(c.protests) if p.board == event.board]
        if not waiting or c.protests[waiting[0]].decision is not None:
            raise IllegalEvent.of(
                "no_protest_to_decide",
                N_("there is no undecided protest against board {board} of game {game}"),
                law="151",
                game=game,
                board=number,
            )
        index = waiting[0]
        if event.upheld:
            self._uphold(index)
            return
        protests = list(c.protests)
        protests[index] = replace(protests[index], decision="rejected")
        c.protests = tuple(protests)
        c.call("protest_rejected", "151 b", game=game, board=number)
        if c.winner != NO_ONE and all(p.decision is not None for p in c.protests):
            c.call("result_declared", "151 b", name=c.side_names[c.winner])

    def _uphold(self, index: int) -> None:
        """151 a: the protested board and every board begun after it are set aside (kept,
        void, "upheld"); the match goes back to the state before the board's first event,
        so the scores are worked out without them, and the same breaker plays it again. A
        protest waiting against a board set aside is settled with it: that board is played
        again too."""
        c = self._core
        game, number = c.protests[index].board
        games = self._boards_by_game()
        first = next(k for g, b, k in c.starts if (g, b) == (game, number))
        aside = {(game, b) for b in range(number, len(games[game - 1]) + 1)}
        for g in range(game + 1, len(games) + 1):
            aside |= {(g, b) for b in range(1, len(games[g - 1]) + 1)}
        protests = tuple(
            replace(p, decision="upheld") if p.decision is None and p.board in aside else p
            for p in c.protests
        )
        keep = (c.protests, c.starts, c.t)
        c.restore(self._undo[first])
        c.protests, c.starts, c.t = keep
        c.protests = protests
        c.boards = (*games[game - 1][: number - 1], *_set_aside(games[game - 1][number - 1 :]))
        c.ahead = tuple(_set_aside(boards) for boards in games[game:])
        c.calls = []
        c.clear_placing()
        c.change_sides = ""  # the players sit as they sat for this board; the umpire sees to it
        c.outcome = Outcome(board=Ending(None, 0, "151 a", "protest upheld"))
        c.call("protest_upheld", "151 a", game=game, board=number, n=len(aside))

    # -- the frozen state ------------------------------------------------------

    def _build(self) -> MatchState:
        c = self._core
        sides = c.side_names
        key: tuple[object, ...] = (c.done_games, c.boards, c.began, c.queen, c.queen_by)
        key += (c.breaker, *c.points, c.protests, c.ahead)
        if key != self._games_key:  # the games change only when a board does
            games = c.done_games
            if c.boards or c.began:
                boards = (*c.boards, c.board_result()) if c.began else c.boards
                points = {sides[0]: c.points[0], sides[1]: c.points[1]}
                games = (*games, GameResult(None, points, boards))
            zero = {sides[0]: 0, sides[1]: 0}
            games += tuple(GameResult(None, zero, boards) for boards in c.ahead)
            if c.protests:
                games = _marked(games, c.protests)
            self._games_key, self._games = key, games
        won = None if c.winner == NO_ONE else sides[c.winner]
        waiting = any(p.decision is None for p in c.protests)
        return MatchState(
            rules=self.rules.name,
            sides=sides,
            winner=None if waiting else won,
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
            protests=c.protests,
            provisional_winner=won,
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


def _set_aside(boards: Sequence[BoardResult]) -> tuple[BoardResult, ...]:
    """Boards an upheld protest sets aside (151 a): kept, void, without a result."""
    return tuple(
        replace(
            b,
            winner=None,
            points=0,
            queen=None,
            void=True,
            law="151 a",
            protest="upheld",
            change_sides=None,
        )
        for b in boards
    )


def _marked(
    games: tuple[GameResult, ...], protests: tuple[ProtestState, ...]
) -> tuple[GameResult, ...]:
    """The games with each protested board marked "pending", "upheld" or "rejected" (a board
    set aside stays "upheld")."""
    marks = {p.board: p.decision or "pending" for p in protests}
    out = []
    for g, game in enumerate(games, start=1):
        boards = tuple(
            replace(board, protest=marks[(g, b)])
            if (g, b) in marks and board.protest is None
            else board
            for b, board in enumerate(game.boards, start=1)
        )
        out.append(replace(game, boards=boards))
    return tuple(out)
