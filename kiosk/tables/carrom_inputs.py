"""What comes into a carrom table from its sensors and the umpire's edit, as timestamped
inputs, and how each is journaled.

The pocket beams post `drivers.hits.BeamHit` and `BeamFault` as they are. The camera's
events (vision/watcher.py) are translated by kiosk/parts/camera.py into the small types
below, so the table needs neither OpenCV nor a camera to be tested. Every `t` is on the
table's one monotonic clock.

`input_row` says how an input is journaled (source, kind, data) and `input_from_row` reads it
back, so that resuming feeds the journaled inputs through the same `take()` as at run time.
The rows keep the shape journals have always had ("beam_hit", "beam_fault", "camera" with
"what", "tap" with "action": "edit").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from drivers.hits import BeamFault, BeamHit
from kiosk.engine.faults import PartFault as PartFault
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
    """The board before and after the stroke (vision/diff.py `StrokeDiff`). `calibrated`:
    whether the camera's board was calibrated when the table took it, journaled with it so
    that a resumed table counts it as it did then (None: not yet taken; a row journaled
    before the flag was kept reads None, and counts by the calibration now)."""

    t: float
    diff: DiffLike
    calibrated: bool | None = None


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
class ProposalEdit:
    """The umpire corrects the proposed stroke (`changes`: the fields of `Proposal.edited`,
    as the journal keeps them: lists, not tuples); `by`: the role that did (the journal's
    source)."""

    t: float
    changes: Mapping[str, Any]
    by: str = "umpire"


@dataclass(frozen=True, slots=True)
class RecordedGone:
    """A vanished coin as the journal keeps it (the camera's GoneCoin, trimmed)."""

    colour: str
    pocket: int | None


@dataclass(frozen=True, slots=True)
class RecordedDiff:
    """A camera diff read back from the journal."""

    gone: tuple[RecordedGone, ...]
    striker_gone: bool
    off_board: tuple[str, ...]
    unseen: tuple[str, ...] = ()
    unsure: tuple[str, ...] = ()


def diff_to_dict(diff: DiffLike) -> dict[str, Any]:
    """The journal's camera diff; with the protest stills' file names when the watcher kept
    them (vision/stills.py, beside the journal), for `tableside protest`."""
    out: dict[str, Any] = {
        "gone": [{"colour": g.colour, "pocket": g.pocket} for g in diff.gone],
        "striker_gone": bool(diff.striker_gone),
        "off_board": list(diff.off_board),
    }
    # What the camera could not see, and the classes it doubts: a resumed table proposes the
    # stroke again from the journal as it first did.
    for name in ("unseen", "unsure", "stills"):
        values = getattr(diff, name, ())
        if values:
            out[name] = [str(value) for value in values]
    return out


def diff_from_dict(data: Mapping[str, Any]) -> RecordedDiff:
    return RecordedDiff(
        tuple(RecordedGone(str(g["colour"]), g.get("pocket")) for g in data.get("gone", [])),
        bool(data.get("striker_gone", False)),
        tuple(str(c) for c in data.get("off_board", [])),
        tuple(str(c) for c in data.get("unseen", [])),
        tuple(str(c) for c in data.get("unsure", [])),
    )


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

Input: TypeAlias = SensorInput | ProposalEdit
INPUT_TYPES = (
    BeamHit,
    BeamFault,
    CameraMotion,
    CameraRest,
    CameraDiff,
    CameraAlive,
    CameraLost,
    PartFault,
    ProposalEdit,
)


def input_row(item: Input) -> tuple[str, str, dict[str, Any]] | None:
    """(source, kind, data) of the journal row for `item`; None for an input that is not
    journaled as such (a heartbeat; a lost camera or a part's fault is journaled as a fault)."""
    if isinstance(item, BeamHit):
        return "beam", "beam_hit", {"pocket": item.pocket, "duration": item.duration}
    if isinstance(item, BeamFault):
        fault = {"pocket": item.pocket, "kind": item.kind}
        return "beam", "beam_fault", {**fault, "held": item.held} if item.held else fault
    if isinstance(item, CameraMotion):
        return "camera", "camera", {"what": "motion"}
    if isinstance(item, CameraRest):
        return "camera", "camera", {"what": "rest"}
    if isinstance(item, CameraDiff):
        data = {"what": "diff", **diff_to_dict(item.diff)}
        if item.calibrated is not None:
            data["calibrated"] = item.calibrated
        return "camera", "camera", data
    if isinstance(item, ProposalEdit):
        return item.by, "tap", {"action": "edit", "changes": dict(item.changes)}
    return None


def input_from_row(kind: str, data: Mapping[str, Any], t: float = 0.0) -> Input | None:
    """The input a journal row holds (`t`: its time), or None for a row that is not one
    (events, undos, timers, faults, the umpire's other taps)."""
    if kind == "beam_hit":
        return BeamHit(int(data["pocket"]), t, float(data["duration"]))
    if kind == "beam_fault":
        return BeamFault(
            int(data["pocket"]), data.get("kind", "stuck"), t, int(data.get("held", 0))
        )
    if kind == "camera":
        what = data.get("what")
        if what == "motion":
            return CameraMotion(t)
        if what == "rest":
            return CameraRest(t)
        if what == "diff":
            calibrated = data.get("calibrated")
            return CameraDiff(
                t, diff_from_dict(data), None if calibrated is None else bool(calibrated)
            )
    if kind == "tap" and data.get("action") == "edit":
        return ProposalEdit(t, dict(data["changes"]))
    return None
