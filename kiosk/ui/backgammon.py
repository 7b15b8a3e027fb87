"""The backgammon clock: two large halves, each player taps their own to end a turn.

Built on the engine's ClockTable (kiosk/engine/clock_table.py): every tap is a
clock-record event the table journals before it answers; the screen shows the
table's ClockView (the face of kiosk/rules/backgammon/face.py: the bank and the
delay apart, tenths below 20 s, the Crawford banner). Rules 3.5, 4.1 (v)-(vi),
4.3 and 4.4 (iv) live in the clock and the match, not here.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.screenmanager import Screen

from kiosk.engine.clock_table import ClockTable, ClockView
from kiosk.rules.backgammon.match import IllegalAction
from kiosk.ui.i18n import tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.words import Words

MATCH_LENGTHS = (1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25)


def match_words(match: Any, _: Words) -> tuple[str, str]:
    """The banner (the result, the Crawford game) and the match line, worded from the match's
    facts as kiosk/rules/backgammon/face.py words them in English."""
    banner = ""
    if match.winner is not None:
        if match.won_by == "time":
            banner = _("{name} wins the match on time", name=match.winner)
        elif match.won_by == "penalty":
            banner = _("{name} wins the match on penalty points", name=match.winner)
        else:
            banner = _("{name} wins the match", name=match.winner)
    elif match.crawford and not match.in_game:
        banner = _("Next game: the Crawford game, no doubling")
    elif match.crawford:
        banner = _("Crawford game: no doubling")
    if match.crawford:
        cube = _("cube out of play")
    elif match.owner is not None:
        cube = _("cube {value} ({name})", value=match.cube, name=match.owner)
    else:
        cube = _("cube {value}", value=match.cube)
    return banner, _("match to {n} · {cube}", n=match.length, cube=cube)


class BackgammonSetupScreen(Screen):
    """Players, match length, and the score when the clock is introduced (3.5 (vi))."""

    names = ListProperty(["Player A", "Player B"])
    match_length = NumericProperty(7)
    score = ListProperty([0, 0])
    message = StringProperty("")

    def set_name(self, seat: int, text: str) -> None:
        names = list(self.names)
        names[seat] = text.strip()
        self.names = names

    def step_length(self, delta: int) -> None:
        i = MATCH_LENGTHS.index(int(self.match_length)) if self.match_length in MATCH_LENGTHS else 3
        self.match_length = MATCH_LENGTHS[max(0, min(len(MATCH_LENGTHS) - 1, i + delta))]
        self.score = [min(s, int(self.match_length) - 1) for s in self.score]

    def step_score(self, seat: int, delta: int) -> None:
        score = list(self.score)
        score[seat] = max(0, min(int(self.match_length) - 1, score[seat] + delta))
        self.score = score


class BackgammonScreen(Screen):
    """Mirrors the table's ClockView; the halves and the bar call the table's commands.

    `message` shows why the table refused a tap (IllegalAction's reason)."""

    table: Any = ObjectProperty(None, allownone=True)
    view: Any = ObjectProperty(None, allownone=True)
    names = ListProperty(["", ""])
    banks = ListProperty(["", ""])
    delays = ListProperty(["", ""])
    scores = ListProperty([0, 0])
    on_turn = ListProperty([False, False])
    running = BooleanProperty(False)
    paused = BooleanProperty(False)
    in_game = BooleanProperty(False)
    flagged = StringProperty("")
    winner = StringProperty("")
    banner = StringProperty("")
    match_line = StringProperty("")
    message = StringProperty("")
    #: The game-over panel: winner chosen (index) and points.
    end_open = BooleanProperty(False)
    end_winner = NumericProperty(0)
    end_points = NumericProperty(1)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._redraw = Clock.create_trigger(self._show, -1)
        self._latest: ClockView | None = None
        tr.on_switch(self._redraw)

    # -- following the table ---------------------------------------------------------
    def attach(self, table: ClockTable, view: ClockView) -> None:
        self.table = table
        self.message = ""
        self.end_open = False
        self.changed(view)

    def follow(self, now: float) -> None:
        """The app's tick: let the table fire a flag fall and give the time left."""
        if self.table is not None and self.table.cm is not None:
            view = self.table.poll(now)
            if view is not None:
                self.changed(view)

    def changed(self, view: ClockView) -> None:
        """A new view: redraw once at the next frame however many arrive."""
        self._latest = view
        self._redraw()

    def _show(self, *_: object) -> None:
        view = self._latest
        if view is None:
            return
        self.view = view
        face = view.face
        self.names = [s.player for s in face.sides]
        self.banks = [s.bank for s in face.sides]
        self.delays = [s.delay for s in face.sides]
        self.scores = [s.score for s in face.sides]
        self.on_turn = [s.on_turn for s in face.sides]
        self.running = view.running is not None
        self.paused = view.paused
        self.in_game = view.in_game
        self.flagged = view.flagged or ""
        self.winner = view.winner or ""
        self.banner = face.banner or ""
        self.match_line = face.match_line
        match = getattr(getattr(self.table, "cm", None), "match", None)
        if match is not None:
            self.banner, self.match_line = match_words(match, tr._)

    # -- commands ----------------------------------------------------------------------
    def _do(self, command: str, *args: Any) -> None:
        if self.table is None:
            return
        try:
            view = getattr(self.table, command)(*args)
        except IllegalAction as exc:
            self.message = str(exc)
            return
        self.message = ""
        self.changed(view)

    def tap_half(self, seat: int) -> None:
        """A player's own half: ends that player's turn (a tap on the idle half does nothing)."""
        if self.view is not None and self.view.running == self.names[seat]:
            self._do("press", self.names[seat])

    def start_side(self, seat: int) -> None:
        self._do("start", self.names[seat])

    def pause_or_resume(self) -> None:
        self._do("resume_clock" if self.paused else "pause")

    def restart_delay(self) -> None:
        self._do("restart_delay")

    def early_pickup(self, seat: int) -> None:
        self._do("early_pickup", self.names[seat])

    def adjust(self, seat: int, delta_s: float) -> None:
        """The director moves a bank by `delta_s` (4.3 (iv), (vi))."""
        if self.view is None:
            return
        bank = self.view.snapshot.banks[self.names[seat]]
        self._do("adjust", self.names[seat], max(0.0, bank + delta_s))

    def overrule(self) -> None:
        if self.flagged:
            self._do("overrule", self.flagged)

    def open_end(self) -> None:
        self.end_open = True
        self.end_points = 1

    def confirm_end(self) -> None:
        self.end_open = False
        self._do("game_end", self.names[int(self.end_winner)], int(self.end_points))


load_kv(__file__)
