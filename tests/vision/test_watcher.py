"""BoardWatcher: frames of a simulated board in, StrokeStarted / CoinsAtRest / StrokeDiff out."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from vision.calibration import auto_calibrate
from vision.diff import StrokeDiff
from vision.motion import CoinsAtRest, StrokeStarted
from vision.sim import render as S
from vision.sim.live import SimulatedBoard
from vision.sim.render import Hand, Scene
from vision.watcher import BoardWatcher, WatchEvent

FPS = 30.0


def run(
    watcher: BoardWatcher, board: SimulatedBoard, until: float
) -> list[tuple[float, WatchEvent]]:
    out = []
    for k in range(round(until * FPS)):
        t = k / FPS
        out.extend((t, e) for e in watcher.feed(t, board.frame(t)))
    return out


def test_law_123_watcher_reports_start_rest_and_diff_in_order() -> None:
    board = SimulatedBoard()
    empty = board.empty_frame()
    watcher = BoardWatcher.from_empty_board(auto_calibrate(empty), [empty])
    board.strike(1.0, [("white", 3), ("black", 1)], duration=0.8)
    events = run(watcher, board, 3.0)
    kinds = [type(e).__name__ for _, e in events]
    assert kinds == ["StrokeStarted", "CoinsAtRest", "StrokeDiff"]
    started, rest, diff = (e for _, e in events)
    assert isinstance(started, StrokeStarted) and 1.0 <= started.t <= 1.0 + 2 / FPS
    # Law 123: the stroke is complete when the coins stop (at 1.8 s here), reported later.
    assert isinstance(rest, CoinsAtRest) and 1.8 <= rest.t <= 1.8 + 2 / FPS
    assert rest.board is not None
    assert rest.board.counts() == {"white": 8, "black": 8, "queen": 1, "striker": 1}
    assert isinstance(diff, StrokeDiff)
    assert sorted((g.colour, g.pocket) for g in diff.gone) == [("black", 1), ("white", 3)]
    assert not diff.striker_gone and diff.off_board == ()


def test_watcher_started_as_the_engine_starts_it_learns_the_board() -> None:
    # kiosk/parts/camera.py builds BoardWatcher() with no calibration and no reference.
    board = SimulatedBoard()
    watcher = BoardWatcher()
    board.strike(0.5, [("queen", 2)], striker_pocket=4, duration=0.6)
    events = [e for _, e in run(watcher, board, 2.2)]
    diffs = [e for e in events if isinstance(e, StrokeDiff)]
    assert len(diffs) == 1
    assert [(g.colour, g.pocket) for g in diffs[0].gone] == [("queen", 2)]
    assert diffs[0].striker_gone  # law 72: the striker went in (the beams confirm it)


def test_watcher_accepts_the_config_calibration() -> None:
    board = SimulatedBoard()
    empty = board.empty_frame()
    points = auto_calibrate(empty).to_config()
    watcher = BoardWatcher(points)
    assert watcher.feed(0.0, board.frame(0.0)) == []
    assert watcher.board is not None and watcher.board.counts()["white"] == 9


def test_watcher_hand_moving_over_the_board_is_not_a_stroke() -> None:
    board = SimulatedBoard()
    empty = board.empty_frame()
    watcher = BoardWatcher.from_empty_board(auto_calibrate(empty), [empty])
    events = []
    for k in range(24):
        t = k / FPS
        # The umpire's hand reaches in from the right to the middle and back out.
        reach = 250.0 * math.sin(math.pi * k / 23)
        hand = Hand(740.0 - 40.0 - reach, 520.0, math.pi, (90, 110, 150), (60, 60, 60))
        frame = S.render(Scene(tuple(board.pieces), board.look, hand))
        events.extend(watcher.feed(t, frame))
    assert events == []


def test_watcher_measures_a_still_board_once_and_a_coin_moved_a_millimetre_again() -> None:
    board = SimulatedBoard()
    empty = board.empty_frame()
    watcher = BoardWatcher.from_empty_board(auto_calibrate(empty), [empty])
    rng = np.random.default_rng(5)

    def camera(t: float) -> np.ndarray:  # a real camera's noise is new in every frame
        frame = board.frame(t).astype(np.float32) + rng.normal(0, 3.0, (480, 640, 3))
        return np.clip(frame, 0, 255).astype(np.uint8)

    watcher.feed(0.0, camera(0.0))
    first = watcher.board
    for k in range(1, 10):
        watcher.feed(k / FPS, camera(k / FPS))
        assert watcher.board is first  # the same view: measured once
    i = next(k for k, p in enumerate(board.pieces) if p.colour == "black")
    was = board.pieces[i]
    board.pieces[i] = replace(was, x_mm=was.x_mm + 1.0)
    watcher.feed(10 / FPS, camera(10 / FPS))
    assert watcher.board is not None and watcher.board is not first
    assert first is not None
    before, after = (
        min(
            (c for c in view.coins if c.colour == "black"),
            key=lambda c: math.hypot(c.x_mm - was.x_mm, c.y_mm - was.y_mm),
        )
        for view in (first, watcher.board)
    )
    assert abs(after.x_mm - before.x_mm - 1.0) < 0.3 and abs(after.y_mm - before.y_mm) < 0.3
