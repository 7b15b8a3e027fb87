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

import contextlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

import cv2
import numpy as np
import numpy.typing as npt

from vision import board as B
from vision.calibration import Calibration, TopWarp, auto_calibrate
from vision.capture import Frame
from vision.diff import DiffSettings, Sighting, StrokeDiff, stroke_diff
from vision.motion import CoinsAtRest, MotionMeter, MotionSettings, RestTracker, StrokeStarted
from vision.opening import learn_opening, looks_like_opening
from vision.piece_set import LearnError, PieceSet
from vision.pieces import Detector, EmptyBoard
from vision.stills import Stills
from vision.view import R_COIN, BoardView, Coin, Doubt, disc_lab, lab, share

Array = npt.NDArray[Any]
WatchEvent: TypeAlias = StrokeStarted | CoinsAtRest | StrokeDiff


@dataclass(frozen=True, slots=True)
class WatcherSettings:
    motion: MotionSettings = field(default_factory=MotionSettings)
    diff: DiffSettings = field(default_factory=DiffSettings)
    clear_wait_s: float = 3.0  # how long to wait for hands to leave before diffing anyway
    learn_rate: float = 0.05  # how fast the board's own pixels are blended into the empty board
    learn_every: int = 15  # frames between blends
    #: A frame whose 4x4 px blocks (grey) all lie within this many levels of the last
    #: frame the detector counted is the same view: its count is taken over, not made
    #: again (at rest, most frames). A coin moved by a pixel changes its blocks' edge
    #: by 15-25 levels; a camera's noise, averaged over a block, by 1-2. 0: count
    #: every view at rest again.
    still_levels: float = 6.0


