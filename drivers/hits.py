"""What the pocket beams report, and the pure filter that turns edges into hits.

gpiozero's `bounce_time` is ignored by MockPin and drops short pulses on lgpio,
so filtering is ours: a constant-time step per edge over timestamps, with no
clock, pin or thread of its own. The same filter serves the GPIO beams, the
simulated beams and (in C, in drivers/firmware/) the sensor bridge.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Literal, TypeAlias

FaultKind: TypeAlias = Literal["stuck", "cleared", "blocked_at_start", "flapping"]
FAULT_KINDS: tuple[FaultKind, ...] = ("stuck", "cleared", "blocked_at_start", "flapping")
POCKETS: tuple[int, ...] = (1, 2, 3, 4)


@dataclass(frozen=True, slots=True)
class BeamHit:
    """A coin (or the striker) went through `pocket`: the beam broke at `t`
    (seconds on the kiosk's monotonic clock) and stayed broken `duration` s."""

    pocket: int
    t: float
    duration: float


@dataclass(frozen=True, slots=True)
class BeamFault:
    """A beam that cannot count: "stuck" (blocked longer than the stuck
    setting), "cleared" (a stuck, blocked or flapping beam works again),
    "blocked_at_start" (broken when the driver started) or "flapping" (breaking
    hundreds of times a second: a loose wire, a failing emitter). `held`, on
    "cleared" after flapping: how many hits were held back, not counted."""

    pocket: int
    kind: FaultKind
    t: float
    held: int = 0


BeamReport: TypeAlias = BeamHit | BeamFault


class BeamFilter:
    """Turns the edges of one beam into hits and faults.

    The rules, in the order they apply:

    - a break shorter than `glitch_s` is held back: if the beam breaks again
      within `merge_s` it was chatter at the leading edge, and the interruption
      goes on from its first edge; otherwise it was a glitch and is dropped;
    - a hit is reported at once when the beam clears (lowest latency); if the
      beam breaks again within `merge_s` of that, it is chatter at the trailing
      edge and is absorbed into the hit already reported;
    - so two coins through one pocket 20 ms apart are two hits as long as
      `merge_s` is below the gap between them (default 5 ms);
    - a beam broken `stuck_s` or longer is "stuck": no hit is reported for that
      interruption, and "cleared" follows when it clears. `poll(now)` reports
      stuck without waiting for an edge; an edge that arrives late reports it too;
    - a beam is "flapping" when its edges keep coming less than `merge_s` apart
      for `flap_chatter_s` (a coin's chatter lasts a millisecond or two; a loose
      wire at hundreds of Hz goes on), or when it gives more than `flap_hits` hits
      within a second (a board holds 19 coins and the striker). From then its hits
      are held in `held` for the umpire, not reported, until it has been clear and
      quiet for `flap_quiet_s`; then "cleared" says how many were held.
    """

    def __init__(
        self,
        pocket: int,
        *,
        glitch_s: float = 0.0005,
        merge_s: float = 0.005,
        stuck_s: float = 2.0,
        flap_chatter_s: float = 0.05,
        flap_hits: int = 20,
        flap_quiet_s: float = 1.0,
    ) -> None:
        if glitch_s < 0.0:
            raise ValueError(f"pocket {pocket}: glitch_s must be >= 0, not {glitch_s}")
        if merge_s < 0.0:
            raise ValueError(f"pocket {pocket}: merge_s must be >= 0, not {merge_s}")
        if not stuck_s > max(glitch_s, merge_s):
            raise ValueError(f"pocket {pocket}: stuck_s must exceed glitch_s and merge_s")
        self.pocket = pocket
        self.glitch_s = glitch_s
        self.merge_s = merge_s
        self.stuck_s = stuck_s
        self.broken = False
        self.stuck = False
        self._start = 0.0  # start of the current interruption
        self._pulse = 0.0  # the latest breaking edge (chatter included)
        self._absorbing = False  # current interruption is trailing chatter of a reported hit
        self._last_end: float | None = None  # when the last reported hit cleared
        self._glitch: tuple[float, float] | None = None  # a too-short interruption, held back
        self.flap_chatter_s = flap_chatter_s
        self.flap_quiet_s = flap_quiet_s
        self.flapping = False
        #: Hits seen while the beam flapped, for the umpire to judge (never counted).
        self.held: list[BeamHit] = []
        self._hit_times: deque[float] = deque(maxlen=flap_hits + 1)
        self._last_edge: float | None = None
        self._run_start = 0.0  # first edge of the current run of edges < merge_s apart

    def start(self, t: float, broken: bool) -> list[BeamReport]:
        """The beam's level when the driver starts; a broken beam is reported."""
        self.broken = broken
        if not broken:
            return []
        self._start = t
        self.stuck = True
        return [BeamFault(self.pocket, "blocked_at_start", t)]

    def edge(self, t: float, broken: bool) -> list[BeamReport]:
        """One edge at time `t`: the beam broke (`broken`) or cleared."""
        if broken == self.broken:
            return []  # a repeated level (e.g. after a missed edge): nothing changed
        out = self.poll(t)
        self.broken = broken
        if self._last_edge is None or t - self._last_edge > self.merge_s:
            self._run_start = t
        self._last_edge = t
        if broken:
            self._break(t)
        else:
            out.extend(self._clear(t))
        for report in out:
            if isinstance(report, BeamHit):
                self._hit_times.append(report.t)
        many = len(self._hit_times) == self._hit_times.maxlen
        if not self.flapping and (
            t - self._run_start >= self.flap_chatter_s or (many and t - self._hit_times[0] <= 1.0)
        ):
            self.flapping = True
            out.append(BeamFault(self.pocket, "flapping", t))
        if self.flapping:
            # Every interruption, chatter and all, is kept for the umpire; none is counted.
            if not broken:
                self.held.append(BeamHit(self.pocket, self._pulse, t - self._pulse))
            out = [r for r in out if not isinstance(r, BeamHit)]
        return out

    def poll(self, now: float) -> list[BeamReport]:
        """Reports "stuck" once the beam has been broken `stuck_s` by `now`, and the end
        of flapping once it has been clear and quiet `flap_quiet_s`."""
        if self.flapping:
            last = self._last_edge or 0.0
            if not self.broken and now - last >= self.flap_quiet_s:
                self.flapping = False
                self._hit_times.clear()
                held, self._glitch, self._absorbing = len(self.held), None, False
                t = last + self.flap_quiet_s
                return [BeamFault(self.pocket, "cleared", t, held)]
            return []
        if self.broken and not self.stuck and now - self._start >= self.stuck_s:
            self.stuck = True
            return [BeamFault(self.pocket, "stuck", self._start + self.stuck_s)]
        return []

    def deadline(self) -> float | None:
        """When `poll` will next have something to say (None: only after an edge)."""
        if self.flapping:
            return None if self.broken else (self._last_edge or 0.0) + self.flap_quiet_s
        if self.broken and not self.stuck:
            return self._start + self.stuck_s
        return None

    def _break(self, t: float) -> None:
        self._pulse = t
        glitch, self._glitch = self._glitch, None
        self._absorbing = False
        if glitch is not None and t - glitch[1] <= self.merge_s:
            self._start = glitch[0]
        elif self._last_end is not None and t - self._last_end <= self.merge_s:
            self._start = t
            self._absorbing = True
        else:
            self._start = t

    def _clear(self, t: float) -> list[BeamReport]:
        if self.stuck:
            self.stuck = False
            self._last_end = None
            return [BeamFault(self.pocket, "cleared", t)]
        if self._absorbing:
            self._absorbing = False
            self._last_end = t  # chatter may go on; keep absorbing from here
            return []
        if t - self._pulse < self.glitch_s:
            self._glitch = (self._start, t)  # a glitch, or leading chatter: wait and see
            return []
        self._last_end = t
        return [BeamHit(self.pocket, self._start, t - self._start)]
