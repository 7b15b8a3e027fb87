"""The Bhukhar session's setup: how many teams, how long a round, and the names (layout in
bhukhar_setup.kv). Names are typed on the on-screen keyboard, in any of the four scripts;
a name left blank keeps its id ("A", "A1")."""

from __future__ import annotations

from typing import Any

from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.rules.bhukhar.record import PLAYERS_PER_TEAM, SessionStart, Team
from kiosk.ui.kvload import load_kv

#: The teams' ids, in the order a session takes them (rule 2: teams of three).
TEAM_IDS = "ABCDEF"


class BhukharSetupScreen(Screen):
    """How many teams (three players each, rule 2), the round's length (rule 10), and each
    team's name and players' names (one team's at a time: tap its chip)."""

    teams = NumericProperty(2)
    round_minutes = NumericProperty(30)
    message = StringProperty("")
    #: The team whose names the fields show.
    editing = NumericProperty(0)
    team_names = ListProperty([""] * len(TEAM_IDS))
    players = ListProperty([[""] * PLAYERS_PER_TEAM for _ in TEAM_IDS])
    #: What each team's chip says: its name, or its id while it has none.
    labels = ListProperty(list(TEAM_IDS))
    #: The ids, for the .kv's hints ("A1").
    ids_of_teams = TEAM_IDS

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(team_names=self._label)

    def _label(self, *_: object) -> None:
        self.labels = [n or tid for tid, n in zip(TEAM_IDS, self.team_names, strict=True)]

    def step_teams(self, delta: int) -> None:
        self.teams = max(2, min(len(TEAM_IDS), int(self.teams) + delta))
        self.editing = min(int(self.editing), int(self.teams) - 1)

    def step_minutes(self, delta: int) -> None:
        self.round_minutes = max(30, min(35, int(self.round_minutes) + delta))

    def edit_team(self, team: int) -> None:
        if 0 <= team < int(self.teams):
            self.editing = team

    def set_team_name(self, text: str) -> None:
        names = list(self.team_names)
        names[int(self.editing)] = text.strip()
        self.team_names = names

    def set_player(self, seat: int, text: str) -> None:
        players = [list(p) for p in self.players]
        players[int(self.editing)][seat] = text.strip()
        self.players = players

    def session_start(self) -> SessionStart:
        """The session's first line: the teams with their names (blank: the ids)."""
        teams = []
        for n, tid in enumerate(TEAM_IDS[: int(self.teams)]):
            names = tuple(p or f"{tid}{i}" for i, p in enumerate(self.players[n], start=1))
            teams.append(Team(tid, names, self.team_names[n] or None))
        return SessionStart(tuple(teams), float(self.round_minutes), (5.0, 1.0))


load_kv(__file__)
