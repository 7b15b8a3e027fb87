"""The carrom table session: sensors in, the rules core and the timers in the middle, the
journal underneath, the screen, the buzzer and the player display out.

DESIGN.md, "the flow of one carrom stroke": the turn timer runs (law 50); the camera sees the
stroke start (the count stops); beam hits and the camera's diff are fused into a proposed
stroke (kiosk/engine/fusion.py); the coins come to rest (law 123) and the umpire confirms or
edits; the confirmed event is pushed to the rules core (an illegal one is refused with the
core's reason and nothing is written), written to the journal (synced) and only then shown;
the timers follow the new state (laws 46, 50, 61, 87 a, 88 a, 124, 138).

Threads: sensors call `post(item)` from any thread (it only queues). Everything else (the
umpire's commands and `poll`) runs on one thread: the runner's loop or Kivy's clock.

Every raw input (beam hits and faults, camera events, the umpire's taps that are not record
events, timer warnings and expiries) and every confirmed event is journaled with its match
time and its source; undo is an entry too. `resume()` rebuilds an unfinished match from the
journal: the confirmed events, and the stroke in progress from the raw inputs since the last
one.
"""

from __future__ import annotations

import math
import queue
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from drivers.hits import BeamFault, BeamHit
from kiosk.clocks.countdown import ClockError, Expired, WarningDue
from kiosk.clocks.turn import TimerSettings as TurnTimerSettings
from kiosk.clocks.turn import TurnTimers
from kiosk.config import Settings
from kiosk.engine.faults import Fault, FaultBoard
from kiosk.engine.fusion import POCKETS, Context, DiffLike, Proposal, fuse
from kiosk.engine.inputs import (
    CameraAlive,
    CameraDiff,
    CameraLost,
    CameraMotion,
    CameraRest,
    PartFault,
)
from kiosk.engine.journal import EVENT, UNDO, Journal, JournalError
from kiosk.engine.outputs import Output, Outputs
from kiosk.engine.timebase import MatchTime
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import (
    Concede,
    Event,
    EventError,
    ForfeitBoard,
    Foul,
    MatchStart,
    Pass,
    Stroke,
    Toss,
    VoidBoard,
    Waive,
    event_from_dict,
    event_to_dict,
)
from kiosk.rules.carrom.match import Match
from kiosk.rules.carrom.state import MatchState, Now, Outcome

KIND = "carrom"
#: A camera that sends no frame for this long is a fault (the session goes on with beams).
CAMERA_TIMEOUT_S = 3.0


@dataclass(frozen=True, slots=True)
class TimerView:
    """The timer running now: which (kiosk/clocks/turn.py kinds), seconds left (to the tenth,
    rounded up so a screen never shows less time than there is), its length."""

    kind: str
    remaining: float
    length: float
    held: bool


@dataclass(frozen=True, slots=True)
class CarromView:
    """All a carrom screen needs at one moment.

    `phase`: "no_match", "aiming" (waiting for a stroke), "moving" (a stroke under way),
    "at_rest" (the proposal waits for the umpire), "over" (the match has a winner).
    `awaiting_lift`: the next count starts when the striker is lifted (law 124 b).
    `expired`: the timer that ran out, for the umpire to rule on (the kiosk never calls a
    time foul itself), until the next command. `last_error`: why the last command was
    refused. `auto_confirm_in`: seconds before the proposal confirms itself, or None.
    """

    match_id: int | None
    state: MatchState | None
    outcome: Outcome | None
    proposal: Proposal
    phase: str
    timer: TimerView | None
    awaiting_lift: bool
    expired: str | None
    faults: tuple[Fault, ...]
    last_error: str | None
    events: int
    can_undo: bool
    auto_confirm_in: float | None
    beams: tuple[int, ...]
    camera: bool
    t: float


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


def diff_to_dict(diff: DiffLike) -> dict[str, Any]:
    return {
        "gone": [{"colour": g.colour, "pocket": g.pocket} for g in diff.gone],
        "striker_gone": bool(diff.striker_gone),
        "off_board": list(diff.off_board),
    }


def diff_from_dict(data: dict[str, Any]) -> RecordedDiff:
    return RecordedDiff(
        tuple(RecordedGone(str(g["colour"]), g.get("pocket")) for g in data.get("gone", [])),
        bool(data.get("striker_gone", False)),
        tuple(str(c) for c in data.get("off_board", [])),
    )


