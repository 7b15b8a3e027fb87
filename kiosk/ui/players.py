"""Player display mode: the scores and the timer in digits readable from 3 m.

The screen shows the table the umpire is running (carrom, backgammon or Bhukhar) from
the same views as the umpire's screens; the umpire's small corner button goes back.
Carrom: the board and games, the queen's state, whose turn, each side's points and the turn
timer; backgammon: the match score, both banks and the delay; Bhukhar: the round's clock,
the last game entered and a licence meld in it spoiled later (17.2).
The digits are `[players] digits` percent of the screen's height (at least a fifth), as
far as the rows shown leave room; `[players] show_*` choose the rows.

The display follows the table's whole state, not only its numbers: a paused or stopped
clock says PAUSED and marks no side as running, a fallen flag and a player waiting out the
delay after an early pickup (4.1 (v) b) are said, the Crawford game too. Under the ICF laws
a player learns the score only from the umpire, during his own turn (law 128): the carrom
score shows only if `[players] icf_score` allows it (club rules always show it).
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.properties import AliasProperty, BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.config_sections import PlayersSettings
from kiosk.kinds import KINDS
from kiosk.tables.backgammon_table import ClockView
from kiosk.tables.bhukhar_table import BhukharView
from kiosk.tables.carrom_view import CarromView
from kiosk.tables.registry import AnyTable
from kiosk.ui.backgammon import face_words
from kiosk.ui.bhukhar_words import entered_words, spoiled_words
from kiosk.ui.carrom import timer_text
from kiosk.ui.carrom_rulings import TIMER_NAMES
from kiosk.ui.carrom_view import banner, scoreboard
from kiosk.ui.i18n import ptr
from kiosk.ui.kvload import load_kv

#: A digit's ink in Noto Sans Bold, in ems (its cap height): the font size is the digits'
#: height over this.
DIGIT_EM = 0.714
#: Of a line's box (1.36 em in Noto Sans) what a digit row needs: the rest is leading.
ROW_EM = 1.1
#: The narrowest a score is taken to be (ems): one digit.
CHAR_EM = 0.6


def score_shown(rules: str, icf_score: bool) -> bool:
    """Whether the players' screen may show the carrom score: under the ICF laws a player
    learns it only from the umpire during his own turn (law 128), unless the tournament's
    `[players] icf_score` allows it; under club rules it always shows."""
    return rules != "icf" or icf_score


def _ems(text: str) -> float:
    """How wide `text` is drawn in the digits' bold font, in ems."""
    if not text:
        return 0.0
    probe = CoreLabel(font_size=100, bold=True)
    return float(probe.get_extents(text)[0]) / 100


