"""Property tests over random legal event sequences (hypothesis).

Candidate events are drawn at random and kept when `Match.push` accepts them;
a refused one must leave the state exactly as it was. After every accepted
event: the 19 coins are accounted for, no board is worth more than the laws
allow (law 55: 12; club rules V i: 9 pieces + 5 for the queen), nothing is
negative, each game score is the sum of its boards, `pop()` undoes `push()`
exactly, and a written record replays to the same state.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import (
    AnyEvent,
    Coin,
    Concede,
    Event,
    ForfeitBoard,
    Foul,
    MatchStart,
    Pass,
    Protest,
    ProtestDecided,
    RuleSet,
    Stroke,
    Toss,
    VoidBoard,
    Waive,
)
from kiosk.rules.carrom.match import Match
from kiosk.rules.carrom.record import parse_record, replay, write_record
from kiosk.rules.carrom.state import MatchState

NAMES = ("Asha", "Bina", "Chitra", "Dev")
SETTINGS_LIGHT = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def match_starts(draw: st.DrawFn) -> MatchStart:
    players = NAMES[: draw(st.sampled_from((2, 4)))]
    rules: RuleSet = draw(st.sampled_from(("icf", "club")))
    limit = draw(st.sampled_from((8, 8, None))) if rules == "icf" else 8
    return MatchStart(rules, players, draw(st.sampled_from(players)), limit)


@dataclass
class Tally:
    accepted: int = 0
    refused: int = 0


def candidate(draw: st.DrawFn, match: Match) -> Event:
    """One event that may or may not be legal now, biased towards strokes that pocket; once
    play is over (a protest waits), only protests and decisions."""
    state = match.state
    players = list(state.players)
    if state.now is None:
        kind = draw(st.sampled_from(["protest", "decide", "decide"]))
    else:
        kind = draw(
            st.sampled_from(
                # Forfeits, voids, concessions and protests are rare: most boards run long.
                ["stroke"] * 30
                + ["foul", "foul", "waive", "pass", "pass", "pass", "void", "forfeit", "toss"]
                + ["protest", "decide"]
                + (["concede"] if draw(st.integers(0, 19)) == 0 else [])
            )
        )
    if kind == "protest":
        game = draw(st.integers(1, len(state.games) + 1))
        boards = len(state.games[game - 1].boards) if game <= len(state.games) else 0
        return Protest(
            by=draw(st.sampled_from(players)), board=(game, draw(st.integers(1, boards + 1)))
        )
    if kind == "decide":
        waiting = [p.board for p in state.protests if p.decision is None]
        board = draw(st.sampled_from(waiting)) if waiting and draw(st.integers(0, 5)) else (1, 1)
        return ProtestDecided(board=board, upheld=draw(st.booleans()))
    assert state.now is not None
    on = state.now.on_board
    if kind == "stroke":
        # Now and then more than is on the board: the core must refuse it.
        extra = draw(st.sampled_from((0,) * 19 + (1,)))
        white = draw(st.integers(0, min(int(on["white"]), 3) + extra) | st.just(int(on["white"])))
        black = draw(st.integers(0, min(int(on["black"]), 3) + extra) | st.just(int(on["black"])))
        queen = bool(on["queen"]) and draw(st.integers(0, 3)) == 0
        whites: list[Coin] = ["white"] * white
        blacks: list[Coin] = ["black"] * black
        queens: list[Coin] = ["queen"] * queen
        coins = whites + blacks + queens
        coins = draw(st.permutations(coins))
        return Stroke(
            pocketed=tuple(coins),
            striker=draw(st.integers(0, 7)) == 0,
            off_board=tuple(
                draw(st.lists(st.sampled_from(("white", "black", "queen", "striker")), max_size=1))
            )
            if draw(st.integers(0, 9)) == 0
            else (),
            improper=draw(st.integers(0, 11)) == 0,
            touched=draw(st.integers(0, 9)) != 0,
        )
    by = draw(st.sampled_from(players))
    if kind == "foul":
        return Foul(by=draw(st.none() | st.just(by)))
    if kind == "waive":
        return Waive(by=by)
    if kind == "pass":
        return Pass()
    if kind == "void":
        return VoidBoard()
    if kind == "forfeit":
        return ForfeitBoard(by=by)
    if kind == "toss":
        return Toss(winner=by)
    return Concede(by=by)


def check_invariants(state: MatchState) -> None:
    cap = 12 if state.rules == "icf" else 14
    for game in state.games:
        scored = dict.fromkeys(state.sides, 0)
        for board in game.boards:
            assert 0 <= board.points <= cap, board
            if board.void or board.winner is None:
                assert board.points == 0, board
            else:
                assert board.winner in state.sides
                scored[board.winner] += board.points
        assert game.points == scored, game
    # Laws 150, 151: no result is declared while a protest waits; an upheld one sets its
    # boards aside (void, no points).
    won = state.provisional_winner
    assert state.winner == (None if state.protest_pending else won)
    for game in state.games:
        for board in game.boards:
            assert board.protest != "upheld" or (board.void and board.points == 0), board
    now = state.now
    if won is not None:
        assert now is None
        return
    assert now is not None
    # The 19 coins: each colour is on the board or in its side's pockets; the queen once.
    white, black = now.white, now.black
    assert {white, black} == set(state.sides)
    assert now.on_board["white"] + now.pocketed[white] == 9, now
    assert now.on_board["black"] + now.pocketed[black] == 9, now
    assert now.on_board["queen"] == (now.queen == "on_board"), now
    assert (now.queen_by is None) == (now.queen == "on_board"), now
    for side in state.sides:
        assert now.pocketed[side] >= 0
        assert now.owed[side] >= 0
        # Laws 78 a, 81, 83 (RULES.md): a due is owed only while nothing can pay it,
        # except by the side at turn in doubles (78 b i) or under club rules (IV iii),
        # whose owed coins are placed when the turn ends.
        waits = (len(state.players) == 4 or state.rules == "club") and side == now.turn_side
        assert now.owed[side] == 0 or now.pocketed[side] == 0 or waits, now
    # Law 45 a-b: three attempts a player, his own (a foul that ends the turn starts the
    # count again); the board's count runs on over the players who break.
    assert now.break_attempts >= 0 and 0 <= now.break_attempts_in_turn < 3
    assert now.break_attempts_in_turn <= (now.break_attempts if now.is_break else 0)
    # Laws 58-60: a change of sides is due only before a board has begun.
    assert state.change_sides == now.change_sides
    if now.change_sides:
        assert state.change_sides_law in ("58", "59", "60 a", "60 b")
        # ... and the board in `now` has not begun: it is not among the games' boards yet.
        begun = state.games[now.game - 1].boards if now.game <= len(state.games) else ()
        assert now.board == len(begun) + 1, now
        # The last board played (not set aside by a protest) called for it.
        played = [b for g in state.games[: now.game] for b in g.boards if b.protest != "upheld"]
        assert played[-1].change_sides, now
    assert now.turn in state.players and now.breaker in state.players


@st.composite
def legal_matches(draw: st.DrawFn) -> tuple[Match, list[Event], MatchStart, Tally]:
    """A match built from accepted candidates: the match, its events, its start."""
    start = draw(match_starts())
    match = Match(start)
    events: list[Event] = []
    tally = Tally()
    for _ in range(draw(st.integers(1, 150))):
        if match.state.winner is not None:  # declared: nothing follows
            break
        event = candidate(draw, match)
        before = match.state
        try:
            match.push(event)
        except IllegalEvent:
            tally.refused += 1
            assert match.state == before, f"{event} was refused but changed the state"
            continue
        tally.accepted += 1
        events.append(event)
    return match, events, start, tally


@SETTINGS
@given(legal_matches())
def test_properties_invariants_hold_after_every_event(
    built: tuple[Match, list[Event], MatchStart, Tally],
) -> None:
    _, events, start, _ = built
    match = Match(start)
    check_invariants(match.state)
    for event in events:
        match.push(event)
        check_invariants(match.state)


@SETTINGS_LIGHT
@given(legal_matches())
def test_properties_pop_after_push_restores_the_state(
    built: tuple[Match, list[Event], MatchStart, Tally],
) -> None:
    _, events, start, _ = built
    match = Match(start)
    states = [match.state]
    for event in events:
        match.push(event)
        states.append(match.state)
    assert tuple(match.events) == tuple(events)
    for event in reversed(events):
        states.pop()
        assert match.pop() == event
        assert match.state == states[-1]
    assert match.events == ()


@SETTINGS_LIGHT
@given(legal_matches())
def test_properties_written_record_replays_to_the_same_state(
    built: tuple[Match, list[Event], MatchStart, Tally],
) -> None:
    match, events, start, _ = built
    record: list[AnyEvent] = [start, *events]
    parsed = parse_record(write_record(record))
    assert parsed == record
    assert replay(parsed).state == match.state
