"""A Bhukhar card table: the round timer and the scoresheet, written to the session record.

What the UI's Bhukhar screen calls. Every entry (a round started, paused or
resumed; a game's result, in full or as totals; a game cancelled) is checked
against the rules first (kiosk/rules/bhukhar), then appended to the session
record file (docs/bhukhar.md) with flush and fsync before the call returns, and
only then applied: a refused entry raises `SessionError` and changes nothing,
and a written entry survives a power cut.

Reopening the file resumes the session: the record is replayed, and a round
that was running goes on by the wall clock from its last timer line (the hall's
clock did not stop while the kiosk was down); warnings that fell due meanwhile
are not sounded late.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.clocks.patterns import Pattern
from kiosk.clocks.round_timer import RoundTimer
from kiosk.engine.outputs import Output, Outputs
from kiosk.errors import TablesideError
from kiosk.rules.bhukhar.record import (
    Cancel,
    Event,
    GameEntry,
    RecordError,
    Session,
    SessionError,
    SessionStart,
    TimerEntry,
    dump_line,
    event_from_dict,
    event_to_dict,
    parse_session,
    start_to_dict,
)
from kiosk.rules.bhukhar.scoresheet import Game, GameResult
from kiosk.rules.bhukhar.standings import Standing


class TableFileError(TablesideError, ValueError):
    """The session file cannot be used: `FILE:LINE: reason`, or why it cannot be created."""


@dataclass(frozen=True, slots=True)
class BhukharView:
    """What a Bhukhar screen (and every output) shows of the round: the clock's face, the
    round, whether it runs or is paused, whether time is called (rule 16.3), and how many
    entries the session holds (a new game changes the standings)."""

    face: str
    round: int
    running: bool
    paused: bool
    time_called: bool
    entries: int


class BhukharTable:
    """One session's record file, its round timer and its scoresheet.

    Build it with `create` (a new file) or `open` (resume). `clock` is the
    monotonic clock, `wall` the wall clock written in timer lines.
    """

    def __init__(
        self,
        path: Path,
        session: Session,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        outputs: Iterable[Output] = (),
    ) -> None:
        self.path = path
        self.session = session
        self.clock = clock
        self.wall = wall
        self.outputs = Outputs(outputs)
        self._last_view: BhukharView | None = None
        self.timer = RoundTimer(session.start.round_minutes, session.start.warn_minutes)
        state = session.timer
        rounds = [e.round for e in session.events if isinstance(e, GameEntry | TimerEntry)]
        self.round = max(rounds, default=0)
        if state is not None:
            now = clock()
            left = state.left
            if state.running:
                left = max(0.0, left - max(0.0, wall() - state.at))
            self.timer.restore(now, left, state.running)

    # -- opening ---------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        start: SessionStart,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        outputs: Iterable[Output] = (),
    ) -> BhukharTable:
        """A new session file holding the first line; refused if the file has content."""
        p = Path(path)
        session = Session(start)
        # Checked like a read record, so a file this writes is one `open` accepts.
        parse_session(dump_line(start_to_dict(start)))
        RoundTimer(start.round_minutes, start.warn_minutes)
        try:
            with p.open("x", encoding="utf-8") as f:
                _write(f, dump_line(start_to_dict(start)))
        except FileExistsError:
            raise TableFileError(f"{p}: already exists; open it to resume the session") from None
        except OSError as exc:
            raise TableFileError(f"{p}: cannot create: {exc}") from None
        return cls(p, session, clock=clock, wall=wall, outputs=outputs)

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        outputs: Iterable[Output] = (),
    ) -> BhukharTable:
        """Resume the session in `path`.

        A last line cut short by a power cut (no newline, not JSON) was never
        confirmed: it is moved to `<path>.torn` and the rest is kept. Any other
        bad line is refused with `FILE:LINE: reason` and the file is left as it is.
        """
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise TableFileError(f"{p}: cannot read: {exc}") from None
        text = _cut_torn_tail(p, text)
        try:
            session = parse_session(text)
        except RecordError as exc:
            raise TableFileError(f"{p}:{exc.line}: {exc.reason}") from None
        return cls(p, session, clock=clock, wall=wall, outputs=outputs)

    # -- the round timer -------------------------------------------------------------

    def start_round(self, now: float | None = None) -> int:
        """Start the next round from the full length (rule 10); returns its number."""
        now = self.clock() if now is None else now
        entry = TimerEntry(self.round + 1, "start", self.timer.length, self.wall())
        self._append(entry)
        self.round = entry.round
        self.timer.start(now)
        self._emit(now)
        return self.round

    def pause(self, now: float | None = None) -> None:
        """Hold the round's clock; SessionError when it is not running."""
        now = self.clock() if now is None else now
        if not self.timer.running or self.timer.time_called(now):
            raise SessionError("the round's clock is not running")
        self._append(TimerEntry(self.round, "pause", self.timer.remaining(now), self.wall()))
        self.timer.pause(now)
        self._emit(now)

    def resume(self, now: float | None = None) -> None:
        """Go on with the round; SessionError when it is not paused."""
        now = self.clock() if now is None else now
        if not self.timer.paused:
            raise SessionError("the round's clock is not paused")
        self._append(TimerEntry(self.round, "resume", self.timer.remaining(now), self.wall()))
        self.timer.resume(now)
        self._emit(now)

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

    def post(self, item: object) -> None:
        """A Bhukhar table has no sensors: its inputs are the umpire's entries."""
        raise TypeError(f"a Bhukhar table takes no sensor input: {item!r}")

    def poll(self, now: float | None = None) -> BhukharView:
        """The buzzer patterns that fell due by `now` go to the outputs (the buzzer plays
        them), then the view if it changed."""
        now = self.clock() if now is None else now
        for pattern in self.due(now):
            self.outputs.sound(pattern)
        return self._emit(now)

    def view(self, now: float | None = None) -> BhukharView:
        now = self.clock() if now is None else now
        return BhukharView(
            self.face(now),
            self.round,
            self.timer.running,
            self.timer.paused,
            self.time_called(now),
            len(self.session.events),
        )

    def _emit(self, now: float) -> BhukharView:
        """Tell the outputs when the view changed."""
        view = self.view(now)
        if view != self._last_view:
            self._last_view = view
            self.outputs.state_changed(view)
        return view

    # -- the scoresheet --------------------------------------------------------------

    def enter_game(self, table: int, game: Game, round: int | None = None) -> GameResult:
        """Record one game's result (full or totals entry) at `table` in `round`
        (default: the current round, or 1 before any round was started)."""
        entry = GameEntry(round or max(1, self.round), table, game)
        result = self._append(entry)
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
            raise SessionError("timer lines are written by start_round, pause and resume")
        return self._append(event)

    def cancel_game(self, round: int, table: int, reason: str | None = None) -> None:
        """Withdraw a game entered by mistake; it may then be entered again."""
        self._append(Cancel(round, table, reason))

    def standings(self) -> tuple[Standing, ...]:
        return self.session.standings()

    def games(self) -> list[tuple[GameEntry, GameResult]]:
        return self.session.games()

    # -- inside ----------------------------------------------------------------------

    def _append(self, event: Event) -> GameResult | None:
        """Check, write and sync, then apply: nothing changes if any step fails."""
        self.session.check(event)
        line = dump_line(event_to_dict(event))
        try:
            with self.path.open("a", encoding="utf-8") as f:
                _write(f, line)
        except OSError as exc:
            raise TableFileError(f"{self.path}: cannot write: {exc}") from None
        result = self.session.push(event)
        if isinstance(event, GameEntry):
            self.round = max(self.round, event.round)
        self._emit(self.clock())
        return result


def _write(f: Any, text: str) -> None:
    f.write(text)
    f.flush()
    os.fsync(f.fileno())


def _cut_torn_tail(path: Path, text: str) -> str:
    """Mend the end of a record the power cut short.

    Each line is written whole with its newline, then synced; a last line with
    no newline was being written when the power went. Still valid JSON: only the
    newline is missing, so add it. Not JSON: it was never confirmed; move it to
    `<path>.torn` (kept for the umpire) and cut it from the record.
    """
    if not text or text.endswith("\n"):
        return text
    head, _, tail = text.rpartition("\n")
    try:
        json.loads(tail)
    except json.JSONDecodeError:
        torn = path.with_name(path.name + ".torn")
        with torn.open("a", encoding="utf-8") as f:
            _write(f, tail + "\n")
        kept = head + "\n" if head else ""
        with path.open("r+", encoding="utf-8") as f:
            f.truncate(len(kept.encode("utf-8")))
            f.flush()
            os.fsync(f.fileno())
        return kept
    with path.open("a", encoding="utf-8") as f:
        _write(f, "\n")
    return text + "\n"
