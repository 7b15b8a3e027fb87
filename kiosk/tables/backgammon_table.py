"""A backgammon table: the match clock with simple delay and the match, journaled.

What the UI's backgammon screen calls. Each press is a clock-record event
(shared/spec/clock-record.md), applied to `ClockedMatch` (kiosk/rules/backgammon/clocked.py:
the clock of kiosk/clocks/match_clock.py and the match of kiosk/rules/backgammon) and written
to the journal before the call returns; a press the rules refuse raises `IllegalAction` and
changes nothing. A flag fall (4.3 (iii)) sounds the long buzz.

A flag fall is journaled as a `query` event at the exact time the flag fell (the record
has no flag event: the replay finds the flag itself), so `tableside export --clock` keeps
the time-out and the winner even when nothing was pressed after it.

After a restart the table resumes from the journal: the record is replayed, and a side that
was running when the kiosk stopped is paused at the moment of the restart (journaled as a
`pause` by the system), so the director decides what the downtime cost (`adjust`, 4.3 (iv)).
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from kiosk.access.authority import Role
from kiosk.clocks.patterns import LONG_BUZZ
from kiosk.clocks.record import (
    Adjust,
    Break,
    ClockEvent,
    ClockHeader,
    ClockRecord,
    ClockRecordError,
    CorrectScore,
    EarlyPickup,
    GameEnd,
    Late,
    MatchLength,
    Overrule,
    Pause,
    Penalty,
    Press,
    Query,
    RestartDelay,
    Resume,
    Start,
    event_to_dict,
    parse_clock_record,
    write_clock_record,
)
from kiosk.config import BackgammonSettings
from kiosk.engine.faults import Fault
from kiosk.engine.journal import EVENT, Journal
from kiosk.engine.outputs import Output
from kiosk.engine.timebase import MatchTime
from kiosk.errors import N_, Reason
from kiosk.rules.backgammon.clocked import ClockedMatch, ClockSnapshot
from kiosk.rules.backgammon.face import ClockFace, clock_face
from kiosk.rules.backgammon.match import Absence, IllegalAction, Match
from kiosk.tables.base import TableBase, all_but, close_unfinished
from kiosk.tables.commands import NO_MATCH, NO_PREVIEW, Command, command, refusal_of, source

KIND = "backgammon"


#: The presses that change the score, each as its event at match time `t`: the command and
#: its preview build the event the same way.
_SCORING: dict[str, Callable[..., Callable[[float], ClockEvent]]] = {
    "game_end": lambda winner, points: lambda t: GameEnd(t, str(winner), int(points)),
    "overrule": lambda player: lambda t: Overrule(t, str(player)),
    "late": lambda player, minutes: lambda t: Late(t, str(player), float(minutes)),
    "penalty": lambda player, points: lambda t: Penalty(t, str(player), int(points)),
    "correct_score": lambda score: (
        lambda t: CorrectScore(t, {str(p): int(n) for p, n in dict(score).items()})
    ),
    "correct_length": lambda length: lambda t: MatchLength(t, int(length)),
}


@dataclass(frozen=True, slots=True)
class MatchFacts:
    """The match as the screen words it (the result, the Crawford game, the cube, the
    penalty points so far), a frozen copy of the core's facts."""

    length: int
    cube: int
    owner: str | None
    crawford: bool
    in_game: bool
    post_crawford: bool
    winner: str | None
    won_by: str | None
    penalty: tuple[tuple[str, int], ...]

    @property
    def over(self) -> bool:
        return self.winner is not None

    def penalty_of(self, player: str) -> int:
        return dict(self.penalty).get(player, 0)


@dataclass(frozen=True, slots=True)
class ClockPreview:
    """The match as it would be after a command (`match`), or `refused`: the core's reason
    it cannot be, as facts for the interface to word (then `match` is None)."""

    match: MatchFacts | None
    refused: Reason | None = None


def match_facts(match: Match) -> MatchFacts:
    return MatchFacts(
        match.length,
        match.cube,
        match.owner,
        match.crawford,
        match.in_game,
        match.post_crawford,
        match.winner,
        match.won_by,
        tuple(sorted(match.penalty.items())),
    )


