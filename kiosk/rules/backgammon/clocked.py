"""A backgammon match played on a clock: the match clock and the match, driven by the
events of a clock record (shared/spec/clock-record.md).

`ClockedMatch.apply(event)` first lets any flag that fell before the event fall
(the time expiry loses the match, 4.3 (iii)), then applies the event. A press
made at the very moment a bank reaches 0 comes too late: the bank was 0. A
refused event raises `IllegalAction` and changes nothing that was recorded.
`replay_clock` replays a whole record and raises `ClockRecordError` with the
line of the first event that breaks the rules.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, TypeVar

from kiosk.clocks.countdown import ClockError
from kiosk.clocks.match_clock import MatchClock, bank_for
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
)
from kiosk.errors import N_, Reason
from kiosk.rules.backgammon.match import IllegalAction, Match

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class ClockSnapshot:
    """The clock and the match at `t`: the keys of `tableside clock replay --json`."""

    t: float
    running: str | None
    banks: dict[str, float]
    delay_left: float
    score: dict[str, int]
    crawford: bool
    winner: str | None
    flagged: str | None
    breaks_left: dict[str, int]
    must_wait: str | None

    def to_json(self) -> dict[str, Any]:
        """The spec's object: banks and delay rounded to the millisecond."""
        return {
            "t": float(self.t),
            "running": self.running,
            "banks": {p: round(b, 3) for p, b in self.banks.items()},
            "delay_left": round(self.delay_left, 3),
            "score": dict(self.score),
            "crawford": self.crawford,
            "winner": self.winner,
            "flagged": self.flagged,
            "breaks_left": dict(self.breaks_left),
            "must_wait": self.must_wait,
        }


