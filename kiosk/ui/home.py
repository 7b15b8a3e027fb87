"""The home screen: choose the table's game, resume any unfinished table, or open settings.

Every unfinished table (carrom, backgammon, Bhukhar: kiosk/tables/unfinished.py) has a row
with its players, score and start, a Resume button, and a Close button for the director
(asked again: a closed match can no longer be resumed; the journal keeps its record).
Before a new game is set up while a table is unfinished, home says what becomes of it.
"""

from __future__ import annotations

import time
from typing import Any

from kivy.app import App
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.access.authority import Role, needs
from kiosk.kinds import KINDS
from kiosk.rules.carrom.core import side_names
from kiosk.tables.unfinished import Unfinished
from kiosk.ui.carrom_rulings import capital
from kiosk.ui.i18n import tr
from kiosk.ui.kvload import load_kv
from kiosk.ui.words import said_words

#: The rows home has room for: one per game.
ROWS = 3


def _players(table: Unfinished) -> str:
    names = table.players
    if table.kind == "bhukhar":
        return ", ".join(names)
    return " v ".join(side_names(names) if len(names) == 4 else names)


def details(table: Unfinished) -> str:
    """Players, score and start of an unfinished table, in the console's language."""
    started = time.strftime("%H:%M", time.localtime(table.started))
    players = _players(table)
    if table.problem:
        problem = said_words(table.problem, tr._)
        return tr._("{players} · cannot be read: {problem}", players=players, problem=problem)
    if table.kind == "carrom":
        return tr._(
            "{players} · games {games} · points {points} · started {time}",
            players=players,
            games="-".join(map(str, table.score)),
            points="-".join(map(str, table.points)),
            time=started,
        )
    if table.kind == "backgammon" and table.won_on_time:
        return tr._(
            "{players} · {name} wins on time (4.3 (iii)); the director may still overrule · "
            "started {time}",
            players=players,
            name=table.won_on_time,
            time=started,
        )
    if table.kind == "backgammon":
        return tr._(
            "{players} · {score} of {length} points · started {time}",
            players=players,
            score="-".join(map(str, table.score)),
            length=table.length or "?",
            time=started,
        )
    return tr._("{players} · started {time}", players=players, time=started)


def _heading(table: Unfinished) -> str:
    if table.won_on_time:  # decided, open only for the director's overrule (4.3 (iii))
        return tr._("Back to the backgammon clock: decided on time")
    return tr._(KINDS[table.kind].words.resume)


def settings_words() -> str:
    """The Settings button, naming the PIN that opens settings."""
    if needs("settings") is Role.DIRECTOR:
        return tr._("Settings (director's PIN)")
    return tr._("Settings (umpire PIN)")


class HomeScreen(Screen):
    """The four game buttons and the unfinished tables. `resume_text` is the first row's
    button (empty when nothing is unfinished); `rows` holds, per table, [kind, button text,
    closable]."""

    resume_text = StringProperty("")
    #: Why the unfinished match cannot be resumed (a damaged record names its line).
    problem = StringProperty("")
    rows = ListProperty([])
    #: Asked before a new game: what becomes of the unfinished table ("" : not asking).
    ask_text = StringProperty("")
    ask_game = StringProperty("")
    #: The row the director is closing (-1: none) and the question.
    closing = NumericProperty(-1)
    close_text = StringProperty("")

    #: The Settings button names the PIN it asks for (kiosk/access/authority.py: the director's).
    settings_text = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        self.tables: list[Unfinished] = []
        super().__init__(**kw)

    def show_tables(self, tables: list[Unfinished]) -> None:
        self.tables = tables[:ROWS]
        self.rows = [
            [t.kind, _heading(t) + "\n" + details(t), t.match_id is not None] for t in self.tables
        ]
        self.resume_text = self.rows[0][1] if self.rows else ""
        self.problem = ""
        self.settings_text = settings_words()

    def _what(self, table: Unfinished) -> str:
        return tr._(KINDS[table.kind].words.what, players=_players(table))

    # -- a new game ---------------------------------------------------------------------
    def choose(self, game: str) -> None:
        """A game button: straight to its setup, or first say what becomes of each unfinished
        table (one of the same game is closed by the new match; another stays here, and a
        backgammon clock that runs goes on running: kiosk/tables/backgammon_table.py)."""
        kind = "carrom" if game.startswith("carrom") else game
        if not self.tables:
            App.get_running_app().choose_game(game)
            return
        lines = []
        for table in self.tables:
            what = self._what(table)
            if table.kind == kind:
                line = tr._(
                    "{what} is unfinished. A new one closes it: it can no longer be resumed.",
                    what=what,
                )
            elif self._running(table):
                line = tr._(
                    "{what} is running: its time goes on while another game is played. "
                    "Tap Back and pause it if the players stopped.",
                    what=what,
                )
            else:
                line = tr._("{what} is unfinished. It stays here, to resume later.", what=what)
            lines.append(capital(line))
        self.ask_text = "\n".join(lines)
        self.ask_game = game

    @staticmethod
    def _running(table: Unfinished) -> bool:
        """`table` is the backgammon clock in play, a side running (not paused)."""
        in_play = App.get_running_app().services.tables.in_play
        if in_play is None or in_play.match_id != table.match_id:
            return False
        return KINDS[in_play.kind].clock_running(in_play)

    def go_on(self) -> None:
        game, self.ask_game = self.ask_game, ""
        if game:
            App.get_running_app().choose_game(game)

    def locked(self) -> None:
        """The console locked (idle, the player display): the questions close; a close
        asked by the director is asked again, with the PIN, next time."""
        self.ask_game = ""
        self.closing = -1

    # -- closing a table ------------------------------------------------------------------
    def ask_close(self, row: int) -> None:
        if row >= len(self.tables) or self.tables[row].match_id is None:
            return
        self.close_text = tr._(
            "Close {what}? It can no longer be resumed; the journal keeps its record.",
            what=self._what(self.tables[row]),
        )
        self.closing = row

    def close_confirmed(self) -> None:
        row, self.closing = int(self.closing), -1
        if 0 <= row < len(self.tables):
            match_id = self.tables[row].match_id
            if match_id is not None:
                App.get_running_app().close_table(match_id)


load_kv(__file__)
