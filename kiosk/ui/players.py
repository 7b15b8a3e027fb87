"""Player display mode: the timer and the score in large digits, readable from 2 m.

The screen shows the table the umpire is running (carrom, backgammon or Bhukhar) from
the same views as the umpire's screens; the umpire's small corner button goes back.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.ui.backgammon import match_words
from kiosk.ui.carrom import TIMER_NAMES, timer_text
from kiosk.ui.i18n import ptr
from kiosk.ui.kvload import load_kv


class PlayersScreen(Screen):
    """Big digits: `big` (the timer), each side's name and score, and one banner line."""

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

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        ptr.on_switch(self._reword)

    def _reword(self) -> None:
        self.on_pre_enter()
        self.follow(0.0)

    def show_game(self, game: Any) -> None:
        """Follow one game screen (the umpire's); `game` None: nothing to show."""
        self._game = game
        self.back_to = game.name if game is not None else "home"

    def on_pre_enter(self, *_: object) -> None:
        if getattr(self, "_game", None) is None:
            self.big, self.caption, self.banner = "", ptr._("No table running"), ""

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
        self.left_name, self.right_name = game.names
        self.left_score, self.right_score = (str(p) for p in game.points)
        self.left_turn, self.right_turn = game.at_turn
        timer = view.timer
        self.big = timer_text(timer.remaining) if timer is not None else ""
        self.caption = ptr._(TIMER_NAMES.get(timer.kind, timer.kind)) if timer is not None else ""
        self.urgent = bool(game.timer_low)
        kind, state = game.banner_kind, view.state
        self.banner = ""
        if kind == "sides":  # the console's banner, in the players' language (laws 58-61)
            law = state.change_sides_law or "58"
            self.banner = ptr._("Change sides (law {law}): 2 minutes (law 61)", law=law)
        elif kind == "interval":
            self.banner = ptr._("Interval before the third game (law 138)")
        if game.banner_kind == "over" and view.state.winner is not None:
            self.banner = ptr._("{name} wins the match", name=view.state.winner)

    def _backgammon(self, game: Any) -> None:
        self.left_name, self.right_name = game.names
        self.left_score, self.right_score = game.banks
        self.left_turn, self.right_turn = game.on_turn
        running = [i for i in (0, 1) if game.on_turn[i]]
        self.big = game.delays[running[0]] if running else ""
        self.caption = ptr._("delay") if running else ""
        self.urgent = bool(game.flagged)
        match = getattr(getattr(game.table, "cm", None), "match", None)
        banner = match_words(match, ptr._)[0] if match is not None else game.banner
        self.banner = banner or (ptr._("TIME OUT") if game.flagged else "")

    def _bhukhar(self, game: Any) -> None:
        self.left_name = self.right_name = ""
        self.left_score = self.right_score = ""
        self.left_turn = self.right_turn = False
        self.big = game.clock_face
        self.caption = ptr._("Round {n}", n=game.round_no) if game.round_no else ""
        self.urgent = bool(game.time_called)
        self.banner = ptr._("TIME") if game.time_called else ""


load_kv(__file__)
