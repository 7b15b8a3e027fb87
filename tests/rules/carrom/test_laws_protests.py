"""Laws 144-151: protests from the table to the director, as the match record carries them.

A protest names a board begun ([game, board], void boards counted), once (149), within 15
minutes of the board's end when both are timed (146); play goes on but no result is declared
while it waits (150); rejected, the result is declared (151 b); upheld, the protested board
and every board begun after it are set aside and the same breaker plays it again (151 a).
"""

from __future__ import annotations

import pytest

from kiosk.rules.carrom import IllegalEvent, Match
from kiosk.rules.carrom.events import Concede, Protest, ProtestDecided, Stroke

from .helpers import B, Q, W, now_of, singles, st, win_board


def protest(by: str, game: int, board: int, t: float | None = None) -> Protest:
    return Protest(by=by, board=(game, board), t=t)


def decide(game: int, board: int, upheld: bool) -> ProtestDecided:
    return ProtestDecided(board=(game, board), upheld=upheld)


def refusal(m: Match, event: Protest | ProtestDecided) -> tuple[str, str]:
    before = m.state
    with pytest.raises(IllegalEvent) as caught:
        m.push(event)
    assert m.state == before  # nothing changes
    reason = caught.value.reason
    assert reason is not None
    return reason.code, reason.law


def timed_board(m: Match, end: float) -> None:
    """Asha (white, breaking) wins board 1 with 12, its last stroke at `end` seconds."""
    m.push(Stroke(pocketed=(W,), t=end - 20))
    m.push(Stroke(pocketed=(Q, W), t=end - 10))
    m.push(Stroke(pocketed=(W,) * 7, t=end))


def boards_of(m: Match, game: int = 1) -> list[tuple[str | None, int, bool, str | None]]:
    return [(b.winner, b.points, b.void, b.protest) for b in m.state.games[game - 1].boards]


# -- lodging a protest (144-149) ---------------------------------------------------------


def test_law_144_a_protest_against_a_board_not_begun_is_refused() -> None:
    m = singles()
    assert refusal(m, protest("Bina", 1, 1)) == ("protest_no_board", "144")  # nothing begun
    m.push(st())  # board 1 begins
    m.push(protest("Bina", 1, 1))  # the board in progress may be protested
    assert refusal(m, protest("Bina", 1, 2)) == ("protest_no_board", "144")
    assert refusal(m, protest("Bina", 2, 1)) == ("protest_no_board", "144")
    with pytest.raises(IllegalEvent, match="not a player"):
        m.push(protest("Chitra", 1, 1))


def test_law_146_a_protest_more_than_15_minutes_after_the_board_ended_is_refused() -> None:
    m = singles()
    timed_board(m, end=100.0)
    code, law = refusal(m, protest("Bina", 1, 1, t=100.0 + 901))
    assert (code, law) == ("protest_too_late", "146")
    m.push(protest("Bina", 1, 1, t=100.0 + 900))  # 15 minutes exactly: in time
    assert [(p.by, p.board, p.decision) for p in m.state.protests] == [("Bina", (1, 1), None)]


def test_law_146_an_untimed_record_cannot_be_too_late() -> None:
    m = singles()
    win_board(m, "Asha")  # no `t` on its lines
    m.push(protest("Bina", 1, 1, t=5000.0))
    assert m.state.protests[0].decision is None


def test_law_149_a_board_has_one_protest_never_lodged_twice() -> None:
    m = singles()
    win_board(m, "Asha")
    m.push(protest("Bina", 1, 1))
    assert refusal(m, protest("Bina", 1, 1)) == ("protest_twice", "149")
    assert refusal(m, protest("Asha", 1, 1)) == ("protest_twice", "149")  # nor by the other
    m.push(decide(1, 1, upheld=False))
    assert refusal(m, protest("Bina", 1, 1)) == ("protest_twice", "149")  # decided: still one


# -- play goes on, no result (150) -----------------------------------------------------------


def _two_boards_won_by_asha() -> Match:
    m = singles(limit=2)
    win_board(m, "Asha")  # 12
    win_board(m, "Asha", opp_left=9)  # 12: 24, game 1 after 2 boards (56 a)
    return m


