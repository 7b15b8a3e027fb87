"""The Bhukhar table: the round timer and the scoresheet's totals entry.

Built on the Bhukhar engineer's table session (kiosk/engine/bhukhar_table.py): the
round timer (rule 10: 30 to 35 minutes, warnings, time called, rule 16.3) and each
game's totals (rules 13, 18, 19) are checked by the rules, written to the session
record and synced before this screen shows them. The screen only gathers the
umpire's numbers and shows what the table answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.screenmanager import Screen

from kiosk.clocks.patterns import Pattern
from kiosk.engine.bhukhar_table import BhukharTable, TableFileError
from kiosk.rules.bhukhar.record import SessionError
from kiosk.rules.bhukhar.scoresheet import End, Game, ScoreError, TotalsSheet
from kiosk.ui.kvload import load_kv

ENDS = (End.OUT, End.STOCK, End.TIME)
END_WORDS = {End.OUT: "went out (16.1)", End.STOCK: "stock ran out (16.2)", End.TIME: "time (16.3)"}
TEAM_IDS = "ABCDEF"
_T = TypeVar("_T")


class BhukharSetupScreen(Screen):
    """How many teams (three players each, rule 2) and the round's length (rule 10)."""

    teams = NumericProperty(2)
    round_minutes = NumericProperty(30)
    message = StringProperty("")

    def step_teams(self, delta: int) -> None:
        self.teams = max(2, min(len(TEAM_IDS), int(self.teams) + delta))

    def step_minutes(self, delta: int) -> None:
        self.round_minutes = max(30, min(35, int(self.round_minutes) + delta))


class BhukharScreen(Screen):
    """The round clock on the left, the totals entry and the standings on the right."""

    table: Any = ObjectProperty(None, allownone=True)
    clock_face = StringProperty("")
    round_no = NumericProperty(0)
    running = BooleanProperty(False)
    paused = BooleanProperty(False)
    time_called = BooleanProperty(False)
    team_ids = ListProperty([])
    # the game being entered
    table_no = NumericProperty(1)
    pair = ListProperty([0, 1])  # indexes into team_ids
    licence = ListProperty([True, True])
    points = ListProperty([0, 0])  # table points
    hand = ListProperty([0, 0])
    end = NumericProperty(0)  # index into ENDS
    bhukhar = NumericProperty(-1)  # -1: none, else 0/1 of the pair
    closed_by = NumericProperty(0)  # 0/1 of the pair (with "out")
    message = StringProperty("")
    refused = BooleanProperty(False)
    standings = StringProperty("")

    def __init__(self, sound: Callable[[Pattern], None] | None = None, **kw: Any) -> None:
        super().__init__(**kw)
        self._sound = sound

    def attach(self, table: BhukharTable) -> None:
        self.table = table
        self.team_ids = [t.id for t in table.session.start.teams]
        self.pair = [0, 1]
        self._show_standings()
        self.follow(table.clock())

    # -- the round timer -----------------------------------------------------------
    def follow(self, now: float) -> None:
        """The app's tick: the face, and the buzzer patterns that fell due."""
        table = self.table
        if table is None:
            return
        for pattern in table.due(now):
            if self._sound is not None:
                self._sound(pattern)
        self.clock_face = table.face(now)
        self.round_no = table.round
        self.running = table.timer.running
        self.paused = table.timer.paused
        self.time_called = table.time_called(now)

    def _call(self, action: Callable[[], _T]) -> _T | None:
        try:
            result = action()
        except (SessionError, ScoreError, TableFileError, ValueError) as exc:
            self.refused = True
            self.message = str(exc)
            return None
        self.refused = False
        return result

    def start_round(self) -> None:
        if self.table is not None and self._call(self.table.start_round) is not None:
            self.message = f"Round {self.table.round} started"
            self.follow(self.table.clock())

    def pause_or_resume(self) -> None:
        if self.table is not None:
            self._call(self.table.resume if self.paused else self.table.pause)
            self.follow(self.table.clock())

    # -- the totals entry ------------------------------------------------------------
    def cycle_team(self, side: int) -> None:
        pair = list(self.pair)
        other = pair[1 - side]
        choice = (pair[side] + 1) % len(self.team_ids)
        if choice == other:
            choice = (choice + 1) % len(self.team_ids)
        pair[side] = choice
        self.pair = pair

    def step(self, what: str, side: int, delta: int) -> None:
        """Table or hand points of one side of the pair, by `delta` (never below 0)."""
        values = list(getattr(self, what))
        values[side] = max(0, values[side] + delta)
        setattr(self, what, values)

    def toggle_licence(self, side: int) -> None:
        values = list(self.licence)
        values[side] = not values[side]
        self.licence = values

    def step_table(self, delta: int) -> None:
        self.table_no = max(1, int(self.table_no) + delta)

    def cycle_end(self) -> None:
        self.end = (int(self.end) + 1) % len(ENDS)

    def cycle_bhukhar(self) -> None:
        self.bhukhar = {-1: 0, 0: 1, 1: -1}[int(self.bhukhar)]

    def cycle_closed(self) -> None:
        self.closed_by = 1 - int(self.closed_by)

    def game(self) -> Game:
        """The game as entered: two totals sheets (rule 18) and how it ended (rule 16)."""
        ids = [self.team_ids[i] for i in self.pair]
        end = ENDS[int(self.end)]
        return Game(
            sheets={
                ids[i]: TotalsSheet(bool(self.licence[i]), int(self.points[i]), int(self.hand[i]))
                for i in (0, 1)
            },
            end=end,
            bhukhar=None if self.bhukhar < 0 else ids[int(self.bhukhar)],
            closed_by=ids[int(self.closed_by)] if end is End.OUT else None,
        )

    def enter(self) -> None:
        """Write the game to the record; the message gives each team's total and master points."""
        table = self.table
        if table is None:
            return
        result = self._call(lambda: table.enter_game(int(self.table_no), self.game()))
        if result is None:
            return
        parts = [f"{s.team}: {s.total} pts, {s.master} master" for s in result.scores]
        self.message = f"Table {int(self.table_no)} entered. " + "; ".join(parts)
        self.points, self.hand = [0, 0], [0, 0]
        self._show_standings()

    def _show_standings(self) -> None:
        if self.table is None:
            return
        rows = [
            f"{s.place}{'=' if s.shared else '.'} {s.team}   master {s.master}   bonus {s.bonus}"
            f"   best {'-' if s.best is None else s.best}   games {s.games}"
            for s in self.table.standings()
        ]
        self.standings = "\n".join(rows) or "No games yet"


load_kv(__file__)
