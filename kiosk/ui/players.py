"""Player display mode: the timer and the score in large digits, readable from 2 m.

The screen shows the table the umpire is running (carrom, backgammon or Bhukhar) from
the same views as the umpire's screens; the umpire's small corner button goes back.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.ui.carrom import timer_text
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

    def show_game(self, game: Any) -> None:
        """Follow one game screen (the umpire's); `game` None: nothing to show."""
        self._game = game
        self.back_to = game.name if game is not None else "home"

    def on_pre_enter(self, *_: object) -> None:
        if getattr(self, "_game", None) is None:
            self.big, self.caption, self.banner = "", "No table running", ""

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
        self.caption = game.timer_kind
        self.urgent = bool(game.timer_low)
        self.banner = game.banner if game.banner_kind in ("sides", "interval", "over") else ""

    def _backgammon(self, game: Any) -> None:
        self.left_name, self.right_name = game.names
        self.left_score, self.right_score = game.banks
        self.left_turn, self.right_turn = game.on_turn
        running = [i for i in (0, 1) if game.on_turn[i]]
        self.big = game.delays[running[0]] if running else ""
        self.caption = "delay" if running else ""
        self.urgent = bool(game.flagged)
        self.banner = game.banner or ("TIME OUT" if game.flagged else "")

    def _bhukhar(self, game: Any) -> None:
        self.left_name = self.right_name = ""
        self.left_score = self.right_score = ""
        self.left_turn = self.right_turn = False
        self.big = game.clock_face
        self.caption = f"Round {game.round_no}" if game.round_no else ""
        self.urgent = bool(game.time_called)
        self.banner = "TIME" if game.time_called else ""


load_kv(__file__)
