"""The backgammon clock: two large halves, each player taps their own to end a turn.

Built on the engine's BackgammonTable (kiosk/tables/backgammon_table.py): every tap is a
clock-record event the table journals before it answers; the screen shows the
table's ClockView (the face of kiosk/rules/backgammon/face.py: the bank and the
delay apart, tenths below 20 s, the Crawford banner, "wait" after an early pickup, the
breaks left). Rules 2.2, 3.5, 4.1 (v)-(vi), 4.3 and 4.4 (iv) live in the clock and the
match, not here: the director's panel only records what the director decides. The screen
draws the view and sends commands with the console's role (kiosk/ui/lock.py `send`): the
players press, pause, restart the delay and end a game at a locked console; the director's
commands ask for the director's PIN (RULES.md, rulings of 2026-11-27).
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

from kiosk.access.authority import Role
from kiosk.engine.outputs import CallbackOutput
from kiosk.errors import Refused
from kiosk.tables.backgammon_table import BackgammonTable, ClockView
from kiosk.tables.commands import Command, StaleView
from kiosk.ui.backgammon_setup import BackgammonSetupScreen
from kiosk.ui.i18n import tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.lock import send
from kiosk.ui.seen import Seen
from kiosk.ui.words import Words, error_words, reason_words, said_words


def face_words(view: ClockView, _: Words) -> tuple[str, str]:
    """The banner (the result, the Crawford game) and the match line in `_`'s language: the
    face's own facts (kiosk/rules/backgammon/face.py), worded, never worked out again here."""
    banner = view.face.banner
    return "" if banner is None else reason_words(banner, _), reason_words(view.face.match_line, _)


__all__ = ["BackgammonScreen", "BackgammonSetupScreen"]