class ClockedMatch:
    """The match and its clock, moved on together."""

    def __init__(self, header: ClockHeader) -> None:
        self.header = header
        a, b = header.players
        try:
            self.match = Match(
                header.players,
                header.match_length,
                score={a: header.score[0], b: header.score[1]},
                post_crawford=header.post_crawford,
                best_of_three=header.best_of_three,
                penalty={a: header.penalty_points[0], b: header.penalty_points[1]},
                breaks_taken={a: header.breaks_taken[0], b: header.breaks_taken[1]},
            )
        except IllegalAction as exc:
            raise ClockRecordError(1, str(exc), exc.reason) from None
        match_time = bank_for(
            (self.match.needs(a), self.match.needs(b)), header.minutes_per_point
        )  # 3.5 (vi)
        leg = header.second_leg
        if leg is not None and leg >= match_time:
            why = Reason.of(
                "second_leg_too_long",
                N_(
                    '"second_leg" of {leg} s must be less than each player\'s match time of '
                    "{time} s: the first leg is the match time less the second ({law})"
                ),
                "3.5 (v)",
                leg=f"{leg:g}",
                time=f"{match_time:g}",
            )
            raise ClockRecordError(1, why.english(), why)
        # 3.5 (v): the director "divides the match time into two legs": the second leg is
        # held back from each bank, and the clock restarts with it when the first runs out.
        bank = match_time if leg is None else match_time - leg
        self.clock = MatchClock(header.players, {a: bank, b: bank}, header.delay, leg)
        self.last_t = 0.0
        self.flag_at: float | None = None  # when the last flag fell

    def catch_up(self, now: float) -> None:
        """Let a flag that fell by `now` lose the match (4.3 (iii))."""
        for flag in self.clock.advance(now):
            self.flag_at = flag.t
            if not self.match.over:
                self.match.lose_on_time(flag.player)

    def apply(self, event: ClockEvent, *, keep: bool = True) -> None:
        """Apply one record event; `IllegalAction` if the rules refuse it (state unchanged).

        `keep=False` skips saving the state to roll back to, for a replay that stops at
        the first refusal anyway (the state after a refusal is then not to be used)."""
        if not keep:
            try:
                self._apply(event)
            except ClockError as exc:
                raise IllegalAction(exc.reason or str(exc)) from None
            return
        saved = (_copy(self.clock), _copy(self.match), self.last_t)
        try:
            self._apply(event)
        except (ClockError, IllegalAction) as exc:
            self.clock, self.match, self.last_t = saved
            raise IllegalAction(exc.reason or str(exc)) from None

    def _apply(self, event: ClockEvent) -> None:
        t = event.t
        self.catch_up(t)
        self.last_t = t
        clock, match = self.clock, self.match
        if isinstance(event, Start):
            if match.over:
                raise IllegalAction.of(
                    "start_after_match",
                    N_("start after the match is over ({winner} won)"),
                    winner=match.winner,
                )
            clock.start(event.player, t)
            if not match.in_game:
                match.start_game()
        elif isinstance(event, Press):
            clock.press(event.player, t)
        elif isinstance(event, Pause):
            clock.pause(t)
        elif isinstance(event, Resume):
            clock.resume(t)
        elif isinstance(event, RestartDelay):
            clock.restart_delay(t)
        elif isinstance(event, EarlyPickup):
            clock.early_pickup(event.player, t)
        elif isinstance(event, Adjust):
            was_flagged = clock.flagged == event.player
            if match.over and not (was_flagged and match.won_by == "time"):
                raise IllegalAction.of(
                    "adjust_after_match",
                    N_("adjust after the match is over ({winner} won)"),
                    winner=match.winner,
                )
            clock.adjust(event.player, event.bank, t)
            if was_flagged and clock.flagged is None and match.won_by == "time":
                match.undo_time_loss()  # 4.3 (iv): time lost on a wrongly set clock restored
        elif isinstance(event, GameEnd):
            if not match.in_game:
                raise IllegalAction.of(
                    "game_end_no_game", N_("game_end while no game is being played")
                )
            if match.over:
                raise IllegalAction.of(
                    "game_end_after_match",
                    N_("game_end after the match is over ({winner} won)"),
                    winner=match.winner,
                )
            clock.stop(t)
            match.record_game(event.winner, event.points)
        elif isinstance(event, Overrule):
            clock.check_overrule(event.player, t)
            match.overrule(event.player)  # 4.3 (iii): the overruled player wins the match
        elif isinstance(event, Late):
            match.late_start(event.player, event.minutes)  # 2.2 (iv)
        elif isinstance(event, Penalty):
            match.award_penalty(event.player, event.points)  # 2.2 (iv), 2.3, 4.3 (i)
        elif isinstance(event, Break):
            match.take_break(event.player, event.emergency)  # 2.2 (ii), (v)
            if clock.running is not None:
                clock.pause(t)  # 4.3 (ii) b: the clock stops during a break
        elif isinstance(event, CorrectScore):
            match.correct_score(event.score)  # 4.7; the banks stay as they are
        elif isinstance(event, MatchLength):
            match.correct_length(event.length)  # 4.8; the banks stay as they are
        elif isinstance(event, Query):
            pass
        if match.over:
            clock.stop(t)

    def snapshot(self, now: float) -> ClockSnapshot:
        """The state at `now` (at or after the last event applied)."""
        self.catch_up(now)
        clock, match = self.clock, self.match
        running = clock.running
        return ClockSnapshot(
            t=now,
            running=running,
            banks={p: clock.bank(p, now) for p in clock.players},
            delay_left=clock.delay_left(now) if running is not None else 0.0,
            score=dict(match.score),
            crawford=match.crawford,
            winner=match.winner,
            flagged=clock.flagged,
            breaks_left={p: match.breaks_left(p) for p in clock.players},
            must_wait=clock.must_wait(now),
        )


def _copy(obj: _T) -> _T:
    """A copy to roll back to: both objects hold only flat containers of immutable values,
    so copying those is enough (and far cheaper than a deep copy on every event)."""
    new = copy.copy(obj)
    for name, value in vars(new).items():
        if isinstance(value, dict | set | list):
            setattr(new, name, value.copy())
    return new


def replay_clock(record: ClockRecord) -> list[ClockSnapshot]:
    """Replay a record: a snapshot for each `query`, then one at the last event's time.

    Raises `ClockRecordError` at the first event the rules refuse."""
    cm = ClockedMatch(record.header)
    snapshots: list[ClockSnapshot] = []
    for line, event in record.events:
        try:
            cm.apply(event, keep=False)  # a refusal ends the replay: nothing to roll back to
        except IllegalAction as exc:
            raise ClockRecordError(line, str(exc), exc.reason) from None
        if isinstance(event, Query):
            snapshots.append(cm.snapshot(event.t))
    snapshots.append(cm.snapshot(cm.last_t))
    return snapshots
