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

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, ClassVar, assert_never

from drivers.hits import POCKETS, BeamFault, BeamHit
from kiosk.access.authority import Role, needs
from kiosk.clocks.countdown import ClockError, Expired, WarningDue
from kiosk.clocks.turn import TurnTimers
from kiosk.config import Settings
from kiosk.engine.journal import EVENT, UNDO, Journal
from kiosk.engine.journal_faults import cause
from kiosk.engine.outputs import Output
from kiosk.engine.timebase import MatchTime
from kiosk.errors import Refused
from kiosk.rules.carrom.errors import N_, IllegalEvent, Reason
from kiosk.rules.carrom.events import (
    Concede,
    Event,
    ForfeitBoard,
    Foul,
    MatchStart,
    Pass,
    ProtestDecided,
    Stroke,
    Toss,
    VoidBoard,
    Waive,
    event_to_dict,
)
from kiosk.rules.carrom.match import Match
from kiosk.rules.carrom.state import Now
from kiosk.rules.carrom.timing import dues_refusal, timer_after, turn_goes_on
from kiosk.tables.base import TableBase, all_but, close_unfinished
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
    input_from_row,
    input_row,
)
from kiosk.tables.carrom_preview import Preview, preview
from kiosk.tables.carrom_protests import CarromProtests, protest_board
from kiosk.tables.carrom_record import KIND, protest_texts, replayed_match
from kiosk.tables.carrom_timers import follow_call
from kiosk.tables.carrom_view import CarromView, hour_left, tenths_left, timer_view
from kiosk.tables.commands import (
    NO_MATCH,
    NO_PREVIEW,
    NOTHING_TO_UNDO,
    Command,
    command,
    refusal_of,
    source,
)
from kiosk.tables.fusion import Context, Proposal
from kiosk.tables.health import (
    PartsHealth,
    beam_doubt,
    beam_fault_message,
    beam_part,
    camera_silent,
)
from kiosk.tables.stroke import StrokeTracker

log = logging.getLogger(__name__)