def test_law_150_play_goes_on_and_no_result_is_declared() -> None:
    m = _two_boards_won_by_asha()
    m.push(protest("Bina", 1, 2))
    win_board(m, "Asha")  # game 2, board 1 (Bina breaks: 49)
    win_board(m, "Asha")
    assert m.is_over()  # play is over: two games to Asha (57)
    state = m.state
    assert state.winner is None and state.provisional_winner == "Asha" and state.now is None
    assert state.protest_pending
    assert boards_of(m)[1] == ("Asha", 12, False, "pending")
    with pytest.raises(IllegalEvent, match="over"):
        m.push(st())  # nothing but protests follows the last board


def test_law_151_b_a_rejected_protest_declares_the_result() -> None:
    m = _two_boards_won_by_asha()
    m.push(protest("Bina", 1, 2))
    win_board(m, "Asha")
    win_board(m, "Asha")
    m.push(decide(1, 2, upheld=False))
    state = m.state
    assert state.winner == "Asha" == state.provisional_winner
    assert [c.code for c in state.calls] == ["protest_rejected", "result_declared"]
    assert boards_of(m)[1] == ("Asha", 12, False, "rejected")
    assert m.outcome().match is not None  # the result declared is the match's end


def test_law_151_a_decision_without_an_undecided_protest_is_refused() -> None:
    m = singles()
    win_board(m, "Asha")
    assert refusal(m, decide(1, 1, upheld=True)) == ("no_protest_to_decide", "151")
    assert refusal(m, decide(3, 9, upheld=False)) == ("no_protest_to_decide", "151")
    m.push(protest("Bina", 1, 1))
    m.push(decide(1, 1, upheld=False))
    assert refusal(m, decide(1, 1, upheld=True)) == ("no_protest_to_decide", "151")


# -- upheld: the board is played again (151 a) -----------------------------------------------


def test_law_151_a_upheld_against_the_board_in_progress_replays_it_with_the_same_breaker() -> None:
    m = singles(first="Bina")
    m.push(st(W))  # Bina breaks and pockets a white
    m.push(protest("Asha", 1, 1))
    m.push(st(W, W))
    m.push(decide(1, 1, upheld=True))
    now = now_of(m)
    assert (now.game, now.board, now.breaker, now.turn) == (1, 2, "Bina", "Bina")
    assert now.on_board == {"white": 9, "black": 9, "queen": True} and now.is_break
    assert boards_of(m) == [(None, 0, True, "upheld")]
    assert m.outcome().board is not None and m.outcome().board.law == "151 a"


def test_law_151_a_upheld_after_later_boards_sets_them_aside_and_works_the_scores_out() -> None:
    m = singles()
    win_board(m, "Asha")  # board 1: Asha 12
    win_board(m, "Bina", opp_left=5)  # board 2 (Bina breaks): Bina 5 + 3
    m.push(protest("Asha", 1, 2))
    win_board(m, "Asha", opp_left=6)  # board 3 (Asha breaks): Asha 6 + 3
    m.push(st())  # board 4 begins (Bina breaks)
    assert m.state.games[0].points == {"Asha": 21, "Bina": 8}
    m.push(decide(1, 2, upheld=True))
    state = m.state
    assert state.games[0].points == {"Asha": 12, "Bina": 0}  # board 1 only
    assert boards_of(m) == [
        ("Asha", 12, False, None),
        (None, 0, True, "upheld"),  # the protested board
        (None, 0, True, "upheld"),  # begun after it
        (None, 0, True, "upheld"),  # the board in progress
    ]
    now = now_of(m)
    assert (now.board, now.breaker, now.white) == (5, "Bina", "Bina")  # board 2's breaker
    assert [(p.by, p.board, p.decision) for p in state.protests] == [("Asha", (1, 2), "upheld")]
    assert state.winner is None and state.provisional_winner is None
    # Play goes on from there: the replayed board counts as board 2 did (law 49, 56).
    win_board(m, "Bina", opp_left=9)
    assert m.state.games[0].points == {"Asha": 12, "Bina": 12}
    assert now_of(m).breaker == "Asha"


