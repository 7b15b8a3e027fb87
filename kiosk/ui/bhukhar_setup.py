"""The Bhukhar session's setup: how many teams and how long a round (its layout is in
bhukhar.kv, beside the table's screen)."""

from __future__ import annotations

from kivy.properties import NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

#: The teams' names, in the order a session takes them (rule 2: teams of three).
TEAM_IDS = "ABCDEF"


class BhukharSetupScreen(Screen):
    """How many teams (three players each, rule 2) and the round's length (rule 10)."""

    teams = NumericProperty(2)
    round_minutes = NumericProperty(30)
    message = StringProperty("")

    def step_teams(self, delta: int) -> None:
        self.teams = max(2, min(len(TEAM_IDS), int(self.teams) + delta))

    def step_minutes(self, delta: int) -> None:
        self.round_minutes = max(30, min(35, int(self.round_minutes) + delta))
