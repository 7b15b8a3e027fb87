"""The board's geometry from the laws of equipment (law I)."""

from __future__ import annotations

import pytest

from vision import board as B


def test_law_I_playing_surface_and_top_view_scale() -> None:
    # Law I अ.1: 73.5-74 cm square; the top view is 0.5 px/mm with 30 mm of frame
    # around (the frame is 6.35-7.60 cm wide, law I अ.2).
    assert 735.0 <= B.SURFACE_MM <= 740.0
    assert B.TOP_PX == round((B.SURFACE_MM + 2 * B.MARGIN_MM) * B.SCALE) == 400
    assert B.MARGIN_MM < 63.5


def test_law_I_coin_and_striker_sizes() -> None:
    # Law I आ: coins 3.02-3.18 cm; इ: striker at most 4.13 cm; अ.3 pockets 4.45 ± 0.15 cm.
    assert 30.2 <= B.COIN_D_MM <= 31.8
    assert B.STRIKER_D_MM <= 41.3
    assert 43.0 <= B.POCKET_D_MM <= 46.0


@pytest.mark.parametrize(
    ("x", "y", "pocket"),
    [(10, 730, 1), (10, 10, 2), (730, 10, 3), (730, 730, 4), (300, 600, 1), (600, 100, 3)],
)
def test_board_pockets_are_numbered_from_bottom_left_clockwise(
    x: float, y: float, pocket: int
) -> None:
    assert B.nearest_pocket(x, y)[0] == pocket


def test_board_mm_and_top_view_pixels_round_trip() -> None:
    for x, y in [(0.0, 0.0), (370.0, 370.0), (12.3, 701.9)]:
        u, v = B.mm_to_top(x, y)
        assert B.top_to_mm(u, v) == pytest.approx((x, y))
    # The surface's edge is the outer edge of the first pixel after the margin.
    assert B.mm_to_top(0.0, 0.0) == (14.5, 14.5)