class BoardWatcher:
    """Turns camera frames into stroke events (see the module docstring)."""

    def __init__(
        self,
        calibration: Calibration | Sequence[Sequence[float]] | None = None,
        empty: EmptyBoard | None = None,
        settings: WatcherSettings | None = None,
        stills: Stills | None = None,
        pieces: PieceSet | None = None,
    ) -> None:
        """`calibration`: a Calibration, or the config's four [x, y] pocket centres,
        or None to calibrate from the first frame (auto_calibrate). `empty`: the empty
        board kept at calibration, or None to learn it from the first frame (its print
        from its symmetry, the pieces painted over). `pieces`: the set in use, if known."""
        if calibration is not None and not isinstance(calibration, Calibration):
            calibration = Calibration.from_config([list(p) for p in calibration])
        self.calibration: Calibration | None = calibration
        #: The one detector (vision.pieces), with the empty board and the set in use.
        self.detector = Detector(empty, pieces)
        #: Whether the empty board is a view of it kept at calibration (else it was
        #: learned from the first frame, pieces and all).
        self.empty_kept = empty is not None
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
        self._counted: tuple[Array, BoardView] | None = None  # blocks, view
        self._top: Array | None = None
        self._rest_top: Array | None = None  # the top view of `_before`

    @classmethod
    def from_empty_board(
        cls,
        calibration: Calibration,
        frames: Sequence[Array],
        settings: WatcherSettings | None = None,
    ) -> BoardWatcher:
        """Start from views of the empty board (law I अ)."""
        watcher = cls(calibration, None, settings)
        watcher.keep_empty(frames)
        return watcher

    @property
    def empty(self) -> EmptyBoard | None:
        """The empty board the detector judges against."""
        return self.detector.empty

    def keep_empty(self, frames: Sequence[Array]) -> EmptyBoard:
        """Keep camera frames of the empty board (the calibration screen's "Keep empty
        board"): from now on pieces are what differs from it. Raises ValueError when
        there is no calibration yet."""
        if self._warp is None:
            raise ValueError("the empty board needs the calibration first")
        self.detector.empty = EmptyBoard([self._warp(f) for f in frames])
        self.empty_kept = True
        self._counted = None
        return self.detector.empty

    def learn_opening(self) -> PieceSet:
        """Learn the set in use from the board at rest in the opening arrangement
        (law 41). Raises LearnError when the view does not show it."""
        if self._top is None:
            raise LearnError("no view of the board yet")
        self.detector.pieces = learn_opening(self._top, self.detector)
        self._counted = None
        return self.detector.pieces

    def confirm(self) -> None:
        """The umpire confirmed the last stroke: the view after it is right, and its
        pieces teach the set their looks."""
        if self._top is None or self._before is None:
            return
        if self.detector.pieces is None:
            self.detector.pieces = PieceSet()
        self.detector.pieces.learn(lab(self._top), self._before)

    def diff_at_rest(
        self,
        before: Array,
        after: Array,
        seen_before: Array | None = None,
        seen_after: Array | None = None,
    ) -> tuple[BoardView, BoardView, StrokeDiff]:
        """The kiosk's path on two top views of one board at rest, a stroke between
        them (what `tableside vision diff` runs): the empty board as kept, else learned
        from `before` as from a first frame; `before` counted; the set in use taught by
        the pieces `before` is sure of (as a confirmed view teaches it); `after` counted
        with that set; and the diff, with no sightings in between. `seen_*` (bool) mark
        the top-view pixels that came from each photo."""
        cold = self.detector.empty is None
        # With no empty board kept each view is counted cold, its print learned from its
        # own symmetry, as `vision detect` counts a photo (the board learned from a
        # first frame serves the per-frame glance; counted against, it moved with a
        # hand-held camera and lost pieces: bench_vision_pairs.py).
        cold_detector = Detector(None, self.detector.pieces, self.detector.params)
        if cold:
            view_before = cold_detector.find(before, seen_before)
        else:
            view_before = self._count(before, None, seen_before)
        self._before, self._rest_top = view_before, before
        doubted = {(d.colour, d.x_mm, d.y_mm) for d in view_before.unsure if d.counted}
        sure = tuple(c for c in view_before.coins if (c.colour, c.x_mm, c.y_mm) not in doubted)
        if len({c.colour for c in sure}) >= 2:
            if self.detector.pieces is None:
                self.detector.pieces = PieceSet()
            self.detector.pieces.learn(lab(before), BoardView(sure, view_before.occlusion))
        self._counted = None
        if cold:
            cold_detector.pieces = self.detector.pieces
            view_after = cold_detector.find(after, seen_after)
        else:
            view_after = self._count(after, None, seen_after)
        return view_before, view_after, stroke_diff(view_before, view_after, (), self.settings.diff)

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
        if self.detector.empty is None:
            self._learn_empty(top)
        if self._counted is None and not self._tracker.moving:
            self._count(top, None)  # the pieces at rest, which the glance then explains
        # Every frame: what hides the board and the pieces moving (cheap).
        rest = self._counted[1].coins if self._counted is not None else ()
        glance = self.detector.glance(top, rest)
        motion = self._meter.update(top, glance.occlusion)
        events: list[WatchEvent] = []
        change = self._tracker.update(t, motion.coins_moving)
        if change is not None and change[0] == "started":
            if self._pending_since is not None:
                # A new stroke before the last diff: diff with what there is.
                events.append(self._diff(self._count(top, glance)))
            events.append(StrokeStarted(change[1]))
            self._sightings = []
            self._kept = []
            if self.stills is not None:
                self._strokes = self.stills.next_stroke()
                if self._rest_image is not None:
                    self._keep("before", self._rest_image)
        if self._tracker.moving or change is not None:
            self._sightings.extend(Sighting(t, c) for c in glance.coins)
            self.board = glance
        if change is not None and change[0] == "rest":
            view = self._count(top, glance)
            events.append(CoinsAtRest(change[1], view))
            self._pending_since = t
        pending = self._pending_since
        if (
            pending is not None
            and not self._tracker.moving
            and (self._clear_for_diff(glance) or t - pending >= self.settings.clear_wait_s)
        ):
            if self.stills is not None and self._strokes:
                self._keep("after", image)
            events.append(replace(self._diff(self._count(top, glance)), stills=tuple(self._kept)))
            self._kept = []
        if not self._tracker.moving and self._pending_since is None:
            clear = not glance.occlusion.any()
            if self._before is None or clear:
                self._before = self._count(top, glance)
                self._rest_image = image
                self._rest_top = top
            self._frames += 1
            if clear and self._frames % self.settings.learn_every == 0:
                self._learn(top, glance)
        return events

    def _learn_empty(self, top: Array, seen: Array | None = None) -> None:
        """The empty board from the first view: the bare board as seen, and under the
        pieces the board's print where its symmetry shows it; elsewhere under them it is
        not known until seen bare (the detector then goes by the network's heat)."""
        view = self.detector.find(top, seen)
        found = self.detector.judged_against
        assert found is not None
        pieces: Array = np.zeros((B.TOP_PX, B.TOP_PX), np.uint8)
        for colour, x, y in _places(view.coins, view.unsure):
            u, v = B.mm_to_top(x, y)
            r = (B.STRIKER_D_MM if colour == "striker" else B.COIN_D_MM) / 2 * B.SCALE + 4
            cv2.circle(pieces, (round(u), round(v)), round(r), 1, -1)
        painted = cv2.inpaint(top, pieces, 5, cv2.INPAINT_TELEA)
        board = lab(painted)
        use = (pieces > 0) & found.known
        board[use] = found.lab[use]
        known = (pieces == 0) | found.known
        if seen is not None:
            known &= np.asarray(seen, bool)
        self.detector.empty = EmptyBoard(board, known)
        self._counted = None

    def _count(self, top: Array, glance: BoardView | None, seen: Array | None = None) -> BoardView:
        """The detector's count of a view at rest, or the last one when this is the same
        view (see WatcherSettings.still_levels); what hides the board is this frame's."""
        self._top = top
        side = B.TOP_PX // 4
        grey = cv2.cvtColor(top, cv2.COLOR_BGR2GRAY)
        blocks = cv2.resize(grey, (side, side), interpolation=cv2.INTER_AREA).astype(np.int16)
        last, still = self._counted, self.settings.still_levels
        if last is not None and still > 0 and int(np.abs(blocks - last[0]).max()) <= still:
            view = last[1]
        else:
            view = self.detector.find(top, seen)
            if self._reveal(top, view):
                view = self.detector.find(top, seen)
            if self.detector.pieces is None and looks_like_opening(view):
                # The set in use, learned from the opening (law 41) the first time it
                # is seen; every stroke the umpire confirms teaches it more (confirm).
                with contextlib.suppress(LearnError):
                    self.detector.pieces = learn_opening(top, self.detector, view)
                    view = self.detector.find(top, seen)
            self._counted = (blocks, view)
        if glance is not None and glance.occlusion.any():
            view = BoardView(view.coins, glance.occlusion | view.occlusion, view.unsure)
        self.board = view
        return view

    def _reveal(self, top: Array, view: BoardView) -> bool:
        """Where the empty board is not known (it was learned under a piece), a piece
        counted at the very place a piece was counted before, but looking different now,
        is the board uncovered (the piece left; what is there is the print): the empty
        board learns it there. Whether it did."""
        empty, last = self.detector.empty, self._rest_top
        if empty is None or last is None or self._before is None:
            return False
        now, then = lab(top), lab(last)
        learnt = False
        for c in view.coins:
            u, v = B.mm_to_top(c.x_mm, c.y_mm)
            if share(empty.known.astype(np.uint8), u, v, R_COIN) > 0.5:
                continue
            same = any(
                math.hypot(b.x_mm - c.x_mm, b.y_mm - c.y_mm) < 4.0 for b in self._before.coins
            )
            look = float(
                np.linalg.norm(
                    disc_lab(now, u, v, 0.7 * R_COIN) - disc_lab(then, u, v, 0.7 * R_COIN)
                )
            )
            if same and look > 10.0:
                disc: Array = np.zeros((B.TOP_PX, B.TOP_PX), np.uint8)
                cv2.circle(disc, (round(u), round(v)), round(R_COIN + 4), 1, -1)
                empty.blend(top, disc, 0.0)
                learnt = True
        return learnt

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

    def _learn(self, top: Array, glance: BoardView) -> None:
        """Blend the bare board (no piece counted there, nothing hiding it) into the
        empty board: new powder and a drifting lamp stop counting as change."""
        if self.detector.empty is None or self._counted is None:
            return
        bare: Array = np.ones((B.TOP_PX, B.TOP_PX), np.uint8)
        counted = self._counted[1]
        for colour, x, y in _places((*counted.coins, *glance.coins), counted.unsure):
            u, v = B.mm_to_top(x, y)
            r = (B.STRIKER_D_MM if colour == "striker" else B.COIN_D_MM) / 2 * B.SCALE + 6
            cv2.circle(bare, (round(u), round(v)), round(r), 0, -1)
        bare[glance.occlusion > 0] = 0
        self.detector.empty.blend(top, bare, self.settings.learn_rate)


def _places(coins: Sequence[Coin], doubts: Sequence[Doubt]) -> list[tuple[str, float, float]]:
    """Class and place (mm) of pieces counted and pieces in doubt."""
    return [(c.colour, c.x_mm, c.y_mm) for c in coins] + [
        (d.colour, d.x_mm, d.y_mm) for d in doubts
    ]
