"""Motion on the board: a stroke has started; the coins are at rest.

Law 123: a stroke is complete when the coins, the queen and the striker have
stopped; law 124 and law 50 time the next turn from that moment. So
`CoinsAtRest.t` is the time of the first still frame after the last motion,
reported once the board has stayed still for `rest_s` (the report comes later
than the moment it names).

A hand over the board is not coin motion. The detector marks what a hand (or
an arm, or its shadow) hides as occluded; changes within `hand_margin_mm` of
an occluded area in this frame or the last are put down to the hand. That also
covers the striker while a player slides it along the base line: it moves with
the fingers on it. When the striker is flicked it leaves the hand at once, and
the coins it hits move far from any hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B
from vision.view import BoardView

Array = npt.NDArray[Any]


@dataclass(frozen=True, slots=True)
class StrokeStarted:
    """Coins (or the striker, away from any hand) began to move at `t`."""

    t: float


@dataclass(frozen=True, slots=True, eq=False)
class CoinsAtRest:
    """The coins stopped at `t` (law 123); `board` is what the camera saw then."""

    t: float
    board: BoardView | None = None


@dataclass(frozen=True, slots=True)
class MotionSettings:
    threshold: float = 22.0  # grey-level change between frames that counts as motion
    min_pixels: int = 4  # moving pixels (on the half-size grid) that make coin motion
    hand_margin_mm: float = 50.0
    rest_s: float = 0.4  # how long the board must stay still to be at rest


@dataclass(frozen=True, slots=True)
class Motion:
    """The motion between the last frame and this one, in half-size top-view pixels."""

    coin_pixels: int
    hand_pixels: int

    @property
    def coins_moving(self) -> bool:
        return self.coin_pixels > 0


class MotionMeter:
    """Frame-to-frame change on the top view, split into hand and coin motion."""

    def __init__(self, settings: MotionSettings = MotionSettings()) -> None:
        self.settings = settings
        self._prev: Array | None = None
        self._prev_hand: Array | None = None
        r = max(1, round(settings.hand_margin_mm * B.SCALE / 2))
        self._grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        self._open = cv2.getStructuringElement(cv2.MORPH_RECT, (2, 2))

    def update(self, top: Array, occlusion: Array | None = None) -> Motion:
        """Feed the next top view (BGR) and the detector's occlusion mask for it."""
        half = (B.TOP_PX // 2, B.TOP_PX // 2)
        grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
        grey = cv2.resize(grey, half, interpolation=cv2.INTER_AREA).astype(np.int16)
        hand: Array = np.zeros(half, np.uint8)
        if occlusion is not None and occlusion.any():
            hand = cv2.resize(occlusion, half, interpolation=cv2.INTER_NEAREST)
            hand = cv2.dilate(hand, self._grow)
        prev, prev_hand = self._prev, self._prev_hand
        self._prev, self._prev_hand = grey, hand
        if prev is None or prev_hand is None:
            return Motion(0, 0)
        moving: Array = (np.abs(grey - prev) > self.settings.threshold).astype(np.uint8)
        moved: Array = cv2.morphologyEx(moving, cv2.MORPH_OPEN, self._open) > 0
        near_hand: Array = (hand > 0) | (prev_hand > 0)
        hand_px = int(np.count_nonzero(moved & near_hand))
        coin_px = int(np.count_nonzero(moved & ~near_hand))
        if coin_px < self.settings.min_pixels:
            coin_px = 0
        return Motion(coin_px, hand_px)

    def reset(self) -> None:
        self._prev = self._prev_hand = None


class RestTracker:
    """Turns per-frame motion into stroke start and rest (laws 123, 124).

    `update(t, moving)` returns `("started", t)` on the first moving frame while
    at rest, `("rest", t_stop)` once still for `rest_s` after moving, else None.
    """

    def __init__(self, rest_s: float = 0.4) -> None:
        self.rest_s = rest_s
        self.moving = False
        self._still_since: float | None = None

    def update(self, t: float, coins_moving: bool) -> tuple[str, float] | None:
        if coins_moving:
            self._still_since = None
            if not self.moving:
                self.moving = True
                return ("started", t)
            return None
        if not self.moving:
            return None
        if self._still_since is None:
            self._still_since = t
        if t - self._still_since >= self.rest_s:
            self.moving = False
            stopped = self._still_since
            self._still_since = None
            return ("rest", stopped)
        return None