def test_law_151_a_upheld_after_the_game_ended_plays_that_game_again() -> None:
    m = _two_boards_won_by_asha()  # game 1 to Asha after 2 boards
    m.push(protest("Bina", 1, 2))
    win_board(m, "Bina")  # game 2, board 1
    m.push(decide(1, 2, upheld=True))
    state = m.state
    assert len(state.games) == 2 and state.games[0].winner is None
    assert state.games[0].points == {"Asha": 12, "Bina": 0}
    assert [b.protest for b in state.games[1].boards] == ["upheld"]  # kept, set aside
    assert state.games[1].points == {"Asha": 0, "Bina": 0}
    assert state.games_won == {"Asha": 0, "Bina": 0}
    now = now_of(m)
    assert (now.game, now.board, now.breaker) == (1, 3, "Bina")
    win_board(m, "Bina")  # game 1 is level 12-12 after 2 counted boards: a toss (56 b)
    assert m.state.toss_due
    m2 = _two_boards_won_by_asha()
    m2.push(protest("Bina", 1, 2))
    win_board(m2, "Bina")
    m2.push(decide(1, 2, upheld=True))
    win_board(m2, "Asha")  # game 1 to Asha again, 24-0: game 2 follows its set-aside board
    now = now_of(m2)
    assert (now.game, now.board) == (2, 2)
    assert [b.protest for b in m2.state.games[1].boards] == ["upheld"]


def test_law_151_a_upheld_after_the_last_board_puts_the_match_back_in_play() -> None:
    m = _two_boards_won_by_asha()
    win_board(m, "Asha")  # game 2: Asha 12, 12 after its 2 boards (56 a, 57)
    win_board(m, "Asha")
    assert m.is_over() and m.state.winner == "Asha"
    m.push(protest("Bina", 2, 1))
    m.push(decide(2, 1, upheld=True))
    assert not m.is_over() and m.state.winner is None and m.state.now is not None
    now = now_of(m)
    assert (now.game, now.breaker) == (2, "Bina")
    assert m.state.games_won == {"Asha": 1, "Bina": 0}


def test_law_151_a_a_protest_against_a_board_set_aside_is_settled_with_it() -> None:
    m = singles()
    win_board(m, "Asha")
    m.push(protest("Bina", 1, 1))
    win_board(m, "Bina")
    m.push(protest("Asha", 1, 2))
    m.push(decide(1, 1, upheld=True))
    assert [(p.board, p.decision) for p in m.state.protests] == [
        ((1, 1), "upheld"),
        ((1, 2), "upheld"),
    ]
    assert not m.state.protest_pending
    assert refusal(m, decide(1, 2, upheld=False)) == ("no_protest_to_decide", "151")
    assert refusal(m, protest("Bina", 1, 2)) == ("protest_twice", "149")
    # A set-aside board without a protest of its own is not protested either.
    m2 = singles()
    win_board(m2, "Asha")
    m2.push(protest("Bina", 1, 1))
    win_board(m2, "Bina")
    m2.push(decide(1, 1, upheld=True))
    assert refusal(m2, protest("Asha", 1, 2)) == ("protest_set_aside", "151 a")


def test_law_151_a_undo_of_an_upheld_decision_restores_the_match_exactly() -> None:
    m = singles()
    win_board(m, "Asha")
    m.push(protest("Bina", 1, 1))
    win_board(m, "Bina", opp_left=4)
    m.push(st())
    before = m.state
    m.push(decide(1, 1, upheld=True))
    assert m.state != before
    m.pop()
    assert m.state == before
    m.pop()  # the board's first stroke
    m.push(st())
    assert m.state == before


def test_law_150_after_a_concession_the_result_waits_for_the_protest() -> None:
    m = singles()
    win_board(m, "Asha")
    m.push(Concede(by="Bina"))  # law 139
    m.push(protest("Bina", 1, 1))
    assert m.state.winner is None and m.state.provisional_winner == "Asha"
    m.push(decide(1, 1, upheld=False))
    assert m.state.winner == "Asha"


def test_law_146_the_console_asks_which_boards_may_be_protested_now() -> None:
    m = singles()
    timed_board(m, end=100.0)  # board 1 ends at 100 s
    m.push(Stroke(pocketed=(B,), t=200.0))  # board 2 begins
    assert m.protestable(t=300.0) == ((1, 1), (1, 2))
    assert m.protestable(t=1001.0) == ((1, 2),)  # board 1 ended 901 s ago (146)
    late = m.protest_refusal((1, 1), t=1001.0)
    assert late is not None and late.reason is not None
    assert (late.reason.code, late.reason.law) == ("protest_too_late", "146")
    assert dict(late.reason.facts)["minutes"] == 16
    m.push(protest("Asha", 1, 2, t=300.0))
    assert m.protestable(t=300.0) == ((1, 1),)  # 149: board 2 has one
    assert m.protest_refusal((1, 3)) is not None and m.protestable() == ((1, 1),)
