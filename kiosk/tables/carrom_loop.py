"""The loop's side of a carrom table: inputs in (each through `_take`, at run time and on
resume alike), the rules core's events, the timers as the rules call them, the journal of it
all, and the view to the outputs. kiosk/tables/carrom_table.py adds the umpire's commands."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, assert_never

from drivers.hits import POCKETS, BeamFault, BeamHit
from kiosk.clocks.countdown import Expired, WarningDue
from kiosk.clocks.turn import TurnTimers
from kiosk.config import Settings
from kiosk.engine.journal import EVENT, Journal
from kiosk.engine.journal_faults import labelled
from kiosk.engine.outputs import Output, Outputs
from kiosk.engine.timebase import MatchTime
from kiosk.rules.carrom.errors import IllegalEvent, Reason
from kiosk.rules.carrom.events import (
    Event,
    event_to_dict,
)
from kiosk.rules.carrom.match import Match
from kiosk.rules.carrom.state import Now
from kiosk.rules.carrom.timing import timer_after, turn_goes_on
from kiosk.tables.carrom_inputs import (
    INPUT_TYPES,
    CameraAlive,
    CameraDiff,
    CameraLost,
    CameraMotion,
    CameraRest,
    Input,
    PartFault,
    ProposalEdit,
    input_row,
)
from kiosk.tables.carrom_timers import follow_call
from kiosk.tables.carrom_view import CarromView, tenths_left, timer_view
from kiosk.tables.fusion import Context, Proposal
from kiosk.tables.health import PartsHealth, beam_fault_message, beam_part, camera_silent
from kiosk.tables.stroke import StrokeTracker


class CarromLoop:
    """The loop's side of one carrom table on a journal (kiosk/tables/carrom_table.py adds the
    umpire's commands, starting and resuming).

    Each fact has one home: the stroke in progress in `stroke`, the parts and their faults in
    `health`, whether the match is over in the core's state, the latest time seen in `_seen`.
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
        self.timers = TurnTimers(self.settings.timers)
        self.match: Match | None = None
        self.match_id: int | None = None
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        started = clock()
        self.health = PartsHealth(beams, camera, started)
        self.stroke = StrokeTracker()
        # The latest time seen (clock reads, polls, times handed to the timers): the timers
        # refuse time going backwards, so nothing acts before it.
        self._seen = started
        self._time = MatchTime(started)
        self._replaying = False
        self._expired: str | None = None
        self._error: str | Reason | None = None  # the core's reason, or the table's words
        self._auto_at: float | None = None
        self._last_view: CarromView | None = None

    def fit(self, beams: Iterable[int], camera: bool) -> None:
        """Say which parts started (kiosk/engine/hardware.py builds them after the session,
        since they post to it): the pockets with beams, and whether a camera is watching."""
        self.health.fit(beams, camera, self._now())

    @property
    def camera_fitted(self) -> bool:
        return self.health.camera_fitted

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

    @property
    def proposal(self) -> Proposal:
        """The proposed stroke: the umpire's edit if any, else the fusion of what the beams
        and the camera saw during this stroke."""
        context = Context()
        now = self._state_now()
        if now is not None:
            context = Context(now.turn_colour, now.on_board)
        return self.stroke.proposal(self.health.working_beams, context)

    # -- the loop's side -------------------------------------------------------------

    def next_deadline(self) -> float | None:
        """When `poll` next has something to do without an input (a timer, an auto-confirm,
        the camera's silence), on the monotonic clock; None: only inputs can wake it."""
        candidates = [self.timers.next_deadline(), self._auto_at, self.health.camera_deadline()]
        return min((c for c in candidates if c is not None), default=None)

    def poll(self, now: float | None = None) -> CarromView:
        """Take the queued inputs, fire what fell due by `now`, and tell the outputs if
        anything visible changed. Returns the view."""
        floor = self._seen  # nothing acts before what was already seen
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
            if not isinstance(item, INPUT_TYPES):
                self._raise_fault("inputs", f"unknown input {type(item).__name__} ignored", now)
                continue
            # An input read from the queue may be stamped a moment after `now` was read: it
            # acts at `now`, so the timers never see time go backwards (the journal keeps its
            # stamp); one stamped before the last poll acts at that poll's time.
            at = max(min(float(item.t), now), floor)
            floor = at
            self._take(item, at, now)
        self._watch_parts(now)
        if self.journal.fault is not None or self.health.faults.active("journal"):
            self.journal.retry()
            self._journal_works()
        for due in self.timers.advance(now):
            self._timer_event(due, now)
        if self._auto_at is not None and now >= self._auto_at:
            self._auto_at = None
            if self._live and not self.proposal.review and self.stroke.phase == "at_rest":
                try:
                    self._commit(self.proposal.to_stroke(), "auto")
                except IllegalEvent as exc:
                    self._error = f"auto-confirm refused: {exc}"
        return self._emit(now, only_if_changed=True)

    def view(self) -> CarromView:
        """The table now: the same view every output was last given (its `t` read now)."""
        return self._view(self._now())

    # -- inside: inputs --------------------------------------------------------------

    def _take(self, item: Input, t: float, now: float) -> None:
        """One input, at run time or replayed from the journal (`_replaying`: nothing is said
        to the world). `t`: when it acts (its stamp, kept in order); `now`: the poll's time."""
        self._journal_input(item)
        match item:
            case BeamHit():
                counts = item.pocket in self.health.working_beams and self._live
                if counts and self.stroke.hit(item) and not self._replaying:
                    self.timers.stroke_started(t)
            case BeamFault():
                if item.kind == "flapping":  # its hits so far go to the umpire, not the count
                    self.stroke.drop_hits(item.pocket)
                if item.kind == "cleared":
                    self._clear_fault(beam_part(item.pocket), now)
                else:
                    self._raise_fault(beam_part(item.pocket), beam_fault_message(item), now)
            case CameraMotion():
                self._camera_alive(t, now)
                if self._live and self.stroke.motion() and not self._replaying:
                    self._auto_at = None
                    self.timers.stroke_started(t)
            case CameraRest():
                self._camera_alive(t, now)
                if self._live and self.stroke.rest() and not self._replaying:
                    self.timers.coins_at_rest(t, turn_goes_on=self._turn_goes_on())
                    self._arm_auto(now)
            case CameraDiff():
                self._camera_alive(t, now)
                kept = self._live and self.stroke.seen(item.diff)
                if kept and self.stroke.phase == "at_rest" and not self._replaying:
                    self._arm_auto(now)
            case CameraAlive():
                self._camera_alive(t, now)
            case CameraLost():
                self._raise_fault("camera", f"camera: {item.reason}", now)
            case PartFault():
                if item.message is None:
                    self._clear_fault(item.part, now)
                else:
                    self._raise_fault(item.part, item.message, now)
            case ProposalEdit():
                self.stroke.edit = self.proposal.edited(**item.changes)
            case _:
                assert_never(item)

    def _journal_input(self, item: Input) -> None:
        if self._replaying:
            return
        if isinstance(item, ProposalEdit):
            self.proposal.edited(**item.changes)  # a bad colour is refused before it is kept
            self._expired = None
            self._error = None
        row = input_row(item)
        if row is not None:
            self._raw(item.t, *row)

    @property
    def _live(self) -> bool:
        """A match is open and not over: inputs make a stroke."""
        return self.match is not None and self.match.state.winner is None

    def _camera_alive(self, t: float, now: float) -> None:
        if self._replaying:
            return
        self.health.camera_alive(t)
        self._clear_fault("camera", now)

    def _watch_parts(self, now: float) -> None:
        silent = self.health.camera_silent(now)
        if silent is not None:
            self._raise_fault("camera", camera_silent(silent), now)
        for name, problem in self.outputs.health().items():
            if problem is None:
                self._clear_fault(name, now)
            else:
                self._raise_fault(name, problem, now)

    def _raise_fault(self, part: str, message: str, now: float) -> None:
        fault = self.health.raise_(part, message, now)
        if fault is not None and not self._replaying:
            self._raw(now, "system", "fault", {"part": part, "message": message})
            self.outputs.fault(fault, True)

    def _clear_fault(self, part: str, now: float) -> None:
        fault = self.health.clear(part)
        if fault is not None and not self._replaying:
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
        """Journal a raw input (a refusing disk holds it: a fault). With no match open only
        faults are kept (with the monotonic time), sensor noise is not."""
        if self.match_id is None and not kind.startswith("fault"):
            return
        at = self._time.at(t) if self.match_id is not None else round(t, 6)
        self.journal.append(self.match_id, at, self.wall(), source, kind, data)
        self._journal_works()

    def _journal_works(self) -> None:
        """Show the journal's "not saved" fault while it holds writes; clear it once written."""
        if (fault := self.journal.fault) is not None:
            raised = self.health.raise_("journal", labelled("journal", fault), self._seen)
            if raised is not None:
                self.outputs.fault(raised, True)
        elif self.health.faults.active("journal"):
            self._clear_fault("journal", self._seen)

    def _tap(self, now: float, action: str, **data: Any) -> None:
        self._expired = None
        self._error = None
        self._raw(now, "umpire", "tap", {"action": action, **data})

    def _arm_auto(self, now: float) -> None:
        wait = self.settings.fusion.auto_confirm_s
        self._auto_at = now + wait if wait > 0 and not self.proposal.review else None

    # -- inside: events ----------------------------------------------------------------

    def _commit(self, event: Event, source: str) -> None:
        match, match_id = self._need()
        now = self._now()
        self._expired = None
        before = match.state.now
        event = replace(event, t=self._time.t(now))
        try:
            match.push(event)
        except IllegalEvent as exc:
            self._error = exc.reason or str(exc)
            self._raw(now, source, "refused", {**event_to_dict(event), "reason": str(exc)})
            self._emit(now)
            raise
        try:  # a disk that refuses does not raise: the journal holds the event (its fault)
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
        self._reset_after_change()
        call = timer_after(
            match,
            event,
            before,
            counting=self.timers.active == "stroke",
            awaiting_lift=self.timers.awaiting_lift,
        )
        follow_call(self.timers, call, now)
        self._emit(now)

    def _turn_goes_on(self) -> bool:
        """At rest, before the umpire confirms: the core's answer for the proposal (law 124 a);
        the confirmed event sets the timers right."""
        return self.match is not None and turn_goes_on(self.match, self.proposal.to_stroke())

    # -- inside: plumbing ---------------------------------------------------------------

    def _reset_after_change(self) -> None:
        self.stroke.reset()
        self._auto_at = None
        self._expired = None

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

    def _view(self, now: float) -> CarromView:
        match = self.match
        if match is None:
            phase = "no_match"
        elif match.state.winner is not None:
            phase = "over"
        else:
            phase = self.stroke.phase
        return CarromView(
            match_id=self.match_id,
            state=None if match is None else match.state,
            outcome=None if match is None else match.outcome(),
            proposal=self.proposal,
            phase=phase,
            timer=timer_view(self.timers, now),
            awaiting_lift=self.timers.awaiting_lift,
            expired=self._expired,
            faults=self.health.faults.faults,
            last_error=self._error.english() if isinstance(self._error, Reason) else self._error,
            events=0 if match is None else len(match.events),
            can_undo=match is not None and bool(match.events),
            auto_confirm_in=tenths_left(self._auto_at, now),
            beams=self.health.working_beams,
            camera=self.health.camera_ok,
            t=round(self._time.at(now), 1),
            refusal=self._error if isinstance(self._error, Reason) else None,
        )

    def _emit(self, now: float, *, only_if_changed: bool = False) -> CarromView:
        view = self._view(now)
        last = self._last_view
        if not only_if_changed or last is None or replace(view, t=0.0) != replace(last, t=0.0):
            self._last_view = view
            self.outputs.state_changed(view)
        return view