class PlayersScreen(Screen):
    """Big digits: `big` (the timer), each side's name and score, a status line (or the
    banner over it)."""

    TOP_UNITS = 8
    NAMES_UNITS = 6

    big = StringProperty("")
    caption = StringProperty("")
    left_name = StringProperty("")
    left_score = StringProperty("")
    right_name = StringProperty("")
    right_score = StringProperty("")
    left_turn = BooleanProperty(False)
    right_turn = BooleanProperty(False)
    banner = StringProperty("")
    urgent = BooleanProperty(False)
    #: The clock stands (paused, stopped): no side is shown running, the turn stays marked.
    paused = BooleanProperty(False)
    back_to = StringProperty("home")
    status = StringProperty("")
    #: [players]: the digits' height (percent of the screen's) and the rows shown.
    digits = NumericProperty(22)
    show_score = BooleanProperty(True)
    show_timer = BooleanProperty(True)
    show_status = BooleanProperty(True)
    #: [players] icf_score: the carrom score under the ICF laws (law 128; club rules: always).
    icf_score = BooleanProperty(False)
    #: The font size of the digit rows (pixels), from the window and the rows shown.
    digit_font = NumericProperty(100.0)

    def _scores_shown(self) -> bool:
        return bool(self.show_score and (self.left_score or self.right_score))

    scores_shown = AliasProperty(
        _scores_shown, bind=("show_score", "left_score", "right_score"), cache=True
    )

    def _timer_shown(self) -> bool:
        return bool(self.show_timer and self.big)

    timer_shown = AliasProperty(_timer_shown, bind=("show_timer", "big"), cache=True)

    def __init__(self, **kw: Any) -> None:
        self._table: AnyTable | None = None  # the table in play (`show_game`)
        super().__init__(**kw)
        ptr.on_switch(self.on_pre_enter)  # held weakly: a method of the screen
        Window.bind(size=self._fit_digits)
        self.bind(
            digits=self._fit_digits,
            scores_shown=self._fit_digits,
            timer_shown=self._fit_digits,
            left_score=self._fit_digits,
            right_score=self._fit_digits,
        )
        self._fit_digits()

    def _fit_digits(self, *_: object) -> None:
        """The digits at `digits` percent of the window's height, or smaller if the rows
        shown or the widest score would not fit."""
        width, height = Window.size
        unit = float(getattr(App.get_running_app(), "unit", height / 60))
        wanted = height * float(self.digits) / 100 / DIGIT_EM
        rows = int(self.scores_shown) + int(self.timer_shown) or 1
        free = height - unit * (self.TOP_UNITS + self.NAMES_UNITS + 3)
        high = free / rows / ROW_EM
        ems = max(_ems(self.left_score), _ems(self.right_score), CHAR_EM)
        wide = (width - unit * 4) / 2 / ems
        self.digit_font = max(1.0, min(wanted, high, wide))

    def configure(self, players: PlayersSettings) -> None:
        """`[players]` of the settings: the digits' size and the rows shown."""
        self.icf_score = players.icf_score
        self.digits = players.digits
        self.show_score = players.show_score
        self.show_timer = players.show_timer
        self.show_status = players.show_status

    def show_game(self, table: AnyTable | None) -> None:
        """Follow the table in play, from its own view (never another screen's); None:
        nothing to show."""
        self._table = table
        self.back_to = table.kind if table is not None else "home"

    def on_pre_enter(self, *_: object) -> None:
        app = App.get_running_app()
        players = getattr(
            getattr(getattr(app, "services", None), "settings", None), "players", None
        )
        if players is not None:
            self.configure(players)
        if self._table is None:
            self.big, self.banner = "", ""
            self.status = ptr._("No table running")
            self.left_name = self.right_name = self.left_score = self.right_score = ""
            self.left_turn = self.right_turn = self.paused = False
        else:  # shown at once, not blank until the app's next tick
            self.follow(0.0)

    def follow(self, _now: float) -> None:
        """The app's tick: the table's view as it is now."""
        table = self._table
        if table is None:
            return
        view = table.view()
        getattr(self, f"_{KINDS[table.kind].name}")(view)  # _carrom, _backgammon, _bhukhar

    def _carrom(self, view: CarromView) -> None:
        if view.state is None:
            return
        board = scoreboard(view.state, ptr._)  # in the players' own language
        scored = score_shown(view.state.rules, self.icf_score)
        self.left_name, self.right_name = (side.name for side in board.sides)
        self.left_score, self.right_score = (
            (str(side.points) for side in board.sides) if scored else ("", "")
        )
        self.left_turn, self.right_turn = (side.at_turn for side in board.sides)
        games = "-".join(str(side.games) for side in board.sides)
        self.status = " · ".join(
            part
            for part in (
                board.title,
                ptr._("Games {score}", score=games) if scored else "",
                board.queen,
            )
            if part
        )
        timer = view.timer
        self.big = timer_text(timer.remaining) if timer is not None else ""
        self.caption = ptr._(TIMER_NAMES.get(timer.kind, timer.kind)) if timer is not None else ""
        self.paused = bool(timer is not None and timer.held)
        self.urgent = bool(timer is not None and timer.low) and not self.paused
        # The console's banner, in the players' language, for what the players act on.
        words, kind = banner(view, ptr._)
        if kind in ("sides", "interval", "over", "expired"):
            self.banner = words
        elif self.paused:
            self.banner = ptr._("PAUSED: the umpire stopped the clock (law 121)")
        else:
            self.banner = ""

    def _backgammon(self, view: ClockView) -> None:
        face = view.face
        left, right = face.sides
        self.left_name, self.right_name = left.player, right.player
        self.left_score, self.right_score = left.bank, right.bank
        self.left_turn, self.right_turn = left.on_turn, right.on_turn
        self.paused = bool(view.paused)
        on_turn = [side for side in face.sides if side.on_turn]
        side = on_turn[0] if on_turn else None
        self.big = side.delay if side is not None else ""
        waiting = side is not None and side.must_wait
        self.caption = (
            ptr._("{name}: WAIT for the delay (4.1 (v) b)", name=side.player)
            if waiting and side is not None
            else (ptr._("delay") if side is not None else "")
        )
        self.urgent = bool(view.flagged) or waiting
        words, line = face_words(view, ptr._)  # the face's facts, in the players' language
        if view.flagged and not view.winner:
            words = ptr._("TIME OUT: {name}'s flag fell", name=view.flagged)
        elif view.paused:
            words = ptr._("PAUSED: the clock stands")
        elif waiting and side is not None:
            words = ptr._("{name} waits: no move until the delay has run", name=side.player)
        self.banner = words
        self.status = line

    def _bhukhar(self, view: BhukharView) -> None:
        # The last game entered at this table, and a licence meld spoiled later (17.2).
        self.status = ""
        if view.entered is not None:
            names = {t.id: t.name or t.id for t in view.teams}
            said = [entered_words(view.entered, names, ptr._)]
            if view.entered_game is not None:
                said += spoiled_words(view.entered_game, names, ptr._)
            self.status = "\n".join(said)
        self.left_name = self.right_name = ""
        self.left_score = self.right_score = ""
        self.left_turn = self.right_turn = False
        self.big = view.face
        self.caption = ptr._("Round {n}", n=view.round) if view.round else ""
        self.urgent = view.time_called
        self.paused = view.paused and not view.time_called
        if view.time_called:
            self.banner = ptr._("TIME")
        elif self.paused:
            self.banner = ptr._("PAUSED: the clock stands")
        else:
            self.banner = ""


load_kv(__file__)
