"""The carrom table: sensors in, the rules core and the timers in the middle, the journal
underneath, the screen, the buzzer and the player display out.

DESIGN.md, "the flow of one carrom stroke": the turn timer runs (law 50); the camera sees the
stroke start (the count stops); beam hits and the camera's diff are fused into a proposed
stroke (kiosk/tables/fusion.py); the coins come to rest (law 123) and the umpire confirms or
edits; the confirmed event is pushed to the rules core (an illegal one is refused with the
core's reason and nothing is written), written to the journal (synced) and only then shown;
the timers follow the new state as the rules say (kiosk/rules/carrom/timing.py).

Threads: sensors call `post(item)` from any thread (it only queues). Everything else (the
umpire's commands and `poll`) runs on one thread: the runner's loop.

Every input (kiosk/tables/carrom_inputs.py: beam hits and faults, camera events, the umpire's
edit), the umpire's other taps, timer warnings and expiries and every confirmed event are
journaled with their match time and source; undo is an entry too. `resume()` rebuilds an
unfinished match from the journal: the confirmed events through the core, and the stroke in
progress by feeding the journaled inputs back through the same `_take()` as at run time.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from drivers.hits import BeamFault
from kiosk.clocks.countdown import ClockError
from kiosk.engine.journal import EVENT, UNDO, Journal, JournalError, MatchRow
from kiosk.engine.timebase import MatchTime
from kiosk.rules.carrom.errors import IllegalEvent
from kiosk.rules.carrom.events import (
    FIRST_NOT_MATCH,
    SECOND_MATCH,
    Concede,
    EventError,
    ForfeitBoard,
    Foul,
    MatchStart,
    Pass,
    Toss,
    VoidBoard,
    Waive,
    event_from_dict,
    event_to_dict,
)
from kiosk.rules.carrom.match import Match
from kiosk.tables.carrom_inputs import (
    ProposalEdit,
    input_from_row,
)
from kiosk.tables.carrom_loop import CarromLoop
from kiosk.tables.carrom_view import CarromView
from kiosk.tables.fusion import Proposal
from kiosk.tables.health import PartsHealth

KIND = "carrom"


class CarromSession(CarromLoop):
    """One carrom table on a journal: the loop's side (kiosk/tables/carrom_loop.py) with
    starting, resuming and the umpire's commands. Each command returns nothing: the new view
    goes to every output; a refused one raises IllegalEvent (or ValueError for an edit that
    names no colour) and changes nothing.

    `clock`: the monotonic clock every input is stamped with (tests inject a fake one);
    `wall`: the wall clock, used only to carry match time across a restart.
    `beams`: the pockets with a beam fitted (empty: no beams); `camera`: a camera is
    fitted (its faults and heartbeat are then watched).
    """

    def has_unfinished(self) -> bool:
        return self.journal.unfinished(KIND) is not None

    def start_match(self, start: MatchStart) -> None:
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
        self._reset_after_change()
        self.timers.cancel(now)
        self._emit(now)

    def resume(self) -> CarromView | None:
        """Go on with the unfinished match in the journal, exactly where it was (None: there
        is none). JournalError names the entry if the journal cannot be replayed."""
        row = self.journal.unfinished(KIND)
        if row is None:
            return None
        match = replayed_match(self.journal, row)
        now = self._now()
        self._time = MatchTime.resumed(now, self.wall(), self.journal.last_entry(row.id))
        self.match, self.match_id = match, row.id
        self._reset_after_change()
        self.timers.cancel(now)
        self._replay(row.id, now)
        return self._emit(now)

    def _replay(self, match_id: int, now: float) -> None:
        """The stroke in progress at the stop: the journaled inputs fed back through `_take`,
        as at run time, but with nothing said to the world (no journal row, timer, output or
        auto-confirm). The beams' faults are replayed from the start of the match on a health
        of their own, so that a hit counts exactly as it did; the live faults stay as the
        parts report them now."""
        entries = self.journal.entries(match_id)
        since = 0
        for i, entry in enumerate(entries):
            if entry.kind in (EVENT, UNDO):
                since = i + 1
        live = self.health
        self.health = PartsHealth(live.fitted_beams, live.camera_fitted, now)
        self._replaying = True
        try:
            for i, entry in enumerate(entries):
                item = input_from_row(entry.kind, entry.data)
                if item is None or (i < since and not isinstance(item, BeamFault)):
                    continue
                self._take(item, now, now)
        finally:
            self._replaying = False
            self.health = live

    def finish(self) -> None:
        """Close the match in the journal (it is no longer offered for resuming)."""
        if self.match_id is not None:
            self.journal.finish(self.match_id)

    def edit(self, **changes: Any) -> None:
        """Correct the proposal (pocketed=[...], striker=, off_board=[...], improper=,
        touched=); it stands until the stroke is confirmed."""
        now = self._now()
        self._take(ProposalEdit(now, {k: _jsonable(v) for k, v in changes.items()}), now, now)
        self._emit(now)

    def confirm(self, proposal: Proposal | None = None, *, source: str = "umpire") -> None:
        """Confirm the proposed stroke (or `proposal`): it enters the match and the journal."""
        self._commit((proposal or self.proposal).to_stroke(), source)

    def foul(self, by: str | None = None) -> None:
        """A foul outside a stroke: technical (law 63) before the first stroke of the turn or
        on a player not at turn, else it ends the turn (law 64). `by` None: the player at turn."""
        self._commit(Foul(by=by), "umpire")

    technical_foul = foul

    technical_foul = foul

    def waive(self, by: str | None = None) -> None:
        """The placing side gives up the dues and penalties owed to it (law 87 a)."""
        self._commit(Waive(by=by), "umpire")

    def pass_turn(self) -> None:
        """The player at turn passes (law 137)."""
        self._commit(Pass(), "umpire")

    def void_board(self) -> None:
        """The umpire voids the board in progress (laws 137, 140, 142)."""
        self._commit(VoidBoard(), "umpire")

    def forfeit_board(self, by: str) -> None:
        """`by` loses the board in progress (laws 51, 91, 121, 126)."""
        self._commit(ForfeitBoard(by=by), "umpire")

    def concede(self, by: str) -> None:
        """`by`'s side concedes the match or loses it by a decision (laws 139, 143)."""
        self._commit(Concede(by=by), "umpire")

    def toss(self, winner: str) -> None:
        """The toss for the extra board after a tie at the board limit (law 56 b)."""
        self._commit(Toss(winner=winner), "umpire")

    def undo(self) -> None:
        """Undo the last confirmed event. The journal keeps it and records the undo."""
        match, match_id = self._need()
        now = self._now()
        if not match.events:
            self._error = "nothing to undo: no event has been confirmed yet"
            self._emit(now)
            return
        was_over = match.state.winner is not None
        event = match.pop()
        try:
            self.journal.append(match_id, self._time.t(now), self.wall(), "umpire", UNDO, {})
        except BaseException:
            match.push(event)
            raise
        if was_over:
            self.journal.reopen(match_id)  # the match goes on: offered for resuming again
        self._reset_after_change()
        self.timers.cancel(now)
        self._emit(now)

    def play(self) -> None:
        """The umpire's "play": after a stop the count goes on (law 121 a); before a break
        it starts the 15 s to break (law 46)."""
        now = self._now()
        self._tap(now, "play")
        state_now = self._state_now()
        if self.timers.held:
            self.timers.umpire_play(now)
        elif state_now is not None and state_now.is_break:
            self.timers.play_called(now)
        self._emit(now)

    def striker_lifted(self) -> None:
        """The striker is lifted after a stroke: the opponent's 15 s begin (laws 50, 124 b)."""
        now = self._now()
        self._tap(now, "striker_lifted")
        self.timers.striker_lifted(now)
        self._emit(now)

    def dues_placed(self) -> None:
        """The dues and penalties are placed: the next stroke within 15 s (law 50)."""
        now = self._now()
        self._tap(now, "dues_placed")
        self.timers.dues_done(now)
        self._emit(now)

    def ask_waive(self) -> None:
        """The umpire asks whether the dues are waived: 15 s to say (law 87 a)."""
        now = self._now()
        self._tap(now, "ask_waive")
        self.timers.waive_called(now)
        self._emit(now)

    def stop_clock(self) -> None:
        """A complaint or objection stops the count (law 121 a)."""
        now = self._now()
        self._tap(now, "stop_clock")
        self.timers.umpire_stop(now)
        self._emit(now)

    def restart_clock(self) -> None:
        """The running (or stopped) timer starts again from its full length (law 121)."""
        now = self._now()
        self._tap(now, "restart_clock")
        try:
            self.timers.umpire_restart(now)
        except ClockError as exc:
            self._error = str(exc)
        self._emit(now)


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple | list) else value


