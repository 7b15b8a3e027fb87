"""Shared helpers for the vision tests: scenes rendered by the synthetic board."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.calibration import Calibration, auto_calibrate
from vision.pieces import BoardView, Detector, EmptyBoard
from vision.sim import render as S

Array = npt.NDArray[Any]


def reference_for(scene: S.Scene) -> tuple[Calibration, EmptyBoard]:
    """Calibrate and take the reference from the empty board, as the kiosk does at
    the start of a session: before the powder, at a slightly different exposure."""
    look = replace(scene.look, powder=0.0, exposure=scene.look.exposure * 0.96)
    empty = S.render(S.Scene((), look))
    cal = auto_calibrate(empty)
    return cal, EmptyBoard([cal.warp(empty)])


def detect_scene(scene: S.Scene) -> BoardView:
    cal, ref = reference_for(scene)
    return Detector(ref).find(cal.warp(S.render(scene)))


def match_errors(scene: S.Scene, view: BoardView) -> list[float]:
    """For each piece of the scene, the distance (mm) to the nearest detection of its colour."""
    errs = []
    for p in scene.pieces:
        same = [c for c in view.coins if c.colour == p.colour]
        errs.append(min((math.hypot(c.x_mm - p.x_mm, c.y_mm - p.y_mm) for c in same), default=1e9))
    return errs


def truth_counts(scene: S.Scene) -> dict[str, int]:
    out = dict.fromkeys(("white", "black", "queen", "striker"), 0)
    for p in scene.pieces:
        out[p.colour] += 1
    return out


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)
