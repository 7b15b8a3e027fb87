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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from kiosk.clocks.patterns import LONG_BUZZ
from kiosk.clocks.record import (
    Adjust,
    Break,
    ClockEvent,
    ClockHeader,
    ClockRecordError,
    EarlyPickup,
    GameEnd,
    Late,
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
from kiosk.engine.journal import EVENT, Journal
from kiosk.engine.outputs import Output, Outputs
from kiosk.engine.timebase import MatchTime
from kiosk.rules.backgammon.clocked import ClockedMatch, ClockSnapshot
from kiosk.rules.backgammon.face import ClockFace, clock_face
from kiosk.rules.backgammon.match import IllegalAction

KIND = "backgammon"


@dataclass(frozen=True, slots=True)
class ClockView:
    """All the backgammon screen needs at one moment: the face (formatted banks, delay apart,
    tenths below 20 s, the Crawford banner), the raw numbers, and who may press."""

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
    #: The journal's "not saved" fault while it holds entries the disk refused (its facts
    #: for the screen's words), else "".
    not_saved: str = ""


def header_to_dict(header: ClockHeader) -> dict[str, Any]:
    """The record's first line for `header` (the same object write_clock_record writes)."""
    first = write_clock_record(header, []).splitlines()[0]
    data: dict[str, Any] = json.loads(first)
    return data


class ClockTable:
    """One backgammon match on the clock, on a journal.

    `clock` is the monotonic clock (tests inject a fake one) and `wall` the wall clock used
    only to carry match time across a restart.
    """

    def __init__(
        self,
        journal: Journal,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        outputs: Iterable[Output] = (),
        settings: BackgammonSettings | None = None,
    ) -> None:
        self.journal = journal
        self.clock = clock
        self.wall = wall
        self.outputs = Outputs(outputs)
        self.settings = settings or BackgammonSettings()
        self.match_id: int | None = None
        self.cm: ClockedMatch | None = None
        self.header: ClockHeader | None = None
        self.events: list[ClockEvent] = []
        self._time = MatchTime(clock())
        self._flag_seen: str | None = None

    # -- starting --------------------------------------------------------------------

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
    ) -> None:
        """A new clocked match (3.5 (v)-(vi)); an unfinished one is closed first.
        `second_leg` (seconds, 3.5 (v)) defaults to the settings' `second_leg_s` (0: none)."""
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
        )
        # Let the record's own reader check the header, so a bad one is refused as a record is.
        try:
            parse_clock_record(write_clock_record(header, []))
            cm = ClockedMatch(header)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None
        old = self.journal.unfinished(KIND)
        if old is not None:
            self.journal.finish(old.id)
        now = self.clock()
        self.match_id = self.journal.begin_match(KIND, header_to_dict(header), self.wall())
        self.header, self.cm, self.events = header, cm, []
        self._time = MatchTime(now)
        self._flag_seen = None
        self._changed(now)

    def resume(self) -> ClockView | None:
        """Resume the unfinished match in the journal; None if there is none."""
        row = self.journal.unfinished(KIND)
        if row is None:
            return None
        try:
            record = parse_clock_record(self.export(row.id))
            cm = ClockedMatch(record.header)
            for line, event in record.events:
                try:
                    cm.apply(event, keep=False)  # journaled events were all accepted once
                except IllegalAction as exc:
                    raise ClockRecordError(line, str(exc)) from None
        except ClockRecordError as exc:
            # A journal from before a change of the rules, or damaged: say where, keep it.
            raise IllegalAction(
                f"{self.journal.path}: the unfinished backgammon match cannot be resumed: "
                f"its clock record's line {exc.line}: {exc.reason}"
            ) from None
        now = self.clock()
        self._time = MatchTime.resumed(now, self.wall(), self.journal.last_entry(row.id))
        self.match_id, self.header, self.cm = row.id, record.header, cm
        self.events = [e for _, e in record.events]
        self._flag_seen = cm.clock.flagged
        if cm.clock.running is not None:
            t = self._time.t(now)
            self._note_flag(t)  # a flag that fell while the kiosk was down falls first
            if cm.clock.running is not None:
                self._apply(Pause(t), source="system")
        return self._changed(now)

    # -- the presses -----------------------------------------------------------------

    def start(self, player: str) -> None:
        """`player`'s side runs: a game begins, or a stopped clock restarts."""
        self._press(lambda t: Start(t, player))

    def press(self, player: str) -> None:
        """`player` ends the turn (a press by the side not running changes nothing)."""
        self._press(lambda t: Press(t, player))

    def pause(self) -> None:
        self._press(Pause)

    def resume_clock(self) -> None:
        self._press(Resume)

    def restart_delay(self) -> None:
        self._press(RestartDelay)

    def early_pickup(self, player: str) -> None:
        self._press(lambda t: EarlyPickup(t, player))

    def adjust(self, player: str, bank: float) -> None:
        self._press(lambda t: Adjust(t, player, float(bank)))

    def game_end(self, winner: str, points: int) -> None:
        self._press(lambda t: GameEnd(t, winner, points))

    def overrule(self, player: str) -> None:
        """The director rules the flagged `player` had won: the match winner (4.3 (iii))."""
        self._press(lambda t: Overrule(t, player))

    def late(self, player: str, minutes: float) -> None:
        """`player` arrived `minutes` late: penalty points to the opponent (2.2 (iv))."""
        self._press(lambda t: Late(t, player, float(minutes)))

    def penalty(self, player: str, points: int) -> None:
        """The director awards `player` penalty points (2.2 (iv), 2.3, 4.3 (i))."""
        self._press(lambda t: Penalty(t, player, int(points)))

    def take_break(self, player: str, emergency: bool = False) -> None:
        """`player` takes a break (2.2 (ii)), or an emergency break (2.2 (v))."""
        self._press(lambda t: Break(t, player, emergency))

    def _press(self, make: Callable[[float], ClockEvent]) -> None:
        now = self.clock()
        t = self._time.t(now)
        self._note_flag(t)  # a flag that fell before this press is recorded first
        self._apply(make(t), source="umpire")
        self._changed(now)

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
            self.journal.append(match_id, at, self.wall(), "timer", "flag", {"player": flagged})
            self.outputs.sound(LONG_BUZZ)
        self._flag_seen = flagged

    def _apply(self, event: ClockEvent, *, source: str) -> None:
        cm, match_id = self._need()
        cm.apply(event)  # IllegalAction: nothing changed, nothing written
        self.journal.append(match_id, event.t, self.wall(), source, EVENT, event_to_dict(event))
        self.events.append(event)

    # -- the loop's side -------------------------------------------------------------

    def post(self, item: object) -> None:
        """A backgammon clock has no sensors: its inputs are the umpire's presses."""
        raise TypeError(f"a backgammon clock takes no sensor input: {item!r}")

    def next_deadline(self) -> float | None:
        """Monotonic time of the next flag fall, or None."""
        if self.cm is None:
            return None
        deadline = self.cm.clock.next_deadline()
        if deadline is None:
            return None
        return self.clock() + max(0.0, deadline - self._time.t(self.clock()))

    def poll(self, now: float | None = None) -> ClockView | None:
        """Let a flag fall that fell by `now`: the long buzz, a journal note, a new view."""
        if self.cm is None or self.match_id is None:
            return None
        now = self.clock() if now is None else now
        self.journal.retry()  # held entries are written once the disk takes them (paced)
        self._note_flag(self._time.t(now))
        return self._changed(now)

    def view(self, now: float | None = None) -> ClockView:
        cm, _ = self._need()
        now = self.clock() if now is None else now
        t = self._time.t(now)
        snapshot = cm.snapshot(t)
        assert self.header is not None
        return ClockView(
            face=clock_face(cm, t),
            snapshot=snapshot,
            players=self.header.players,
            match_length=self.header.match_length,
            running=cm.clock.running,
            paused=cm.clock.paused is not None,
            flagged=cm.clock.flagged,
            winner=cm.match.winner,
            in_game=cm.match.in_game,
            crawford=cm.match.crawford,
            events=len(self.events),
            not_saved=self.journal.fault or "",
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
        )

    def finish(self) -> None:
        """Close the match in the journal (it is no longer offered for resuming)."""
        if self.match_id is not None:
            self.journal.finish(self.match_id)
            self.journal.checkpoint()  # the match's end: journal.db alone is complete

    def export(self, match_id: int | None = None) -> str:
        """The clock record (shared/spec/clock-record.md) of a match in the journal."""
        return export_clock_record(self.journal, match_id or self.match_id)

    def _changed(self, now: float) -> ClockView:
        view = self.view(now)
        self.outputs.state_changed(view)
        return view

    def _need(self) -> tuple[ClockedMatch, int]:
        if self.cm is None or self.match_id is None:
            raise IllegalAction("no clocked match: start one or resume")
        return self.cm, self.match_id


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