class CarromTable(TableBase[CarromView], CarromProtests):
    """One carrom table on a journal: inputs in (each through `_take`, at run time and on
    resume alike), the rules core's events, the timers as the rules call them, the journal of
    it all, the view to the outputs; starting, resuming and the umpire's and the director's
    commands. Each command returns nothing: the new view goes to every output; a refused one
    raises IllegalEvent (or ValueError for an edit that names no colour) and changes nothing.

    Each fact has one home: the stroke in progress in `stroke`, the parts and their faults in
    `health`, whether the match is over in the core's state, the latest time seen in `_seen`.

    `clock`: the monotonic clock every input is stamped with (tests inject a fake one);
    `wall`: the wall clock, used only to carry match time across a restart.
    `beams`: the pockets with a beam fitted (empty: no beams); `camera`: a camera is
    fitted (its faults and heartbeat are then watched).

    The protests (laws 144-151) are CarromProtests' (kiosk/tables/carrom_protests.py); the
    journal read back (the match replayed, the record exported) is kiosk/tables/carrom_record.py.
    """

    kind: ClassVar[str] = KIND
    COMMANDS: ClassVar[Mapping[str, str]] = {
        name: name
        for name in (
            "edit", "confirm", "foul", "waive", "pass_turn", "void_board", "forfeit_board",
            "concede", "toss", "undo", "play", "striker_lifted", "dues_placed", "ask_waive",
            "stop_clock", "restart_clock", "protest", "decide_protest",
        )
    }  # fmt: skip

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
        super().__init__(journal, clock=clock, wall=wall, outputs=outputs)
        self.settings = settings or Settings()
        self.timers = TurnTimers(self.settings.timers)
        self.match: Match | None = None
        self.match_id: int | None = None
        started = clock()
        self.health = PartsHealth(beams, camera, started, self.fault_board)
        self.stroke = StrokeTracker()
        # The latest time seen (clock reads, polls, times handed to the timers): the timers
        # refuse time going backwards, so nothing acts before it.
        self._seen = started
        self._time = MatchTime(started)
        self._replaying = False
        self._expired: str | None = None
        #: Why the last command was refused, as facts (the screen words it): never English.
        self._refusal: Reason | None = None
        self._auto_at: float | None = None
        self._dues_said = False  # "dues placed" taken since the last event (law 50)
        #: The beams the table itself found at fault in this stroke (chatter, too many coins):
        #: their faults end with the stroke.
        self._doubted: set[int] = set()
        self._protest_texts = {}
        #: The core's calls on each of the last events, oldest first: the ruling strip
        #: of a console that starts again (a restart) begins with them.
        self._recent: list[tuple[Reason, ...]] = []
        #: The time of the last poll: an input stamped before it acts at that time.
        self._floor = started

    def fit(self, beams: Iterable[int], camera: bool) -> None:
        """Say which parts started (kiosk/parts/hardware.py builds them after the session,
        since they post to it): the pockets with beams, and whether a camera is watching."""
        self.health.fit(beams, camera, self._now())

    @property
    def camera_fitted(self) -> bool:
        return self.health.camera_fitted

    @property
    def camera_calibrated(self) -> bool:
        """The camera's board is calibrated: until it is, its diff adds nothing to a stroke."""
        return bool(self.settings.camera.calibration)

    @property
    def proposal(self) -> Proposal:
        """The proposed stroke: the umpire's edit if any, else the fusion of what the beams
        and the camera saw during this stroke."""
        context = Context()
        now = self._state_now()
        if now is not None:
            context = Context(now.turn_colour, now.on_board)
        return self.stroke.proposal(self.health.working_beams, context)

    # -- starting, resuming and the commands ---------------------------------------

    def match_t(self, now: float) -> float:
        """Match seconds at monotonic `now` (the record's "t")."""
        return self._time.at(now)

    def has_unfinished(self) -> bool:
        return self.journal.unfinished(KIND) is not None

    def start_match(self, start: MatchStart, *, role: Role) -> None:
        """A new match (laws 39, 42: players, rules, first breaker, board limit). An
        unfinished match in the journal is closed first, journaled with `role` (closing it is
        the director's). IllegalEvent for a bad start."""
        start = replace(start, t=None)
        match = Match(start)
        close_unfinished(self.journal, KIND, role, self.wall())
        now = self._now()
        self.match_id = self.journal.begin_match(KIND, event_to_dict(start), self.wall())
        self.match = match
        self._protest_texts = {}
        self._recent = []
        self._time = MatchTime(now)
        self._reset_after_change()
        self.timers.cancel(now)
        self._tell(now)

    def resume(self) -> CarromView | None:
        """Go on with the unfinished match in the journal, exactly where it was (None: there
        is none). JournalError names the entry if the journal cannot be replayed."""
        row = self.journal.unfinished(KIND)
        if row is None:
            return None
        recent: list[tuple[Reason, ...]] = []
        match = replayed_match(self.journal, row, recent)
        now = self._now()
        self._time = MatchTime.resumed(now, self.wall(), self.journal.last_entry(row.id))
        self.match, self.match_id = match, row.id
        self._protest_texts = protest_texts(self.journal, row.id)
        self._recent = recent[-RECENT_KEPT:]
        self._reset_after_change()
        self.timers.cancel(now)
        self._replay(row.id, now)
        self._doubt_beams(now)
        return self._tell(now)

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

    @command
    def edit(self, *, role: Role, **changes: Any) -> None:
        """Correct the proposal (pocketed=[...], striker=, off_board=[...], improper=,
        touched=); it stands until the stroke is confirmed."""
        now = self._now()
        changes = {k: _jsonable(v) for k, v in changes.items()}
        self._take(ProposalEdit(now, changes, source(role)), now, now)
        self._tell(now)

    @command
    def confirm(self, proposal: Proposal | None = None, *, role: Role) -> None:
        """Confirm the proposed stroke (or `proposal`): it enters the match and the journal."""
        self._commit((proposal or self.proposal).to_stroke(), source(role))

    @command
    def foul(self, by: str | None = None, *, role: Role) -> None:
        """A foul outside a stroke: technical (law 63) before the first stroke of the turn or
        on a player not at turn, else it ends the turn (law 64). `by` None: the player at turn."""
        self._commit(Foul(by=by), source(role))

    technical_foul = foul

    @command
    def waive(self, by: str | None = None, *, role: Role) -> None:
        """The placing side gives up the dues and penalties owed to it (law 87 a)."""
        self._commit(Waive(by=by), source(role))

    @command
    def pass_turn(self, *, role: Role) -> None:
        """The player at turn passes (law 137)."""
        self._commit(Pass(), source(role))

    @command
    def void_board(self, *, role: Role) -> None:
        """The director voids the board in progress (laws 137, 140, 142)."""
        self._commit(VoidBoard(), source(role))

    @command
    def forfeit_board(self, by: str, *, role: Role) -> None:
        """`by` loses the board in progress (laws 51, 91, 121, 126)."""
        self._commit(ForfeitBoard(by=by), source(role))

    @command
    def concede(self, by: str, *, role: Role) -> None:
        """`by`'s side concedes the match or loses it by a decision (laws 139, 143)."""
        self._commit(Concede(by=by), source(role))

    @command
    def toss(self, winner: str, *, role: Role) -> None:
        """The toss for the extra board after a tie at the board limit (law 56 b)."""
        self._commit(Toss(winner=winner), source(role))

    @command
    def undo(self, *, role: Role) -> None:
        """Undo the last confirmed event. The journal keeps it and records the undo, with
        the role that made it (past a board's end: the director's, `needs`)."""
        match, match_id = self._need()
        now = self._now()
        if not match.events:
            self._refusal = NOTHING_TO_UNDO
            self._tell(now)
            return
        who = source(role)
        self._refuse_while_proposed("undo", who, now)
        was_over = self._declared(match)
        event = match.pop()
        try:
            self.journal.append(match_id, self._time.t(now), self.wall(), who, UNDO, {})
        except BaseException:
            match.push(event)
            raise
        if was_over:
            self.journal.reopen(match_id)  # the match goes on: offered for resuming again
        elif self._declared(match):
            self.journal.finish(match_id)  # a protest after the result taken back: declared
        self._reset_after_change()
        self.timers.cancel(now)
        self._recent = self._recent[:-1]
        self._count_as_after_last(match, now)
        self._tell(now)

    def _count_as_after_last(self, match: Match, now: float) -> None:
        """After an undo the count runs as it did after the event that is last again (law
        50, 88, 124): the player at turn has the stroke's 15 s afresh, or they wait for the
        striker to be lifted, or for the dues; none before a break (46: the umpire's "play")."""
        if not match.events:
            return
        last = match.pop()
        before = match.state.now
        match.push(last)
        follow_call(self.timers, timer_after(match, last, before), now)

    @command
    def play(self, *, role: Role) -> None:
        """The umpire's "play": after a stop the count goes on (law 121 a); before a break
        it starts the 15 s to break (law 46)."""
        now = self._now()
        self._tap(now, "play", role)
        state_now = self._state_now()
        if self.timers.held:
            self.timers.umpire_play(now)
        elif state_now is not None and state_now.is_break:
            self.timers.play_called(now)
        self._tell(now)

    @command
    def striker_lifted(self, *, role: Role) -> None:
        """The striker is lifted after a stroke: the opponent's 15 s begin (laws 50, 124 b)."""
        now = self._now()
        self._tap(now, "striker_lifted", role)
        self.timers.striker_lifted(now)
        self._tell(now)

    @command
    def dues_placed(self, *, role: Role) -> None:
        """The dues and penalties are placed: the next stroke within 15 s (law 50). Refused
        (IllegalEvent, the core's reason) when nothing is owed to place (law 88): the timer
        running goes on."""
        now = self._now()
        refusal = dues_refusal(self._state_now(), placed=self._dues_said)
        if refusal is not None:
            self._refusal = refusal
            who = source(role)
            self._raw(now, who, "refused", {"action": "dues_placed", "reason": refusal.english()})
            self._tell(now)
            raise IllegalEvent(refusal)
        self._tap(now, "dues_placed", role)
        self.timers.dues_done(now)
        self._dues_said = True
        self._tell(now)

    @command
    def ask_waive(self, *, role: Role) -> None:
        """The umpire asks whether the dues are waived: 15 s to say (law 87 a)."""
        now = self._now()
        self._tap(now, "ask_waive", role)
        self.timers.waive_called(now)
        self._tell(now)

    @command
    def stop_clock(self, *, role: Role) -> None:
        """A complaint or objection stops the count (law 121 a)."""
        now = self._now()
        self._tap(now, "stop_clock", role)
        self.timers.umpire_stop(now)
        self._tell(now)

    @command
    def restart_clock(self, *, role: Role) -> None:
        """The running (or stopped) timer starts again from its full length (law 121)."""
        now = self._now()
        self._tap(now, "restart_clock", role)
        try:
            self.timers.umpire_restart(now)
        except ClockError as exc:  # its Reason, worded by the screen
            self._refusal = refusal_of(exc)
        self._tell(now)

    # -- what a command needs, what it would do -------------------------------------------

    def needs(self, command: Command) -> Role:
        """The role `command` needs: an undo that takes back the event that ended a board (a
        game, the match) goes past the board's end, the director's (laws 137-143)."""
        if command.action == "undo" and self._undo_passes_board():
            return needs("undo_past_board")
        return super().needs(command)

    def _undo_passes_board(self) -> bool:
        match = self.match
        if match is None or not match.events:
            return False
        outcome = match.outcome()
        ended = outcome.board is not None or outcome.game is not None
        # A decision on a protest is the director's, and so is taking it back (151).
        decided = isinstance(match.events[-1], ProtestDecided)
        return ended or decided or match.state.winner is not None

    def preview(self, command: Command) -> Preview:
        """What `command` (a foul, a concede, a forfeit, a void: the calls that change the
        match) would do, asked of the core (push, look, pop): the match is left as it was. A
        call the core refuses comes back as its `refused` Reason; so does no match."""
        if self.match is None:
            return Preview(None, None, (), NO_MATCH)
        by = command.arg("by")
        player = by if isinstance(by, str) else None
        events: dict[str, Event] = {
            "foul": Foul(by=player),
            "concede": Concede(by=player or ""),
            "forfeit_board": ForfeitBoard(by=player or ""),
            "void_board": VoidBoard(),
            "pass_turn": Pass(),
        }
        board = command.arg("board")
        if isinstance(board, tuple | list) and len(board) == 2:
            upheld = command.arg("upheld")
            events["decide_protest"] = ProtestDecided(protest_board(board), upheld is not False)
        event = events.get(command.action)
        if event is None:
            return Preview(None, None, (), NO_PREVIEW)
        return preview(self.match, event)

    # -- the loop's side -------------------------------------------------------------

    def next_deadline(self) -> float | None:
        """When `poll` next has something to do without an input (a timer, an auto-confirm,
        the camera's silence), on the monotonic clock; None: only inputs can wake it."""
        candidates = [self.timers.next_deadline(), self._auto_at, self.health.camera_deadline()]
        return min((c for c in candidates if c is not None), default=None)

    def _poll_time(self, now: float | None) -> float:
        self._floor = self._seen  # nothing acts before what was already seen
        return self._now(now)

    def _step(self, now: float) -> None:
        """The sensors' inputs (BeamHit, BeamFault, Camera*, PartFault) and the commands from
        afar, in the order of their stamps; the parts watched; the timers and the
        auto-confirm that fell due by `now`."""
        floor = self._floor
        for item in self._take_inbox(now):
            if isinstance(item, Command):  # a command from afar (the hall's director)
                self._remote(item)
                continue
            if not isinstance(item, INPUT_TYPES):
                self._stray(item, now)
                continue
            # An input read from the queue may be stamped a moment after `now` was read: it
            # acts at `now`, so the timers never see time go backwards (the journal keeps its
            # stamp); one stamped before the last poll acts at that poll's time.
            at = max(min(float(item.t), now), floor)
            floor = at
            self._take(item, at, now)
        self._watch_parts(now)
        for due in self.timers.advance(now):
            self._timer_event(due, now)
        if self._auto_at is not None and now >= self._auto_at:
            self._auto_at = None
            if self._live and not self.proposal.review and self.stroke.phase == "at_rest":
                try:
                    self._commit(self.proposal.to_stroke(), "auto")
                except IllegalEvent as exc:  # the core's Reason, worded by the screen
                    self._refusal = refusal_of(exc)

    def _remote(self, command: Command) -> None:
        """A command posted from another thread (the hall's decision on a protest: kiosk/hall/
        publisher.py), carried out here as if sent at the console, with its role. One for
        another match is let go; one already journaled (`via` the same hall message, heard
        again after a reconnect) is not taken twice; a refusal is shown like any."""
        args = command.kwargs()
        match = args.pop("match", None)
        if match is not None and str(match) != str(self.match_id):
            log.info("%s for match %s let go: the table plays match %s", command.action,
                     match, self.match_id)  # fmt: skip
            return
        via = args.get("via")
        # Every event journaled, undone ones too: a decision the director took back at the
        # console is not made again by the same message heard after a reconnect.
        if via and self.match_id is not None:
            entries = self.journal.entries(self.match_id, [EVENT])
            if any(e.data.get("via") == via for e in entries):
                return
        try:
            self.send(Command(command.action, command.by, tuple(args.items())))
        except (Refused, ValueError) as exc:  # said on the console; the core's is journaled
            log.warning("%s from afar refused: %s", command.action, exc)
            self._refusal = refusal_of(exc)

    # -- inside: inputs --------------------------------------------------------------

    def _take(self, item: Input, t: float, now: float) -> None:
        """One input, at run time or replayed from the journal (`_replaying`: nothing is said
        to the world). `t`: when it acts (its stamp, kept in order); `now`: the poll's time."""
        if isinstance(item, CameraDiff) and item.calibrated is None:
            # Whether the board was calibrated is the diff's, from when it was taken: a
            # calibration made or lost before a resume does not change what it counted.
            item = replace(item, calibrated=self.camera_calibrated)
        self._journal_input(item)
        match item:
            case BeamHit():
                counts = item.pocket in self.health.working_beams and self._live
                if counts and self.stroke.hit(item) and not self._replaying:
                    self.timers.stroke_started(t)
                if counts and not self._replaying:
                    self._doubt_beams(now)
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
                    if self.timers.active is not None:  # the next count runs (124 a):
                        self._expired = None  # the last one's "Time!" is over
                    self._arm_auto(now)
            case CameraDiff():
                self._camera_alive(t, now)
                kept = self._live and bool(item.calibrated) and self.stroke.seen(item.diff)
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
                changes = dict(item.changes)
                if changes.pop("clear", False):
                    self.stroke.clear()
                elif "pocket" in changes:
                    self.stroke.set_count(int(changes["pocket"]), int(changes["count"]))
                else:
                    self.stroke.edit = self.proposal.edited(**changes)
            case _:
                assert_never(item)

    def _most_pocketable(self) -> int:
        """The most pieces one stroke can put into a pocket: the coins and the queen on the
        board, and the striker."""
        now = self._state_now()
        if now is None:
            return 20
        on = now.on_board
        return int(on.get("white", 0)) + int(on.get("black", 0)) + int(bool(on.get("queen"))) + 1

    def _doubt_beams(self, now: float) -> None:
        """A beam that counted more coins than can go in, or chatters, is at fault: its hits
        stop counting (the proposal says to count that pocket) until the stroke is over."""
        most = self._most_pocketable()
        for pocket in self.health.working_beams:
            if pocket in self.stroke.counts:
                continue
            times = [h.t for h in self.stroke.hits if h.pocket == pocket]
            doubt = beam_doubt(times, pocket, most)
            if doubt is not None:
                self._doubted.add(pocket)
                self._raise_fault(beam_part(pocket), doubt, now)

    def held(self) -> int | None:
        """The pieces the proposed stroke holds (pocketed, the striker, off the board), or
        None when no stroke is proposed (nothing in it, not a foul stroke)."""
        p = self.proposal
        pieces = len(p.pocketed) + int(p.striker) + len(p.off_board)
        return pieces if pieces or p.improper else None

    def _refuse_while_proposed(self, action: str, who: str, now: float) -> None:
        """A call other than the stroke while a stroke is proposed is refused with why: the
        stroke came first and its coins count (law 123); a foul in it is its own "foul stroke"
        (64 b), one after it is called once it is confirmed (63, 64 a). Nothing is dropped."""
        held = self.held()
        if held is None:
            return
        reason = (FOUL_WHILE_PROPOSED if action == "foul" else CALL_WHILE_PROPOSED).with_n(held)
        self._refusal = reason
        self._raw(now, who, "refused", {"action": action, "reason": reason.english()})
        self._tell(now)
        raise IllegalEvent(reason)

    def _journal_input(self, item: Input) -> None:
        if self._replaying:
            return
        if isinstance(item, ProposalEdit):
            _check_edit(item.changes)  # a bad colour or count is refused before it is kept
            self._expired = None
            self._refusal = None
        row = input_row(item)
        if row is not None:
            self._raw(item.t, *row)

    @property
    def _live(self) -> bool:
        """A match is open and play is not over (a protest may still wait for its decision
        after the last board: law 150): inputs make a stroke."""
        return self.match is not None and not self.match.is_over()

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

    def _says(self) -> bool:
        return not self._replaying

    def _fault_noted(self, part: str, message: str | None, now: float) -> None:
        """A part's fault is a raw input of the journal (the journal's own "not saved" is not
        written to the journal that holds it)."""
        if message is None:
            self._raw(now, "system", "fault_cleared", {"part": part})
        elif part != "journal":
            self._raw(now, "system", "fault", {"part": part, "message": message})

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
        """Journal a raw input: numbered and chained now, written with the others of this poll
        or command when the view goes out (`_emit`), not synced. With no match open only
        faults are kept (with the monotonic time), sensor noise is not."""
        if self.match_id is None and not kind.startswith("fault"):
            return
        at = self._time.at(t) if self.match_id is not None else round(t, 6)
        self.journal.append(self.match_id, at, self.wall(), source, kind, data, sync=False)

    def _tap(self, now: float, action: str, role: Role) -> None:
        self._expired = None
        self._refusal = None
        self._raw(now, source(role), "tap", {"action": action})

    def _arm_auto(self, now: float) -> None:
        wait = self.settings.fusion.auto_confirm_s
        self._auto_at = now + wait if wait > 0 and not self.proposal.review else None

    # -- inside: events ----------------------------------------------------------------

    def _commit(self, event: Event, who: str, extra: dict[str, Any] | None = None) -> None:
        """Push `event`, journal it (with `extra`: what the record does not keep, e.g. a
        protest's words), then the timers and the outputs."""
        match, match_id = self._need()
        now = self._now()
        if not isinstance(event, Stroke):
            self._refuse_while_proposed(str(event_to_dict(event)["event"]), who, now)
        self._expired = None
        before = match.state.now
        was_declared = self._declared(match)
        event = replace(event, t=self._time.t(now))
        try:
            match.push(event)
        except IllegalEvent as exc:
            self._refusal = refusal_of(exc)
            self._raw(now, who, "refused", {**event_to_dict(event), "reason": str(exc)})
            self._tell(now)
            raise
        try:  # a disk that refuses does not raise: the journal holds the event (its fault)
            data = {**event_to_dict(event), **(extra or {})}
            self.journal.append(match_id, event.t or 0.0, self.wall(), who, EVENT, data)
        except BaseException as exc:
            match.pop()  # not journaled at all: not in the match either
            self._refusal = Reason.of("not_recorded", NOT_RECORDED, why=cause(exc))
            self._tell(now)
            raise
        self._journal_works(now)
        self._refusal = None
        self._recent = [*self._recent, match.state.calls][-RECENT_KEPT:]
        # Finished once the result is declared (no protest waits, 150): until then a late
        # decision is still journaled here; a protest after it opens the match again.
        if self._declared(match):
            self.journal.finish(match_id)  # declared: no longer offered for resuming
        elif was_declared:
            self.journal.reopen(match_id)
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
        self._tell(now)

    def _turn_goes_on(self) -> bool:
        """At rest, before the umpire confirms: the core's answer for the proposal (law 124 a);
        the confirmed event sets the timers right."""
        return self.match is not None and turn_goes_on(self.match, self.proposal.to_stroke())

    # -- inside: plumbing ---------------------------------------------------------------

    def _reset_after_change(self) -> None:
        self.stroke.reset()
        self._auto_at = None
        self._expired = None
        self._dues_said = False
        for pocket in sorted(self._doubted):
            self._clear_fault(beam_part(pocket), self._seen)
        self._doubted = set()

    @staticmethod
    def _declared(match: Match) -> bool:
        """The match's result is declared: play is over and no protest waits (150)."""
        return match.state.winner is not None

    def _need(self) -> tuple[Match, int]:
        if self.match is None or self.match_id is None:
            raise IllegalEvent(NO_MATCH)
        return self.match, self.match_id

    def _state_now(self) -> Now | None:
        return None if self.match is None else self.match.state.now

    def _now(self, now: float | None = None) -> float:
        """`now` (or the clock) but never before the latest time seen: the timers refuse
        time going backwards."""
        now = max(self.clock() if now is None else now, self._seen)
        self._seen = now
        return now

    def _phase(self) -> str:
        match = self.match
        if match is None:
            return "no_match"
        return "over" if match.is_over() else self.stroke.phase

    def version_key(self) -> object:
        """What a command here acts on: the match's events, the proposal, the phase, and the
        umpire's taps on the count (dues placed, a stop, the striker lifted): a second "Dues
        placed" is not a second placing. Nothing the clock alone changes (the seconds left, a
        count running out): a dialog stays good while a timer runs down."""
        events = None if self.match is None else self.match.events
        timers = self.timers
        count = (self._dues_said, timers.held, timers.awaiting_lift)
        return (self.match_id, events, self.proposal, self._phase(), count)

    def _view(self, now: float) -> CarromView:
        match = self.match
        phase = self._phase()
        return CarromView(
            version=self.version,
            match_id=self.match_id,
            state=None if match is None else match.state,
            outcome=None if match is None else match.outcome(),
            proposal=self.proposal,
            phase=phase,
            timer=timer_view(self.timers, now),
            awaiting_lift=self.timers.awaiting_lift,
            expired=self._expired,
            faults=self.faults,
            events=0 if match is None else len(match.events),
            can_undo=match is not None and bool(match.events),
            auto_confirm_in=tenths_left(self._auto_at, now),
            beams=self.health.working_beams,
            camera=self.health.camera_ok,
            t=round(self._time.at(now), 1),
            refusal=self._refusal,
            history=() if match is None else match.events,
            protest_minutes=None if match is None else hour_left(match.state, self._time.at(now)),
            calibrated=self.camera_calibrated,
            protest_texts=self._protest_texts_shown(),
            recent_calls=tuple(c for calls in self._recent for c in calls),
        )

    def _visible(self, view: CarromView) -> object:
        return all_but(view, "t")


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple | list) else value


