"""The parts beside a carrom table and whether they work: the one place that holds it.

`PartsHealth` knows which beams and whether a camera are fitted, the faults active now
(kiosk/engine/faults.py), and when the camera last sent a frame. A beam works while it is
fitted and has no fault; the camera works while it is fitted and has no fault: those are
read from the faults, never kept beside them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from drivers.hits import BeamFault
from kiosk.engine.faults import FaultBoard
from kiosk.errors import N_, Reason, ReasonedText
from kiosk.tables.sensor_faults import camera_silent, said

__all__ = [
    "CAMERA_TIMEOUT_S",
    "PartsHealth",
    "beam_doubt",
    "beam_fault_message",
    "beam_part",
    "camera_silent",
]

#: A camera that sends no frame for this long is a fault (the table goes on with beams).
CAMERA_TIMEOUT_S = 3.0
#: Hits at one pocket closer than this (start to start) are not coins: a coin takes longer
#: to fall through the beam, and a second one lands on it later still.
CHATTER_S = 0.05
#: This many hits at one pocket in one stroke, each within CHATTER_S of the last, is chatter
#: (two coins may drop together; a run of them is a beam's contact bouncing, a held key).
CHATTER_HITS = 4

#: What a beam the table doubts says (worded by the interface from its facts).
BEAM_DOUBTS = {
    "beam_chatter": N_(
        "Pocket {pocket}'s beam chatters ({n} hits in {ms} ms): its count is left to the umpire"
    ),
    "beam_excess": N_(
        "Pocket {pocket}'s beam counted {n} coins in one stroke, more than the {most} on the "
        "board: its count is left to the umpire"
    ),
}


def beam_part(pocket: int) -> str:
    """The part name of `pocket`'s beam in the faults ("beam 3")."""
    return f"beam {pocket}"


def beam_fault_message(fault: BeamFault) -> str:
    """What a beam's fault says on the umpire's screen (in English; its facts for the
    umpire's language: kiosk/tables/sensor_faults.py)."""
    kind = fault.kind if fault.kind in ("stuck", "flapping") else "blocked"
    what = {
        "stuck": "stuck",
        "flapping": "flapping: its hits are held for the umpire, not counted",
    }.get(kind, "blocked at start-up")
    return said(f"pocket {fault.pocket}'s beam is {what}", f"beam_{kind}", pocket=fault.pocket)


def beam_doubt(times: Sequence[float], pocket: int, most: int) -> ReasonedText | None:
    """Why the hits at `pocket` in this stroke (their times) cannot be coins, or None: more
    than the `most` pieces that can go in, or a run of chatter. Either is a fault of the beam
    (its count goes to the umpire), not a count."""
    n = len(times)
    if n > most:
        text = BEAM_DOUBTS["beam_excess"].format(pocket=pocket, n=n, most=most)
        return ReasonedText(
            text, Reason("beam_excess", BEAM_DOUBTS["beam_excess"],
                         facts=(("pocket", pocket), ("n", n), ("most", most)))
        )  # fmt: skip
    ordered = sorted(times)
    run = best = 1
    start = best_start = 0
    for i in range(1, n):
        if ordered[i] - ordered[i - 1] < CHATTER_S:
            run += 1
        else:
            run, start = 1, i
        if run > best:
            best, best_start = run, start
    if best >= CHATTER_HITS:
        ms = round((ordered[best_start + best - 1] - ordered[best_start]) * 1000)
        text = BEAM_DOUBTS["beam_chatter"].format(pocket=pocket, n=best, ms=ms)
        return ReasonedText(
            text, Reason("beam_chatter", BEAM_DOUBTS["beam_chatter"],
                         facts=(("pocket", pocket), ("n", best), ("ms", ms)))
        )  # fmt: skip
    return None


class PartsHealth:
    """Fitted parts, their faults and the camera's last frame (times on the monotonic clock)."""

    def __init__(
        self, beams: Iterable[int], camera: bool, started: float, faults: FaultBoard | None = None
    ) -> None:
        #: The table's fault board (kiosk/tables/base.py): the parts' faults are on it.
        self.faults = FaultBoard() if faults is None else faults
        self.fit(beams, camera, started)

    def fit(self, beams: Iterable[int], camera: bool, started: float) -> None:
        """Say which parts started; the camera's silence is counted from `started`."""
        self.fitted_beams = frozenset(beams)
        self.camera_fitted = camera
        self.camera_seen: float | None = None
        self.started = started

    @property
    def working_beams(self) -> tuple[int, ...]:
        """The fitted pockets whose beam has no fault, in order."""
        return tuple(p for p in sorted(self.fitted_beams) if not self.faults.active(beam_part(p)))

    @property
    def camera_ok(self) -> bool:
        return self.camera_fitted and not self.faults.active("camera")

    def camera_alive(self, t: float) -> None:
        self.camera_seen = max(t, self.camera_seen or t)

    def camera_deadline(self) -> float | None:
        """When a fitted camera that works becomes silent for too long, or None."""
        if not self.camera_ok:
            return None
        seen = self.camera_seen if self.camera_seen is not None else self.started
        return seen + CAMERA_TIMEOUT_S

    def camera_silent(self, now: float) -> float | None:
        """Seconds without a frame when that is a new fault by `now`, else None."""
        if not self.camera_ok:
            return None
        seen = self.camera_seen if self.camera_seen is not None else self.started
        return now - seen if now - seen >= CAMERA_TIMEOUT_S else None
