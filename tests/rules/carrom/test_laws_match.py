"""Laws 137-143 and the match as a whole: void boards, illegal events, undo, outcome."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_h

from kiosk.rules.carrom import IllegalEvent, Match, MatchState
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

from .helpers import B, Q, W, singles, st, win_board


def test_law_137_three_rounds_of_passes_void_the_board() -> None:
    m = singles()
    m.push(st(W))
    m.push(st())  # Bina at turn
    for _ in range(5):
        m.push(Pass())
    assert m.state.now is not None and m.state.now.passes == 5
    m.push(Pass())
    now = m.state.now
    assert now is not None and now.breaker == "Asha" and now.is_break and now.board == 2
    board = m.state.games[0].boards[0]
    assert board.void and board.winner is None and board.law == "137"


def test_law_137_a_stroke_breaks_the_run_of_passes() -> None:
    m = singles()
    m.push(st())
    for _ in range(5):
        m.push(Pass())
    m.push(st())
    assert m.state.now is not None and m.state.now.passes == 0
    m.push(Pass())
    assert len(m.state.games[0].boards) == 1 and not m.state.games[0].boards[0].void


def test_law_137_doubles_needs_twelve_passes() -> None:
    m = Match(MatchStart("icf", ("Asha", "Bina", "Chitra", "Dev"), "Asha"))
    m.push(st())
    for _ in range(11):
        m.push(Pass())
    assert not m.state.games[0].boards[0].void
    m.push(Pass())
    assert m.state.games[0].boards[0].void


def test_law_140_the_umpire_voids_the_board_and_the_breaker_replays_it() -> None:
    m = singles()
    win_board(m, "Asha")
    m.push(st(B))  # Bina breaks board 2
    m.push(VoidBoard())
    state = m.state
    assert state.now is not None and state.now.breaker == "Bina" and state.now.board == 3
    assert [b.void for b in state.games[0].boards] == [False, True]
    assert m.outcome().board is not None and m.outcome().board.winner is None  # type: ignore[union-attr]


def test_law_142_nothing_to_void_before_the_board_begins() -> None:
    m = singles()
    with pytest.raises(IllegalEvent, match="nothing to void"):
        m.push(VoidBoard())


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        (Foul(by="Zed"), "'Zed' is not a player of this match"),
        (Waive(by="Zed"), "not a player"),
        (ForfeitBoard(by="Zed"), "not a player"),
        (Concede(by="Zed"), "not a player"),
        (Toss(winner="Asha"), "no toss is due"),
        (Stroke(pocketed=("queen", "queen")), "queen"),
        (Stroke(pocketed=("white",) * 10), "10 white coin"),
        (Stroke(pocketed=("black",), off_board=("black",) * 9), "only 9 black"),
    ],
)
def test_match_illegal_events_leave_the_state_unchanged(event: Event, reason: str) -> None:
    m = singles()
    m.push(st(W, W))
    before = m.state
    with pytest.raises(IllegalEvent, match=reason):
        m.push(event)
    assert m.state == before and len(m.events) == 1


def test_match_the_queen_cannot_be_pocketed_twice() -> None:
    m = singles()
    m.push(st(W))
    m.push(st(Q, W))
    with pytest.raises(IllegalEvent, match="queen is not on the board"):
        m.push(st(Q))


@pytest.mark.parametrize(
    ("start", "reason"),
    [
        (MatchStart("icf", ("Asha", "Bina", "Chitra"), "Asha"), "2 or 4 players"),
        (MatchStart("icf", ("Asha", "Asha"), "Asha"), "named twice"),
        (MatchStart("icf", ("Asha", "Bina"), "Zed"), "'Zed' is not a player"),
        (MatchStart("pool", ("Asha", "Bina"), "Asha"), "unknown rule set 'pool'"),  # type: ignore[arg-type]
        (MatchStart("icf", ("Asha", "Bina"), "Asha", 0), "board limit"),
    ],
)
def test_match_bad_start_is_refused(start: MatchStart, reason: str) -> None:
    with pytest.raises(IllegalEvent, match=reason):
        Match(start)


SCRIPT: list[Event] = [
    st(W, W),
    st(Q),
    st(W, striker=True),
    st(W),
    st(),
    st(striker=True),
    Foul(by="Asha"),
    st(B, B, B),
    Waive(by="Bina"),
    st(B, improper=True),
    st(*[W] * 5),
    Pass(),
    st(B),
    st(Q, B),
    st(*[B] * 5),
    st(W),
    ForfeitBoard(by="Asha"),
    st(touched=False),
    VoidBoard(),
    st(),
    Concede(by="Bina"),
]


def _play_script(m: Match) -> list[MatchState]:
    states = [m.state]
    for event in SCRIPT:
        try:
            m.push(event)
        except IllegalEvent:
            continue
        states.append(m.state)
    return states


def test_match_pop_restores_every_earlier_state_exactly() -> None:
    m = singles()
    states = _play_script(m)
    assert len(states) > 15
    assert m.state.winner == "Asha"
    while m.events:
        states.pop()
        m.pop()
        assert m.state == states[-1]
    with pytest.raises(IndexError, match="no event to undo"):
        m.pop()


def test_match_replaying_after_undo_gives_the_same_states() -> None:
    first = _play_script(singles())
    m = singles()
    _play_script(m)
    while m.events:
        m.pop()
    assert _play_script(m) == first


def test_match_outcome_reports_what_the_last_event_ended() -> None:
    m = singles()
    assert m.outcome().board is None
    win_board(m, "Asha")
    outcome = m.outcome()
    assert outcome.board is not None and outcome.board.winner == "Asha" and outcome.game is None
    m.push(st())
    assert m.outcome().board is None
    win_board(m, "Asha")
    win_board(m, "Asha")
    outcome = m.outcome()
    assert outcome.game is not None and outcome.game.winner == "Asha" and outcome.match is None


def test_match_state_lists_only_begun_games_and_boards() -> None:
    m = singles()
    assert m.state.games == ()
    m.push(Foul())  # a technical foul before the break begins the board
    assert len(m.state.games) == 1 and m.state.games[0].boards[0].winner is None
    assert m.state.now is not None and m.state.now.owed["Asha"] == 1


def test_match_calls_name_the_laws_of_the_last_event() -> None:
    m = singles()
    m.push(st())
    m.push(st(B, striker=True))
    assert [(c.code, c.law) for c in m.state.calls] == [("own_coin_with_striker", "73")]
    assert m.state.calls[0].english() == (
        "own coin with the striker: it goes back with one due, turn goes on"
    )


_COIN = st_h.sampled_from(["white", "black", "queen"])
_EVENT = st_h.one_of(
    st_h.builds(
        Stroke,
        pocketed=st_h.lists(_COIN, max_size=4).map(tuple),
        striker=st_h.booleans(),
        off_board=st_h.lists(_COIN, max_size=1).map(tuple),
        improper=st_h.booleans(),
        touched=st_h.booleans(),
    ),
    st_h.builds(Stroke, pocketed=st_h.lists(_COIN, min_size=1, max_size=9).map(tuple)),
    st_h.builds(Foul, by=st_h.sampled_from([None, "Asha", "Bina", "Chitra", "Dev"])),
    st_h.builds(Waive, by=st_h.sampled_from([None, "Asha", "Bina"])),
    st_h.just(Pass()),
    st_h.builds(ForfeitBoard, by=st_h.sampled_from(["Asha", "Bina"])),
    st_h.builds(Toss, winner=st_h.sampled_from(["Asha", "Bina"])),
)


@settings(max_examples=150, deadline=None)
@given(
    rules=st_h.sampled_from(["icf", "club"]),
    four=st_h.booleans(),
    events=st_h.lists(_EVENT, max_size=120),
)
def test_match_invariants_hold_and_undo_is_exact_for_any_events(
    rules: str, four: bool, events: list[Event]
) -> None:
    players = ("Asha", "Bina", "Chitra", "Dev") if four else ("Asha", "Bina")
    m = Match(MatchStart(rules, players, "Asha", 8))  # type: ignore[arg-type]
    states = [m.state]
    for event in events:
        before = m.state
        try:
            m.push(event)
        except IllegalEvent:
            assert m.state == before
            continue
        states.append(m.state)
        now = m.state.now
        if now is None:
            break
        for side in m.state.sides:
            colour = now.colours[side]
            assert 0 <= now.on_board[colour] <= 9
            assert now.pocketed[side] == 9 - now.on_board[colour]
            # Owed only while the side has nothing to give back (RULES.md), except the side
            # at turn under 78 b i (doubles) or club IV iii: placed when the turn ends.
            waits = (four or rules == "club") and side == now.turn_side
            assert now.owed[side] == 0 or now.pocketed[side] == 0 or waits
        assert (now.queen == "on_board") == now.on_board["queen"]
        for game in m.state.games:
            for board in game.boards:
                assert board.points <= 12 or rules == "club"
    while m.events:
        m.pop()
        states.pop()
        assert m.state == states[-1]
