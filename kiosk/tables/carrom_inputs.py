"""What comes into a carrom table session from its sensors, as timestamped events.

The pocket beams post `drivers.hits.BeamHit` and `BeamFault` as they are. The camera's
events (vision/watcher.py) are translated by kiosk/engine/hardware.py into the small types
below, so the session needs neither OpenCV nor a camera to be tested. Every `t` is on the
session's one monotonic clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from drivers.hits import BeamFault, BeamHit
from kiosk.tables.fusion import DiffLike


@dataclass(frozen=True, slots=True)
class CameraMotion:
    """The camera saw the coins begin to move: the stroke has started (the count stops)."""

    t: float


@dataclass(frozen=True, slots=True)
class CameraRest:
    """The coins are at rest (law 123): the stroke is complete."""

    t: float


@dataclass(frozen=True, slots=True)
class CameraDiff:
    """The board before and after the stroke (vision/diff.py `StrokeDiff`)."""

    t: float
    diff: DiffLike


@dataclass(frozen=True, slots=True)
class CameraAlive:
    """Frames are arriving (posted now and then by the capture thread; not journaled)."""

    t: float


@dataclass(frozen=True, slots=True)
class CameraLost:
    """The camera stopped delivering frames, or could not be opened."""

    t: float
    reason: str


@dataclass(frozen=True, slots=True)
class PartFault:
    """Any other part reports trouble (`message`) or that it works again (`message` None)."""

    t: float
    part: str
    message: str | None


SensorInput: TypeAlias = (
    BeamHit
    | BeamFault
    | CameraMotion
    | CameraRest
    | CameraDiff
    | CameraAlive
    | CameraLost
    | PartFault
)
