"""BoardWatcher: frames in, the events the engine consumes out.

Fed `(t, frame)` from one monotonic clock, it warps each frame to the top
view, detects the coins, measures motion and returns, in order:

- `StrokeStarted(t)` when coins start to move away from any hand;
- `CoinsAtRest(t, board)` when they have stopped (t is the moment they
  stopped, law 123; reported `rest_s` later);
- `StrokeDiff` comparing the board before the stroke with the board after
  it, once the after-view is clear of hands (or `clear_wait_s` after rest,
  with the hidden coins listed as unseen).

Between strokes the watcher keeps the latest clear view at rest as the
"before" of the next stroke, so coins the umpire puts back (laws 65, 78) are
part of it, and slowly blends the board's own pixels into the reference so
that powder and a drifting lamp do not pile up as differences.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B
from vision.calibration import Calibration, TopWarp, auto_calibrate
from vision.capture import Frame
from vision.detect import (
    BOARD,
    BoardView,
    Reference,
    Settings,
    bootstrap_reference,
    classify_soft,
    detect_classes,
)
from vision.diff import DiffSettings, Sighting, StrokeDiff, stroke_diff
from vision.motion import CoinsAtRest, MotionMeter, MotionSettings, RestTracker, StrokeStarted
from vision.stills import Stills

Array = npt.NDArray[Any]
WatchEvent: TypeAlias = StrokeStarted | CoinsAtRest | StrokeDiff


@dataclass(frozen=True, slots=True)
class WatcherSettings:
    detect: Settings = field(default_factory=Settings)
    motion: MotionSettings = field(default_factory=MotionSettings)
    diff: DiffSettings = field(default_factory=DiffSettings)
    clear_wait_s: float = 3.0  # how long to wait for hands to leave before diffing anyway
    learn_rate: float = 0.05  # how fast the board's own pixels are blended into the reference
    learn_every: int = 15  # frames between blends
    #: A frame whose 4x4 px blocks (grey) all lie within this many levels of the last
    #: frame measured is the same view: its classes and coins are taken over, not
    #: measured again (at rest, most frames). A coin moved by a pixel changes its
    #: blocks' edge by 15-25 levels; a camera's noise, averaged over a block, by 1-2.
    #: 0: measure every frame.
    still_levels: float = 6.0


class BoardWatcher:
    """Turns camera frames into stroke events (see the module docstring)."""

    def __init__(
        self,
        calibration: Calibration | Sequence[Sequence[float]] | None = None,
        reference: Reference | None = None,
        settings: WatcherSettings | None = None,
        stills: Stills | None = None,
    ) -> None:
        """`calibration`: a Calibration, or the config's four [x, y] pocket centres,
        or None to calibrate from the first frame (auto_calibrate). `reference`: the
        empty board's top view, or None to build one from the first frame
        (detect.bootstrap_reference)."""
        if calibration is not None and not isinstance(calibration, Calibration):
            calibration = Calibration.from_config([list(p) for p in calibration])
        self.calibration: Calibration | None = calibration
        self.reference: Reference | None = reference
        self.settings = settings if settings is not None else WatcherSettings()
        self._warp: TopWarp | None = calibration.top_warp() if calibration is not None else None
        self._meter = MotionMeter(self.settings.motion)
        self._tracker = RestTracker(self.settings.motion.rest_s)
        self._before: BoardView | None = None
        self._sightings: list[Sighting] = []
        self._pending_since: float | None = None
        self._frames = 0
        self.board: BoardView | None = None  # the latest view
        #: The protest stills (vision.stills): the board at rest before and after
        #: each stroke, numbered on from those already in its folder.
        self.stills = stills
        self._strokes = 0
        self._kept: list[str] = []  # the stills of the stroke in progress
        self._rest_image: Array | None = None
        self._measured: tuple[Array, Array, BoardView] | None = None  # blocks, classes, view

    @classmethod
    def from_empty_board(
        cls,
        calibration: Calibration,
        frames: Sequence[Array],
        settings: WatcherSettings | None = None,
    ) -> BoardWatcher:
        """Start from views of the empty board (the reference, law I अ)."""
        warp = calibration.top_warp()
        ref = Reference([warp(f) for f in frames])
        return cls(calibration, ref, settings)

    @property
    def moving(self) -> bool:
        """Whether a stroke is in progress (coins not yet at rest)."""
        return self._tracker.moving

    def top_view(self, frame: Array) -> Array:
        if self.calibration is None or self._warp is None:
            self.calibration = auto_calibrate(frame)
            self._warp = self.calibration.top_warp()
        return self._warp(frame)

    def feed(self, t: float, frame: Array | Frame) -> list[WatchEvent]:
        """Process one frame taken at `t` (seconds, monotonic); a capture `Frame`
        is taken for its image."""
        image = frame.image if isinstance(frame, Frame) else frame
        top = self.top_view(image)
        if self.reference is None:
            self.reference = bootstrap_reference(top)
        cls, view = self._measure(top, self.reference)
        self.board = view
        motion = self._meter.update(top, view.occlusion)
        events: list[WatchEvent] = []
        change = self._tracker.update(t, motion.coins_moving)
        if change is not None and change[0] == "started":
            if self._pending_since is not None:
                # A new stroke before the last diff: diff with what there is.
                events.append(self._diff(view))
            events.append(StrokeStarted(change[1]))
            self._sightings = []
            self._kept = []
            if self.stills is not None:
                self._strokes = self.stills.next_stroke()
                if self._rest_image is not None:
                    self._keep("before", self._rest_image)
        if self._tracker.moving or change is not None:
            self._sightings.extend(Sighting(t, c) for c in view.coins)
        if change is not None and change[0] == "rest":
            events.append(CoinsAtRest(change[1], view))
            self._pending_since = t
        pending = self._pending_since
        if (
            pending is not None
            and not self._tracker.moving
            and (self._clear_for_diff(view) or t - pending >= self.settings.clear_wait_s)
        ):
            if self.stills is not None and self._strokes:
                self._keep("after", image)
            events.append(replace(self._diff(view), stills=tuple(self._kept)))
            self._kept = []
        if not self._tracker.moving and self._pending_since is None:
            if self._before is None or not view.occlusion.any():
                self._before = view
                self._rest_image = image
            self._frames += 1
            if not view.occlusion.any() and self._frames % self.settings.learn_every == 0:
                self._learn(top, cls)
        return events

    def _measure(self, top: Array, reference: Reference) -> tuple[Array, BoardView]:
        """The classes and the coins on a top view, or those of the last view measured
        when this is the same view (see WatcherSettings.still_levels)."""
        side = B.TOP_PX // 4
        grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
        blocks = cv2.resize(grey, (side, side), interpolation=cv2.INTER_AREA).astype(np.int16)
        last, still = self._measured, self.settings.still_levels
        if last is not None and still > 0 and int(np.abs(blocks - last[0]).max()) <= still:
            return last[1], last[2]
        cls, strength = classify_soft(top, reference, self.settings.detect)
        view = detect_classes(cls, strength, self.settings.detect)
        self._measured = (blocks, cls, view)
        return cls, view

    def _keep(self, when: str, image: Array) -> None:
        assert self.stills is not None
        path = self.stills.keep(self._strokes, when, image)
        if path is not None:
            self._kept.append(path.name)

    def _clear_for_diff(self, view: BoardView) -> bool:
        if not view.occlusion.any():
            return True
        before = self._before
        margin = self.settings.diff.hidden_margin_mm
        return before is not None and not any(
            view.hidden(c.x_mm, c.y_mm, margin) for c in before.coins
        )

    def _diff(self, view: BoardView) -> StrokeDiff:
        before = self._before if self._before is not None else view
        diff = stroke_diff(before, view, self._sightings, self.settings.diff)
        self._pending_since = None
        self._sightings = []
        self._before = view
        return diff

    def _learn(self, top: Array, cls: Array) -> None:
        board: Array = (cls == BOARD).astype(np.uint8)
        if self.reference is not None:
            self.reference.blend(top, board, self.settings.learn_rate)
