"""The core's refusals as facts: a reason code, the law, the facts, and the same English
words as before (they are what `tableside replay` and the journal's refused rows say)."""

from __future__ import annotations

import pickle

import pytest

from kiosk.rules.carrom import IllegalEvent, Match
from kiosk.rules.carrom.events import Concede, MatchStart, Pass, Stroke, Toss, VoidBoard

from .helpers import W, singles, st


def _refused(event: object) -> IllegalEvent:
    m = singles()
    with pytest.raises(IllegalEvent) as caught:
        m.push(event)  # type: ignore[arg-type]
    return caught.value


def test_law_46_the_break_cannot_be_passed_reason() -> None:
    exc = _refused(Pass())
    assert exc.reason is not None
    assert (exc.reason.code, exc.reason.law) == ("break_not_passed", "46")
    assert str(exc) == "the break cannot be passed: the breaker must strike (law 46)"


def test_law_44_untouched_break_reason_keeps_its_words() -> None:
    exc = _refused(st(W, touched=False))
    assert exc.reason is not None and exc.reason.code == "untouched_break_pockets"
    assert str(exc) == (
        "a break that touched no coin cannot pocket a coin or throw one off (law 44)"
    )


def test_law_56_b_no_toss_due_and_facts_of_a_refusal() -> None:
    exc = _refused(Toss(winner="Asha"))
    assert exc.reason is not None and exc.reason.code == "no_toss_due"
    exc = _refused(Concede(by="Zed"))
    reason = exc.reason
    assert reason is not None and reason.code == "not_a_player"
    assert reason.values() == {"role": "the conceding player", "name": "Zed", "known": "Asha, Bina"}
    assert reason.worded == ("role",)  # a message itself: worded by the interface too
    assert str(exc) == "the conceding player 'Zed' is not a player of this match (Asha, Bina)"


def test_more_coins_than_the_board_holds_names_the_colour_as_a_word() -> None:
    exc = _refused(Stroke(pocketed=("white",) * 10))
    reason = exc.reason
    assert reason is not None and reason.code == "more_coins_than_on_board"
    assert reason.values() == {"gone": 10, "colour": "white", "on": 9}
    assert reason.worded == ("colour",)
    assert str(exc) == (
        "10 white coin(s) pocketed or off the board, but only 9 white are on the board"
    )


def test_a_refusal_survives_pickling_with_its_words_and_a_plain_one_has_no_reason() -> None:
    exc = _refused(VoidBoard())
    again = pickle.loads(pickle.dumps(exc))
    assert str(again) == str(exc) == "no board is in progress: there is nothing to void"
    assert IllegalEvent("plain words").reason is None


@pytest.mark.parametrize(
    ("start", "code"),
    [
        (MatchStart("icf", ("Asha",), "Asha"), "player_count"),
        (MatchStart("icf", ("Asha", "Asha"), "Asha"), "player_twice"),
        (MatchStart("icf", ("Asha", "Bina"), "Chitra"), "breaker_not_playing"),
        (MatchStart("icf", ("Asha", "Bina"), "Asha", 0), "bad_board_limit"),
        (MatchStart("pool", ("Asha", "Bina"), "Asha"), "unknown_rules"),  # type: ignore[arg-type]
    ],
)
def test_a_start_the_laws_cannot_play_is_refused_with_its_reason(
    start: MatchStart, code: str
) -> None:
    with pytest.raises(IllegalEvent) as caught:
        Match(start)
    reason = caught.value.reason
    assert reason is not None and reason.code == code
    assert reason.english() == str(caught.value)