@dataclass(frozen=True, slots=True)
class ClockView:
    """All the backgammon screen needs at one moment: the face (formatted banks, delay apart,
    tenths below 20 s, the Crawford banner), the raw numbers, and who may press."""

    #: The version of the view (kiosk/tables/commands.py `ViewVersion`).
    version: int
    face: ClockFace
    snapshot: ClockSnapshot
    players: tuple[str, str]
    match_length: int
    running: str | None
    paused: bool
    flagged: str | None
    winner: str | None
    in_game: bool
    crawford: bool
    events: int
    post_crawford: bool = False
    breaks_left: tuple[int, int] = (0, 0)
    must_wait: str | None = None
    second_leg: tuple[bool, bool] = (False, False)
    #: Per side: an early pickup recorded (4.1 (v) b) that the side's next turn has not yet
    #: waited out: the director's button shows the pickup was taken.
    wait_next: tuple[bool, bool] = (False, False)
    #: The journal's "not saved" fault while it holds entries the disk refused (its facts
    #: for the screen's words), else "".
    #: The table's faults: the journal's "not saved" while it holds entries the disk
    #: refused (a `Fault` of part "journal", as at every table), else none.
    faults: tuple[Fault, ...] = ()
    #: The match's facts for the screen's words (None only in views built by hand).
    match: MatchFacts | None = None

    def to_json(self) -> dict[str, Any]:
        """The view as the publisher sends it (kiosk/engine/outputs.py `JsonOutput`): the keys of
        `tableside clock replay --json`, and the faces."""
        return {
            "game": "backgammon",
            "clock": self.snapshot.to_json(),
            "faces": [
                {"player": s.player, "bank": s.bank, "delay": s.delay, "on_turn": s.on_turn}
                for s in self.face.sides
            ],
            # The banner's code ("crawford_next", "won_on_time", ...): each reader words it.
            "banner": None if self.face.banner is None else self.face.banner.code,
            "paused": self.paused,
        }

    @property
    def not_saved(self) -> str:
        """The journal's "not saved" fault's message (its facts for the screen's words)."""
        return next((f.message for f in self.faults if f.part == "journal"), "")


def header_to_dict(header: ClockHeader) -> dict[str, Any]:
    """The record's first line for `header` (the same object write_clock_record writes)."""
    first = write_clock_record(header, []).splitlines()[0]
    data: dict[str, Any] = json.loads(first)
    return data


