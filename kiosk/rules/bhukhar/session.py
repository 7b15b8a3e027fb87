"""A Bhukhar session: its first line and the events pushed so far, checked by the rules.

`Session.push` applies a game, a cancellation or a timer line, refusing one
that breaks the rules (11: one game a table and a round; 13-19 through the
scoresheet; 10: the round timer) with SessionError and the state unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kiosk.errors import N_
from kiosk.rules.bhukhar.events import (
    ROUND_MINUTES,
    Cancel,
    Event,
    GameEntry,
    SessionError,
    SessionStart,
    TimerEntry,
)
from kiosk.rules.bhukhar.scoresheet import GameResult, ScoreError, score_game
from kiosk.rules.bhukhar.standings import Standing, standings


@dataclass(frozen=True, slots=True)
class TimerState:
    """The round timer as the record left it: `left` seconds at wall time `at`."""

    round: int
    running: bool
    left: float
    at: float


@dataclass
class Session:
    """A session's first line and its events; `push` checks each against the rules."""

    start: SessionStart
    events: list[Event] = field(default_factory=list)
    _games: dict[tuple[int, int], tuple[GameEntry, GameResult]] = field(default_factory=dict)
    _timer: TimerState | None = None

    @property
    def team_ids(self) -> tuple[str, ...]:
        return tuple(t.id for t in self.start.teams)

    @property
    def rosters(self) -> dict[str, tuple[str, ...]]:
        return {t.id: t.players for t in self.start.teams}

    @property
    def timer(self) -> TimerState | None:
        return self._timer

    def games(self) -> list[tuple[GameEntry, GameResult]]:
        """The games standing (cancelled ones left out), by round then table."""
        return [self._games[k] for k in sorted(self._games)]

    def standings(self) -> tuple[Standing, ...]:
        return standings(self.team_ids, (r for _, r in self.games()))

    def check(self, event: Event) -> GameResult | None:
        """What `push` would do, without doing it: SessionError if refused."""
        if isinstance(event, GameEntry):
            return self._check_game(event)
        if isinstance(event, Cancel):
            if (event.round, event.table) not in self._games:
                raise SessionError.of(
                    "cancel_no_game",
                    N_("no game of round {round} at table {table} to cancel"),
                    round=event.round,
                    table=event.table,
                )
            return None
        self._next_timer(event)
        return None

    def push(self, event: Event) -> GameResult | None:
        """Apply an event (the game's result for a game); SessionError if refused."""
        result = self.check(event)
        if isinstance(event, GameEntry):
            assert result is not None
            self._games[(event.round, event.table)] = (event, result)
        elif isinstance(event, Cancel):
            del self._games[(event.round, event.table)]
        else:
            self._timer = self._next_timer(event)
        self.events.append(event)
        return result

    def _check_game(self, entry: GameEntry) -> GameResult:
        tables = self.start.tables
        if tables is not None and entry.table not in tables:
            raise SessionError.of(
                "not_a_table",
                N_("table {table} is not one of the session's tables"),
                table=entry.table,
            )
        for team in entry.game.sheets:
            if team not in self.team_ids:
                raise SessionError.of(
                    "not_a_team", N_("teams: {team!r} is not a team of the session"), team=team
                )
        if (entry.round, entry.table) in self._games:
            raise SessionError.of(
                "table_played",
                N_(
                    "table {table} already has its game of round {round} (rule {law}: one "
                    "game a table; cancel it first to correct it)"
                ),
                law="11",
                table=entry.table,
                round=entry.round,
            )
        for (rnd, table), (other, _) in self._games.items():
            if rnd == entry.round:
                both = set(other.game.sheets) & set(entry.game.sheets)
                if both:
                    raise SessionError.of(
                        "team_played",
                        N_(
                            "team {team} already played round {round} at table {table} "
                            "(rule {law}: one game a round, then teams move)"
                        ),
                        law="11",
                        team=min(both),
                        round=rnd,
                        table=table,
                    )
        try:
            return score_game(entry.game, self.rosters)
        except ScoreError as exc:
            raise SessionError(exc.reason or str(exc)) from None  # the facts kept for the screen

    def _next_timer(self, e: TimerEntry) -> TimerState:
        """Rule 10: «દરેક રમત ૩૦ થી ૩૫ મિનિટ આયોજકો ની મરજી પ્રમાણે»: a game lasts 30 to 35
        minutes as the organisers choose (the session's `round_minutes`). A round's
        timer starts with at most that, and its time left never grows."""
        cur = self._timer
        if e.action == "start":
            if cur is not None and e.round <= cur.round:
                raise SessionError.of(
                    "rounds_go_up",
                    N_("round {round} cannot start after round {last} (rounds go up)"),
                    round=e.round,
                    last=cur.round,
                )
            length = self.start.round_minutes * 60
            if e.left > length:
                raise SessionError.of(
                    "round_too_long",
                    N_(
                        "round {round}: the timer starts with {left} left, more than the "
                        "session's {minutes} minutes (rule {law}: {least} to {most} minutes, "
                        "as the organisers choose)"
                    ),
                    law="10",
                    round=e.round,
                    left=_clock(e.left),
                    minutes=f"{self.start.round_minutes:g}",
                    least=ROUND_MINUTES[0],
                    most=ROUND_MINUTES[1],
                )
            return TimerState(e.round, True, e.left, e.at)
        if cur is None or cur.round != e.round:
            raise SessionError.of(
                f"{e.action}_before_start", _BEFORE_START[e.action], round=e.round
            )
        if e.action == "pause" and not cur.running:
            raise SessionError.of(
                "pause_while_paused",
                N_("round {round}: pause while the timer is paused"),
                round=e.round,
            )
        if e.action == "resume" and cur.running:
            raise SessionError.of(
                "resume_while_running",
                N_("round {round}: resume while the timer runs"),
                round=e.round,
            )
        if e.left > cur.left:
            raise SessionError.of(
                "time_grows",
                _TIME_GROWS[e.action],
                law="10",
                round=e.round,
                left=_clock(e.left),
                before=_clock(cur.left),
            )
        return TimerState(e.round, e.action == "resume", e.left, e.at)


#: A pause or a resume of a round that has not started.
_BEFORE_START = {
    "pause": N_("round {round}: pause before the round's start"),
    "resume": N_("round {round}: resume before the round's start"),
}
#: A timer line whose time left is more than the line before's.
_TIME_GROWS = {
    "pause": N_(
        "round {round}: {left} left at the pause, more than the {before} of the line "
        "before: a round's time only runs down (rule {law})"
    ),
    "resume": N_(
        "round {round}: {left} left at the resume, more than the {before} of the line "
        "before: a round's time only runs down (rule {law})"
    ),
}


def _clock(seconds: float) -> str:
    """Seconds as minutes and seconds, "40:00", for messages."""
    whole = round(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