def replayed_match(journal: Journal, row: MatchRow) -> Match:
    """The carrom match of `row` with its confirmed events pushed again. JournalError names
    the entry that cannot be replayed; its cause is the core's own refusal."""
    where = "the match line"
    try:
        start = event_from_dict(row.header)
        if not isinstance(start, MatchStart):
            raise EventError.of("first_not_match", FIRST_NOT_MATCH)
        match = Match(start)
        for n, data in enumerate(journal.confirmed(row.id), start=1):
            where = f"confirmed event {n}"
            event = event_from_dict(data)
            if isinstance(event, MatchStart):
                raise EventError.of("second_match", SECOND_MATCH)
            match.push(event)
    except (EventError, IllegalEvent) as exc:
        raise JournalError(f"{journal.path}: match {row.id}, {where}: {exc}") from exc
    return match


def export_match_record(journal: Journal, match_id: int | None = None) -> str:
    """The match record (shared/spec/match-record.md) of `match_id` (default: the latest
    carrom match) from the journal: the match line and the confirmed events that stand."""
    from kiosk.engine.roles import correction_comments
    from kiosk.rules.carrom.record import write_record

    if match_id is None:
        row = journal.latest(KIND)
        if row is None:
            raise JournalError(f"{journal.path}: no carrom match in the journal")
        match_id = row.id
    row = journal.match(match_id)
    start = event_from_dict(row.header)
    events = [event_from_dict(data) for data in journal.confirmed(match_id)]
    return write_record([start, *events]) + "".join(  # roles: who corrected what
        f"{line}\n" for line in correction_comments(journal, match_id)
    )