class BackgammonScreen(Screen):
    """Mirrors the table's ClockView; the halves and the bar call the table's commands.

    `message` shows why the table refused a tap (IllegalAction's reason)."""

    table: BackgammonTable | None = ObjectProperty(None, allownone=True)
    view: ClockView | None = ObjectProperty(None, allownone=True)
    names = ListProperty(["", ""])
    banks = ListProperty(["", ""])
    delays = ListProperty(["", ""])
    scores = ListProperty([0, 0])
    #: Per side: on turn (not `on_turn`: a .kv rule does not watch a name that starts "on_").
    turns = ListProperty([False, False])
    running = BooleanProperty(False)
    paused = BooleanProperty(False)
    in_game = BooleanProperty(False)
    flagged = StringProperty("")
    winner = StringProperty("")
    banner = StringProperty("")
    match_line = StringProperty("")
    message = StringProperty("")
    #: The journal's "not saved" fault in the umpire's words, while the disk refuses.
    not_saved = StringProperty("")
    #: The game-over panel: winner chosen (index) and points.
    end_open = BooleanProperty(False)
    end_winner = NumericProperty(0)
    end_points = NumericProperty(1)
    #: Per side: breaks left (2.2 (ii)), waiting out the delay (4.1 (v) b), on a second leg.
    breaks = ListProperty([0, 0])
    waits = ListProperty([False, False])
    legs = ListProperty([False, False])
    #: Per side: an early pickup recorded, its wait still to come (the director's button).
    pickups = ListProperty([False, False])
    #: The director's corrections (4.7, 4.8): the panel, the score and length it sets.
    fix_open = BooleanProperty(False)
    fix_score = ListProperty([0, 0])
    fix_length = NumericProperty(1)
    #: The director's late arrival (2.2 (iv)): who, how many minutes, what it gives.
    late_seat = NumericProperty(0)
    late_minutes = NumericProperty(5)
    late_text = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._redraw = Clock.create_trigger(self._show, -1)
        #: The screen is one of its table's outputs: the views come to `changed`.
        self._output = CallbackOutput(ClockView, self.changed)
        self._latest: ClockView | None = None
        #: The views drawn, for the version a tap is made from (kiosk/ui/seen.py).
        self.seen = Seen()
        #: The view the last command carried out here was made from: a tap refused as made
        #: from it is the second tap of a double tap (the first one's answer stays).
        self._acted: int | None = None
        tr.on_switch(self._redraw)

    # -- following the table ---------------------------------------------------------
    def attach(self, table: BackgammonTable) -> None:
        """Follow `table`: the screen becomes one of its outputs (the runner polls it)."""
        old = self.table.outputs if self.table is not None else None
        joined = self._output.follow(old, table.outputs)
        if table is not self.table:
            self.seen.forget()  # nothing of another table's views was seen of this one
        self.table = table
        self.message = ""
        self.end_open = False
        if joined and table.match_id is not None:
            self.changed(table.view())  # a match already under way: draw it now

    def changed(self, view: ClockView) -> None:
        """A new view: redraw once at the next frame however many arrive."""
        self._latest = view
        self._redraw()

    def _show(self, *_: object) -> None:
        view = self._latest
        if view is None:
            return
        self.view = view
        self.seen.drawn(view.version)
        face = view.face
        self.names = [s.player for s in face.sides]
        self.banks = [s.bank for s in face.sides]
        self.delays = [s.delay for s in face.sides]
        self.scores = [s.score for s in face.sides]
        self.turns = [s.on_turn for s in face.sides]
        self.running = view.running is not None
        self.paused = view.paused
        self.in_game = view.in_game
        self.flagged = view.flagged or ""
        self.winner = view.winner or ""
        self.breaks = list(view.breaks_left)
        self.waits = [view.must_wait == p for p in view.players]
        self.legs = list(view.second_leg)
        self.not_saved = said_words(view.not_saved, tr._)
        self.pickups = list(view.wait_next)
        self._late_preview()
        self.banner, self.match_line = face_words(view, tr._)

    # -- commands ----------------------------------------------------------------------
    def _do(self, action: str, **args: object) -> None:
        """One command to the table with the console's role; the new view comes as an
        output. A refusal is worded from its Reason in the console's language."""
        try:
            view = self.seen.version()
            sent = send(self.table, action, lambda: self._do(action, **args), view=view, **args)
        except Refused as exc:
            if not self._repeated(exc, view):
                self.message = error_words(exc, tr._)
            return
        if sent:
            self.message = ""
            self._acted = view

    def _repeated(self, exc: Refused, view: int | None) -> bool:
        """`exc` refuses a tap made from the very view a tap before it acted on: the second
        tap of a double tap. Nothing was done, as it should be, and nothing is said."""
        return isinstance(exc, StaleView) and view is not None and view == self._acted

    def locked(self) -> None:
        """The console locked: the director's panel, its corrections and the game-over panel
        close."""
        self.end_open = False
        self.fix_open = False
        panel = self.ids.get("director_panel")
        if panel is not None:
            panel.shown = False

    def tap_half(self, seat: int) -> None:
        """A player's own half: ends that player's turn (a tap on the idle half does nothing)."""
        if self.view is not None and self.view.running == self.names[seat]:
            self._do("press", player=self.names[seat])

    def start_side(self, seat: int) -> None:
        self._do("start", player=self.names[seat])

    def pause_or_resume(self) -> None:
        self._do("resume_clock" if self.paused else "pause")

    def restart_delay(self) -> None:
        self._do("restart_delay")

    def early_pickup(self, seat: int) -> None:
        self._do("early_pickup", player=self.names[seat])

    def adjust(self, seat: int, delta_s: float) -> None:
        """The director moves a bank by `delta_s` (4.3 (iv), (vi)), from what it holds when
        the table carries it out."""
        if self.view is not None:
            self._do("adjust_by", player=self.names[seat], delta_s=float(delta_s))

    def overrule(self) -> None:
        """The flagged player had certainly won: declared the match winner (4.3 (iii))."""
        if self.flagged:
            self._do("overrule", player=self.flagged)

    # -- the director: lateness, penalties, breaks (2.2) ---------------------------------
    def step_late(self, delta: int) -> None:
        self.late_minutes = max(0, min(120, int(self.late_minutes) + delta))
        self._late_preview()

    def choose_late(self, seat: int) -> None:
        self.late_seat = seat
        self._late_preview()

    def _late_preview(self) -> None:
        """What the late arrival would give before it is recorded, as the table's core
        answers (2.2 (iv): a point at five minutes, one more each further five; more than
        half the match length wins it): the screen computes no rule."""
        if self.view is None or self.table is None:
            return
        late = self.names[int(self.late_seat)]
        other = self.names[1 - int(self.late_seat)]
        minutes = int(self.late_minutes)
        ask = Command.of("late", Role.DIRECTOR, player=late, minutes=float(minutes))
        after, now = self.table.preview(ask).match, self.view.match
        if after is None or now is None:
            self.late_text = ""
            return
        points = after.penalty_of(other) - now.penalty_of(other)
        if points == 0:
            self.late_text = tr._("{name} {n} min late: no penalty point yet", name=late, n=minutes)
            return
        text = (
            tr._(
                "{name} {n} min late: 1 penalty point to {other}", name=late, n=minutes, other=other
            )
            if points == 1
            else tr._(
                "{name} {n} min late: {points} penalty points to {other}",
                name=late,
                n=minutes,
                points=points,
                other=other,
            )
        )
        if after.winner == other and now.winner is None:
            total = after.penalty_of(other)
            text += tr._(" ({total} in all: {other} wins the match)", total=total, other=other)
        self.late_text = text

    def record_late(self) -> None:
        self._do("late", player=self.names[int(self.late_seat)], minutes=float(self.late_minutes))

    def late_start_clock(self) -> None:
        """The text's alternative to penalty points: start the late player's clock."""
        self._do("start", player=self.names[int(self.late_seat)])

    def award_penalty(self, seat: int) -> None:
        self._do("penalty", player=self.names[seat], points=1)

    def take_break(self, seat: int, emergency: bool = False) -> None:
        self._do("take_break", player=self.names[seat], emergency=emergency)

    # -- the director: the score (4.7) and the match length (4.8) ---------------------------
    def open_fix(self) -> None:
        """The corrections panel, set to the score and the length as they stand."""
        if self.view is None:
            return
        score = self.view.snapshot.score
        self.fix_score = [score.get(name, 0) for name in self.view.players]
        self.fix_length = self.view.match_length
        self.message = ""
        self.fix_open = True

    def step_fix_score(self, seat: int, delta: int) -> None:
        score = list(self.fix_score)
        score[seat] = max(0, int(score[seat]) + delta)
        self.fix_score = score

    def step_fix_length(self, delta: int) -> None:
        self.fix_length = max(1, int(self.fix_length) + delta)

    def correct_score(self) -> None:
        """4.7: every scoring error is corrected as soon as it is found (the director's)."""
        score = {self.names[i]: int(self.fix_score[i]) for i in (0, 1)}
        self._fix("correct_score", score=score)

    def correct_length(self) -> None:
        """4.8: a wrong match length is corrected before the next game (the director's)."""
        self._fix("correct_length", length=int(self.fix_length))

    def _fix(self, action: str, **args: object) -> None:
        """A correction sent; carried out, the panel closes on the corrected clock (a PIN
        asked first sends it again once typed)."""
        try:
            view = self.seen.version()
            sent = send(self.table, action, lambda: self._fix(action, **args), view=view, **args)
        except Refused as exc:
            if not self._repeated(exc, view):
                self.message = error_words(exc, tr._)
            return
        if sent:
            self.message = ""
            self._acted = view
            self.fix_open = False

    def open_end(self) -> None:
        self.end_open = True
        self.end_points = 1

    def confirm_end(self) -> None:
        self.end_open = False
        self._do("game_end", winner=self.names[int(self.end_winner)], points=int(self.end_points))


load_kv(__file__)