def turn_timer_settings(settings: Settings) -> TurnTimerSettings:
    """The clocks' timer settings from the [timers] section (0 s: no such warning)."""
    s = settings.timers
    return TurnTimerSettings(
        stroke_s=s.stroke_s,
        break_s=s.break_s,
        placing_s=s.placing_s,
        waive_s=s.waive_s,
        change_sides_s=s.change_sides_s,
        interval_s=s.interval_s,
        warn_at_s=s.warn_at_s or None,
        beep_from_s=int(s.beep_from_s) or None,
    )


class CarromSession:
    """One carrom table on a journal.

    `clock`: the monotonic clock every input is stamped with (tests inject a fake one);
    `wall`: the wall clock, used only to carry match time across a restart.
    `beams`: the pockets with a working beam (empty: no beams); `camera`: a camera is
    fitted (its faults and heartbeat are then watched).
    """

    def __init__(
        self,
        journal: Journal,
        settings: Settings | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        outputs: Iterable[Output] = (),
        beams: Iterable[int] = POCKETS,
        camera: bool = False,
    ) -> None:
        self.journal = journal
        self.settings = settings or Settings()
        self.clock = clock
        self.wall = wall
        self.outputs = Outputs(outputs)
        self.faults = FaultBoard()
        self.timers = TurnTimers(turn_timer_settings(self.settings))
        self.match: Match | None = None
        self.match_id: int | None = None
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._fitted_beams = frozenset(beams)
        self._working = set(self._fitted_beams)
        self.camera_fitted = camera
        self._camera_seen: float | None = None
        self._camera_ok = camera
        self._started = clock()
        self._seen = self._started  # latest time handed to the timers
        self._time = MatchTime(self._started)
        self._timer_seen = -math.inf
        self._hits: list[BeamHit] = []
        self._diff: DiffLike | None = None
        self._edit: Proposal | None = None
        self._phase = "aiming"
        self._expired: str | None = None
        self._error: str | None = None
        self._auto_at: float | None = None
        self._last_view: CarromView | None = None

    def fit(self, beams: Iterable[int], camera: bool) -> None:
        """Say which parts started (kiosk/engine/hardware.py builds them after the session,
        since they post to it): the pockets with beams, and whether a camera is watching."""
        self._fitted_beams = frozenset(beams)
        self._working = set(self._fitted_beams)
        self.camera_fitted = camera
        self._camera_ok = camera
        self._camera_seen = None
        self._started = self._now()

    # -- sensors (any thread) -------------------------------------------------------

    def post(self, item: object) -> None:
        """Queue a sensor's input (BeamHit, BeamFault, Camera*, PartFault); never blocks."""
        self._inbox.put(item)

    def wait(self, timeout: float | None) -> bool:
        """Block until an input is queued or `timeout` passes; True if one is waiting."""
        try:
            item = self._inbox.get(timeout=None if timeout is None else max(0.0, timeout))
        except queue.Empty:
            return False
        self._inbox.put(item)  # order among inputs is kept by their timestamps, not the queue
        return True

    # -- starting and resuming -----------------------------------------------------

    def has_unfinished(self) -> bool:
        return self.journal.unfinished(KIND) is not None

    def start_match(self, start: MatchStart) -> CarromView:
        """A new match (laws 39, 42: players, rules, first breaker, board limit). An
        unfinished match in the journal is closed first. IllegalEvent for a bad start."""
        start = replace(start, t=None)
        match = Match(start)
        old = self.journal.unfinished(KIND)
        if old is not None:
            self.journal.finish(old.id)
        now = self._now()
        self.match_id = self.journal.begin_match(KIND, event_to_dict(start), self.wall())
        self.match = match
        self._time = MatchTime(now)
        self._reset_after_change(now)
        self.timers.cancel(self._timer_now(now))
        return self._emit(now)

    def resume(self) -> CarromView | None:
        """Go on with the unfinished match in the journal, exactly where it was (None: there
        is none). JournalError names the entry if the journal cannot be replayed."""
        row = self.journal.unfinished(KIND)
        if row is None:
            return None
        where = "the match line"
        try:
            start = event_from_dict(row.header)
            if not isinstance(start, MatchStart):
                raise EventError("the first line is not the match")
            match = Match(start)
            for n, data in enumerate(self.journal.confirmed(row.id), start=1):
                where = f"confirmed event {n}"
                event = event_from_dict(data)
                if isinstance(event, MatchStart):
                    raise EventError("a second match line")
                match.push(event)
        except (EventError, IllegalEvent) as exc:
            raise JournalError(f"{self.journal.path}: match {row.id}, {where}: {exc}") from exc
        now = self._now()
        self._time = MatchTime.resumed(now, self.wall(), self.journal.last_entry(row.id))
        self.match, self.match_id = match, row.id
        self._reset_after_change(now)
        self.timers.cancel(self._timer_now(now))
        self._restore_stroke(row.id)
        return self._emit(now)

    def _restore_stroke(self, match_id: int) -> None:
        """The stroke in progress at the stop: the raw inputs since the last confirmed event."""
        entries = self.journal.entries(match_id)
        since = 0
        for i, entry in enumerate(entries):
            if entry.kind in (EVENT, UNDO):
                since = i + 1
        out: set[int] = set()  # beams out (stuck) as the inputs came: their hits did not count
        for i, entry in enumerate(entries):
            if entry.kind == "beam_fault":
                pocket = int(entry.data["pocket"])
                if entry.data.get("kind") == "cleared":
                    out.discard(pocket)
                else:
                    out.add(pocket)
            if i < since:
                continue
            if entry.kind == "beam_hit":
                pocket = int(entry.data["pocket"])
                if pocket in out or pocket not in self._fitted_beams:
                    continue
                self._hits.append(BeamHit(pocket, 0.0, float(entry.data["duration"])))
                self._phase = "moving" if self._phase == "aiming" else self._phase
            elif entry.kind == "camera" and entry.data.get("what") == "motion":
                self._phase = "moving"
            elif entry.kind == "camera" and entry.data.get("what") == "diff":
                if self._phase in ("moving", "at_rest"):  # as `_take` decided it
                    self._diff = diff_from_dict(entry.data)
            elif entry.kind == "camera" and entry.data.get("what") == "rest":
                if self._phase == "moving":
                    self._phase = "at_rest"
            elif entry.kind == "tap" and entry.data.get("action") == "edit":
                self._edit = self.proposal.edited(**entry.data["changes"])

    def finish(self) -> None:
        """Close the match in the journal (it is no longer offered for resuming)."""
        if self.match_id is not None:
            self.journal.finish(self.match_id)

    # -- the umpire's commands -------------------------------------------------------

    @property
    def proposal(self) -> Proposal:
        """The proposed stroke: the umpire's edit if any, else the fusion of what the beams
        and the camera saw during this stroke."""
        if self._edit is not None:
            return self._edit
        context = Context()
        if self.match is not None and self.match.state.now is not None:
            now = self.match.state.now
            context = Context(now.colours[now.turn_side], now.on_board)
        diff = self._diff if self._camera_ok or self._diff is not None else None
        return fuse(self._hits, diff, beams=sorted(self._working), context=context)

    def edit(self, **changes: Any) -> CarromView:
        """Correct the proposal (pocketed=[...], striker=, off_board=[...], improper=,
        touched=); it stands until the stroke is confirmed."""
        now = self._now()
        self._edit = self.proposal.edited(**changes)
        self._tap(now, "edit", changes={k: _jsonable(v) for k, v in changes.items()})
        return self._emit(now)

    def confirm(self, proposal: Proposal | None = None, *, source: str = "umpire") -> CarromView:
        """Confirm the proposed stroke (or `proposal`): it enters the match and the journal."""
        return self._commit((proposal or self.proposal).to_stroke(), source)

    def foul(self, by: str | None = None) -> CarromView:
        """A foul outside a stroke: technical (law 63) before the first stroke of the turn or
        on a player not at turn, else it ends the turn (law 64). `by` None: the player at turn."""
        return self._commit(Foul(by=by), "umpire")

    technical_foul = foul

    def waive(self, by: str | None = None) -> CarromView:
        """The placing side gives up the dues and penalties owed to it (law 87 a)."""
        return self._commit(Waive(by=by), "umpire")

    def pass_turn(self) -> CarromView:
        """The player at turn passes (law 137)."""
        return self._commit(Pass(), "umpire")

    def void_board(self) -> CarromView:
        """The umpire voids the board in progress (laws 137, 140, 142)."""
        return self._commit(VoidBoard(), "umpire")

    def forfeit_board(self, by: str) -> CarromView:
        """`by` loses the board in progress (laws 51, 91, 121, 126)."""
        return self._commit(ForfeitBoard(by=by), "umpire")

    def concede(self, by: str) -> CarromView:
        """`by`'s side concedes the match or loses it by a decision (laws 139, 143)."""
        return self._commit(Concede(by=by), "umpire")

    def toss(self, winner: str) -> CarromView:
        """The toss for the extra board after a tie at the board limit (law 56 b)."""
        return self._commit(Toss(winner=winner), "umpire")

    def undo(self) -> CarromView:
        """Undo the last confirmed event. The journal keeps it and records the undo."""
        match, match_id = self._need()
        now = self._now()
        if not match.events:
            self._error = "nothing to undo: no event has been confirmed yet"
            return self._emit(now)
        was_over = match.state.winner is not None
        event = match.pop()
        try:
            self.journal.append(match_id, self._time.t(now), self.wall(), "umpire", UNDO, {})
        except BaseException:
            match.push(event)
            raise
        if was_over:
            self.journal.reopen(match_id)  # the match goes on: offered for resuming again
        self._reset_after_change(now)
        self.timers.cancel(self._timer_now(now))
        return self._emit(now)

    def play(self) -> CarromView:
        """The umpire's "play": after a stop the count goes on (law 121 a); before a break
        it starts the 15 s to break (law 46)."""
        now = self._now()
        self._tap(now, "play")
        t = self._timer_now(now)
        state_now = self._state_now()
        if self.timers.held:
            self.timers.umpire_play(t)
        elif state_now is not None and state_now.is_break:
            self.timers.play_called(t)
        return self._emit(now)

    def striker_lifted(self) -> CarromView:
        """The striker is lifted after a stroke: the opponent's 15 s begin (laws 50, 124 b)."""
        now = self._now()
        self._tap(now, "striker_lifted")
        self.timers.striker_lifted(self._timer_now(now))
        return self._emit(now)

    def dues_placed(self) -> CarromView:
        """The dues and penalties are placed: the next stroke within 15 s (law 50)."""
        now = self._now()
        self._tap(now, "dues_placed")
        self.timers.dues_done(self._timer_now(now))
        return self._emit(now)

    def ask_waive(self) -> CarromView:
        """The umpire asks whether the dues are waived: 15 s to say (law 87 a)."""
        now = self._now()
        self._tap(now, "ask_waive")
        self.timers.waive_called(self._timer_now(now))
        return self._emit(now)

    def stop_clock(self) -> CarromView:
        """A complaint or objection stops the count (law 121 a)."""
        now = self._now()
        self._tap(now, "stop_clock")
        self.timers.umpire_stop(self._timer_now(now))
        return self._emit(now)

    def restart_clock(self) -> CarromView:
        """The running (or stopped) timer starts again from its full length (law 121)."""
        now = self._now()
        self._tap(now, "restart_clock")
        try:
            self.timers.umpire_restart(self._timer_now(now))
        except ClockError as exc:
            self._error = str(exc)
        return self._emit(now)

    # -- the loop's side -------------------------------------------------------------

    def next_deadline(self) -> float | None:
        """When `poll` next has something to do without an input (a timer, an auto-confirm,
        the camera's silence), on the monotonic clock; None: only inputs can wake it."""
        candidates = [self.timers.next_deadline(), self._auto_at]
        if self.camera_fitted and not self.faults.active("camera"):
            seen = self._camera_seen if self._camera_seen is not None else self._started
            candidates.append(seen + CAMERA_TIMEOUT_S)
        return min((c for c in candidates if c is not None), default=None)

    def poll(self, now: float | None = None) -> CarromView:
        """Take the queued inputs, fire what fell due by `now`, and tell the outputs if
        anything visible changed. Returns the view."""
        now = self._now() if now is None else max(now, self._seen)
        self._seen = now
        items: list[Any] = []
        while True:
            try:
                items.append(self._inbox.get_nowait())
            except queue.Empty:
                break
        items.sort(key=lambda item: float(getattr(item, "t", now)))
        for item in items:
            self._take(item, now)
        self._watch_parts(now)
        if self.journal.fault is not None or self.faults.active("journal"):
            self.journal.retry()
            self._journal_works()
        for due in self.timers.advance(self._timer_now(now)):
            self._timer_event(due, now)
        if self._auto_at is not None and now >= self._auto_at:
            self._auto_at = None
            if self.match is not None and not self.proposal.review and self._phase == "at_rest":
                try:
                    self.confirm(source="auto")
                except IllegalEvent as exc:
                    self._error = f"auto-confirm refused: {exc}"
        return self._emit(now, only_if_changed=True)

    @property
    def view(self) -> CarromView:
        return self._view(self._now())

    # -- inside: inputs --------------------------------------------------------------

    def _take(self, item: Any, now: float) -> None:
        # An input read from the queue may be stamped a moment after `now` was read: it acts
        # at `now`, so the timers never see time go backwards (the journal keeps its stamp).
        stamp = float(getattr(item, "t", now))
        t = min(stamp, now)
        if isinstance(item, BeamHit):
            self._raw(stamp, "beam", "beam_hit", {"pocket": item.pocket, "duration": item.duration})
            if item.pocket in self._working and self.match is not None:
                self._hits.append(item)
                if self._phase == "aiming":
                    self._phase = "moving"
                    self.timers.stroke_started(self._timer_now(t))
        elif isinstance(item, BeamFault):
            part = f"beam {item.pocket}"
            fault = {"pocket": item.pocket, "kind": item.kind}
            self._raw(
                stamp, "beam", "beam_fault", {**fault, "held": item.held} if item.held else fault
            )
            if item.kind == "flapping":  # its hits so far go to the umpire, not the count
                self._hits = [h for h in self._hits if h.pocket != item.pocket]
            if item.kind == "cleared":
                self._working.add(item.pocket) if item.pocket in self._fitted_beams else None
                self._clear_fault(part, now)
            else:
                self._working.discard(item.pocket)
                what = {
                    "stuck": "stuck",
                    "flapping": "flapping: its hits are held for the umpire, not counted",
                }.get(item.kind, "blocked at start-up")
                self._raise_fault(part, f"pocket {item.pocket}'s beam is {what}", now)
        elif isinstance(item, CameraMotion):
            self._camera_alive(t, now)
            self._raw(stamp, "camera", "camera", {"what": "motion"})
            if self.match is not None and self._phase in ("aiming", "at_rest"):
                self._phase = "moving"
                self._auto_at = None
                self.timers.stroke_started(self._timer_now(t))
        elif isinstance(item, CameraRest):
            self._camera_alive(t, now)
            self._raw(stamp, "camera", "camera", {"what": "rest"})
            if self.match is not None and self._phase == "moving":
                self._phase = "at_rest"
                self.timers.coins_at_rest(
                    self._timer_now(t), turn_goes_on=self._turn_goes_on(self.proposal)
                )
                self._arm_auto(now)
        elif isinstance(item, CameraDiff):
            self._camera_alive(t, now)
            self._raw(stamp, "camera", "camera", {"what": "diff", **diff_to_dict(item.diff)})
            # A diff that comes after the umpire confirmed (phase back to aiming) belongs to
            # the stroke already recorded: journaled, not carried into the next proposal.
            if self.match is not None and self._phase in ("moving", "at_rest"):
                self._diff = item.diff
                if self._phase == "at_rest":
                    self._arm_auto(now)
        elif isinstance(item, CameraAlive):
            self._camera_alive(t, now)
        elif isinstance(item, CameraLost):
            self._camera_ok = False
            self._raise_fault("camera", f"camera: {item.reason}", now)
        elif isinstance(item, PartFault):
            if item.message is None:
                self._clear_fault(item.part, now)
            else:
                self._raise_fault(item.part, item.message, now)
        else:
            self._raise_fault("inputs", f"unknown input {type(item).__name__} ignored", now)

    def _camera_alive(self, t: float, now: float) -> None:
        self._camera_seen = max(t, self._camera_seen or t)
        self._camera_ok = True
        self._clear_fault("camera", now)

    def _watch_parts(self, now: float) -> None:
        if self.camera_fitted and not self.faults.active("camera"):
            seen = self._camera_seen if self._camera_seen is not None else self._started
            if now - seen >= CAMERA_TIMEOUT_S:
                self._camera_ok = False
                self._raise_fault("camera", f"camera: no frames for {now - seen:.1f} s", now)
        for name, problem in self.outputs.health().items():
            if problem is None:
                self._clear_fault(name, now)
            else:
                self._raise_fault(name, problem, now)

    def _raise_fault(self, part: str, message: str, now: float) -> None:
        fault = self.faults.raise_(part, message, now)
        if fault is not None:
            self._raw(now, "system", "fault", {"part": part, "message": message})
            self.outputs.fault(fault, True)

    def _clear_fault(self, part: str, now: float) -> None:
        fault = self.faults.clear(part)
        if fault is not None:
            self._raw(now, "system", "fault_cleared", {"part": part})
            self.outputs.fault(fault, False)

    def _timer_event(self, due: WarningDue | Expired, now: float) -> None:
        kind = "expired" if isinstance(due, Expired) else "warning"
        data: dict[str, Any] = {"timer": due.timer, "what": kind}
        if isinstance(due, WarningDue):
            data["left"] = due.left
        else:
            self._expired = due.timer
        self._raw(due.t, "timer", "timer", data)
        self.outputs.sound(due.pattern)

    def _raw(self, t: float, source: str, kind: str, data: dict[str, Any]) -> None:
        """Journal a raw input; a journal that fails is a fault, never a lost session. With
        no match open only faults are kept (with the monotonic time), sensor noise is not."""
        if self.match_id is None and not kind.startswith("fault"):
            return
        at = self._time.at(t) if self.match_id is not None else round(t, 6)
        self.journal.append(self.match_id, at, self.wall(), source, kind, data)
        self._journal_works()

    def _journal_works(self) -> None:
        """Show the journal's "not saved" fault while it holds writes; clear it once written."""
        fault = self.journal.fault
        if fault is not None:
            raised = self.faults.raise_("journal", f"journal: {fault}", self._seen)
            if raised is not None:
                self.outputs.fault(raised, True)
        elif self.faults.active("journal"):
            self._clear_fault("journal", self._seen)

    def _tap(self, now: float, action: str, **data: Any) -> None:
        self._expired = None
        self._error = None
        self._raw(now, "umpire", "tap", {"action": action, **data})

    def _arm_auto(self, now: float) -> None:
        wait = self.settings.fusion.auto_confirm_s
        self._auto_at = now + wait if wait > 0 and not self.proposal.review else None

    # -- inside: events ----------------------------------------------------------------

    def _commit(self, event: Event, source: str) -> CarromView:
        match, match_id = self._need()
        now = self._now()
        self._expired = None
        before = match.state.now
        event = replace(event, t=self._time.t(now))
        try:
            match.push(event)
        except IllegalEvent as exc:
            self._error = str(exc)
            self._raw(now, source, "refused", {**event_to_dict(event), "reason": str(exc)})
            self._emit(now)
            raise
        try:
            # A disk that refuses does not raise: the journal holds the event (its fault).
            self.journal.append(
                match_id, event.t or 0.0, self.wall(), source, EVENT, event_to_dict(event)
            )
        except BaseException as exc:
            match.pop()  # not journaled at all: not in the match either
            self._error = f"not recorded: {exc}"
            self._emit(now)
            raise
        self._journal_works()
        self._error = None
        if match.state.winner is not None:
            self.journal.finish(match_id)  # over: no longer offered for resuming
        if match.outcome().board is not None or match.state.winner is not None:
            self.journal.checkpoint()  # board's end: journal.db alone is complete, backed up
        self._reset_after_change(now)
        self._timers_follow(event, before, self._timer_now(now))
        return self._emit(now)

    def _timers_follow(self, event: Event, before: Now | None, t: float) -> None:
        """The timers after a confirmed event (laws 46, 50, 61, 87 a, 88 a, 124, 138)."""
        assert self.match is not None
        state = self.match.state
        ended = self.match.outcome()
        now = state.now
        if now is None:
            self.timers.cancel(t)
            return
        if ended.board is not None or isinstance(event, VoidBoard | Toss) or now.is_break:
            if ended.game is not None and now.game == 3:
                self.timers.interval(t)  # law 138: ten minutes before the third game
            elif state.change_sides:
                self.timers.change_sides(t)  # law 61
            else:
                self.timers.cancel(t)  # the umpire's "play" starts the break count (law 46)
            return
        if any(now.placing.values()):
            self.timers.placing_called(t)  # law 88 a
            return
        if isinstance(event, Waive):
            self.timers.dues_done(t)  # law 50
            return
        goes_on = before is not None and now.turn == before.turn
        if isinstance(event, Stroke):
            if goes_on:
                if self.timers.active != "stroke":
                    self.timers.coins_at_rest(t, turn_goes_on=True)  # law 124 a
            elif not self.timers.awaiting_lift:
                self.timers.coins_at_rest(t, turn_goes_on=False)  # law 124 b
        elif not goes_on:
            self.timers.coins_at_rest(t, turn_goes_on=False)

    def _turn_goes_on(self, proposal: Proposal) -> bool:
        """A guess at rest, before the umpire confirms: own coin or the queen in, no striker,
        no foul (law 124 a); the confirmed event sets it right."""
        now = self._state_now()
        if now is None or proposal.striker or proposal.improper:
            return False
        own = now.colours[now.turn_side]
        return any(c in (own, "queen") for c in proposal.pocketed)

    # -- inside: plumbing ---------------------------------------------------------------

    def _new_stroke(self) -> None:
        self._hits = []
        self._diff = None
        self._edit = None
        self._phase = "aiming"

    def _reset_after_change(self, now: float) -> None:
        self._new_stroke()
        self._auto_at = None
        self._expired = None
        if self.match is not None and self.match.state.winner is not None:
            self._phase = "over"

    def _need(self) -> tuple[Match, int]:
        if self.match is None or self.match_id is None:
            raise IllegalEvent("no match: start one or resume")
        return self.match, self.match_id

    def _state_now(self) -> Now | None:
        return None if self.match is None else self.match.state.now

    def _now(self) -> float:
        now = max(self.clock(), self._seen)
        self._seen = now
        return now

    def _timer_now(self, t: float) -> float:
        """Timers refuse time going backwards: an input stamped a little in the past (a beam
        hit queued while the loop slept) acts at the latest time they have seen."""
        self._timer_seen = max(t, self._timer_seen)
        return self._timer_seen

    def _view(self, now: float) -> CarromView:
        timer = None
        kind = self.timers.active
        remaining = self.timers.remaining(now)
        if kind is not None and remaining is not None:
            timer = TimerView(
                kind,
                math.ceil(remaining * 10 - 1e-9) / 10,
                self.timers.settings.length(kind),
                self.timers.held,
            )
        match = self.match
        if match is None:
            phase = "no_match"
        elif match.state.winner is not None:
            phase = "over"
        else:
            phase = self._phase
        return CarromView(
            match_id=self.match_id,
            state=None if match is None else match.state,
            outcome=None if match is None else match.outcome(),
            proposal=self.proposal,
            phase=phase,
            timer=timer,
            awaiting_lift=self.timers.awaiting_lift,
            expired=self._expired,
            faults=self.faults.faults,
            last_error=self._error,
            events=0 if match is None else len(match.events),
            can_undo=match is not None and bool(match.events),
            auto_confirm_in=None
            if self._auto_at is None
            else math.ceil(max(0.0, self._auto_at - now) * 10) / 10,
            beams=tuple(sorted(self._working)),
            camera=self.camera_fitted and self._camera_ok,
            t=round(self._time.at(now), 1),
        )

    def _emit(self, now: float, *, only_if_changed: bool = False) -> CarromView:
        view = self._view(now)
        last = self._last_view
        if not only_if_changed or last is None or replace(view, t=0.0) != replace(last, t=0.0):
            self._last_view = view
            self.outputs.state_changed(view)
        return view


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple | list) else value


def export_match_record(journal: Journal, match_id: int | None = None) -> str:
    """The match record (shared/spec/match-record.md) of `match_id` (default: the latest
    carrom match) from the journal: the match line and the confirmed events that stand."""
    from kiosk.rules.carrom.record import write_record

    if match_id is None:
        row = journal.latest(KIND)
        if row is None:
            raise JournalError(f"{journal.path}: no carrom match in the journal")
        match_id = row.id
    row = journal.match(match_id)
    start = event_from_dict(row.header)
    events = [event_from_dict(data) for data in journal.confirmed(match_id)]
    return write_record([start, *events])
