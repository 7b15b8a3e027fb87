"""Player display mode: the scores and the timer in digits readable from 3 m.

The screen shows the table the umpire is running (carrom, backgammon or Bhukhar) from
the same views as the umpire's screens; the umpire's small corner button goes back.
Carrom: the board and games, the queen's state, whose turn, each side's points and the turn
timer; backgammon: the match score, both banks and the delay; Bhukhar: the round's clock.
The digits are `[players] digits` percent of the screen's height (at least a fifth), as
far as the rows shown leave room; `[players] show_*` choose the rows.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.core.window import Window
from kivy.properties import AliasProperty, BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.ui.backgammon import match_words
from kiosk.ui.carrom import TIMER_NAMES, timer_text
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
    back_to = StringProperty("home")
    status = StringProperty("")
    #: [players]: the digits' height (percent of the screen's) and the rows shown.
    digits = NumericProperty(22)
    show_score = BooleanProperty(True)
    show_timer = BooleanProperty(True)
    show_status = BooleanProperty(True)
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

    def configure(self, players: Any) -> None:
        """`[players]` of the settings: the digits' size and the rows shown."""
        self.digits = players.digits
        self.show_score = players.show_score
        self.show_timer = players.show_timer
        self.show_status = players.show_status

    def show_game(self, game: Any) -> None:
        """Follow one game screen (the umpire's); `game` None: nothing to show."""
        self._game = game
        self.back_to = game.name if game is not None else "home"

    def on_pre_enter(self, *_: object) -> None:
        app = App.get_running_app()
        players = getattr(
            getattr(getattr(app, "services", None), "settings", None), "players", None
        )
        if players is not None:
            self.configure(players)
        if getattr(self, "_game", None) is None:
            self.big, self.banner = "", ""
            self.status = ptr._("No table running")
            self.left_name = self.right_name = self.left_score = self.right_score = ""
            self.left_turn = self.right_turn = False
        else:  # shown at once, not blank until the app's next tick
            self.follow(0.0)

    def follow(self, _now: float) -> None:
        """The app's tick (after the game screen has followed its session)."""
        game = getattr(self, "_game", None)
        if game is None:
            return
        kind = game.name
        if kind == "carrom":
            self._carrom(game)
        elif kind == "backgammon":
            self._backgammon(game)
        elif kind == "bhukhar":
            self._bhukhar(game)

    def _carrom(self, game: Any) -> None:
        view = game.session.view() if game.session is not None else None
        if view is None or view.state is None:
            return
        board = scoreboard(view.state, ptr._)  # in the players' own language
        self.left_name, self.right_name = (side.name for side in board.sides)
        self.left_score, self.right_score = (str(side.points) for side in board.sides)
        self.left_turn, self.right_turn = (side.at_turn for side in board.sides)
        games = "-".join(str(side.games) for side in board.sides)
        self.status = " · ".join(
            part for part in (board.title, ptr._("Games {score}", score=games), board.queen) if part
        )
        timer = view.timer
        self.big = timer_text(timer.remaining) if timer is not None else ""
        self.caption = ptr._(TIMER_NAMES.get(timer.kind, timer.kind)) if timer is not None else ""
        self.urgent = bool(game.timer_low)
        # The console's banner, in the players' language, for what the players act on.
        words, kind = banner(view, ptr._)
        self.banner = words if kind in ("sides", "interval", "over") else ""

    def _backgammon(self, game: Any) -> None:
        self.left_name, self.right_name = game.names
        self.left_score, self.right_score = game.banks
        self.left_turn, self.right_turn = game.on_turn
        running = [i for i in (0, 1) if game.on_turn[i]]
        self.big = game.delays[running[0]] if running else ""
        self.caption = ptr._("delay") if running else ""
        self.urgent = bool(game.flagged)
        match = getattr(getattr(game.table, "cm", None), "match", None)
        banner, line = (
            match_words(match, ptr._) if match is not None else (game.banner, game.match_line)
        )
        self.banner = banner or (ptr._("TIME OUT") if game.flagged else "")
        self.status = line

    def _bhukhar(self, game: Any) -> None:
        self.status = ""
        self.left_name = self.right_name = ""
        self.left_score = self.right_score = ""
        self.left_turn = self.right_turn = False
        self.big = game.clock_face
        self.caption = ptr._("Round {n}", n=game.round_no) if game.round_no else ""
        self.urgent = bool(game.time_called)
        self.banner = ptr._("TIME") if game.time_called else ""


load_kv(__file__)
