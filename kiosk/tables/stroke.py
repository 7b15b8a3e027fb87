"""The stroke in progress at a carrom table: the one place that holds it.

A `StrokeTracker` knows the stroke's phase ("aiming": waiting for a stroke, "moving": a
stroke under way, "at_rest": the proposal waits for the umpire), the beam hits and the
camera's diff seen since the stroke began, and the umpire's edit of the proposal. It is pure:
each method says whether the input changed the phase, and the table decides what follows
(the timers, the auto-confirm). The table feeds it the same inputs at run time and when it
resumes from the journal, so both take one path.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, TypeAlias

from kiosk.tables.fusion import Context, DiffLike, HitLike, Proposal, fuse

StrokePhase: TypeAlias = Literal["aiming", "moving", "at_rest"]


@dataclass(frozen=True, slots=True)
class Counted:
    """A coin the umpire counted at a pocket (the pocket's count set by hand)."""

    pocket: int
    t: float = 0.0
    duration: float = 0.0


class StrokeTracker:
    """What the sensors and the umpire said about the stroke in progress."""

    def __init__(self) -> None:
        self.phase: StrokePhase = "aiming"
        self.hits: list[HitLike] = []
        self.diff: DiffLike | None = None
        self.edit: Proposal | None = None
        #: The pockets whose count the umpire set: pocket -> coins (its hits then do not count).
        self.counts: dict[int, int] = {}

    def reset(self) -> None:
        """A confirmed event (or an undo, a new match): the next stroke starts afresh."""
        self.phase = "aiming"
        self.hits = []
        self.diff = None
        self.edit = None
        self.counts = {}

    def clear(self) -> None:
        """The umpire clears the proposal: nothing pocketed, whatever the sensors said; what
        they say later in this stroke is not counted either (the umpire's edit stands)."""
        self.hits = []
        self.diff = None
        self.counts = {}
        self.edit = Proposal().edited()

    def set_count(self, pocket: int, count: int) -> None:
        """The umpire sets the coins that went into `pocket` (a beam that chattered, one
        that is out): the colours follow as for beam hits, from the camera or a guess."""
        self.counts[pocket] = count
        self.edit = None

    def hit(self, hit: HitLike) -> bool:
        """A counted beam hit; True when it is the first sign of the stroke (the count stops)."""
        self.hits.append(hit)
        if self.phase == "aiming":
            self.phase = "moving"
            return True
        return False

    def drop_hits(self, pocket: int) -> None:
        """A flapping beam's hits so far are not counted (the umpire sees to them)."""
        self.hits = [h for h in self.hits if h.pocket != pocket]

    def motion(self) -> bool:
        """The camera saw the coins move; True when a stroke starts with it (while aiming, or
        a new stroke while the last one waits at rest)."""
        if self.phase in ("aiming", "at_rest"):
            self.phase = "moving"
            return True
        return False

    def rest(self) -> bool:
        """The coins came to rest (law 123); True when that completes the moving stroke."""
        if self.phase == "moving":
            self.phase = "at_rest"
            return True
        return False

    def seen(self, diff: DiffLike) -> bool:
        """The camera's diff; kept (True) only during a stroke: a diff that comes after the
        umpire confirmed belongs to the stroke already recorded."""
        if self.phase in ("moving", "at_rest"):
            self.diff = diff
            return True
        return False

    def proposal(self, beams: Iterable[int], context: Context) -> Proposal:
        """The umpire's edit if any, else the fusion of the hits and the diff; `beams`: the
        pockets whose beam works."""
        if self.edit is not None:
            return self.edit
        hits: list[HitLike] = [h for h in self.hits if h.pocket not in self.counts]
        for pocket, n in sorted(self.counts.items()):
            hits += [Counted(pocket)] * n
        working = sorted({*beams, *self.counts})
        return fuse(hits, self.diff, beams=working, context=context)