class BackgammonTable(TableBase[ClockView]):
    """One backgammon match on the clock, on a journal.

    `clock` is the monotonic clock (tests inject a fake one) and `wall` the wall clock used
    only to carry match time across a restart. A backgammon table has no umpire (RULES.md,
    rulings of 2026-11-27): the players press, pause, resume, restart the delay, start and end
    a game; the director does the rest (kiosk/access/authority.py).
    """

    kind: ClassVar[str] = KIND
    COMMANDS: ClassVar[Mapping[str, str]] = {
        name: name
        for name in (
            "start", "press", "pause", "resume_clock", "restart_delay", "early_pickup",
            "adjust", "game_end", "overrule", "late", "penalty", "take_break",
            "correct_score",
        )
    } | {"adjust_by": "adjust", "correct_length": "match_length"}  # fmt: skip

    def __init__(
        self,
        journal: Journal,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        outputs: Iterable[Output] = (),
        settings: BackgammonSettings | None = None,
    ) -> None:
        super().__init__(journal, clock=clock, wall=wall, outputs=outputs)
        self.settings = settings or BackgammonSettings()
        self.match_id: int | None = None
        self.cm: ClockedMatch | None = None
        self.header: ClockHeader | None = None
        self.events: list[ClockEvent] = []
        self._time = MatchTime(clock())
        self._flag_seen: str | None = None
        #: The journal has the match finished: its winner is declared (points, time, a
        #: penalty), so home no longer offers it for resuming.
        self._finished = False

    # -- starting --------------------------------------------------------------------

    def match_t(self, now: float) -> float:
        """Match seconds at monotonic `now` (the record's "t")."""
        return self._time.at(now)

    def has_unfinished(self) -> bool:
        return self.journal.unfinished(KIND) is not None

    def start_match(
        self,
        players: tuple[str, str],
        match_length: int,
        score: tuple[int, int] = (0, 0),
        *,
        minutes_per_point: float | None = None,
        delay: float | None = None,
        post_crawford: bool = False,
        second_leg: float | None = None,
        best_of_three: bool = False,
        breaks_taken: tuple[int, int] = (0, 0),
        penalty_points: tuple[int, int] = (0, 0),
        role: Role,
    ) -> None:
        """A new clocked match (3.5 (v)-(vi)); an unfinished one is closed first, journaled
        with `role` (closing it is the director's).
        `second_leg` (seconds, 3.5 (v)) defaults to the settings' `second_leg_s` (0: none).
        For a clock introduced in the middle of a match, `breaks_taken` and `penalty_points`
        (per player, in the order of `players`; the penalty points are in `score`) carry
        what was already given (2.2 (ii), 2.2 (iv), 2.3). A header the rules refuse raises
        `IllegalAction` with the rules' reason; nothing is written."""
        leg = self.settings.second_leg_s if second_leg is None else second_leg
        header = ClockHeader(
            (players[0], players[1]),
            match_length,
            score,
            self.settings.minutes_per_point if minutes_per_point is None else minutes_per_point,
            self.settings.delay_s if delay is None else delay,
            post_crawford,
            leg or None,
            best_of_three,
            (int(breaks_taken[0]), int(breaks_taken[1])),
            (int(penalty_points[0]), int(penalty_points[1])),
        )
        # Let the record's own reader check the header, so a bad one is refused as a record is.
        try:
            parse_clock_record(write_clock_record(header, []))
            cm = ClockedMatch(header)
        except ClockRecordError as exc:
            raise IllegalAction(exc.why or exc.reason) from None
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        close_unfinished(self.journal, KIND, role, self.wall())
        now = self.clock()
        self.match_id = self.journal.begin_match(KIND, header_to_dict(header), self.wall())
        self.header, self.cm, self.events = header, cm, []
        self._time = MatchTime(now)
        self._flag_seen = None
        self._finished = False
        self._tell(now)

    def resume(self) -> ClockView | None:
        """Resume the unfinished match in the journal; None if there is none."""
        row = self.journal.unfinished(KIND)
        if row is None:
            return None
        try:
            record, cm = replayed_clock(self.journal, row.id)
        except ClockRecordError as exc:
            # A journal from before a change of the rules, or damaged: say where, keep it.
            raise IllegalAction.of(
                "clock_not_resumed",
                N_(
                    "{path}: the unfinished backgammon match cannot be resumed: its clock "
                    "record's line {line}: {why}"
                ),
                path=str(self.journal.path),
                line=exc.line,
                why=exc.why if exc.why is not None else exc.reason,
            ) from None
        now = self.clock()
        self._time = MatchTime.resumed(now, self.wall(), self.journal.last_entry(row.id))
        self.match_id, self.header, self.cm = row.id, record.header, cm
        self.events = [e for _, e in record.events]
        self._flag_seen = cm.clock.flagged
        self._finished = False
        if cm.clock.running is not None:
            t = self._time.t(now)
            self._note_flag(t)  # a flag that fell while the kiosk was down falls first
            if cm.clock.running is not None:
                self._apply(Pause(t), source="system")
        return self._tell(now)

    # -- the presses -----------------------------------------------------------------

    @command
    def start(self, player: str, *, role: Role) -> None:
        """`player`'s side runs: a game begins, or a stopped clock restarts."""
        self._press("start", lambda t: Start(t, player), role)

    @command
    def press(self, player: str, *, role: Role) -> None:
        """`player` ends the turn (a press by the side not running changes nothing)."""
        self._press("press", lambda t: Press(t, player), role)

    @command
    def pause(self, *, role: Role) -> None:
        self._press("pause", Pause, role)

    @command
    def resume_clock(self, *, role: Role) -> None:
        self._press("resume_clock", Resume, role)

    @command
    def restart_delay(self, *, role: Role) -> None:
        self._press("restart_delay", RestartDelay, role)

    @command
    def early_pickup(self, player: str, *, role: Role) -> None:
        self._press("early_pickup", lambda t: EarlyPickup(t, player), role)

    @command
    def adjust(self, player: str, bank: float, *, role: Role) -> None:
        self._press("adjust", lambda t: Adjust(t, player, float(bank)), role)

    @command
    def adjust_by(self, player: str, delta_s: float, *, role: Role) -> None:
        """The director moves `player`'s bank by `delta_s` from what it holds now (4.3 (iv),
        (vi)); never below 0."""
        cm, _ = self._need()
        t = self._time.t(self.clock())
        bank = max(0.0, cm.snapshot(t).banks[player] + float(delta_s))
        self._press("adjust", lambda at: Adjust(at, player, bank), role)

    @command
    def game_end(self, winner: str, points: int, *, role: Role) -> None:
        """The game's points, reported by the players (the loser confirms them)."""
        self._press("game_end", _SCORING["game_end"](winner=winner, points=points), role)

    @command
    def overrule(self, player: str, *, role: Role) -> None:
        """The director rules the flagged `player` had won: the match winner (4.3 (iii))."""
        self._press("overrule", _SCORING["overrule"](player=player), role)

    @command
    def late(self, player: str, minutes: float, *, role: Role) -> None:
        """`player` arrived `minutes` late: penalty points to the opponent (2.2 (iv))."""
        self._press("late", _SCORING["late"](player=player, minutes=minutes), role)

    @command
    def penalty(self, player: str, points: int, *, role: Role) -> None:
        """The director awards `player` penalty points (2.2 (iv), 2.3, 4.3 (i))."""
        self._press("penalty", _SCORING["penalty"](player=player, points=points), role)

    @command
    def take_break(self, player: str, emergency: bool = False, *, role: Role) -> Absence:
        """The director grants `player` a break (2.2 (ii)), or an emergency break (2.2 (v));
        returns how the absence was counted: one of the player's breaks while one is left
        (leaving the table is a break, also in an emergency), else "emergency"."""
        cm, _ = self._need()
        before = cm.match.breaks_left(player) if player in cm.match.players else 0
        self._press("take_break", lambda t: Break(t, player, emergency), role)
        return "break" if cm.match.breaks_left(player) < before else "emergency"

    @command
    def correct_score(self, score: Mapping[str, int], *, role: Role) -> None:
        """The director corrects the score (4.7): it becomes `score`, both players named.
        Refused after the match, below a player's penalty points, or with both scores at
        the length; a score that reaches the length ends the match."""
        self._press("correct_score", _SCORING["correct_score"](score=score), role)

    @command
    def correct_length(self, length: int, *, role: Role) -> None:
        """The director corrects a wrongly entered match length before the next game (4.8);
        refused during a game, below 1, or where the new length would end the match."""
        self._press("correct_length", _SCORING["correct_length"](length=length), role)

    def preview(self, command: Command) -> ClockPreview:
        """What `command` (one that changes the score: a game's end, lateness, penalty
        points, an overrule, a corrected score or length) would make of the match, asked of
        the core on a copy: the table is left as it was. A press the core refuses comes back
        as its `refused` Reason; so does no match, or a command that cannot be shown."""
        if self.cm is None:
            return ClockPreview(None, NO_MATCH)
        build = _SCORING.get(command.action)
        if build is None:
            return ClockPreview(None, NO_PREVIEW)
        ahead = copy.deepcopy(self.cm)
        try:
            ahead.apply(build(**command.kwargs())(self._time.t(self.clock())))
        except (IllegalAction, TypeError, ValueError) as exc:
            return ClockPreview(None, refusal_of(exc))
        return ClockPreview(match_facts(ahead.match))

    def _press(self, action: str, make: Callable[[float], ClockEvent], role: Role) -> None:
        now = self.clock()
        t = self._time.t(now)
        self._note_flag(t)  # a flag that fell before this press is recorded first
        self._apply(make(t), source=source(role))
        self._tell(now)

    def _note_flag(self, t: float) -> None:
        """Let a flag that fell by `t` fall: journal its moment as a `query`, buzz once."""
        cm, match_id = self._need()
        deadline = cm.clock.next_deadline()
        if deadline is not None and deadline <= t:
            # Look ahead on a copy: the deadline may end a first leg (3.5 (v)), not flag.
            ahead = copy.deepcopy(cm.clock)
            flags = ahead.advance(t)
            if flags:
                self._apply(Query(max(flags[0].t, cm.last_t)), source="timer")
        flagged = cm.clock.flagged
        if flagged is not None and flagged != self._flag_seen:
            at = cm.flag_at if cm.flag_at is not None else t
            self.journal.append(
                match_id, at, self.wall(), "timer", "flag", {"player": flagged}, sync=False
            )
            self.outputs.sound(LONG_BUZZ)
        self._flag_seen = flagged

    def _apply(self, event: ClockEvent, *, source: str) -> None:
        cm, match_id = self._need()
        cm.apply(event)  # IllegalAction: nothing changed, nothing written
        self.journal.append(match_id, event.t, self.wall(), source, EVENT, event_to_dict(event))
        self.events.append(event)

    # -- the loop's side -------------------------------------------------------------

    def next_deadline(self) -> float | None:
        """Monotonic time of the next flag fall, or None."""
        if self.cm is None:
            return None
        deadline = self.cm.clock.next_deadline()
        if deadline is None:
            return None
        return self.clock() + max(0.0, deadline - self._time.t(self.clock()))

    def _showing(self) -> bool:
        return self.cm is not None and self.match_id is not None

    def _step(self, now: float) -> None:
        """A backgammon clock has no sensors (an input is a fault); a flag that fell by `now`
        falls: the long buzz, a journal note."""
        super()._step(now)
        if self._showing():
            self._note_flag(self._time.t(now))

    def version_key(self) -> object:
        """What a command here acts on: the match, its events, a flag that fell."""
        cm = self.cm
        flagged = None if cm is None else cm.clock.flagged
        return (self.match_id, len(self.events), flagged, self._finished)

    def _view(self, now: float) -> ClockView:
        cm, _ = self._need()
        t = self._time.t(now)
        snapshot = cm.snapshot(t)
        assert self.header is not None
        return ClockView(
            version=self.version,
            face=clock_face(cm, t),
            snapshot=snapshot,
            players=self.header.players,
            match_length=cm.match.length,  # 4.8: a corrected length, not the header's
            running=cm.clock.running,
            paused=cm.clock.paused is not None,
            flagged=cm.clock.flagged,
            winner=cm.match.winner,
            in_game=cm.match.in_game,
            crawford=cm.match.crawford,
            events=len(self.events),
            faults=self.faults,
            post_crawford=cm.match.post_crawford,
            breaks_left=(
                cm.match.breaks_left(self.header.players[0]),
                cm.match.breaks_left(self.header.players[1]),
            ),
            must_wait=snapshot.must_wait,
            second_leg=(
                cm.clock.on_second_leg(self.header.players[0]),
                cm.clock.on_second_leg(self.header.players[1]),
            ),
            wait_next=(
                cm.clock.must_wait_next(self.header.players[0]),
                cm.clock.must_wait_next(self.header.players[1]),
            ),
            match=match_facts(cm.match),
        )

    def finish(self) -> None:
        """Close the match in the journal (it is no longer offered for resuming)."""
        if self.match_id is not None:
            self.journal.finish(self.match_id)
            self.journal.checkpoint()  # the match's end: journal.db alone is complete

    def export(self, match_id: int | None = None) -> str:
        """The clock record (shared/spec/clock-record.md) of a match in the journal."""
        return export_clock_record(self.journal, match_id or self.match_id)

    def _visible(self, view: ClockView) -> object:
        """The face (whole seconds, tenths below 20 s) and the rest, not the raw banks that
        move at every poll."""
        return all_but(view, "snapshot")

    def _before_tell(self) -> None:
        self._finish_when_decided()

    def _finish_when_decided(self) -> None:
        """A match with a winner (on points, penalty points, the director's overrule) is
        finished in the journal, as the carrom table finishes a declared result. One won on
        time stays open: the director may still overrule the flag (4.3 (iii)) or restore
        the time of a wrongly set clock (4.3 (iv)); home lists it as decided on time."""
        if self.cm is None or self.match_id is None:
            return
        match = self.cm.match
        over = match.over and match.won_by != "time"
        if over and not self._finished:
            self.journal.finish(self.match_id)
            self.journal.checkpoint()  # the match's end: journal.db alone is complete
        elif self._finished and not over:
            self.journal.reopen(self.match_id)
        self._finished = over

    def _need(self) -> tuple[ClockedMatch, int]:
        if self.cm is None or self.match_id is None:
            raise IllegalAction(NO_MATCH)
        return self.cm, self.match_id


def replayed_clock(journal: Journal, match_id: int) -> tuple[ClockRecord, ClockedMatch]:
    """The clocked match `match_id` of the journal with its events applied again (they were
    all accepted once). ClockRecordError names the record's line that cannot be."""
    record = parse_clock_record(export_clock_record(journal, match_id))
    cm = ClockedMatch(record.header)
    for line, event in record.events:
        try:
            cm.apply(event, keep=False)
        except IllegalAction as exc:
            raise ClockRecordError(line, str(exc)) from None
    return record, cm


def export_clock_record(journal: Journal, match_id: int | None = None) -> str:
    """The clock record of `match_id` (default: the latest backgammon match) from the journal."""
    if match_id is None:
        row = journal.latest(KIND)
        if row is None:
            raise IllegalAction(f"{journal.path}: no backgammon clock in the journal")
        match_id = row.id
    row = journal.match(match_id)
    lines = [json.dumps(row.header, ensure_ascii=False)]
    lines.extend(json.dumps(e, ensure_ascii=False) for e in journal.confirmed(match_id))
    return "\n".join(lines) + "\n"
