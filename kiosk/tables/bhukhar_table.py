"""A Bhukhar card table: the round timer, the scoresheet and the game being entered, journaled.

What the UI's Bhukhar screen calls, on the kiosk's one journal (kiosk/engine/journal.py), like
the carrom and backgammon tables. A session is a journal match of kind "bhukhar" whose header
is the session record's first line; every entry (a round started, paused or resumed; a game's
result, in full or as totals; a game cancelled) is checked by the rules first
(kiosk/rules/bhukhar), then journaled as an "event" entry holding the record line
(docs/bhukhar.md) before it is applied: a refused entry raises `SessionError` and changes
nothing. `export()` gives the session record back, line for line.

The game being entered is the table's `draft` (kiosk/tables/bhukhar_draft.py): each change is
journaled as a "draft" entry, so a crash mid-entry loses nothing; the screen only draws the
view and sends commands.

Opening the session again resumes it: the events are replayed, a round that was running goes
on by the wall clock from its last timer line (the hall's clock did not stop while the kiosk
was down; warnings that fell due meanwhile are not sounded late), and the draft comes back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from kiosk.access.authority import Role
from kiosk.clocks.patterns import Pattern
from kiosk.clocks.round_timer import RoundTimer
from kiosk.engine.faults import Fault
from kiosk.engine.journal import EVENT, Journal, JournalError, MatchRow
from kiosk.engine.outputs import Output
from kiosk.errors import N_, Reason, TablesideError, reason_of
from kiosk.rules.bhukhar.record import (
    Cancel,
    Event,
    GameEntry,
    Session,
    SessionError,
    SessionStart,
    Team,
    TimerEntry,
    dump_line,
    event_from_dict,
    event_to_dict,
    start_from_dict,
    start_to_dict,
)
from kiosk.rules.bhukhar.scoresheet import Game, GameResult, ScoreError
from kiosk.rules.bhukhar.standings import Standing
from kiosk.tables.base import TableBase, all_but
from kiosk.tables.bhukhar_draft import CardsEntry, Draft, DraftError
from kiosk.tables.commands import NO_PREVIEW, Command, command, source

KIND = "bhukhar"
#: The journal entry holding the game being entered (never part of the session record).
DRAFT = "draft"


class TableFileError(TablesideError, ValueError):
    """A Bhukhar session cannot be used: `FILE:LINE: reason` (an old session file being
    migrated, kiosk/tables/bhukhar_migrate.py), or the journal holds no such session."""


@dataclass(frozen=True, slots=True)
class BhukharView:
    """What a Bhukhar screen (and every output) shows: the clock's face and seconds left, the
    round, whether it runs or is paused, whether time is called (rule 16.3), how many entries
    and games the session holds, the teams, the standings and the game being entered."""

    #: The version of the view (kiosk/tables/commands.py `ViewVersion`).
    version: int
    face: str
    round: int
    running: bool
    paused: bool
    time_called: bool
    entries: int
    left: float = 0.0
    games: int = 0
    match_id: int = 0
    teams: tuple[Team, ...] = ()
    standings: tuple[Standing, ...] = ()
    draft: Draft | None = None
    #: Earlier states of each side's cards can be taken back (the panel's "Take back").
    can_take_back: tuple[bool, bool] = (False, False)
    #: The journal's "not saved" fault while it holds entries the disk refused, else "".
    #: The table's faults: the journal's "not saved" while it holds entries the disk
    #: refused (a `Fault` of part "journal", as at every table), else none.
    faults: tuple[Fault, ...] = ()
    #: The last game entered at this table since it was opened (its totals, rule 18).
    entered: GameResult | None = None
    #: That game as entered (each team's sheet: a licence meld spoiled later, 17.2).
    entered_game: Game | None = None

    @property
    def not_saved(self) -> str:
        """The journal's "not saved" fault's message (its facts for the screen's words)."""
        return next((f.message for f in self.faults if f.part == "journal"), "")


@dataclass(frozen=True, slots=True)
class BhukharPreview:
    """The game as the record would score it (`result`), or `refused`: the rules' reason,
    as facts for the interface to word (then `result` is None)."""

    result: GameResult | None
    refused: Reason | None = None


class BhukharTable(TableBase[BhukharView]):
    """One session on the journal: its round timer, its scoresheet and its draft.

    Build it with `create` (a new session) or `open` (resume). `clock` is the monotonic
    clock, `wall` the wall clock written in timer lines.
    """

    #: The umpire keeps the round timer and the scoresheet (kiosk/access/authority.py).
    kind: ClassVar[str] = KIND
    COMMANDS: ClassVar[Mapping[str, str]] = {
        "start_round": "bhukhar_round",
        "pause_round": "bhukhar_round",
        "resume_round": "bhukhar_round",
        "edit": "bhukhar_entry",
        "edit_cards": "bhukhar_entry",
        "take_back_cards": "bhukhar_entry",
        "enter_draft": "bhukhar_enter",
    }

    def __init__(
        self,
        journal: Journal,
        match_id: int,
        session: Session,
        *,
        started: float,
        draft: Draft | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        outputs: Iterable[Output] = (),
    ) -> None:
        super().__init__(journal, clock=clock, wall=wall, outputs=outputs)
        self.match_id = match_id
        self.session = session
        self._started = started  # the session's wall start: journal times count from it
        ids = session.team_ids
        self.draft = draft or Draft((ids[0], ids[1]))
        self._entered: GameResult | None = None
        self._entered_game: Game | None = None
        # Reopened (a restart): the last game entered that still stands, so its totals
        # can be shown as they were added up.
        standing = {(e.round, e.table): (e, r) for e, r in session.games()}
        for event in reversed(session.events):
            if isinstance(event, GameEntry) and (event.round, event.table) in standing:
                entry, self._entered = standing[(event.round, event.table)]
                self._entered_game = entry.game
                break
        #: Earlier states of each side's cards, for "Take back" (newest last; not journaled).
        self._history: tuple[list[CardsEntry], list[CardsEntry]] = ([], [])
        self.timer = RoundTimer(session.start.round_minutes, session.start.warn_minutes)
        rounds = [e.round for e in session.events if isinstance(e, GameEntry | TimerEntry)]
        self.round = max(rounds, default=0)
        state = session.timer
        if state is not None:
            left = state.left
            if state.running:
                left = max(0.0, left - max(0.0, wall() - state.at))
            self.timer.restore(clock(), left, state.running)

    # -- opening ---------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        journal: Journal,
        start: SessionStart,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        outputs: Iterable[Output] = (),
    ) -> BhukharTable:
        """A new session in the journal, its first line checked like a read record."""
        header = start_to_dict(start)
        session = Session(start_from_dict(header))
        RoundTimer(start.round_minutes, start.warn_minutes)
        started = wall()
        match_id = journal.begin_match(KIND, header, started)
        return cls(
            journal, match_id, session, started=started, clock=clock, wall=wall, outputs=outputs
        )

    @classmethod
    def open(
        cls,
        journal: Journal,
        match_id: int | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        outputs: Iterable[Output] = (),
    ) -> BhukharTable | None:
        """Resume session `match_id` (default: the latest unfinished one; None if none)."""
        row = journal.unfinished(KIND) if match_id is None else journal.match(match_id)
        if row is None:
            return None
        if row.kind != KIND:
            raise TableFileError(f"{journal.path}: match {row.id} is {row.kind}, not Bhukhar")
        session = Session(start_from_dict(row.header))
        draft: Draft | None = None
        for entry in journal.entries(row.id, (EVENT, DRAFT)):
            if entry.kind == DRAFT:
                draft = Draft.from_dict(entry.data)
                continue
            event = event_from_dict(entry.data)
            session.push(event)
            if isinstance(event, GameEntry):
                draft = None  # a draft from before this game was entered is gone with it
        return cls(
            journal,
            row.id,
            session,
            started=row.wall_start,
            draft=draft,
            clock=clock,
            wall=wall,
            outputs=outputs,
        )

    def export(self) -> str:
        """The session record (docs/bhukhar.md): the first line, then every event, each as
        the journal holds it."""
        return _record(self.journal, self.journal.match(self.match_id))

    def finish(self) -> None:
        """The session is over: it is no longer offered for resuming."""
        self.journal.finish(self.match_id)

    # -- the round timer -------------------------------------------------------------

    @command
    def start_round(self, now: float | None = None, *, role: Role) -> int:
        """Start the next round from the full length (rule 10); returns its number."""
        now = self._now(now)
        entry = TimerEntry(self.round + 1, "start", self.timer.length, self.wall())
        self._append(entry, source(role))
        self.round = entry.round
        self.timer.start(now)
        self._tell(now, only_if_changed=True)
        return self.round

    @command
    def pause_round(self, now: float | None = None, *, role: Role) -> None:
        """Hold the round's clock; SessionError when it is not running."""
        now = self._now(now)
        if not self.timer.running or self.timer.time_called(now):
            raise SessionError.of("round_not_running", N_("the round's clock is not running"))
        entry = TimerEntry(self.round, "pause", self.timer.remaining(now), self.wall())
        self._append(entry, source(role))
        self.timer.pause(now)
        self._tell(now, only_if_changed=True)

    @command
    def resume_round(self, now: float | None = None, *, role: Role) -> None:
        """Go on with the round; SessionError when it is not paused."""
        now = self._now(now)
        if not self.timer.paused:
            raise SessionError.of("round_not_paused", N_("the round's clock is not paused"))
        entry = TimerEntry(self.round, "resume", self.timer.remaining(now), self.wall())
        self._append(entry, source(role))
        self.timer.resume(now)
        self._tell(now, only_if_changed=True)

    def remaining(self, now: float) -> float:
        """Seconds left in the round (the full length before the first round)."""
        return self.timer.remaining(now)

    def face(self, now: float) -> str:
        return self.timer.face(now)

    def time_called(self, now: float) -> bool:
        """Rule 16.3: time is up; the games end and hands are not laid."""
        return self.round > 0 and self.timer.time_called(now)

    def due(self, now: float) -> list[Pattern]:
        """The buzzer patterns due by `now` (warnings, then the final buzzer), once each."""
        return self.timer.due_patterns(now)

    def next_deadline(self) -> float | None:
        """When `due` next has something (for a loop that sleeps until then)."""
        return self.timer.next_deadline()

    # -- the loop's side (kiosk/tables/base.py) ----------------------------------------

    def _step(self, now: float) -> None:
        """A Bhukhar table has no sensors (an input is a fault); the buzzer patterns that fell
        due by `now` go to the outputs (the buzzer plays them)."""
        super()._step(now)
        for pattern in self.due(now):
            self.outputs.sound(pattern)

    def version_key(self) -> object:
        """What a command here acts on: the session's entries, the round and its timer's
        state, the game being entered and what can be taken back."""
        history = (len(self._history[0]), len(self._history[1]))
        timer = (self.timer.running, self.timer.paused)
        return (self.match_id, len(self.session.events), self.round, timer, self.draft, history)

    def _view(self, now: float) -> BhukharView:
        return BhukharView(
            self.version,
            self.face(now),
            self.round,
            self.timer.running,
            self.timer.paused,
            self.time_called(now),
            len(self.session.events),
            left=self.remaining(now),
            games=len(self.session.games()),
            match_id=self.match_id,
            teams=self.session.start.teams,
            standings=self.standings(),
            draft=self.draft,
            can_take_back=(bool(self._history[0]), bool(self._history[1])),
            faults=self.faults,
            entered=self._entered,
            entered_game=self._entered_game,
        )

    def _visible(self, view: BhukharView) -> object:
        """The face (whole seconds), not the seconds left that move at every poll."""
        return all_but(view, "left")

    # -- the game being entered ----------------------------------------------------------

    @property
    def rosters(self) -> Mapping[str, tuple[str, ...]]:
        return self.session.rosters

    @command
    def edit(self, change: Callable[[Draft], Draft], *, role: Role) -> None:
        """Change the draft (a `Draft` method, e.g. `lambda d: d.step("points", 0, 5)`); the
        new draft is journaled before it is shown. A refused change (DraftError) keeps it."""
        self._set_draft(change(self.draft), source(role))

    @command
    def edit_cards(
        self, side: int, change: Callable[[CardsEntry], CardsEntry], *, role: Role
    ) -> None:
        """Change one side's cards (kept for "Take back"); DraftError keeps them as they were."""
        before = self.draft.sides[side].cards
        after = change(before)
        if after != before:
            self._history[side].append(before)
            self._set_draft(self.draft.with_cards(side, after), source(role))

    @command
    def take_back_cards(self, side: int, *, role: Role) -> None:
        """Undo the last change to this side's cards."""
        if self._history[side]:
            draft = self.draft.with_cards(side, self._history[side].pop())
            self._set_draft(draft, source(role))

    @command
    def enter_draft(self, *, role: Role) -> GameResult:
        """Enter the game being entered; its scores are cleared once it is in the record."""
        draft = self.draft
        who = source(role)
        game = draft.game(self.rosters)
        result = self._append(GameEntry(max(1, self.round), draft.table_no, game), who)
        assert result is not None
        self._entered, self._entered_game = result, game
        self._history = ([], [])
        self._set_draft(draft.after_entry(), who)
        return result

    def preview(self, command: Command) -> BhukharPreview:
        """What `command` would give, asked of the rules without writing anything: for
        "enter_draft", the game being entered scored as the record would score it (rules
        13-19), or the core's Reason it would be refused; nothing is shown before any other
        command (`no_preview`)."""
        if command.action != "enter_draft":
            return BhukharPreview(None, NO_PREVIEW)
        try:
            game = self.draft.game(self.rosters)
            result = self.session.check(GameEntry(max(1, self.round), self.draft.table_no, game))
        except (SessionError, ScoreError, DraftError) as exc:
            return BhukharPreview(None, reason_of(exc) or Reason.of("refused", str(exc)))
        return BhukharPreview(result)

    def _set_draft(self, draft: Draft, who: str) -> None:
        if draft == self.draft:
            return
        self.journal.append(self.match_id, self._t(), self.wall(), who, DRAFT, draft.to_dict())
        self.draft = draft
        self._tell(self.clock(), only_if_changed=True)

    # -- the scoresheet --------------------------------------------------------------

    def enter_game(self, table: int, game: Game, round: int | None = None) -> GameResult:
        """Record one game's result (full or totals entry) at `table` in `round`
        (default: the current round, or 1 before any round was started)."""
        entry = GameEntry(round or max(1, self.round), table, game)
        result = self._append(entry, "umpire")
        assert result is not None
        return result

    def enter_json(self, obj: Mapping[str, Any]) -> GameResult | None:
        """Record an entry written as a record line (docs/bhukhar.md); for a "game"
        line without "round", the current round."""
        data = dict(obj)
        if data.get("event") == "game" and "round" not in data:
            data["round"] = max(1, self.round)
        event = event_from_dict(data)
        if isinstance(event, TimerEntry):
            raise SessionError.of(
                "timer_line", N_("timer lines are written by start_round, pause and resume")
            )
        return self._append(event, "umpire")

    def cancel_game(self, round: int, table: int, reason: str | None = None) -> None:
        """Withdraw a game entered by mistake; it may then be entered again."""
        self._append(Cancel(round, table, reason), "umpire")

    def standings(self) -> tuple[Standing, ...]:
        return self.session.standings()

    def games(self) -> list[tuple[GameEntry, GameResult]]:
        return self.session.games()

    # -- inside ----------------------------------------------------------------------

    def match_t(self, now: float) -> float:
        """Session seconds now (Bhukhar counts its time on the wall clock: `now` is not
        needed)."""
        return self._t()

    def _t(self) -> float:
        return max(0.0, self.wall() - self._started)

    def _append(self, event: Event, who: str) -> GameResult | None:
        """Check, journal, then apply: nothing changes if the rules refuse it. A write the
        disk refuses is held by the journal and written later (its `fault` says so)."""
        self.session.check(event)
        self.journal.append(self.match_id, self._t(), self.wall(), who, EVENT, event_to_dict(event))
        result = self.session.push(event)
        if isinstance(event, GameEntry):
            self.round = max(self.round, event.round)
        self._tell(self.clock(), only_if_changed=True)
        return result


def export_bhukhar_record(journal: Journal) -> str:
    """The latest Bhukhar session's record (docs/bhukhar.md); JournalError if there is none."""
    row = journal.latest(KIND)
    if row is None:
        raise JournalError(f"{journal.path}: no Bhukhar session in the journal")
    return _record(journal, row)


def _record(journal: Journal, row: MatchRow) -> str:
    events = journal.entries(row.id, (EVENT,))
    return dump_line(row.header) + "".join(dump_line(e.data) for e in events)
