"""The backgammon clock's setup screen: players, length, score, time controls.

Every match length from 1 to 99 (2.2 (ii) has matches "of 25 points and above"), the score
when the clock is introduced (3.5 (vi)), whether the Crawford game was already played
(4.4 (iv)) and the breaks and penalty points already given (2.2 (ii), 2.2 (iv), 2.3), the
time a point and the delay with the doubles preset and a second leg (3.5 (v)), and a
best-of-three series (2.2 (ii)). The app's Start passes `clock_options()` to
BackgammonTable.start_match; what the rules refuse there is worded on this screen.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from kiosk.config import BackgammonSettings
from kiosk.rules.backgammon.match import breaks_due
from kiosk.ui.kvload import load_kv
from kiosk.ui.setup_names import default_name


def _settings() -> BackgammonSettings:
    app = App.get_running_app()
    services = getattr(app, "services", None)
    settings = getattr(services, "settings", None)
    return getattr(settings, "backgammon", None) or BackgammonSettings()


#: The lengths the setup steps through: any the match takes, to two digits (the player
#: display's). The rules' MATCH_LENGTHS are the lengths 2.2 (ii)'s table names, 1 to 25.
SHORTEST, LONGEST = 1, 99


class BackgammonSetupScreen(Screen):
    """Players, match length (every length 1 to 99, 2.2 (ii)), the score when the clock is
    introduced (3.5 (vi)) and whether the Crawford game was already played (4.4 (iv)), the
    time a point and the delay with the doubles preset, a second leg (3.5 (v)), and a
    best-of-three series (2.2 (ii)). -/+ step by two (the odd lengths most matches use),
    -1/+1 by one."""

    #: As typed; a blank one plays under its hint (`players`).
    names = ListProperty(["", ""])
    match_length = NumericProperty(7)
    score = ListProperty([0, 0])
    message = StringProperty("")
    post_crawford = BooleanProperty(False)
    minutes_per_point = NumericProperty(2.0)
    delay = NumericProperty(12.0)
    second_leg_min = NumericProperty(0)  # minutes, 0: one leg
    best_of_three = BooleanProperty(False)
    #: Whether a player is one point away, so the Crawford game may already be over.
    crawford_possible = BooleanProperty(False)
    #: A clock introduced mid-match (2.2 (ii), 2.2 (iv), 2.3): breaks already taken and
    #: penalty points already given (in the score), per player; their panel.
    breaks_taken = ListProperty([0, 0])
    penalty_points = ListProperty([0, 0])
    so_far_open = BooleanProperty(False)
    #: The breaks each player has in this match (2.2 (ii)): the most that can be taken.
    breaks_allowed = NumericProperty(1)

    def on_pre_enter(self, *_: object) -> None:
        self.singles_preset()
        self.second_leg_min = round(_settings().second_leg_s / 60)

    def singles_preset(self) -> None:
        """The tournament's settings (3.5 (v): 2 minutes a point, 12 s, unless decided)."""
        settings = _settings()
        self.minutes_per_point, self.delay = settings.minutes_per_point, settings.delay_s

    def doubles_preset(self) -> None:
        """Doubles and other non-standard matches: the director's time (3.5 (v))."""
        settings = _settings()
        self.minutes_per_point = settings.doubles_minutes_per_point
        self.delay = settings.doubles_delay_s

    def step_minutes(self, delta: float) -> None:
        self.minutes_per_point = max(0.5, min(10.0, float(self.minutes_per_point) + delta))

    def step_delay(self, delta: float) -> None:
        self.delay = max(0.0, min(60.0, float(self.delay) + delta))

    def step_leg(self, delta: int) -> None:
        self.second_leg_min = max(0, min(60, int(self.second_leg_min) + delta))

    def clock_options(self) -> dict[str, Any]:
        """The keyword arguments of BackgammonTable.start_match this screen sets."""
        return {
            "minutes_per_point": float(self.minutes_per_point),
            "delay": float(self.delay),
            "post_crawford": bool(self.post_crawford and self.crawford_possible),
            "second_leg": float(self.second_leg_min) * 60.0,
            "best_of_three": bool(self.best_of_three),
            "breaks_taken": (int(self.breaks_taken[0]), int(self.breaks_taken[1])),
            "penalty_points": (int(self.penalty_points[0]), int(self.penalty_points[1])),
        }

    def players(self) -> tuple[str, str]:
        """The players' names: as typed, or the hint a blank field shows."""
        a, b = (name or default_name(seat) for seat, name in enumerate(self.names))
        return a, b

    def set_name(self, seat: int, text: str) -> None:
        names = list(self.names)
        names[seat] = text.strip()
        self.names = names

    def step_length(self, delta: int) -> None:
        """-/+ move by two over odd lengths (7 -> 5 -> 3), -1/+1 by one: 1 to 99 in all."""
        length = int(self.match_length)
        if abs(delta) == 1 and length % 2 == 0:
            length -= 1 if delta < 0 else -1  # from an even length, to the odd one next to it
            delta = 0
        self._set_length(length + delta * 2)

    def step_length_by_one(self, delta: int) -> None:
        self._set_length(int(self.match_length) + delta)

    def _set_length(self, length: int) -> None:
        length = max(SHORTEST, min(LONGEST, length))
        self.match_length = length
        self.score = [min(s, length - 1) for s in self.score]
        self._crawford_check()

    def step_score(self, seat: int, delta: int) -> None:
        score = list(self.score)
        score[seat] = max(0, min(int(self.match_length) - 1, score[seat] + delta))
        self.score = score
        self._crawford_check()

    def on_best_of_three(self, *_: object) -> None:
        self._so_far_check()

    def step_breaks_taken(self, seat: int, delta: int) -> None:
        """Breaks a player took before the clock: 0 to the match's allowance (2.2 (ii))."""
        taken = list(self.breaks_taken)
        taken[seat] = max(0, min(int(self.breaks_allowed), int(taken[seat]) + delta))
        self.breaks_taken = taken

    def step_penalty_points(self, seat: int, delta: int) -> None:
        """Penalty points given before the clock: they are in the player's score (2.2 (iv)),
        so never more than it; more than half the length is refused at Start."""
        points = list(self.penalty_points)
        points[seat] = max(0, min(int(self.score[seat]), int(points[seat]) + delta))
        self.penalty_points = points

    def _crawford_check(self) -> None:
        """The switch is offered only when a player is one point away (4.4 (iv))."""
        length = int(self.match_length)
        self.crawford_possible = any(length - int(s) == 1 for s in self.score)
        if not self.crawford_possible:
            self.post_crawford = False
        self._so_far_check()

    def _so_far_check(self) -> None:
        """What was given so far stays within what the length and the score allow."""
        self.breaks_allowed = breaks_due(int(self.match_length), bool(self.best_of_three))
        self.breaks_taken = [min(int(b), int(self.breaks_allowed)) for b in self.breaks_taken]
        self.penalty_points = [
            min(int(p), int(s)) for p, s in zip(self.penalty_points, self.score, strict=True)
        ]


load_kv(__file__)
