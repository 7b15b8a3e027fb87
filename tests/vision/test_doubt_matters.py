"""A piece is unsure only when its doubt could change the outcome: a count on
one photo, what left the board between two."""

from __future__ import annotations

import numpy as np

from vision.diff import stroke_diff
from vision.view import BoardView, Coin, Doubt, outcome_doubts

BLANK = np.zeros((4, 4), np.uint8)


def _men(colour: str, n: int) -> list[Coin]:
    return [Coin(colour, 100.0 + 40 * i, 300.0, 0.9) for i in range(n)]


def test_a_tenth_man_in_doubt_changes_no_count() -> None:
    tenth = Doubt("white", 600.0, 600.0, 0.35, False, "more white than a set holds")
    assert outcome_doubts(_men("white", 9), [tenth]) == ()
    assert outcome_doubts(_men("white", 8), [tenth]) == (tenth,)
    # Counted in doubt, he may not be there: that changes the count.
    counted = Doubt("white", 140.0, 300.0, 0.5, True, "low confidence")
    assert outcome_doubts(_men("white", 9), [counted]) == (counted,)
    # Not counted, but he may be the striker, of which none is counted.
    other = Doubt("white", 600.0, 600.0, 0.35, False, "size", "striker")
    assert outcome_doubts(_men("white", 9), [other]) == (other,)


def test_the_same_doubt_before_and_after_is_no_doubt_of_the_diff() -> None:
    queen = Doubt("queen", 370.0, 370.0, 0.35, False, "at the centre")
    before = BoardView((*_men("white", 3), *_men("black", 2)), BLANK, (queen,))
    moved = Doubt("queen", 372.0, 369.0, 0.36, False, "at the centre")
    after = BoardView((*_men("white", 2), *_men("black", 2)), BLANK, (moved,))
    diff = stroke_diff(before, after)
    assert diff.pocketed() == ("white",) and diff.unsure == ()
    # A doubt in one view only could change what left.
    after = BoardView((*_men("white", 2), *_men("black", 2)), BLANK, ())
    assert stroke_diff(before, after).unsure == ("queen",)


def test_a_doubt_that_could_not_change_what_left_is_none() -> None:
    # A queen in doubt (not counted) after the stroke only, where none was counted
    # before: were she there, nothing more left; she is no doubt of the stroke.
    queen = Doubt("queen", 370.0, 370.0, 0.35, False, "at the centre")
    before = BoardView(tuple(_men("black", 2)), BLANK, ())
    after = BoardView(tuple(_men("black", 1)), BLANK, (queen,))
    diff = stroke_diff(before, after)
    assert diff.pocketed() == ("black",) and diff.unsure == ()
    # A black man counted in doubt after: were he not there, two blacks left.
    man = Doubt("black", 100.0, 300.0, 0.5, True, "low confidence")
    after = BoardView(tuple(_men("black", 1)), BLANK, (man,))
    assert stroke_diff(before, after).unsure == ("black",)
