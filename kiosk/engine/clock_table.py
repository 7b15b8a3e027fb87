"""A backgammon table: the match clock with simple delay and the match, journaled.

What the UI's backgammon screen calls. Each press is a clock-record event
(shared/spec/clock-record.md), applied to `ClockedMatch` (kiosk/rules/backgammon/clocked.py:
the clock of kiosk/clocks/match_clock.py and the match of kiosk/rules/backgammon) and written
to the journal before the call returns; a press the rules refuse raises `IllegalAction` and
changes nothing. A flag fall (4.3 (iii)) sounds the long buzz.

After a restart the table resumes from the journal: the record is replayed, and a side that
was running when the kiosk stopped is paused at the moment of the restart (journaled as a
`pause` by the system), so the director decides what the downtime cost (`adjust`, 4.3 (iv)).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from kiosk.clocks.patterns import LONG_BUZZ
from kiosk.clocks.record import (
    Adjust,
    ClockEvent,
    ClockHeader,
    EarlyPickup,
    GameEnd,
    Overrule,
    Pause,
    Press,
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
    ) -> ClockView:
        """A new clocked match (3.5 (v)-(vi)); an unfinished one is closed first."""
        header = ClockHeader(
            (players[0], players[1]),
            match_length,
            score,
            self.settings.minutes_per_point if minutes_per_point is None else minutes_per_point,
            self.settings.delay_s if delay is None else delay,
            post_crawford,
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
        return self._changed(now)

    def resume(self) -> ClockView | None:
        """Resume the unfinished match in the journal; None if there is none."""
        row = self.journal.unfinished(KIND)
        if row is None:
            return None
        record = parse_clock_record(self.export(row.id))
        cm = ClockedMatch(record.header)
        for _, event in record.events:
            cm.apply(event)
        now = self.clock()
        self._time = MatchTime.resumed(now, self.wall(), self.journal.last_entry(row.id))
        self.match_id, self.header, self.cm = row.id, record.header, cm
        self.events = [e for _, e in record.events]
        self._flag_seen = cm.clock.flagged
        if cm.clock.running is not None:
            t = self._time.t(now)
            cm.catch_up(t)  # a flag that fell while the kiosk was down falls first
            if cm.clock.running is not None:
                self._apply(Pause(t), source="system")
        return self._changed(now)

    # -- the presses -----------------------------------------------------------------

    def start(self, player: str) -> ClockView:
        """`player`'s side runs: a game begins, or a stopped clock restarts."""
        return self._press(lambda t: Start(t, player))

    def press(self, player: str) -> ClockView:
        """`player` ends the turn (a press by the side not running changes nothing)."""
        return self._press(lambda t: Press(t, player))

    def pause(self) -> ClockView:
        return self._press(Pause)

    def resume_clock(self) -> ClockView:
        return self._press(Resume)

    def restart_delay(self) -> ClockView:
        return self._press(RestartDelay)

    def early_pickup(self, player: str) -> ClockView:
        return self._press(lambda t: EarlyPickup(t, player))

    def adjust(self, player: str, bank: float) -> ClockView:
        return self._press(lambda t: Adjust(t, player, float(bank)))

    def game_end(self, winner: str, points: int) -> ClockView:
        return self._press(lambda t: GameEnd(t, winner, points))

    def overrule(self, player: str) -> ClockView:
        return self._press(lambda t: Overrule(t, player))

    def _press(self, make: Callable[[float], ClockEvent]) -> ClockView:
        now = self.clock()
        self._apply(make(self._time.t(now)), source="umpire")
        return self._changed(now)

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

    def poll(self, now: float | None = None) -> ClockView | None:
        """Let a flag fall that fell by `now`: the long buzz, a journal note, a new view."""
        if self.cm is None or self.match_id is None:
            return None
        now = self.clock() if now is None else now
        t = self._time.t(now)
        self.cm.catch_up(t)
        flagged = self.cm.clock.flagged
        if flagged is not None and flagged != self._flag_seen:
            self.journal.append(self.match_id, t, self.wall(), "timer", "flag", {"player": flagged})
            self.outputs.sound(LONG_BUZZ)
        self._flag_seen = flagged
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
