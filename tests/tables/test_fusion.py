"""Fusion of the pocket beams and the camera's diff into one proposed stroke."""

from __future__ import annotations

import pytest

from drivers.hits import BeamHit
from kiosk.rules.carrom.events import Stroke
from kiosk.tables.fusion import Context, Proposal, fuse


def hits(*pockets: int) -> list[BeamHit]:
    return [BeamHit(p, 0.1 * n, 0.012) for n, p in enumerate(pockets)]


def test_fusion_beams_alone_count_per_pocket_and_guess_own_colour_flagged() -> None:
    proposal = fuse(hits(1, 1, 3), None, context=Context("black", {"black": 5, "white": 9}))
    assert proposal.source == "beams"
    assert proposal.pocketed == ("black", "black", "black")
    assert [v.beam for v in proposal.pockets] == [2, 0, 1, 0]
    assert proposal.review
    assert "colours guessed" in str(proposal.notes[0])


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
    assert any("pocket 3" in str(note) for note in proposal.notes)


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


# -- with the camera (the journaled diff form, kiosk/tables/carrom_table.py RecordedDiff) -------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from kiosk.tables.carrom_inputs import RecordedDiff, RecordedGone  # noqa: E402


def camera(*gone: tuple[str, int | None], striker: bool = False, off: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    return RecordedDiff(tuple(RecordedGone(c, p) for c, p in gone), striker, off)


def test_fusion_striker_in_explains_one_extra_beam_hit() -> None:
    proposal = fuse(hits(1, 4), camera(("white", 1), striker=True))
    assert proposal.pocketed == ("white",) and proposal.striker
    assert not proposal.review


def test_fusion_camera_striker_without_a_beam_hit_is_flagged() -> None:
    proposal = fuse(hits(1), camera(("white", 1), striker=True))
    assert proposal.striker and proposal.review
    assert any("no beam counted it" in str(n) for n in proposal.notes)


def test_fusion_coin_lost_away_from_pockets_taken_as_pocketed_when_a_beam_counted_it() -> None:
    proposal = fuse(hits(2, 3), camera(("black", 2), ("queen", None)))
    assert proposal.pocketed == ("black", "queen")
    assert proposal.review  # said so in the notes
    lost_alone = fuse([], camera(("queen", None)))
    assert lost_alone.pocketed == () and lost_alone.review


def test_fusion_off_board_coins_are_not_pocketed() -> None:
    proposal = fuse([], camera(("white", None), off=("white",)))
    assert proposal.pocketed == () and proposal.off_board == ("white",)
    assert not proposal.review


def test_fusion_camera_alone_when_every_beam_is_out() -> None:
    proposal = fuse(hits(1), camera(("black", 3)), beams=())
    assert proposal.source == "camera" and proposal.pocketed == ("black",)
    assert [v.beam for v in proposal.pockets] == [None] * 4


coins_at_pockets = st.lists(
    st.tuples(st.sampled_from(["white", "black", "queen"]), st.integers(1, 4)), max_size=6
)


@settings(max_examples=150, deadline=None)
@given(coins_at_pockets, st.booleans())
def test_fusion_sources_that_agree_are_confirmed_as_seen(
    coins: list[tuple[str, int]], striker: bool
) -> None:
    beam_hits = [BeamHit(p, 0.01 * n, 0.01) for n, (_, p) in enumerate(coins)]
    if striker:
        beam_hits.append(BeamHit(1, 1.0, 0.02))
    proposal = fuse(beam_hits, camera(*coins, striker=striker))
    assert sorted(proposal.pocketed) == sorted(c for c, _ in coins)
    assert proposal.striker == striker
    assert not proposal.review


@settings(max_examples=150, deadline=None)
@given(coins_at_pockets, st.integers(1, 4))
def test_fusion_a_missed_or_extra_beam_hit_is_always_flagged(
    coins: list[tuple[str, int]], pocket: int
) -> None:
    beam_hits = [BeamHit(p, 0.01 * n, 0.01) for n, (_, p) in enumerate(coins)]
    extra = fuse([*beam_hits, BeamHit(pocket, 2.0, 0.01)], camera(*coins))
    assert extra.review
    if coins:
        missed = fuse(beam_hits[1:], camera(*coins))
        assert missed.review


def test_fusion_stuck_beam_with_the_camera_working_is_noted_not_flagged() -> None:
    proposal = fuse(hits(1), camera(("white", 1), ("black", 2)), beams=(1, 3, 4))
    assert proposal.pocketed == ("white", "black")
    assert not proposal.review
    assert any("beam out at pocket 2" in str(n) for n in proposal.notes)
