"""Fusion of the pocket beams and the camera's diff into one proposed stroke."""

from __future__ import annotations

import pytest

from drivers.hits import BeamHit
from kiosk.engine.fusion import Context, Proposal, fuse
from kiosk.rules.carrom.events import Stroke


def hits(*pockets: int) -> list[BeamHit]:
    return [BeamHit(p, 0.1 * n, 0.012) for n, p in enumerate(pockets)]


def test_fusion_beams_alone_count_per_pocket_and_guess_own_colour_flagged() -> None:
    proposal = fuse(hits(1, 1, 3), None, context=Context("black", {"black": 5, "white": 9}))
    assert proposal.source == "beams"
    assert proposal.pocketed == ("black", "black", "black")
    assert [v.beam for v in proposal.pockets] == [2, 0, 1, 0]
    assert proposal.review
    assert "colours guessed" in proposal.notes[0]


def test_fusion_beams_alone_guess_the_other_colour_once_own_coins_are_gone() -> None:
    proposal = fuse(hits(2, 2), None, context=Context("white", {"white": 1, "black": 4}))
    assert proposal.pocketed == ("white", "black")


def test_fusion_beams_alone_without_hits_is_an_empty_stroke_not_flagged() -> None:
    proposal = fuse([], None)
    assert proposal.pocketed == () and not proposal.striker
    assert not proposal.review


def test_fusion_stuck_beam_is_unknown_not_zero_and_flagged() -> None:
    proposal = fuse(hits(3, 1), None, beams=(1, 2, 4))
    assert [v.beam for v in proposal.pockets] == [1, 0, None, 0]
    assert proposal.hits == 1
    assert proposal.review
    assert any("pocket 3" in note for note in proposal.notes)


def test_fusion_neither_source_is_manual_entry() -> None:
    proposal = fuse(hits(1), None, beams=())
    assert proposal.source == "manual"
    assert proposal.pocketed == ()
    assert proposal.review


def test_fusion_umpire_edit_stands_and_needs_no_review() -> None:
    edited = fuse(hits(1), None).edited(pocketed=["queen"], striker=True, improper=True)
    assert edited.source == "umpire" and not edited.review
    assert edited.to_stroke(12.5) == Stroke(
        pocketed=("queen",), striker=True, off_board=(), improper=True, touched=True, t=12.5
    )


def test_fusion_umpire_edit_refuses_a_colour_that_is_not_one() -> None:
    with pytest.raises(ValueError, match="'red'"):
        Proposal().edited(pocketed=["red"])
    with pytest.raises(ValueError, match="off_board"):
        Proposal().edited(off_board=["table"])