class _Proposed:
    """A refusal while a stroke is proposed, with the pieces it holds."""

    def __init__(self, code: str, message: str) -> None:
        self.code, self.message = code, message

    def with_n(self, n: int) -> Reason:
        return Reason.of(self.code, self.message, law="123", n=n)


FOUL_WHILE_PROPOSED = _Proposed(
    "foul_while_proposed",
    N_(
        "A stroke is proposed ({n} piece(s) in it): a foul in that stroke is its Foul stroke "
        "(law 64 b); a foul after it is called once it is confirmed or cleared (law {law}). "
        "Nothing was changed"
    ),
)
CALL_WHILE_PROPOSED = _Proposed(
    "call_while_proposed",
    N_(
        "A stroke is proposed ({n} piece(s) in it): confirm it or clear it first, its coins "
        "count (law {law}). Nothing was changed"
    ),
)


def _check_edit(changes: Mapping[str, Any]) -> None:
    """ValueError for an edit the table cannot keep: a colour that is not one, a pocket's
    count that is not a count."""
    rest = dict(changes)
    rest.pop("clear", None)
    if "pocket" in rest:
        pocket, count = rest.pop("pocket"), rest.pop("count", None)
        if pocket not in POCKETS or not isinstance(count, int) or not 0 <= count <= 20:
            raise ValueError(f"edit: pocket {pocket!r} count {count!r}: pockets 1-4, 0-20 coins")
    Proposal().edited(**rest)


#: An event the journal would not take (not a full disk: that is held, not refused).
NOT_RECORDED = N_("Not recorded: {why}. Nothing was changed")

#: The events whose calls the table keeps for a console that starts again.
RECENT_KEPT = 4
