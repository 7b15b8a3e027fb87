"""Motion: a stroke starts, the coins come to rest (laws 123, 124), a hand is not a stroke."""

from __future__ import annotations

import math

import pytest

from vision.motion import MotionMeter, RestTracker
from vision.pieces import Detector
from vision.sim import render as S
from vision.sim.render import Hand, Look, Piece, Scene

from .conftest import reference_for

LOOK = Look(lamp_falloff=0.2, noise=2.5, seed=8)
COINS = (Piece("white", 300.0, 300.0), Piece("black", 450.0, 420.0), Piece("queen", 370.0, 370.0))


def test_law_123_rest_is_dated_when_the_coins_stopped() -> None:
    tracker = RestTracker(rest_s=0.4)
    assert tracker.update(0.0, False) is None
    assert tracker.update(1.0, True) == ("started", 1.0)
    assert tracker.update(1.1, True) is None
    assert tracker.update(1.5, False) is None  # still since 1.5
    assert tracker.update(1.8, False) is None
    assert tracker.update(1.95, False) == ("rest", 1.5)
    assert not tracker.moving
    assert tracker.update(2.0, False) is None


def test_law_123_a_coin_moving_again_postpones_rest() -> None:
    tracker = RestTracker(rest_s=0.4)
    tracker.update(0.0, True)
    tracker.update(0.2, False)
    assert tracker.update(0.5, True) is None  # rolled on: not at rest yet
    assert tracker.update(0.6, False) is None
    assert tracker.update(1.0, False) == ("rest", 0.6)


def _motion_between(a: Scene, b: Scene) -> tuple[int, int]:
    cal, ref = reference_for(a)
    meter = MotionMeter()
    for scene in (a, b):
        top = cal.warp(S.render(scene))
        m = meter.update(top, Detector(ref).glance(top).occlusion)
    return m.coin_pixels, m.hand_pixels


def test_motion_coin_moving_is_coin_motion() -> None:
    moved = (Piece("white", 330.0, 280.0), *COINS[1:])
    coin, _ = _motion_between(Scene(COINS, LOOK), Scene(moved, LOOK))
    assert coin > 0


def test_motion_still_board_is_still() -> None:
    coin, hand = _motion_between(Scene(COINS, LOOK), Scene(COINS, LOOK))
    assert (coin, hand) == (0, 0)


@pytest.mark.parametrize(
    ("skin", "sleeve"),
    [((60, 80, 115), (110, 70, 45)), ((130, 160, 205), (40, 40, 160))],
    ids=["dark-hand", "pale-hand-red-sleeve"],
)
def test_motion_hand_moving_over_the_board_is_not_coin_motion(
    skin: tuple[int, int, int], sleeve: tuple[int, int, int]
) -> None:
    a = Scene(COINS, LOOK, Hand(600.0, 560.0, -math.pi / 2, skin, sleeve))
    b = Scene(COINS, LOOK, Hand(590.0, 540.0, -math.pi / 2 - 0.1, skin, sleeve))
    coin, hand = _motion_between(a, b)
    assert coin == 0
    assert hand > 0
